/**
 * The CSV report file, read back with an RFC 4180 parser (test/helpers/time-report.ts) and
 * compared with the worked example's model, figure by figure.
 */
import { describe, expect, it } from 'vitest';
import { csvColumns, writeCsv, type CsvOptions } from '../../electron/api/time-tracking/export/csv.js';
import type { TimeReport } from '../../shared/time-report.js';
import { formulaNote, nonLatinCard, parseCsv, readAll, trickyNote, workedReport } from '../helpers/time-report.js';

async function csvOf(report: TimeReport, options: CsvOptions = {}): Promise<{ raw: Buffer; text: string; records: string[][] }> {
  const raw = await readAll(writeCsv(report, options));
  const text = raw.toString('utf8');
  const records = parseCsv(text.replace(/^\uFEFF/, ''), options.separator ?? ',');
  return { raw, text, records };
}

const column = (name: (typeof csvColumns)[number]) => csvColumns.indexOf(name);
const totalsOf = (records: string[][]) =>
  records.filter((r) => /^(Total |Grand total$)/.test(r[0]!)).map((r) => [r[0], r[column('Duration')], Number(r[column('Minutes')])]);
/** The total records with their amounts: `[label, minutes, amount]`. */
const amountsOf = (records: string[][]) =>
  records
    .filter((r) => /^(Total |Grand total$|Billable$|Non-billable$)/.test(r[0]!))
    .map((r) => [r[0], Number(r[column('Minutes')]), r[column('Amount')]]);
/** The records after the totals that say what the file is: `[label, value]`. */
const factsOf = (records: string[][]) => records.slice(records.findIndex((r) => r[0] === 'Non-billable') + 1).map((r) => [r[0], r[1]]);
const linesOf = (records: string[][]) => records.slice(1).filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0]!));

describe('CSV report file', () => {
  it('has a header row, CRLF line ends and 20 fields in every record', async () => {
    const { text, records } = await csvOf(workedReport());
    expect(records[0]).toEqual([...csvColumns]);
    expect(text.endsWith('\r\n')).toBe(true);
    // 7 lines, 5 day subtotals, 2 user subtotals, 1 grand total, billable and non-billable,
    // and 5 records that say what the file is.
    expect(records).toHaveLength(1 + 7 + 5 + 2 + 1 + 2 + 5);
    for (const record of records) expect(record).toHaveLength(20);
  });

  it('gives each line its billable flag, rate, amount and overlap, and every total its amount, to the cent', async () => {
    const { records } = await csvOf(workedReport());
    expect(
      linesOf(records).map((r) => [
        r[column('Activity')],
        r[column('Billable')],
        r[column('Rate')],
        r[column('Amount')],
        r[column('Overlap')],
      ]),
    ).toEqual([
      ['Assembly', 'yes', '40.00', '60.00', ''],
      ['Assembly', 'yes', '40.00', '50.00', ''],
      ['Inspection', 'no', '25.00', '50.00', ''],
      ['Assembly', 'yes', '40.00', '120.00', ''],
      ['Assembly', 'yes', '40.00', '180.00', ''],
      ['Assembly', 'yes', '40.00', '13.33', 'yes'],
      ['Assembly', 'yes', '40.00', '40.00', ''],
    ]);
    expect(amountsOf(records)).toEqual([
      ['Total 2026-10-24', 90, '60.00'],
      ['Total 2026-10-25', 195, '100.00'],
      ['Total 2026-10-26', 180, '120.00'],
      ['Total Alice Andersen', 465, '280.00'],
      ['Total 2026-10-24', 290, '193.33'],
      ['Total 2026-10-26', 60, '40.00'],
      ['Total Brown, Bob', 350, '233.33'],
      ['Grand total', 815, '513.33'],
      ['Billable', 695, '463.33'],
      ['Non-billable', 120, '50.00'],
    ]);
  });

  it('ends with what the file is: title, period, filters, who exported it and the currency', async () => {
    const { records } = await csvOf(workedReport());
    expect(factsOf(records)).toEqual([
      ['Title', 'Time report October'],
      ['Period', '2026-10-24 – 2026-10-26 (Europe/Amsterdam)'],
      ['Filters', 'status: approved,pending'],
      ['Exported by', 'Carla Planner'],
      ['Currency', 'EUR'],
    ]);
  });

  it('writes a subtotal after each group and a grand total, equal to the model to the minute', async () => {
    const { records } = await csvOf(workedReport());
    expect(totalsOf(records)).toEqual([
      ['Total 2026-10-24', '1.50', 90],
      ['Total 2026-10-25', '3.25', 195],
      ['Total 2026-10-26', '3.00', 180],
      ['Total Alice Andersen', '7.75', 465],
      ['Total 2026-10-24', '4.83', 290],
      ['Total 2026-10-26', '1.00', 60],
      ['Total Brown, Bob', '5.83', 350],
      ['Grand total', '13.58', 815],
    ]);
    const lineMinutes = linesOf(records).reduce((sum, r) => sum + Number(r[column('Minutes')]), 0);
    expect(lineMinutes).toBe(workedReport().total_minutes);
  });

  it('writes one record per line with start and end on the local clock, across midnight and the DST change', async () => {
    const { records } = await csvOf(workedReport());
    const times = linesOf(records).map((r) => [
      r[column('Date')],
      r[column('Week')],
      r[column('User')],
      r[column('Start')],
      r[column('End')],
      r[column('Duration')],
      r[column('Minutes')],
    ]);
    expect(times).toEqual([
      ['2026-10-24', '2026-W43', 'Alice Andersen', '2026-10-24 22:30', '2026-10-25 00:00', '1.50', '90'],
      ['2026-10-25', '2026-W43', 'Alice Andersen', '2026-10-25 00:00', '2026-10-25 01:15', '1.25', '75'],
      ['2026-10-25', '2026-W43', 'Alice Andersen', '2026-10-25 01:30', '2026-10-25 02:30', '2.00', '120'],
      ['2026-10-26', '2026-W44', 'Alice Andersen', '2026-10-26 09:00', '2026-10-26 12:00', '3.00', '180'],
      ['2026-10-24', '2026-W43', 'Brown, Bob', '2026-10-24 08:00', '2026-10-24 12:30', '4.50', '270'],
      ['2026-10-24', '2026-W43', 'Brown, Bob', '2026-10-24 13:00', '2026-10-24 13:20', '0.33', '20'],
      ['2026-10-26', '2026-W44', 'Brown, Bob', '2026-10-26 23:00', '2026-10-27 00:00', '1.00', '60'],
    ]);
  });

  it('quotes fields holding the separator, quotes or line breaks, and doubles the quotes', async () => {
    const { text, records } = await csvOf(workedReport());
    expect(text).toContain(',"Brown, Bob",');
    expect(text).toContain('"Fixed ""the"" bug; tested, deployed\nsecond line"');
    expect(linesOf(records)[3]![column('Note')]).toBe(trickyNote);
    expect(records.find((r) => r[0] === 'Total Brown, Bob')).toBeDefined();
  });

  it('puts an apostrophe before text a spreadsheet would run as a formula, and only there', async () => {
    const report = workedReport();
    report.lines[0]!.card = '+49 30 1234';
    report.lines[1]!.activity = '\tindented';
    const { records } = await csvOf(report);
    const lines = linesOf(records);
    expect(lines[4]![column('Note')]).toBe(`'${formulaNote}`);
    expect(lines[5]![column('Note')]).toBe("'-5 minutes correction");
    expect(lines[6]![column('Note')]).toBe("'@night");
    expect(lines[0]![column('Card')]).toBe("'+49 30 1234");
    expect(lines[1]![column('Activity')]).toBe("'\tindented");
    expect(lines[0]![column('Note')]).toBe('Night shift');
    // Computed fields are never touched.
    expect(lines.every((r) => !r[column('Start')]!.startsWith("'") && !r[column('Duration')]!.startsWith("'"))).toBe(true);
  });

  it('writes UTF-8 without a BOM by default', async () => {
    const { raw, records } = await csvOf(workedReport());
    expect(raw.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(raw.includes(Buffer.from(nonLatinCard, 'utf8'))).toBe(true);
    expect(linesOf(records)[5]![column('Card')]).toBe(nonLatinCard);
  });

  it('writes hh:mm durations when the report asks for them', async () => {
    const { records } = await csvOf(workedReport('hh:mm'));
    expect(totalsOf(records)).toEqual([
      ['Total 2026-10-24', '1:30', 90],
      ['Total 2026-10-25', '3:15', 195],
      ['Total 2026-10-26', '3:00', 180],
      ['Total Alice Andersen', '7:45', 465],
      ['Total 2026-10-24', '4:50', 290],
      ['Total 2026-10-26', '1:00', 60],
      ['Total Brown, Bob', '5:50', 350],
      ['Grand total', '13:35', 815],
    ]);
    expect(linesOf(records).map((r) => r[column('Duration')])).toEqual(['1:30', '1:15', '2:00', '3:00', '4:30', '0:20', '1:00']);
  });

  it('writes a BOM, semicolons and decimal commas for Excel in European locales', async () => {
    const { raw, text, records } = await csvOf(workedReport(), { bom: true, separator: ';' });
    expect(raw.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(text.slice(1).startsWith('Date;Week;User;')).toBe(true);
    // A comma is no longer special, a semicolon is.
    expect(text).toContain(';Brown, Bob;');
    expect(text).toContain('"Fixed ""the"" bug; tested, deployed\nsecond line"');
    expect(records.every((r) => r.length === 20)).toBe(true);
    expect(totalsOf(records).map(([label, duration, minutes]) => [label, duration, minutes])).toContainEqual(['Grand total', '13,58', 815]);
    expect(amountsOf(records)).toContainEqual(['Grand total', 815, '513,33']);
    expect(linesOf(records)[5]![column('Rate')]).toBe('40,00');
    expect(linesOf(records).map((r) => r[column('Duration')])).toEqual(['1,50', '1,25', '2,00', '3,00', '4,50', '0,33', '1,00']);
  });

  it('writes a report without groups as its lines and a grand total', async () => {
    const { records } = await csvOf({ ...workedReport(), group_by: [], groups: [] });
    expect(records).toHaveLength(1 + 7 + 3 + 5);
    const grand = records.find((r) => r[0] === 'Grand total')!;
    expect([grand[0], grand[column('Duration')], grand[column('Minutes')], grand[column('Amount')]]).toEqual([
      'Grand total',
      '13.58',
      '815',
      '513.33',
    ]);
  });

  it("writes a line's payroll segments: the first on the line's record, each further one as a record of its own", async () => {
    const report = workedReport();
    // Alice's first line (22:30–24:00 local, 90 minutes) as if 60 of them were night hours.
    report.lines[0] = {
      ...report.lines[0]!,
      hour_code: 'ORD',
      segments: [
        { date: '2026-10-24', minutes: 30, percentage: 100, hour_code: 'ORD' },
        { date: '2026-10-24', minutes: 60, percentage: 125.5, hour_code: 'NIGHT' },
      ],
    };
    const { records } = await csvOf(report, { separator: ';' });
    // One record more than the worked example's 23.
    expect(records).toHaveLength(24);
    const pick = (r: string[]) => [
      r[0],
      r[column('User')],
      r[column('Activity')],
      r[column('Minutes')],
      r[column('Amount')],
      r[column('Hour code')],
      r[column('Percentage')],
      r[column('Segment minutes')],
    ];
    expect(records.slice(1, 4).map(pick)).toEqual([
      ['2026-10-24', 'Alice Andersen', 'Assembly', '90', '60,00', 'ORD', '100', '30'],
      ['2026-10-24', 'Alice Andersen', 'Assembly', '', '', 'NIGHT', '125,5', '60'],
      // The example's other lines keep their one normal segment, without a code.
      ['Total 2026-10-24', '', '', '90', '60,00', '', '', ''],
    ]);
    expect(records[2]![column('Week')]).toBe('2026-W43');
  });

  it('is read back by a parser that refuses what RFC 4180 does not allow', () => {
    expect(parseCsv('a,"b ""c"""\r\n1,"x\ny"\r\n')).toEqual([
      ['a', 'b "c"'],
      ['1', 'x\ny'],
    ]);
    expect(() => parseCsv('a,b\nc,d\r\n')).toThrow(/separator or CRLF/);
    expect(() => parseCsv('a,b"c\r\n')).toThrow(/quote in an unquoted field/);
    expect(() => parseCsv('"a"b\r\n')).toThrow(/separator or CRLF/);
    expect(() => parseCsv('"a\r\n')).toThrow(/unterminated/);
  });
});
