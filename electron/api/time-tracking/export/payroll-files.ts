/**
 * A payroll summary (shared/payroll-summary.ts) as CSV, XLSX or PDF. Every format prints the
 * same rows in the same order (`payrollRows`): per user one row per day or week, one row per
 * hour code and percentage (the worked hours the surcharge rules split out, docs/API.md
 * "Surcharge rules"), a row with the overtime balance (docs/API.md "Overtime balance") when
 * the user has one, then the user's total; a grand total at the end. Columns: User,
 * Resource, Day or Week, From, To, Worked, Scheduled, Absence, Expected, Difference, Hour
 * code, Percentage, Opening balance, Overtime change, Closing balance, the figures in hours.
 * An hour code's row has its hours under Worked and its code and percentage; the balance row
 * has only the three balance figures; day, week and total rows leave those five empty.
 *
 *  - CSV (RFC 4180, as the time report's csv.ts): hours in the summary's duration format,
 *    `;` with decimal commas for Excel in European locales, an optional BOM; after the grand
 *    total, records that say what the file is (Title, Period, Filters, Exported by).
 *  - XLSX: the title, the period and the filters above a frozen header; hours as numbers with
 *    two decimals whatever the duration format, because Excel cannot show a negative time
 *    (a difference below zero) in its [h]:mm format.
 *  - PDF (A4 landscape, Helvetica): the same heading, the header row on every page, totals in
 *    bold, "Page N of M". The five columns after Difference do not fit the page: an hour
 *    code's row reads "Hours <code> at <percentage> %" across Day, From and To with its hours
 *    under Worked, the balance row "Overtime balance: opening … · change … · closing …" from
 *    Day on. Rows have a fixed height, so pages are counted before drawing.
 */
import { PassThrough, Readable } from 'node:stream';
import { excelJs, pdfDocument } from '../../file-libraries.js';
import type { OvertimeFigures, PayrollFigures, PayrollSummary, PayrollUser } from '../../../../shared/payroll-summary.js';
import { formatMinutes, type HourCodeTotal } from '../../../../shared/time-report.js';
import { neutraliseFormula, type CsvSeparator } from './csv.js';
import { PdfFace } from './pdf-text.js';
import { reportFilename, type PeriodDays } from './report-caption.js';
import { ReportStream } from './report-stream.js';
import { cellText } from './xlsx.js';

export type PayrollRow =
  | { kind: 'bucket'; user: PayrollUser; index: number }
  /** The user's worked minutes under one hour code at one percentage. */
  | { kind: 'hour-code'; user: PayrollUser; code: HourCodeTotal }
  | { kind: 'balance'; user: PayrollUser; overtime: OvertimeFigures }
  | { kind: 'user-total'; user: PayrollUser }
  | { kind: 'grand-total'; totals: PayrollFigures };

/** The rows every format prints, in order (see the file head). */
export function payrollRows(summary: PayrollSummary): PayrollRow[] {
  const rows: PayrollRow[] = [];
  for (const user of summary.users) {
    for (let index = 0; index < user.buckets.length; index++) rows.push({ kind: 'bucket', user, index });
    for (const code of user.hour_codes) rows.push({ kind: 'hour-code', user, code });
    if (user.overtime) rows.push({ kind: 'balance', user, overtime: user.overtime });
    rows.push({ kind: 'user-total', user });
  }
  rows.push({ kind: 'grand-total', totals: summary.totals });
  return rows;
}

const figureNames = ['Worked', 'Scheduled', 'Absence', 'Expected', 'Difference'] as const;
const payrollCodeNames = ['Hour code', 'Percentage'] as const;
const balanceNames = ['Opening balance', 'Overtime change', 'Closing balance'] as const;
const figureOf = (f: PayrollFigures) => [
  f.worked_minutes,
  f.scheduled_minutes,
  f.absence_minutes,
  f.expected_minutes,
  f.difference_minutes,
];
const balanceOf = (o: OvertimeFigures) => [o.opening_minutes, o.change_minutes, o.closing_minutes];

/** Where the figures, the hour code, the percentage and the balance are in a row. */
const firstFigure = 5;
const codeColumn = firstFigure + figureNames.length;
const percentageColumn = codeColumn + 1;
const firstBalance = percentageColumn + 1;

export function payrollColumns(summary: PayrollSummary): string[] {
  return ['User', 'Resource', summary.per === 'day' ? 'Day' : 'Week', 'From', 'To', ...figureNames, ...payrollCodeNames, ...balanceNames];
}

/**
 * A row's minutes per column (null: empty), in the order of `payrollColumns` from Worked on,
 * without the hour code and percentage (text and a plain number).
 */
function rowMinutes(row: PayrollRow): { figures: (number | null)[]; balance: (number | null)[] } {
  const none = [null, null, null];
  if (row.kind === 'bucket') return { figures: figureOf(row.user.buckets[row.index]!), balance: none };
  if (row.kind === 'hour-code') return { figures: [row.code.minutes, null, null, null, null], balance: none };
  if (row.kind === 'balance') return { figures: [null, null, null, null, null], balance: balanceOf(row.overtime) };
  return { figures: figureOf(row.kind === 'user-total' ? row.user : row.totals), balance: none };
}

/** A row as texts, figures in the summary's duration format, empty where the row has none. */
function rowTexts(summary: PayrollSummary, row: PayrollRow): string[] {
  const hours = (minutes: number | null) => (minutes === null ? '' : formatMinutes(minutes, summary.duration_format));
  const { figures, balance } = rowMinutes(row);
  const code = row.kind === 'hour-code' ? [row.code.hour_code ?? '', String(row.code.percentage)] : ['', ''];
  const tail = [...figures.map(hours), ...code, ...balance.map(hours)];
  if (row.kind === 'bucket') {
    const bucket = row.user.buckets[row.index]!;
    return [row.user.user, row.user.resource, bucket.key, bucket.start, bucket.end, ...tail];
  }
  if (row.kind === 'hour-code' || row.kind === 'balance') return [row.user.user, row.user.resource, '', '', '', ...tail];
  if (row.kind === 'user-total') return [`Total ${row.user.user}`, row.user.resource, '', '', '', ...tail];
  return ['Grand total', '', '', '', '', ...tail];
}

function facts(summary: PayrollSummary, period: PeriodDays): [string, string][] {
  return [
    ['Title', summary.title],
    ['Period', `${period.text} (${summary.period.timezone})`],
    ['Filters', summary.filter_text || 'none'],
    ['Exported by', summary.exported_by],
  ];
}

export function payrollPeriod(summary: PayrollSummary): PeriodDays {
  const { start, end } = summary.period;
  return { first: start, last: end, text: start === end ? start : `${start} – ${end}` };
}

export function payrollFilename(summary: PayrollSummary, extension: string, user?: string): string {
  return reportFilename(payrollPeriod(summary), extension, { kind: 'payroll-summary', ...(user ? { user } : {}) });
}

export function writePayrollCsv(summary: PayrollSummary, options: { bom?: boolean; separator?: CsvSeparator } = {}): Readable {
  const separator = options.separator ?? ',';
  const needsQuotes = separator === ',' ? /[",\r\n]/ : /[";\r\n]/;
  const field = (value: string) => {
    const safe = neutraliseFormula(value);
    return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  const columns = payrollColumns(summary);
  const records: string[] = [(options.bom ? '\uFEFF' : '') + columns.join(separator)];
  for (const row of payrollRows(summary)) {
    const texts = rowTexts(summary, row);
    // Figures are computed, never text a spreadsheet could run: only a decimal comma for `;`.
    // The hour code is text as entered, so it is quoted and neutralised as labels are.
    const number = (t: string) => (separator === ';' ? t.replace('.', ',') : t);
    records.push(texts.map((t, i) => (i < firstFigure || i === codeColumn ? field(t) : number(t))).join(separator));
  }
  for (const [name, value] of facts(summary, payrollPeriod(summary)))
    records.push([field(name), field(value), ...Array(columns.length - 2).fill('')].join(separator));
  return Readable.from([Buffer.from(records.join('\r\n') + '\r\n', 'utf8')]);
}

export const payrollHeaderRow = 4;

export function writePayrollXlsx(summary: PayrollSummary): Readable {
  const sink = new PassThrough();
  const workbook = new (excelJs().stream.xlsx.WorkbookWriter)({ stream: sink, useStyles: true, useSharedStrings: false });
  const write = async () => {
    workbook.creator = 'Planner';
    const sheet = workbook.addWorksheet('Payroll', {
      views: [
        {
          state: 'frozen',
          xSplit: 0,
          ySplit: payrollHeaderRow,
          topLeftCell: `A${payrollHeaderRow + 1}`,
          activeCell: `A${payrollHeaderRow + 1}`,
        },
      ],
      pageSetup: { orientation: 'landscape', paperSize: 9, fitToPage: true, fitToWidth: 1, fitToHeight: 0 },
    });
    const columns = payrollColumns(summary);
    sheet.columns = [28, 22, 12, 12, 12, 11, 11, 11, 11, 12, 11, 11, 15, 15, 15].map((width) => ({ width }));
    const period = payrollPeriod(summary);
    sheet.addRow([cellText(summary.title)]).font = { bold: true, size: 14 };
    sheet.addRow([cellText(`Period: ${period.text} · Time zone: ${summary.period.timezone} · Exported by: ${summary.exported_by}`)]);
    sheet.addRow([cellText(`Filters: ${summary.filter_text || 'none'} · Per ${summary.per} · Hours as decimal numbers`)]);
    const header = sheet.addRow(columns);
    header.font = { bold: true };
    header.border = { bottom: { style: 'thin' } };
    header.commit();
    const hours = (minutes: number | null) => (minutes === null ? null : minutes / 60);
    const figureStyle = { numFmt: '0.00;[Red]-0.00' };
    for (const row of payrollRows(summary)) {
      const texts = rowTexts(summary, row);
      const { figures, balance } = rowMinutes(row);
      const dates = row.kind === 'bucket' ? [new Date(`${texts[3]}T00:00:00Z`), new Date(`${texts[4]}T00:00:00Z`)] : [null, null];
      const code = row.kind === 'hour-code' ? [cellText(row.code.hour_code ?? ''), row.code.percentage] : [null, null];
      const added = sheet.addRow([
        cellText(texts[0]!),
        cellText(texts[1]!),
        texts[2]!,
        ...dates,
        ...figures.map(hours),
        ...code,
        ...balance.map(hours),
      ]);
      const total = row.kind === 'user-total' || row.kind === 'grand-total';
      if (row.kind === 'bucket') {
        added.getCell(4).numFmt = 'yyyy-mm-dd';
        added.getCell(5).numFmt = 'yyyy-mm-dd';
      } else if (total) added.font = { bold: true };
      const numbers = [...figures, null, null, ...balance];
      numbers.forEach((minutes, i) => {
        if (minutes !== null) added.getCell(firstFigure + 1 + i).style = { ...figureStyle, ...(total ? { font: { bold: true } } : {}) };
      });
      if (row.kind === 'user-total') added.border = { top: { style: 'hair' } };
      if (row.kind === 'grand-total') added.border = { top: { style: 'thin' }, bottom: { style: 'double' } };
      added.commit();
    }
    sheet.commit();
    await workbook.commit();
  };
  const output = new PassThrough();
  sink.pipe(output);
  write().catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}

// A4 landscape in points, as the time report's PDF.
const pageWidth = 841.89;
const pageHeight = 595.28;
const margin = 36;
const tableWidth = pageWidth - 2 * margin;
const rowHeight = 13;
const headerHeight = 16;
const firstPageTop = margin + 24 + 4 * 12 + 10;
const contentBottom = pageHeight - margin;
const columnWidths = [150, 120, 62, 62, 62, 58, 58, 58, 58, 61.89];

export function writePayrollPdf(summary: PayrollSummary): Readable {
  const output = new ReportStream();
  renderPayroll(summary, output).catch((error: unknown) => output.fail(error));
  return output;
}

async function renderPayroll(summary: PayrollSummary, output: ReportStream): Promise<void> {
  const rows = payrollRows(summary);
  // Pages counted first: every row has the same height.
  const perFirst = Math.floor((contentBottom - firstPageTop - headerHeight) / rowHeight);
  const perPage = Math.floor((contentBottom - margin - headerHeight) / rowHeight);
  const pages = rows.length <= perFirst ? 1 : 1 + Math.ceil((rows.length - perFirst) / perPage);
  const period = payrollPeriod(summary);
  const doc = new (pdfDocument())({
    size: 'A4',
    layout: 'landscape',
    margin,
    autoFirstPage: false,
    bufferPages: false,
    compress: true,
    info: { Title: summary.title, Creator: 'Planner' },
  });
  doc.on('data', (chunk: Uint8Array) => output.send(chunk));
  doc.on('end', () => output.finish());
  doc.on('error', (error: unknown) => output.fail(error));
  const regular = new PdfFace(doc, 'Helvetica');
  const bold = new PdfFace(doc, 'Helvetica-Bold');
  const xs = columnWidths.reduce<number[]>((acc, w, i) => [...acc, i === 0 ? margin : acc[i - 1]! + columnWidths[i - 1]!], []);
  // The page has room for the first ten columns only (see the file head).
  const cells = (face: PdfFace, size: number, texts: string[]): [number, string][] =>
    texts.slice(0, columnWidths.length).map((text, i) => {
      const room = columnWidths[i]! - 6;
      const fitted = face.fit(text, size, room);
      return i >= firstFigure ? [xs[i]! + columnWidths[i]! - 3 - face.width(fitted, size), fitted] : [xs[i]! + 3, fitted];
    });
  /** A text from Day's column on, `through` columns wide. */
  const across = (face: PdfFace, size: number, text: string, through: number): [number, string] => {
    const room = xs[2 + through - 1]! + columnWidths[2 + through - 1]! - xs[2]! - 6;
    return [xs[2]! + 3, face.fit(text, size, room)];
  };
  const rowCells = (face: PdfFace, size: number, row: PayrollRow): [number, string][] => {
    const texts = rowTexts(summary, row);
    if (row.kind === 'hour-code') {
      const [user, resource, , , , worked] = cells(face, size, texts);
      const code = row.code.hour_code === null ? '(no code)' : row.code.hour_code;
      return [user!, resource!, across(face, size, `Hours ${code} at ${row.code.percentage} %`, 3), worked!];
    }
    if (row.kind === 'balance') {
      const [user, resource] = cells(face, size, texts);
      const [opening, change, closing] = texts.slice(firstBalance);
      const text = `Overtime balance: opening ${opening} · change ${change} · closing ${closing}`;
      return [user!, resource!, across(face, size, text, 8)];
    }
    return cells(face, size, texts);
  };
  let y = 0;
  let page = 0;
  const newPage = () => {
    page++;
    doc.addPage();
    y = margin;
    if (page === 1) {
      bold.drawLine(y, 16, [[margin, bold.fit(summary.title, 16, tableWidth)]]);
      const info = [
        `Period: ${period.text}    Time zone: ${summary.period.timezone}    Per ${summary.per}`,
        `Filters: ${summary.filter_text || 'none'}`,
        `Exported by: ${summary.exported_by}`,
        'Expected = scheduled − absence; difference = worked − expected; hours as ' +
          (summary.duration_format === 'decimal' ? 'decimal hours' : 'h:mm'),
      ];
      info.forEach((text, i) => regular.drawLine(y + 24 + i * 12, 9, [[margin, regular.fit(text, 9, tableWidth)]]));
      y = firstPageTop;
    }
    const pageText = `Page ${page} of ${pages}`;
    regular.drawLine(
      pageHeight - margin + 8,
      7.5,
      [
        [margin, regular.fit(`${summary.title} · ${period.text}`, 7.5, tableWidth - 80)],
        [margin + tableWidth - regular.width(pageText, 7.5), pageText],
      ],
      [0.4, 0.4, 0.4],
    );
    doc
      .save()
      .rect(margin, y, tableWidth, headerHeight - 2)
      .fill('#eeeeee')
      .restore();
    bold.drawLine(y + 4, 8, cells(bold, 8, payrollColumns(summary)));
    y += headerHeight;
  };
  newPage();
  for (const row of rows) {
    if (y + rowHeight > contentBottom) {
      newPage();
      if (!(await output.ready())) return;
    }
    const total = row.kind === 'user-total' || row.kind === 'grand-total';
    const face = total ? bold : regular;
    if (total)
      doc
        .save()
        .lineWidth(row.kind === 'grand-total' ? 1 : 0.5)
        .moveTo(margin, y + 1)
        .lineTo(margin + tableWidth, y + 1)
        .stroke(row.kind === 'grand-total' ? '#000000' : '#999999')
        .restore();
    face.drawLine(y + 3, 8, rowCells(face, 8, row));
    y += rowHeight;
  }
  if (page !== pages) throw new Error(`payroll PDF: counted ${pages} pages but drew ${page}`);
  doc.end();
}
