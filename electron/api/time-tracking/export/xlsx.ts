/**
 * A time report as an Excel workbook (exceljs), one sheet "Report":
 *
 *   row 1  the title
 *   row 2  period, time zone and who exported it
 *   row 3  filters, grouping and currency
 *   row 4  the column header (bold, frozen, with an autoFilter), the same 17 columns as CSV
 *   row 5… one row per report line, a bold "Total <label>" row after each group, a bold
 *          "Grand total" row and its "Billable" and "Non-billable" parts at the end
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
import ExcelJS from 'exceljs';
import type { ReportLine, TimeReport } from '../../../../shared/time-report.js';
import { filtersText, generatedAt, groupingText, periodDays } from './report-caption.js';
import { billableLabel, grandTotalLabel, reportRows, subtotalLabel, tableColumns, yesNo } from './report-rows.js';
import { ReportStream } from './report-stream.js';
import { localDate, ZoneClock } from './zone-clock.js';

export const xlsxHeaderRow = 4;
const excelCellLimit = 32_767;
const rowsPerBreath = 64;
const maxSheetBacklog = 1 << 20;

const col = Object.fromEntries(tableColumns.map((name, i) => [name, i + 1])) as Record<(typeof tableColumns)[number], number>;

/** Text columns get a width from their longest value, within these bounds. */
const textColumns = ['User', 'Board', 'Collection', 'Card', 'Activity', 'Status', 'Note'] as const;
const maxTextWidth = { User: 30, Board: 30, Collection: 36, Card: 40, Activity: 30, Status: 14, Note: 60 };
const fixedWidths = { Date: 12, Week: 10, Start: 17, End: 17, Duration: 10, Minutes: 9, Billable: 9, Rate: 11, Amount: 13, Overlap: 9 };

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

  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
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
  const header = sheet.addRow([...tableColumns]);
  header.font = { bold: true };
  header.border = { bottom: { style: 'thin' } };
  header.alignment = { vertical: 'middle' };
  for (const name of ['Duration', 'Minutes', 'Rate', 'Amount'] as const) header.getCell(col[name]).alignment = { horizontal: 'right' };
  header.commit();

  // One style object per kind of cell, shared by every cell of that kind: exceljs resolves a
  // style object it has seen before with one WeakMap lookup, but works out (and renders) a new
  // object per cell, which costs more than everything else in a large sheet together.
  const lineStyles: Partial<ExcelJS.Style>[] = tableColumns.map(() => ({}));
  lineStyles[col.Date - 1] = { numFmt: 'yyyy-mm-dd' };
  lineStyles[col.Start - 1] = { numFmt: 'yyyy-mm-dd hh:mm' };
  lineStyles[col.End - 1] = { numFmt: 'yyyy-mm-dd hh:mm' };
  lineStyles[col.Duration - 1] = { numFmt: durationFormat };
  lineStyles[col.Minutes - 1] = { numFmt: '0' };
  const moneyFormat = currencyFormat(report.currency);
  lineStyles[col.Rate - 1] = { numFmt: moneyFormat };
  lineStyles[col.Amount - 1] = { numFmt: moneyFormat };
  const totalStyles = (grand: boolean): Partial<ExcelJS.Style>[] => {
    const font = { bold: true };
    const border: Partial<ExcelJS.Borders> = grand ? { top: { style: 'thin' }, bottom: { style: 'double' } } : { top: { style: 'hair' } };
    const styles: Partial<ExcelJS.Style>[] = tableColumns.map(() => ({ font, border }));
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

  const writeLine = (line: ReportLine, depth: number) => {
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
    ]);
    styleRow(row, lineStyles);
    if (depth) row.outlineLevel = depth;
    row.commit();
  };
  const writeTotal = (label: string, minutes: number, amount: number, depth: number, grand: boolean) => {
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
  for (const row of reportRows(report)) {
    if (row.kind === 'line') writeLine(row.line, Math.min(row.depth, levels));
    else if (row.kind === 'subtotal')
      writeTotal(subtotalLabel(row.group), row.group.minutes, row.group.amount, Math.min(row.depth, levels), false);
    else if (row.kind === 'grand-total') writeTotal(grandTotalLabel, row.minutes, row.amount, 0, true);
    else if (row.kind === 'billable-total') writeTotal(billableLabel(row.billable), row.minutes, row.amount, 0, false);
    else continue;
    if (++written % rowsPerBreath === 0) {
      const backlog = sheetBacklog(sheet);
      if (backlog && backlog.bytes() > maxSheetBacklog) await backlog.drained();
      if (!(await output.ready())) return;
    }
  }
  sheet.autoFilter = { from: { row: xlsxHeaderRow, column: 1 }, to: { row: xlsxHeaderRow + written, column: tableColumns.length } };
  sheet.commit();
  await workbook.commit();
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
  return tableColumns.map((name) => {
    if (name in fixedWidths) return fixedWidths[name as keyof typeof fixedWidths];
    const max = maxTextWidth[name as keyof typeof maxTextWidth];
    return Math.min(max, longest[name]! + 2);
  });
}
