/**
 * The XLSX report file, opened again with exceljs and compared with the worked example's
 * model: cell types and number formats, the frozen header, the totals.
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { tableColumns } from '../../electron/api/time-tracking/export/report-rows.js';
import { sheetBacklog, sheetColumns, writeXlsx, xlsxHeaderRow } from '../../electron/api/time-tracking/export/xlsx.js';
import type { TimeReport } from '../../shared/time-report.js';
import { formulaNote, nonLatinCard, readAll, trickyNote, workedReport, zipEntry } from '../helpers/time-report.js';

async function sheetOf(report: TimeReport): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await readAll(writeXlsx(report))) as unknown as ExcelJS.Buffer);
  const sheet = workbook.getWorksheet('Report');
  if (!sheet) throw new Error('no sheet "Report"');
  return sheet;
}

const col = (name: (typeof sheetColumns)[number]) => sheetColumns.indexOf(name) + 1;
const first = xlsxHeaderRow + 1;

function rowsOf(sheet: ExcelJS.Worksheet): ExcelJS.Row[] {
  const rows: ExcelJS.Row[] = [];
  for (let r = first; r <= sheet.rowCount; r++) rows.push(sheet.getRow(r));
  return rows;
}
const isTotal = (row: ExcelJS.Row) => /^(Total |Grand total$)/.test(String(row.getCell(1).value));
const isBillablePart = (row: ExcelJS.Row) => /^(Billable|Non-billable)$/.test(String(row.getCell(1).value));
const lineRows = (sheet: ExcelJS.Worksheet) => rowsOf(sheet).filter((row) => !isTotal(row) && !isBillablePart(row));
const totalRows = (sheet: ExcelJS.Worksheet) => rowsOf(sheet).filter(isTotal);

describe('XLSX report file', () => {
  it('opens on a sheet "Report" with the title, the period and the filters above a frozen header', async () => {
    const sheet = await sheetOf(workedReport());
    expect(sheet.getCell('A1').value).toBe('Time report October');
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.getCell('A2').value).toBe('Period: 2026-10-24 – 2026-10-26 · Time zone: Europe/Amsterdam · Exported by: Carla Planner');
    expect(sheet.getCell('A3').value).toBe('Filters: status: approved,pending · Grouped by: users, days · Currency: EUR');
    expect(sheet.getRow(xlsxHeaderRow).values).toEqual([undefined, ...tableColumns, 'Hour code', 'Percentage', 'Segment minutes']);
    expect(sheet.getRow(xlsxHeaderRow).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: xlsxHeaderRow });
    expect(sheet.autoFilter).toBe(`A${xlsxHeaderRow}:T${sheet.rowCount}`);
  });

  it('types the cells of a line: dates as dates, start and end as local date-times, durations as numbers', async () => {
    const sheet = await sheetOf(workedReport());
    const row = sheet.getRow(first); // Alice, 24 October 22:30 CEST to midnight
    expect(row.getCell(col('Date')).value).toEqual(new Date(Date.UTC(2026, 9, 24)));
    expect(row.getCell(col('Date')).numFmt).toBe('yyyy-mm-dd');
    expect(row.getCell(col('Week')).value).toBe('2026-W43');
    expect(row.getCell(col('Start')).value).toEqual(new Date(Date.UTC(2026, 9, 24, 22, 30)));
    expect(row.getCell(col('End')).value).toEqual(new Date(Date.UTC(2026, 9, 25, 0, 0)));
    expect(row.getCell(col('Start')).numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(row.getCell(col('End')).numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(row.getCell(col('Duration')).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(col('Duration')).value).toBe(1.5);
    expect(row.getCell(col('Duration')).numFmt).toBe('0.00');
    expect(row.getCell(col('Minutes')).value).toBe(90);
    // Money: rate and amount as numbers in the currency's format, billable and overlap as words.
    expect(row.getCell(col('Rate')).value).toBe(40);
    expect(row.getCell(col('Amount')).value).toBe(60);
    expect(row.getCell(col('Amount')).numFmt).toBe('"€"#,##0.00');
    expect(row.getCell(col('Rate')).numFmt).toBe('"€"#,##0.00');
    expect(row.getCell(col('Billable')).value).toBe('yes');
    expect(
      lineRows(sheet).map((r) => [r.getCell(col('Amount')).value, r.getCell(col('Billable')).value, r.getCell(col('Overlap')).value]),
    ).toEqual([
      [60, 'yes', 'no'],
      [50, 'yes', 'no'],
      [50, 'no', 'no'],
      [120, 'yes', 'no'],
      [180, 'yes', 'no'],
      [13.33, 'yes', 'yes'],
      [40, 'yes', 'no'],
    ]);
    for (const r of lineRows(sheet)) {
      expect(r.getCell(col('Date')).type).toBe(ExcelJS.ValueType.Date);
      expect(r.getCell(col('Start')).type).toBe(ExcelJS.ValueType.Date);
      expect(r.getCell(col('End')).type).toBe(ExcelJS.ValueType.Date);
      expect(r.getCell(col('Duration')).type).toBe(ExcelJS.ValueType.Number);
      expect(Number.isInteger(r.getCell(col('Minutes')).value)).toBe(true);
    }
  });

  it('writes the local clock through the DST change (01:30 CEST to 02:30 CET is two hours)', async () => {
    const sheet = await sheetOf(workedReport());
    const row = lineRows(sheet)[2]!;
    expect(row.getCell(col('Start')).value).toEqual(new Date(Date.UTC(2026, 9, 25, 1, 30)));
    expect(row.getCell(col('End')).value).toEqual(new Date(Date.UTC(2026, 9, 25, 2, 30)));
    expect(row.getCell(col('Minutes')).value).toBe(120);
    expect(row.getCell(col('Duration')).value).toBe(2);
  });

  it('writes a bold totals row per group and a grand total, equal to the model to the minute', async () => {
    const sheet = await sheetOf(workedReport());
    const totals = totalRows(sheet).map((row) => [
      row.getCell(1).value,
      row.getCell(col('Minutes')).value,
      row.getCell(col('Duration')).value,
      row.getCell(col('Amount')).value,
    ]);
    expect(totals).toEqual([
      ['Total 2026-10-24', 90, 1.5, 60],
      ['Total 2026-10-25', 195, 3.25, 100],
      ['Total 2026-10-26', 180, 3, 120],
      ['Total Alice Andersen', 465, 7.75, 280],
      ['Total 2026-10-24', 290, 290 / 60, 193.33],
      ['Total 2026-10-26', 60, 1, 40],
      ['Total Brown, Bob', 350, 350 / 60, 233.33],
      ['Grand total', 815, 815 / 60, 513.33],
    ]);
    const parts = rowsOf(sheet)
      .filter(isBillablePart)
      .map((row) => [
        row.getCell(1).value,
        row.getCell(col('Minutes')).value,
        row.getCell(col('Amount')).value,
        row.getCell(col('Amount')).numFmt,
      ]);
    expect(parts).toEqual([
      ['Billable', 695, 463.33, '"€"#,##0.00'],
      ['Non-billable', 120, 50, '"€"#,##0.00'],
    ]);
    for (const row of totalRows(sheet)) {
      expect(row.getCell(1).font?.bold).toBe(true);
      expect(row.getCell(col('Duration')).font?.bold).toBe(true);
      expect(row.getCell(col('Duration')).numFmt).toBe('0.00');
    }
    const lineMinutes = lineRows(sheet).reduce((sum, row) => sum + (row.getCell(col('Minutes')).value as number), 0);
    expect(lineMinutes).toBe(815);
  });

  it("writes a line's payroll segments: the first on the line's row, each further one as a row of its own", async () => {
    const report = workedReport();
    // Alice's first line (Saturday 22:30–24:00 local, 90 minutes, 60.00) as if a rule paid the
    // hour from 23:00 at 125.5 % under NIGHT, and Bob's last one (Monday 23:00–24:00) under ORD.
    report.lines[0] = {
      ...report.lines[0]!,
      hour_code: 'ORD',
      segments: [
        { date: '2026-10-24', minutes: 30, percentage: 100, hour_code: 'ORD' },
        { date: '2026-10-24', minutes: 60, percentage: 125.5, hour_code: 'NIGHT' },
      ],
    };
    report.lines[6]!.segments = [{ date: '2026-10-26', minutes: 60, percentage: 100, hour_code: 'ORD' }];
    const sheet = await sheetOf(report);
    // One row more than the worked example's 17, and the autoFilter takes it in.
    expect(rowsOf(sheet)).toHaveLength(18);
    expect(sheet.autoFilter).toBe(`A${xlsxHeaderRow}:T${xlsxHeaderRow + 18}`);
    const pick = (row: ExcelJS.Row) =>
      ['Date', 'Week', 'User', 'Activity', 'Start', 'Minutes', 'Amount', 'Note', 'Hour code', 'Percentage', 'Segment minutes'].map(
        (name) => row.getCell(col(name as (typeof sheetColumns)[number])).value,
      );
    const rows = rowsOf(sheet);
    expect(rows.slice(0, 3).map(pick)).toEqual([
      [
        new Date(Date.UTC(2026, 9, 24)),
        '2026-W43',
        'Alice Andersen',
        'Assembly',
        new Date(Date.UTC(2026, 9, 24, 22, 30)),
        90,
        60,
        'Night shift',
        'ORD',
        100,
        30,
      ],
      // The further segment: the line's labels, nothing to add to Minutes or Amount.
      [new Date(Date.UTC(2026, 9, 24)), '2026-W43', 'Alice Andersen', 'Assembly', null, null, null, null, 'NIGHT', 125.5, 60],
      ['Total 2026-10-24', null, null, null, null, 90, 60, null, null, null, null],
    ]);
    // The example's other lines keep their one normal segment, without a code.
    expect(pick(rows[3]!).slice(-3)).toEqual([null, 100, 75]);
    expect(pick(rows.find((row) => row.getCell(col('Note')).value === '@night')!).slice(-3)).toEqual(['ORD', 100, 60]);
    expect(rows[1]!.outlineLevel).toBe(2);
    expect(rows[1]!.getCell(col('Date')).numFmt).toBe('yyyy-mm-dd');
    expect(rows[1]!.getCell(col('Segment minutes')).numFmt).toBe('0');
    // Summing the columns as a clerk would: Minutes gives the lines, Segment minutes by code the payroll hours.
    const lines = lineRows(sheet);
    expect(lines.reduce((sum, row) => sum + Number(row.getCell(col('Minutes')).value ?? 0), 0)).toBe(815);
    const night = lines.filter((row) => row.getCell(col('Hour code')).value === 'NIGHT');
    expect(night.map((row) => row.getCell(col('Segment minutes')).value)).toEqual([60]);
  });

  it('nests lines under their totals with outline levels', async () => {
    const sheet = await sheetOf(workedReport());
    expect(sheet.properties.outlineLevelRow).toBe(2);
    const levels = rowsOf(sheet).map((row) => row.outlineLevel ?? 0);
    expect(levels).toEqual([2, 1, 2, 2, 1, 2, 1, 0, 2, 2, 1, 2, 1, 0, 0, 0, 0]);
  });

  it('writes hh:mm durations as numbers, fractions of a day formatted [h]:mm', async () => {
    const report = workedReport('hh:mm');
    const file = await readAll(writeXlsx(report));
    // exceljs reads any number formatted with h and m back as a Date, so look at what is stored:
    // a plain number cell (no t="…" attribute) in the sheet XML.
    const xml = zipEntry(file, 'xl/worksheets/sheet1.xml').toString('utf8');
    const cell = (ref: string) => new RegExp(`<c r="${ref}"( s="\\d+")?><v>([^<]*)</v></c>`).exec(xml)?.[2];
    const grandRow = xlsxHeaderRow + 15;
    expect(Number(cell(`K${grandRow}`))).toBeCloseTo(815 / 1440, 12);
    expect(Number(cell(`L${grandRow}`))).toBe(815);
    expect(Number(cell(`K${first}`))).toBe(90 / 1440);

    const sheet = await sheetOf(report);
    const dayMs = 86_400_000;
    const excelEpoch = Date.UTC(1899, 11, 30);
    const grand = totalRows(sheet).at(-1)!;
    expect(grand.getCell(col('Duration')).numFmt).toBe('[h]:mm');
    expect(((grand.getCell(col('Duration')).value as Date).getTime() - excelEpoch) / dayMs).toBeCloseTo(815 / 1440, 9);
    expect(grand.getCell(col('Minutes')).value).toBe(815);
    expect(lineRows(sheet)[0]!.getCell(col('Duration')).numFmt).toBe('[h]:mm');
  });

  it('stores decimal durations and minutes as plain number cells', async () => {
    const xml = zipEntry(await readAll(writeXlsx(workedReport())), 'xl/worksheets/sheet1.xml').toString('utf8');
    const grandRow = xlsxHeaderRow + 15;
    expect(xml).toMatch(new RegExp(`<c r="K${grandRow}" s="\\d+"><v>13\\.58333`));
    expect(xml).toMatch(new RegExp(`<c r="L${grandRow}" s="\\d+"><v>815</v>`));
  });

  it('sizes columns: fixed for dates and numbers, from the longest value for text', async () => {
    const sheet = await sheetOf(workedReport());
    // exceljs leaves out a width equal to its default (9).
    const width = (name: (typeof tableColumns)[number]) => sheet.getColumn(col(name)).width ?? 9;
    expect(width('Start')).toBeGreaterThanOrEqual(16);
    expect(width('Date')).toBeGreaterThanOrEqual(10);
    expect(width('Card')).toBe(nonLatinCard.length + 2);
    expect(width('Note')).toBeGreaterThan(width('Date'));
    expect(width('Note')).toBeLessThanOrEqual(60);
  });

  it('keeps every character of text, and formula-like text as plain text', async () => {
    const sheet = await sheetOf(workedReport());
    const lines = lineRows(sheet);
    expect(lines[3]!.getCell(col('Note')).value).toBe(trickyNote);
    expect(lines[4]!.getCell(col('Note')).value).toBe(formulaNote);
    expect(lines[4]!.getCell(col('Note')).type).toBe(ExcelJS.ValueType.String);
    expect(lines[5]!.getCell(col('Card')).value).toBe(nonLatinCard);
  });

  it('drops characters XML cannot hold instead of writing a file Excel must repair', async () => {
    const report = workedReport();
    report.lines[0]!.note = 'bell\u0007 lone\uD800 surrogate \uFFFF end 😀';
    const sheet = await sheetOf(report);
    expect(lineRows(sheet)[0]!.getCell(col('Note')).value).toBe('bell lone surrogate  end 😀');
  });

  it('finds where exceljs queues sheet XML for zlib, so a big sheet is paced instead of piling up in memory', () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new PassThrough() });
    const sheet = workbook.addWorksheet('Report');
    const backlog = sheetBacklog(sheet);
    expect(backlog, 'exceljs or archiver changed: see sheetBacklog in xlsx.ts').not.toBeNull();
    for (let i = 0; i < 200; i++) sheet.addRow([i, 'x'.repeat(1000)]).commit();
    expect(backlog!.bytes()).toBeGreaterThan(64 * 1024);
  });
});
