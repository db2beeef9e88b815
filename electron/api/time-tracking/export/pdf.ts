/**
 * A time report as a printable PDF (pdfkit, A4 landscape, built-in Helvetica).
 *
 * Page 1 opens with the title, the period, the time zone, the filters, the grouping, who
 * exported it and the currency. Then one table runs through the report: the column header,
 * and in it each group as a band (heading, its lines or subgroups, a "Total <label>" row with
 * its hours and amount) and a "Grand total" row with its billable and non-billable parts at
 * the end. Lines show the rate, the amount, whether they are billable and whether the entry
 * overlaps another of its user ("yes" under Overlap), and their payroll split (docs/API.md
 * "Surcharge rules"), from the segments the report computed: a line of one segment shows its
 * hour code and percentage under "Hour code" and "%"; a line split into several leaves those
 * two empty and is followed by a smaller grey row per segment, "of which" (with the segment's
 * date when it is not the line's), its hours under Duration, its code and percentage. These
 * rows add nothing to any total, and a line is never parted from them by a page break.
 * Segments have no amount (the line's amount is its activity's rate; the surcharge is paid on
 * the wage). The card column shows the card's display
 * name, which begins with its collection, so the collection has no column of its own here.
 * Every page starts with the column header row; a page that starts inside a group says
 * which one ("User: Alice › Day: 2026-11-02 (continued)"). A heading is never left alone at
 * the foot of a page. Columns whose value a grouping already shows (User when grouped by
 * users, Date by days, …) are left out, and their room goes to the others. Every cell is one
 * line: a text too wide for its column is cut with an ellipsis. The footer shows the title
 * and period and "Page N of M".
 *
 * Helvetica draws Latin-1 only; other characters are transliterated or drawn as `?` (see
 * pdf-text.ts). The CSV and XLSX files keep every character.
 *
 * Page numbers without holding the document: every row has a fixed height, so the layout is
 * pure arithmetic. It runs twice over the same rows, first only counting pages (no drawing,
 * a few ms for 100,000 lines), then drawing them with the total known. So pages are flushed
 * as they are finished instead of all being buffered (`bufferPages`) until the end, and the
 * file streams out while it is being made.
 */
import type { Readable } from 'node:stream';
import { pdfDocument } from '../../file-libraries.js';
import type { HourSegment, ReportGroup, ReportGrouping, ReportLine, TimeReport } from '../../../../shared/time-report.js';
import { formatAmount, formatMinutes } from '../../../../shared/time-report.js';
import { PdfFace } from './pdf-text.js';
import { filtersText, generatedAt, groupingText, periodDays, type PeriodDays } from './report-caption.js';
import { billableLabel, grandTotalLabel, headingChain, reportRows, subtotalLabel, yesNo, type ReportRow } from './report-rows.js';
import { ReportStream } from './report-stream.js';
import { formatLocalDate, formatLocalDateTime, formatLocalTime, ZoneClock } from './zone-clock.js';

// A4 landscape in points.
const pageWidth = 841.89;
const pageHeight = 595.28;
const margin = 36;
const tableWidth = pageWidth - 2 * margin;
const footerTop = pageHeight - margin + 8;
const contentBottom = pageHeight - margin;
const cellPadding = 3;

const size = { title: 16, info: 9, header: 8, line: 8, segment: 7, heading: 9, total: 8, grand: 9, caption: 8, footer: 7.5 };
const height = {
  title: 24,
  info: 12,
  infoGap: 10,
  header: 16,
  line: 12,
  segment: 10,
  heading: [18, 15] as const,
  caption: 14,
  total: 14,
  grand: 20,
};
const grey = [0.4, 0.4, 0.4] as const;
const bandFill = '#eeeeee';
const ruleColor = '#999999';

const groupingNoun: Record<ReportGrouping, string> = {
  days: 'Day',
  weeks: 'Week',
  activities: 'Activity',
  collections: 'Collection',
  boards: 'Board',
  statuses: 'Status',
  users: 'User',
  billable: 'Billing',
};

interface ColumnSpec {
  name: string;
  /** Fixed width in pt, or a share of the room the fixed columns leave. */
  width?: number;
  share?: number;
  align?: 'right';
  /** Left out when the report is grouped by this. */
  shownBy?: ReportGrouping;
  /** A value that repeats a lot (names): worth remembering once fitted. */
  repeats?: boolean;
  /** The header text when it is not the name (with the report's currency). */
  header?(report: TimeReport): string;
  value(line: ReportLine, times: LineTimes): string;
}

interface LineTimes {
  start: string;
  end: string;
}

const columnSpecs: ColumnSpec[] = [
  { name: 'Date', width: 54, shownBy: 'days', value: (l) => l.date },
  { name: 'User', share: 0.9, shownBy: 'users', repeats: true, value: (l) => l.user },
  { name: 'Board', share: 0.6, shownBy: 'boards', repeats: true, value: (l) => l.board },
  { name: 'Card', share: 1.4, repeats: true, value: (l) => l.card },
  { name: 'Activity', share: 0.7, shownBy: 'activities', repeats: true, value: (l) => l.activity },
  { name: 'Status', width: 44, shownBy: 'statuses', repeats: true, value: (l) => l.status },
  { name: 'Start', width: 32, value: (_, t) => t.start },
  { name: 'End', width: 32, value: (_, t) => t.end },
  { name: 'Duration', width: 40, align: 'right', value: () => '' },
  // A line of one segment shows it here; a split line shows its segments on rows of their own.
  { name: 'Hour code', width: 48, repeats: true, value: (l) => (l.segments.length === 1 ? (l.segments[0]!.hour_code ?? '') : '') },
  { name: '%', width: 30, align: 'right', value: (l) => (l.segments.length === 1 ? String(l.segments[0]!.percentage) : '') },
  { name: 'Rate', width: 34, align: 'right', value: (l) => formatAmount(l.hourly_rate) },
  { name: 'Amount', width: 62, align: 'right', header: (r) => `Amount ${r.currency}`, value: () => '' },
  { name: 'Billable', width: 36, shownBy: 'billable', repeats: true, value: (l) => yesNo(l.billable) },
  { name: 'Overlap', width: 36, repeats: true, value: (l) => (l.overlaps ? 'yes' : '') },
  { name: 'Note', share: 1.9, value: (l) => l.note },
];

interface Column {
  spec: ColumnSpec;
  x: number;
  width: number;
  /** Fitted texts of a repeating column, by value. */
  fitted: Map<string, string> | null;
}

function layoutColumns(report: TimeReport): Column[] {
  const specs = columnSpecs.filter((spec) => !spec.shownBy || !report.group_by.includes(spec.shownBy));
  const fixed = specs.reduce((sum, spec) => sum + (spec.width ?? 0), 0);
  const shares = specs.reduce((sum, spec) => sum + (spec.share ?? 0), 0);
  let x = margin;
  return specs.map((spec) => {
    const width = spec.width ?? ((tableWidth - fixed) * (spec.share ?? 0)) / shares;
    const column = { spec, x, width, fitted: spec.repeats ? new Map<string, string>() : null };
    x += width;
    return column;
  });
}

export function writePdf(report: TimeReport): Readable {
  const clock = new ZoneClock(report.period.timezone);
  const output = new ReportStream();
  render(report, clock, output).catch((error: unknown) => output.fail(error));
  return output;
}

async function render(report: TimeReport, clock: ZoneClock, output: ReportStream): Promise<void> {
  const period = periodDays(report, clock);
  const counting = new TableLayout(report, clock, period, null, 0);
  for (const row of reportRows(report)) counting.place(row);

  const doc = new (pdfDocument())({
    size: 'A4',
    layout: 'landscape',
    margin,
    autoFirstPage: false,
    bufferPages: false,
    compress: true,
    info: { Title: report.title, Creator: 'Planner', CreationDate: generatedAt(report) },
  });
  doc.on('data', (chunk: Uint8Array) => output.send(chunk));
  doc.on('end', () => output.finish());
  doc.on('error', (error: unknown) => output.fail(error));

  const drawing = new TableLayout(report, clock, period, doc, counting.page);
  let page = 0;
  for (const row of reportRows(report)) {
    drawing.place(row);
    if (drawing.page !== page) {
      page = drawing.page;
      if (!(await output.ready())) return;
    }
  }
  if (drawing.page !== counting.page) throw new Error(`PDF layout: counted ${counting.page} pages but drew ${drawing.page}`);
  doc.end();
}

/**
 * Places rows on pages. Without a document it only counts pages; with one it also draws.
 * Both runs take the same decisions, because only `draw…` methods look at `doc`.
 */
class TableLayout {
  page = 0;
  #y = 0;
  readonly #open: ReportGroup[] = [];
  readonly #columns: Column[];
  readonly #duration: Column;
  readonly #rate: Column;
  readonly #amount: Column;
  readonly #end: Column;
  readonly #hourCode: Column;
  readonly #percentage: Column;
  readonly #faces: { regular: PdfFace; bold: PdfFace } | null;

  constructor(
    private readonly report: TimeReport,
    private readonly clock: ZoneClock,
    private readonly period: PeriodDays,
    private readonly doc: PDFKit.PDFDocument | null,
    private readonly pages: number,
  ) {
    this.#columns = layoutColumns(report);
    this.#duration = this.#columns.find((c) => c.spec.name === 'Duration')!;
    this.#rate = this.#columns.find((c) => c.spec.name === 'Rate')!;
    this.#amount = this.#columns.find((c) => c.spec.name === 'Amount')!;
    this.#end = this.#columns.find((c) => c.spec.name === 'End')!;
    this.#hourCode = this.#columns.find((c) => c.spec.name === 'Hour code')!;
    this.#percentage = this.#columns.find((c) => c.spec.name === '%')!;
    this.#faces = doc ? { regular: new PdfFace(doc, 'Helvetica'), bold: new PdfFace(doc, 'Helvetica-Bold') } : null;
  }

  place(row: ReportRow): void {
    if (this.page === 0) this.#newPage();
    switch (row.kind) {
      case 'heading': {
        const chain = headingChain(row.group);
        let needed = height.line;
        for (let d = row.depth; d < row.depth + chain; d++) needed += headingHeight(d);
        this.#need(needed);
        this.#drawHeading(row.group, row.depth);
        this.#y += headingHeight(row.depth);
        this.#open.push(row.group);
        break;
      }
      case 'line': {
        const split = row.line.segments.length > 1 ? row.line.segments : [];
        this.#need(height.line + split.length * height.segment);
        this.#drawLine(row.line);
        this.#y += height.line;
        for (const segment of split) {
          this.#drawSegment(row.line, segment);
          this.#y += height.segment;
        }
        break;
      }
      case 'subtotal':
        this.#need(height.total);
        this.#drawTotal(subtotalLabel(row.group), row.group.minutes, row.group.amount, row.depth, false);
        this.#y += height.total;
        this.#open.pop();
        break;
      case 'grand-total':
        this.#need(height.grand);
        this.#drawTotal(grandTotalLabel, row.minutes, row.amount, 0, true);
        this.#y += height.grand;
        break;
      case 'billable-total':
        this.#need(height.total);
        this.#drawTotal(billableLabel(row.billable), row.minutes, row.amount, 0, false);
        this.#y += height.total;
        break;
    }
  }

  #need(rowHeight: number): void {
    if (this.#y + rowHeight > contentBottom) this.#newPage();
  }

  #newPage(): void {
    this.page++;
    this.doc?.addPage();
    this.#y = margin;
    if (this.page === 1) {
      this.#drawReportHeading();
      this.#y += height.title + 4 * height.info + height.infoGap;
    }
    this.#drawFooter();
    this.#drawColumnHeader();
    this.#y += height.header;
    if (this.#open.length) {
      this.#drawCaption(this.#open.map((g) => `${groupingNoun[g.grouping] ?? g.grouping}: ${g.label}`).join(' › ') + ' (continued)');
      this.#y += height.caption;
    }
  }

  // Drawing: everything below returns at once when only counting.

  #drawReportHeading(): void {
    if (!this.#faces) return;
    const { regular, bold } = this.#faces;
    const y = this.#y;
    bold.drawLine(y, size.title, [[margin, bold.fit(this.report.title, size.title, tableWidth)]]);
    const info = [
      `Period: ${this.period.text}    Time zone: ${this.report.period.timezone}`,
      `Filters: ${filtersText(this.report)}`,
      `Grouped by: ${groupingText(this.report)}    Generated: ${this.#generated()}`,
      `Exported by: ${this.report.exported_by}    Currency: ${this.report.currency}`,
    ];
    info.forEach((text, i) =>
      regular.drawLine(y + height.title + i * height.info, size.info, [[margin, regular.fit(text, size.info, tableWidth)]]),
    );
  }

  #generated(): string {
    const at = generatedAt(this.report).getTime();
    return formatLocalDateTime(at + this.clock.offsetAt(at));
  }

  #drawFooter(): void {
    if (!this.#faces) return;
    const { regular } = this.#faces;
    const pageText = `Page ${this.page} of ${this.pages}`;
    const pageWidthPt = regular.width(pageText, size.footer);
    const left = regular.fit(
      `${this.report.title} · ${this.period.text} · ${this.report.period.timezone}`,
      size.footer,
      tableWidth - pageWidthPt - 24,
    );
    regular.drawLine(
      footerTop,
      size.footer,
      [
        [margin, left],
        [margin + tableWidth - pageWidthPt, pageText],
      ],
      grey,
    );
  }

  #drawColumnHeader(): void {
    if (!this.doc || !this.#faces) return;
    const { bold } = this.#faces;
    const y = this.#y;
    this.doc
      .save()
      .rect(margin, y, tableWidth, height.header - 2)
      .fill(bandFill);
    this.doc
      .moveTo(margin, y + height.header - 2)
      .lineTo(margin + tableWidth, y + height.header - 2)
      .lineWidth(0.75)
      .stroke('#000000')
      .restore();
    const top = y + (height.header - 2 - size.header) / 2;
    const cells = this.#columns.map((c): [number, string] => {
      const text = c.spec.header?.(this.report) ?? c.spec.name;
      if (c.spec.align === 'right') return this.#right(bold, c, text, size.header);
      return [c.x + cellPadding, bold.fit(text, size.header, c.width - 2 * cellPadding)];
    });
    bold.drawLine(top, size.header, cells);
  }

  #drawCaption(text: string): void {
    if (!this.#faces) return;
    const { regular } = this.#faces;
    regular.drawLine(
      this.#y + 3,
      size.caption,
      [[margin + cellPadding, regular.fit(text, size.caption, tableWidth - 2 * cellPadding)]],
      grey,
    );
  }

  #drawHeading(group: ReportGroup, depth: number): void {
    if (!this.doc || !this.#faces) return;
    const { bold } = this.#faces;
    const rowHeight = headingHeight(depth);
    const fontSize = depth === 0 ? size.heading + 1 : size.heading;
    if (depth === 0)
      this.doc
        .save()
        .rect(margin, this.#y + 2, tableWidth, rowHeight - 3)
        .fill(bandFill)
        .restore();
    const indent = margin + cellPadding + depth * 10;
    const text = `${groupingNoun[group.grouping] ?? group.grouping}: ${group.label}`;
    bold.drawLine(this.#y + (rowHeight - fontSize) / 2 + 1, fontSize, [
      [indent, bold.fit(text, fontSize, margin + tableWidth - indent - cellPadding)],
    ]);
  }

  #drawLine(line: ReportLine): void {
    if (!this.#faces) return;
    const { regular } = this.#faces;
    const times = this.#times(line);
    const cells = this.#columns.map((c) => {
      if (c === this.#duration) return this.#right(regular, c, formatMinutes(line.minutes, this.report.duration_format), size.line);
      if (c === this.#amount) return this.#right(regular, c, formatAmount(line.amount), size.line);
      if (c === this.#rate) return this.#right(regular, c, formatAmount(line.hourly_rate), size.line);
      if (c.spec.align === 'right') return this.#right(regular, c, c.spec.value(line, times), size.line);
      return this.#cell(regular, c, c.spec.value(line, times), size.line);
    });
    regular.drawLine(this.#y + (height.line - size.line) / 2, size.line, cells);
  }

  /** A segment of a split line: "of which", its hours, hour code and percentage, in grey. */
  #drawSegment(line: ReportLine, segment: HourSegment): void {
    if (!this.#faces) return;
    const { regular } = this.#faces;
    const label = segment.date === line.date ? 'of which' : `of which on ${segment.date}`;
    // Right-aligned against End's right edge, so it reads into the segment's hours.
    const room = this.#end.x + this.#end.width - margin - 2 * cellPadding;
    const text = regular.fit(label, size.segment, room);
    const cells: [number, string][] = [
      [this.#end.x + this.#end.width - cellPadding - regular.width(text, size.segment), text],
      this.#right(regular, this.#duration, formatMinutes(segment.minutes, this.report.duration_format), size.segment),
      [this.#hourCode.x + cellPadding, regular.fit(segment.hour_code ?? '', size.segment, this.#hourCode.width - 2 * cellPadding)],
      this.#right(regular, this.#percentage, String(segment.percentage), size.segment),
    ];
    regular.drawLine(this.#y + (height.segment - size.segment) / 2, size.segment, cells, grey);
  }

  #drawTotal(label: string, minutes: number, amount: number, depth: number, grand: boolean): void {
    if (!this.doc || !this.#faces) return;
    const { bold } = this.#faces;
    const rowHeight = grand ? height.grand : height.total;
    const fontSize = grand ? size.grand : size.total;
    const y = this.#y;
    this.doc
      .save()
      .lineWidth(grand ? 1 : 0.5)
      .moveTo(margin, y + 1)
      .lineTo(margin + tableWidth, y + 1)
      .stroke(grand ? '#000000' : ruleColor);
    if (grand)
      this.doc
        .moveTo(margin, y + rowHeight - 2)
        .lineTo(margin + tableWidth, y + rowHeight - 2)
        .moveTo(margin, y + rowHeight)
        .lineTo(margin + tableWidth, y + rowHeight)
        .stroke();
    this.doc.restore();
    const indent = margin + cellPadding + depth * 10;
    const labelWidth = this.#duration.x - indent - cellPadding;
    const hours = this.#right(bold, this.#duration, formatMinutes(minutes, this.report.duration_format), fontSize);
    const money = this.#right(bold, this.#amount, formatAmount(amount), fontSize);
    bold.drawLine(y + (rowHeight - fontSize) / 2, fontSize, [[indent, bold.fit(label, fontSize, labelWidth)], hours, money]);
  }

  /** A left-aligned cell of a line, fitted to its column (remembered for repeating values). */
  #cell(face: PdfFace, column: Column, value: string, fontSize: number): [number, string] {
    const room = column.width - 2 * cellPadding;
    let text = column.fitted?.get(value);
    if (text === undefined) {
      text = face.fit(value, fontSize, room);
      if (column.fitted) {
        if (column.fitted.size > 10_000) column.fitted.clear();
        column.fitted.set(value, text);
      }
    }
    return [column.x + cellPadding, text];
  }

  #right(face: PdfFace, column: Column, value: string, fontSize: number): [number, string] {
    const text = face.fit(value, fontSize, column.width - 2 * cellPadding);
    return [column.x + column.width - cellPadding - face.width(text, fontSize), text];
  }

  /** Start and end as HH:MM on the line's day; an end at the next midnight reads 24:00. */
  #times(line: ReportLine): LineTimes {
    const start = this.clock.local(line.start);
    const end = this.clock.local(line.end);
    const startText = formatLocalDate(start) === line.date ? formatLocalTime(start) : formatLocalDateTime(start);
    let endText = formatLocalTime(end);
    if (formatLocalDate(end) !== line.date) endText = endText === '00:00' && end > start ? '24:00' : formatLocalDateTime(end);
    return { start: startText, end: endText };
  }
}

function headingHeight(depth: number): number {
  return depth === 0 ? height.heading[0] : height.heading[1];
}
