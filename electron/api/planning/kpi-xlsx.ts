/**
 * A board's KPIs as an Excel workbook (docs/API.md "KPIs", `format=xlsx`): the same periods
 * and figures as the JSON answer, so that an owner can keep or chart them outside Planner.
 *
 *   sheet "Board"      one row per period: the board's figures
 *   sheet "Stages"     one row per period and stage
 *   sheet "Resources"  one row per period and resource: planned utilisation per person
 *
 * Each sheet: row 1 the title, row 2 the board, time frame and range, row 3 empty, row 4 the
 * column header (bold, frozen), rows 5… the periods. Period days are date cells; minutes are
 * written as hours (numbers, `0.00`); ratios as numbers formatted as percentages, empty where
 * the API answers null (a denominator of 0), never 0, which would read as a figure.
 *
 * The workbook is small (26 weeks are a few hundred rows), so it is made in memory, not streamed.
 */
import type ExcelJS from 'exceljs';
import { excelJs } from '../file-libraries.js';
import { cellText } from '../time-tracking/export/xlsx.js';
import type { KpiFigures, KpiPeriod, KpiTimeFrame, Ratio } from './kpi.js';

export const kpiXlsxHeaderRow = 4;
export const kpiXlsxContentType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The columns of one set of figures, after the period (and stage) columns. */
export const kpiFigureColumns = [
  'Finished',
  'On time',
  'Finished with a due date',
  'On-time delivery',
  'Promises kept',
  'Finished with a promise',
  'Promise reliability',
  'Available hours',
  'Planned hours',
  'Booked hours',
  'Utilisation planned',
  'Utilisation booked',
  'Work in progress',
  'Backlog hours',
  'Backlog in weeks',
] as const;

const hours = (minutes: number) => Math.round((minutes / 60) * 100) / 100;
/** A ratio's value; null (an empty cell) where the API answers null. */
const share = (value: Ratio) => value.ratio;
const day = (date: string) => new Date(`${date}T00:00:00Z`);

function figureCells(f: KpiFigures): (number | null)[] {
  return [
    f.finished,
    f.on_time_delivery.numerator,
    f.on_time_delivery.denominator,
    share(f.on_time_delivery),
    f.promise_reliability.numerator,
    f.promise_reliability.denominator,
    share(f.promise_reliability),
    hours(f.utilisation.available_minutes),
    hours(f.utilisation.planned_minutes),
    hours(f.utilisation.booked_minutes),
    share(f.utilisation.planned),
    share(f.utilisation.booked),
    f.work_in_progress,
    hours(f.backlog.weeks.numerator),
    share(f.backlog.weeks),
  ];
}

/** Number formats of the figure columns, in their order. */
const figureFormats = ['0', '0', '0', '0.0%', '0', '0', '0.0%', '0.00', '0.00', '0.00', '0.0%', '0.0%', '0', '0.00', '0.00'];

export interface KpiWorkbookInput {
  boardName: string;
  frame: KpiTimeFrame;
  from: string;
  to: string;
  periods: readonly KpiPeriod[];
}

function sheetOf(
  workbook: ExcelJS.Workbook,
  name: string,
  input: KpiWorkbookInput,
  leading: string[],
  widths: number[],
): ExcelJS.Worksheet {
  const sheet = workbook.addWorksheet(name, {
    views: [{ state: 'frozen', xSplit: 0, ySplit: kpiXlsxHeaderRow }],
  });
  sheet.columns = widths.map((width) => ({ width }));
  sheet.addRow([cellText(`KPIs — ${name}`)]).font = { bold: true, size: 14 };
  sheet.addRow([cellText(`Board: ${input.boardName} · Per ${input.frame} · ${input.from} – ${input.to}`)]);
  sheet.addRow([]);
  const header = sheet.addRow(leading);
  header.font = { bold: true };
  header.border = { bottom: { style: 'thin' } };
  return sheet;
}

/** Formats a row's cells: the two period days as dates, the figures from `first` on as above. */
function formatRow(row: ExcelJS.Row, formats: readonly string[], first: number): void {
  row.getCell(1).numFmt = 'yyyy-mm-dd';
  row.getCell(2).numFmt = 'yyyy-mm-dd';
  formats.forEach((format, i) => (row.getCell(first + i).numFmt = format));
}

export async function writeKpiXlsx(input: KpiWorkbookInput): Promise<Buffer> {
  const workbook = new (excelJs().Workbook)();
  workbook.creator = 'Planner';
  const figureWidths = kpiFigureColumns.map((name) => Math.max(10, name.length + 2));

  const board = sheetOf(
    workbook,
    'Board',
    input,
    ['Period start', 'Period end', 'Closed', ...kpiFigureColumns],
    [12, 12, 8, ...figureWidths],
  );
  for (const period of input.periods) {
    const row = board.addRow([
      day(period.period_start),
      day(period.period_end),
      period.closed ? 'yes' : 'no',
      ...figureCells(period.figures.board),
    ]);
    formatRow(row, figureFormats, 4);
  }

  const stages = sheetOf(
    workbook,
    'Stages',
    input,
    ['Period start', 'Period end', 'Stage', ...kpiFigureColumns],
    [12, 12, 24, ...figureWidths],
  );
  for (const period of input.periods) {
    for (const stage of period.figures.stages) {
      const row = stages.addRow([day(period.period_start), day(period.period_end), cellText(stage.name), ...figureCells(stage)]);
      formatRow(row, figureFormats, 4);
    }
  }

  const resources = sheetOf(
    workbook,
    'Resources',
    input,
    ['Period start', 'Period end', 'Resource', 'Available hours', 'Planned hours', 'Utilisation planned'],
    [12, 12, 24, 16, 14, 20],
  );
  for (const period of input.periods) {
    for (const resource of period.figures.resources) {
      const row = resources.addRow([
        day(period.period_start),
        day(period.period_end),
        cellText(resource.name),
        hours(resource.available_minutes),
        hours(resource.planned_minutes),
        share(resource.planned),
      ]);
      formatRow(row, ['0.00', '0.00', '0.0%'], 4);
    }
  }

  // exceljs answers its own Buffer type, which is node's Buffer under another name.
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
