/**
 * A time report as an Excel workbook (exceljs), one sheet "Report":
 *
 *   row 1  the title
 *   row 2  period, time zone and who exported it
 *   row 3  filters, grouping and currency
 *   row 4  the column header (bold, frozen, with an autoFilter), the same 20 columns as CSV
 *   row 5… one row per report line (and one more per further payroll segment of the line),
 *          a bold "Total <label>" row after each group, a bold "Grand total" row and its
 *          "Billable" and "Non-billable" parts at the end
 *
 * The payroll split (docs/API.md "Surcharge rules") is laid out as in the CSV, from the
 * segments the report computed (`ReportLine.segments`): Hour code (text), Percentage and
 * Segment minutes (numbers) after Note. A line's row carries its first segment; each further
 * segment is a row of its own with the segment's date and week, the line's User … Status,
 * and Start to Note empty, so a SUM over Minutes or Amount still gives the lines' totals and a
 * pivot of Segment minutes by Hour code and Percentage gives the hours for payroll. Segments
 * have no amount: a line's amount is its activity's rate, the surcharge is what the payroll
 * package pays on the wage, which the report does not know.
 *
 * Cells are typed: Date a date (`yyyy-mm-dd`), Start and End date-times on the report's
 * local clock (`yyyy-mm-dd hh:mm`; Excel has no time zones, so the cell holds the wall time
 * the PDF and CSV show), Duration a number (decimal hours `0.00`, or for `hh:mm` a fraction
 * of a day `[h]:mm`, so Excel can add it up), Minutes an integer. Duration holds the exact
 * value (1/3 hour, not 0.33), so sums in Excel agree with the Minutes column. Rate and Amount
 * are numbers in the report's currency format (`€#,##0.00`), Billable and Overlap yes/no text.
 *
 * Totals are values, not formulas: the file is a record of what the report computed, and
 * must show the same figures as the JSON, CSV and PDF however it is later filtered or edited.
 * Rows carry outline levels, so Excel's outline buttons collapse the report to its totals.
 *
 * Text cells are always strings, never formulas, so a note like `=SUM(A1)` is harmless here
 * and written as it is. Characters XML cannot carry are dropped (exceljs drops control
 * characters; lone surrogates and U+FFFE/U+FFFF are dropped here) and a text longer than
 * Excel's cell limit (32,767) is cut, because either would make Excel "repair" the file.
 *
 * The workbook is streamed (exceljs' WorkbookWriter, no shared strings): rows are written and
 * zipped as they are made, and the writer waits while zlib or the reader is behind.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { excelJs } from '../../file-libraries.js';
import type { HourSegment, ReportLine, TimeReport } from '../../../../shared/time-report.js';
import { filtersText, generatedAt, groupingText, periodDays } from './report-caption.js';
import { billableLabel, grandTotalLabel, reportRows, segmentColumns, subtotalLabel, tableColumns, yesNo } from './report-rows.js';
import { ReportStream } from './report-stream.js';
import { localDate, ZoneClock } from './zone-clock.js';
import { isoWeek } from '../../../../shared/zoned-time.js';

export const xlsxHeaderRow = 4;
const excelCellLimit = 32_767;
const rowsPerBreath = 64;
const maxSheetBacklog = 1 << 20;

/** The sheet's columns: the table's, then the payroll segment's (as the CSV's). */
export const sheetColumns = [...tableColumns, ...segmentColumns] as const;
type SheetColumn = (typeof sheetColumns)[number];

// Object.fromEntries loses the column-name keys the map above gives every column.
const col = Object.fromEntries(sheetColumns.map((name, i) => [name, i + 1])) as Record<SheetColumn, number>;

/** Text columns get a width from their longest value, within these bounds. */
const textColumns = ['User', 'Board', 'Collection', 'Card', 'Activity', 'Status', 'Note'] as const;
const maxTextWidth = { User: 30, Board: 30, Collection: 36, Card: 40, Activity: 30, Status: 14, Note: 60 };
const fixedWidths = {
  Date: 12,
  Week: 10,
  Start: 17,
  End: 17,
  Duration: 10,
  Minutes: 9,
  Billable: 9,
  Rate: 11,
  Amount: 13,
  Overlap: 9,
  'Hour code': 12,
  Percentage: 11,
  'Segment minutes': 16,
};

const currencySymbols: Record<string, string> = { EUR: '€', USD: '$', GBP: '£', JPY: '¥', CHF: 'CHF ' };

/**
 * Excel's number format for amounts in `currency`: its symbol before the number where it has
 * a common one (`"€"#,##0.00`), else the code after it (`#,##0.00 "SEK"`).
 */
export function currencyFormat(currency: string): string {
  const code = currency.replace(/[^A-Za-z]/g, '').toUpperCase() || 'EUR';
  const symbol = currencySymbols[code];
  return symbol ? `"${symbol}"#,##0.00` : `#,##0.00 "${code}"`;
}

const maybeUnsafeXml = /[\uD800-\uDFFF\uFFFE\uFFFF]/;
const unsafeXml = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as a cell can hold it (see the file head). */
export function cellText(text: string): string {
  const clean = maybeUnsafeXml.test(text) ? text.replace(unsafeXml, '') : text;
  return clean.length > excelCellLimit ? clean.slice(0, excelCellLimit - 1) + '…' : clean;
}

export function writeXlsx(report: TimeReport): Readable {
  const clock = new ZoneClock(report.period.timezone);
  const output = new ReportStream();
  fill(report, clock, output).catch((error: unknown) => output.fail(error));
  return output;
}

async function fill(report: TimeReport, clock: ZoneClock, output: ReportStream): Promise<void> {
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => output.send(chunk));
  sink.on('end', () => output.finish());

  const decimal = report.duration_format === 'decimal';
  const duration = (minutes: number) => (decimal ? minutes / 60 : minutes / 1440);
  const durationFormat = decimal ? '0.00' : '[h]:mm';
  const levels = outlineDepth(report);

  const workbook = new (excelJs().stream.xlsx.WorkbookWriter)({ stream: sink, useStyles: true, useSharedStrings: false });
  workbook.creator = 'Planner';
  workbook.created = generatedAt(report);
  const sheet = workbook.addWorksheet('Report', {
    views: [
      { state: 'frozen', xSplit: 0, ySplit: xlsxHeaderRow, topLeftCell: `A${xlsxHeaderRow + 1}`, activeCell: `A${xlsxHeaderRow + 1}` },
    ],
    properties: { outlineLevelRow: levels, defaultRowHeight: 15 },
    pageSetup: { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
  });
  sheet.columns = columnWidths(report).map((width) => ({ width }));

  const period = periodDays(report, clock);
  sheet.addRow([cellText(report.title)]).font = { bold: true, size: 14 };
  sheet.addRow([cellText(`Period: ${period.text} · Time zone: ${report.period.timezone} · Exported by: ${report.exported_by}`)]);
  sheet.addRow([cellText(`Filters: ${filtersText(report)} · Grouped by: ${groupingText(report)} · Currency: ${report.currency}`)]);
  const header = sheet.addRow([...sheetColumns]);
  header.font = { bold: true };
  header.border = { bottom: { style: 'thin' } };
  header.alignment = { vertical: 'middle' };
  for (const name of ['Duration', 'Minutes', 'Rate', 'Amount', 'Percentage', 'Segment minutes'] as const)
    header.getCell(col[name]).alignment = { horizontal: 'right' };
  header.commit();

  // One style object per kind of cell, shared by every cell of that kind: exceljs resolves a
  // style object it has seen before with one WeakMap lookup, but works out (and renders) a new
  // object per cell, which costs more than everything else in a large sheet together.
  const lineStyles: Partial<ExcelJS.Style>[] = sheetColumns.map(() => ({}));
  lineStyles[col.Date - 1] = { numFmt: 'yyyy-mm-dd' };
  lineStyles[col.Start - 1] = { numFmt: 'yyyy-mm-dd hh:mm' };
  lineStyles[col.End - 1] = { numFmt: 'yyyy-mm-dd hh:mm' };
  lineStyles[col.Duration - 1] = { numFmt: durationFormat };
  lineStyles[col.Minutes - 1] = { numFmt: '0' };
  const moneyFormat = currencyFormat(report.currency);
  lineStyles[col.Rate - 1] = { numFmt: moneyFormat };
  lineStyles[col.Amount - 1] = { numFmt: moneyFormat };
  lineStyles[col['Segment minutes'] - 1] = { numFmt: '0' };
  const totalStyles = (grand: boolean): Partial<ExcelJS.Style>[] => {
    const font = { bold: true };
    const border: Partial<ExcelJS.Borders> = grand ? { top: { style: 'thin' }, bottom: { style: 'double' } } : { top: { style: 'hair' } };
    const styles: Partial<ExcelJS.Style>[] = sheetColumns.map(() => ({ font, border }));
    styles[col.Duration - 1] = { numFmt: durationFormat, font, border };
    styles[col.Minutes - 1] = { numFmt: '0', font, border };
    styles[col.Amount - 1] = { numFmt: moneyFormat, font, border };
    return styles;
  };
  const subtotalStyles = totalStyles(false);
  const grandTotalStyles = totalStyles(true);
  const styleRow = (row: ExcelJS.Row, styles: Partial<ExcelJS.Style>[]) => {
    for (let c = 1; c <= styles.length; c++) row.getCell(c).style = styles[c - 1]!;
  };
  // A line's or segment's empty cells stay out of the row (no hour code, a segment's Start to Note).
  const styleCells = (row: ExcelJS.Row, styles: Partial<ExcelJS.Style>[]) => {
    for (let c = 1; c <= styles.length; c++) {
      const cell = row.findCell(c);
      if (cell) cell.style = styles[c - 1]!;
    }
  };
  const segmentValues = (segment: HourSegment | undefined): ExcelJS.CellValue[] =>
    segment ? [segment.hour_code === null ? undefined : cellText(segment.hour_code), segment.percentage, segment.minutes] : [];

  // After the first line, whose row exceljs writes (and so registers the line styles in the
  // order it always has), lines are written by `lineRows` as the same XML exceljs would write.
  let fastLines = null as LineRows | null;
  const writeLine = (line: ReportLine, depth: number) => {
    if (fastLines) {
      fastLines.write(line, depth);
      return;
    }
    const row = sheet.addRow([
      new Date(localDate(line.date)),
      line.week,
      cellText(line.user),
      cellText(line.board),
      cellText(line.collection),
      cellText(line.card),
      cellText(line.activity),
      cellText(line.status),
      new Date(clock.local(line.start)),
      new Date(clock.local(line.end)),
      duration(line.minutes),
      line.minutes,
      yesNo(line.billable),
      line.hourly_rate,
      line.amount,
      yesNo(line.overlaps),
      cellText(line.note),
      ...segmentValues(line.segments[0]),
    ]);
    styleCells(row, lineStyles);
    if (depth) row.outlineLevel = depth;
    row.commit();
    fastLines = lineRows(sheet, workbook, lineStyles, { clock, duration, outlineLevelRow: levels });
  };
  const writeSegment = (line: ReportLine, segment: HourSegment, depth: number) => {
    if (fastLines) {
      fastLines.writeSegment(line, segment, depth);
      return;
    }
    const values: ExcelJS.CellValue[] = [
      new Date(localDate(segment.date)),
      isoWeek(segment.date),
      cellText(line.user),
      cellText(line.board),
      cellText(line.collection),
      cellText(line.card),
      cellText(line.activity),
      cellText(line.status),
    ];
    // Start to Note stay holes, which exceljs leaves out of the row.
    values.length = col['Hour code'] - 1;
    values.push(...segmentValues(segment));
    const row = sheet.addRow(values);
    styleCells(row, lineStyles);
    if (depth) row.outlineLevel = depth;
    row.commit();
  };
  const writeTotal = (label: string, minutes: number, amount: number, depth: number, grand: boolean) => {
    fastLines?.flush();
    const values: ExcelJS.CellValue[] = [cellText(label)];
    values[col.Duration - 1] = duration(minutes);
    values[col.Minutes - 1] = minutes;
    values[col.Amount - 1] = amount;
    const row = sheet.addRow(values);
    styleRow(row, grand ? grandTotalStyles : subtotalStyles);
    if (depth) row.outlineLevel = depth;
    row.commit();
  };

  let written = 0;
  let breathed = 0;
  for (const row of reportRows(report)) {
    if (row.kind === 'line') {
      const depth = Math.min(row.depth, levels);
      writeLine(row.line, depth);
      for (let i = 1; i < row.line.segments.length; i++) {
        writeSegment(row.line, row.line.segments[i]!, depth);
        written++;
      }
    } else if (row.kind === 'subtotal')
      writeTotal(subtotalLabel(row.group), row.group.minutes, row.group.amount, Math.min(row.depth, levels), false);
    else if (row.kind === 'grand-total') writeTotal(grandTotalLabel, row.minutes, row.amount, 0, true);
    else if (row.kind === 'billable-total') writeTotal(billableLabel(row.billable), row.minutes, row.amount, 0, false);
    else continue;
    if (++written - breathed >= rowsPerBreath) {
      breathed = written;
      fastLines?.flush();
      const backlog = sheetBacklog(sheet);
      if (backlog && backlog.bytes() > maxSheetBacklog) await backlog.drained();
      if (!(await output.ready())) return;
    }
  }
  fastLines?.flush();
  sheet.autoFilter = { from: { row: xlsxHeaderRow, column: 1 }, to: { row: xlsxHeaderRow + written, column: sheetColumns.length } };
  sheet.commit();
  await workbook.commit();
}

/** What a line row needs besides the line: the report's clock and duration, and the sheet's outline depth. */
interface LineRowContext {
  clock: ZoneClock;
  duration: (minutes: number) => number;
  outlineLevelRow: number;
}

interface LineRows {
  write(line: ReportLine, depth: number): void;
  /** A further segment of `line` (its first is on the line's row). */
  writeSegment(line: ReportLine, segment: HourSegment, depth: number): void;
  /** Hands the rows written so far to the sheet; before any row exceljs writes, and at the end. */
  flush(): void;
}

/**
 * Line rows as sheet XML, byte for byte what exceljs 4.4 writes for them (row-xform.js and
 * cell-xform.js: the row's attributes, then each cell with its style id and type), without
 * the Row and Cell objects, style look-ups and XML builder exceljs goes through per cell,
 * which took most of the time of a large export (issue 6's budget). The style ids are the
 * ones exceljs gave the line styles for the first line; the row is numbered where exceljs
 * would number it, and the sheet is told so (`_rowZero`), so that the total rows exceljs
 * still writes follow on. Null when the sheet is not as expected (an exceljs upgrade): every
 * line then goes through exceljs, slower but the same file. The xlsx tests compare both.
 */
function lineRows(
  sheet: ExcelJS.Worksheet,
  workbook: ExcelJS.stream.xlsx.WorkbookWriter,
  lineStyles: Partial<ExcelJS.Style>[],
  { clock, duration, outlineLevelRow }: LineRowContext,
): LineRows | null {
  // exceljs's stream writer keeps its row buffer and style registry out of its types: what is
  // used of them is checked right below, and without it the lines go through exceljs's rows.
  const writer = sheet as any;
  const styles = (workbook as any).styles;
  if (
    forceExcelJsRows ||
    typeof writer._rowZero !== 'number' ||
    !Array.isArray(writer._rows) ||
    typeof writer.stream?.write !== 'function' ||
    typeof styles?.addStyleModel !== 'function'
  )
    return null;
  const { ValueType } = excelJs();
  const types = sheetColumns.map((name) =>
    name === 'Date' || name === 'Start' || name === 'End'
      ? ValueType.Date
      : name === 'Duration' ||
          name === 'Minutes' ||
          name === 'Rate' ||
          name === 'Amount' ||
          name === 'Percentage' ||
          name === 'Segment minutes'
        ? ValueType.Number
        : ValueType.String,
  );
  // Each cell up to its row number, and from the row number to its value: `<c r="A` 7 `" s="4"><v>`.
  const open = sheetColumns.map((_, i) => `<c r="${String.fromCharCode(65 + i)}`);
  const close = sheetColumns.map((_, i) => {
    // exceljs's style registry answers the numeric style id (untyped, see above).
    const id = styles.addStyleModel(lineStyles[i], types[i]) as number;
    return `"${id ? ` s="${id}"` : ''}${types[i] === ValueType.String ? ' t="str"' : ''}><v>`;
  });
  const serial = (local: number) => 25569 + local / 86_400_000;
  const days = new Map<string, number>();
  const dateSerial = (date: string) => {
    let value = days.get(date);
    if (value === undefined) days.set(date, (value = serial(localDate(date))));
    return value;
  };
  const texts = new Map<string, string>();
  const text = (value: string) => {
    let xml = texts.get(value);
    if (xml === undefined) {
      xml = xmlEncode(cellText(value));
      if (texts.size < 10_000) texts.set(value, xml);
    }
    return xml;
  };
  const end = '</v></c>';
  const codeAt = col['Hour code'] - 1;
  let pending = '';
  /** The row's opening tag; `last` is its last column (exceljs' `spans`). */
  const rowOpen = (r: string, last: number, depth: number) =>
    `<row r="${r}" spans="1:${last}" x14ac:dyDescent="0.25"` +
    (depth ? ` outlineLevel="${depth}"${depth >= outlineLevelRow ? ' collapsed="1"' : ''}` : '') +
    '>';
  /** A segment's cells (an hour code of none is no cell), and the last column written. */
  const segmentCells = (r: string, segment: HourSegment | undefined): [string, number] => {
    if (!segment) return ['', tableColumns.length];
    const cell = (i: number, value: string | number) => open[i] + r + close[i] + value + end;
    return [
      (segment.hour_code === null ? '' : cell(codeAt, text(segment.hour_code))) +
        cell(codeAt + 1, segment.percentage) +
        cell(codeAt + 2, segment.minutes),
      codeAt + 3,
    ];
  };
  /** The row number exceljs would give the next row, which it is then told it gave. */
  const nextRow = (): string => {
    // The writer's row counter (untyped, see above); read once per row, so no check here.
    const n = writer._rowZero as number;
    if (writer._rows.length) throw new Error('exceljs holds uncommitted rows; line rows cannot be written past them');
    writer._rowZero = n + 1;
    return String(n);
  };
  return {
    write(line, depth) {
      const r = nextRow();
      const cell = (i: number, value: string | number) => open[i] + r + close[i] + value + end;
      const [segment, last] = segmentCells(r, line.segments[0]);
      pending +=
        rowOpen(r, last, depth) +
        cell(0, dateSerial(line.date)) +
        cell(1, xmlEncode(line.week)) +
        cell(2, text(line.user)) +
        cell(3, text(line.board)) +
        cell(4, text(line.collection)) +
        cell(5, text(line.card)) +
        cell(6, text(line.activity)) +
        cell(7, text(line.status)) +
        cell(8, serial(clock.local(line.start))) +
        cell(9, serial(clock.local(line.end))) +
        cell(10, duration(line.minutes)) +
        cell(11, line.minutes) +
        cell(12, yesNo(line.billable)) +
        cell(13, line.hourly_rate) +
        cell(14, line.amount) +
        cell(15, yesNo(line.overlaps)) +
        cell(16, xmlEncode(cellText(line.note))) +
        segment +
        '</row>';
    },
    writeSegment(line, segment, depth) {
      const r = nextRow();
      const cell = (i: number, value: string | number) => open[i] + r + close[i] + value + end;
      const [cells, last] = segmentCells(r, segment);
      pending +=
        rowOpen(r, last, depth) +
        cell(0, dateSerial(segment.date)) +
        cell(1, xmlEncode(isoWeek(segment.date))) +
        cell(2, text(line.user)) +
        cell(3, text(line.board)) +
        cell(4, text(line.collection)) +
        cell(5, text(line.card)) +
        cell(6, text(line.activity)) +
        cell(7, text(line.status)) +
        cells +
        '</row>';
    },
    flush() {
      if (pending) writer.stream.write(pending);
      pending = '';
    },
  };
}

/** Every line through exceljs' own rows, for the test that compares the two ways. */
let forceExcelJsRows = false;
export function writeLinesThroughExcelJs(value: boolean): void {
  forceExcelJsRows = value;
}

// eslint-disable-next-line no-control-regex -- these are the characters XML cannot hold, as exceljs drops them
const xmlSpecial = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/;

/** Text as exceljs writes it into XML (utils.xmlEncode of exceljs 4.4): escaped, control characters dropped. */
function xmlEncode(text: string): string {
  const found = xmlSpecial.exec(text);
  if (!found) return text;
  let result = '';
  let lastIndex = 0;
  let i = found.index;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let escape: string;
    if (code === 34) escape = '&quot;';
    else if (code === 38) escape = '&amp;';
    else if (code === 39) escape = '&apos;';
    else if (code === 60) escape = '&lt;';
    else if (code === 62) escape = '&gt;';
    else if (code === 127 || (code <= 31 && (code <= 8 || (code >= 11 && code !== 13)))) escape = '';
    else continue;
    if (lastIndex !== i) result += text.substring(lastIndex, i);
    lastIndex = i + 1;
    if (escape) result += escape;
  }
  if (lastIndex !== i) return result + text.substring(lastIndex, i);
  return result;
}

/**
 * Where a streamed sheet's XML waits to be zipped. exceljs (4.4) writes the XML into
 * archiver without looking at backpressure: archiver wraps the sheet's stream in a
 * PassThrough and deflates from it as fast as zlib goes, and the XML of rows written faster
 * than that piles up in the PassThrough (70 MB for 100,000 lines, measured). The writer waits
 * for it to drain whenever it holds more than a megabyte. This reaches into exceljs
 * (`sheet.stream.pipes`); the xlsx test checks it is still there after an upgrade, because
 * without it the writer still works but may hold the whole sheet in memory.
 */
export function sheetBacklog(sheet: ExcelJS.Worksheet): SheetBacklog | null {
  const pipe = (sheet as any).stream?.pipes?.[0];
  const state = pipe?._writableState; // archiver's readable-stream 3 has no `writableLength`
  if (typeof state?.length !== 'number' || typeof pipe.once !== 'function') return null;
  return { bytes: () => state.length, drained: () => once(pipe, 'drain') };
}

export interface SheetBacklog {
  /** Bytes of sheet XML not yet taken by zlib. */
  bytes(): number;
  drained(): Promise<unknown>;
}

/** The deepest group level, which is the outline level of the lines. */
function outlineDepth(report: TimeReport): number {
  let depth = 0;
  for (let groups = report.groups; groups.length; groups = groups[0]!.groups ?? []) depth++;
  return Math.min(depth, 7);
}

/** Column widths in characters: fixed for dates and numbers, from the longest value for text. */
function columnWidths(report: TimeReport): number[] {
  const longest: Record<string, number> = {};
  for (const name of textColumns) longest[name] = name.length;
  for (const line of report.lines) {
    const values = [line.user, line.board, line.collection, line.card, line.activity, line.status, line.note];
    for (let i = 0; i < textColumns.length; i++) {
      const name = textColumns[i]!;
      if (values[i]!.length > longest[name]!) longest[name] = values[i]!.length;
    }
  }
  return sheetColumns.map((name) => {
    // `in` says the column has a fixed width; the other columns all have a maximum text width.
    if (name in fixedWidths) return fixedWidths[name as keyof typeof fixedWidths];
    const max = maxTextWidth[name as keyof typeof maxTextWidth];
    return Math.min(max, longest[name]! + 2);
  });
}
