/**
 * Issue 17's worked example, with hand-written totals, read back from every format: the time
 * report (JSON; CSV through an RFC 4180 parser; XLSX through exceljs; PDF through pdftotext)
 * and the payroll summary (the same four). Everything is made through the API over real HTTP,
 * as a planner (Pat Planner, a manager) exports it.
 *
 * Week 45 of 2026, Europe/Amsterdam (UTC+1 all week). Welding is billed at 50.00 an hour,
 * Cleaning at 20.00 and not billed. Card "SO-1001 · Welding" (the display name: collection,
 * then stage). Anna's resource works Monday–Friday 8 h and is sick all Wednesday 4 November;
 * Ben's works Monday–Thursday 6 h.
 *
 *   entry  user  on                      local time                     min   amount
 *   E1     Anna  SO-1001 · Welding       Mon 2  08:00–12:00            240   200.00
 *   E2     Anna  no card, Cleaning       Mon 2  13:00–14:30             90    30.00  not billed, overlaps E3
 *   E3     Anna  SO-1001 · Welding       Mon 2  14:00–16:00            120   100.00  overlaps E2
 *   E4     Ben   SO-1001 · Welding       Tue 3  22:00 → Wed 4 06:00    480   400.00  sent 22:00–06:00 with overnight: true
 *                                         (lines: Tue 120 = 100.00, Wed 360 = 300.00)
 *   E5     Ben   no card, Cleaning       Thu 5  09:00 + duration 45      45    15.00  not billed, sent without an end
 *   E6     Anna  SO-1001 · Welding       Thu 5  08:00–16:30            510   425.00
 *
 *   Anna   Mon 450 (330.00), Thu 510 (425.00)            → 960 min (16.00 h), 755.00
 *   Ben    Tue 120 (100.00), Wed 360 (300.00), Thu 45 (15.00) → 525 min (8.75 h), 415.00
 *   Grand total 1485 min (24.75 h), 1170.00: billable 1350 min (22.50 h) 1125.00, non-billable 135 min (2.25 h) 45.00
 *
 * Payroll per day (minutes: worked / scheduled / absence / expected / difference):
 *
 *   Anna  Mon 450/480/0/480/−30   Tue 0/480/0/480/−480   Wed 0/480/480/0/0 (sick)
 *         Thu 510/480/0/480/+30   Fri 0/480/0/480/−480   Sat, Sun 0
 *         total 960/2400/480/1920/−960 (16.00 h worked against 32.00 h expected: −16.00 h)
 *   Ben   Mon 0/360/0/360/−360    Tue 120/360/0/360/−240  Wed 360/360/0/360/0
 *         Thu 45/360/0/360/−315   Fri–Sun 0
 *         total 525/1440/0/1440/−915 (8.75 h against 24.00 h: −15.25 h)
 *   Grand total 1485/3840/480/3360/−1875 (24.75 h against 56.00 h: −31.25 h)
 *
 * For the payroll summary's hour codes and overtime balance (its own `beforeAll`, after the
 * report's tests): Welding is hour code ORD, Cleaning CLN, and a rule pays weekdays 23:00–06:00
 * at 125 % under NIGHT. Ben's night shift E4 (Tue 22:00 → Wed 06:00) crosses the rule's start:
 * Tue 22:00–23:00 ORD 100 % 60, Tue 23:00–24:00 NIGHT 125 % 60, Wed 00:00–06:00 NIGHT 125 % 360.
 *
 *   Anna  CLN 100 % 90 (1.50 h), ORD 100 % 240 + 120 + 510 = 870 (14.50 h)
 *   Ben   CLN 100 % 45 (0.75 h), NIGHT 125 % 420 (7.00 h), ORD 100 % 60 (1.00 h)
 *
 * Neither works over their schedule, so only corrections move the balances: Anna brought
 * 120 minutes over on 30 October (opening 2.00, change 0.00, closing 2.00 h); Ben had 90
 * paid out on Friday 6 November (opening 0.00, change −1.50, closing −1.50 h).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayrollSummary } from '../../shared/payroll-summary.js';
import type { FormattedTimeReport } from '../../shared/time-report.js';
import { expectFieldErrors } from '../helpers/order-data.js';
import { startRolesInstance, type Request, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';
import { parseCsv, pdfText } from '../helpers/time-report.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const period = 'start=2026-11-02&end=2026-11-08&timezone=Europe/Amsterdam';
let roles: RolesInstance;
let byKey: Request;
let pat: SignedInUser;
let anna: string;
let ben: string;
let welding: string;
let cleaning: string;
let card: string;
const entries: Record<string, any> = {};

async function ok(request: Request, method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200): Promise<any> {
  const res = await request(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

/** A file as Pat Planner downloads it. */
async function download(path: string): Promise<{ headers: Headers; body: Buffer }> {
  const response = await fetch(`${roles.instance.baseUrl}${path}`, { headers: pat.headers });
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return { headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

async function sheetOf(body: Buffer, name: string): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ExcelJS.Buffer);
  return workbook.getWorksheet(name)!;
}

/** Every row of a sheet from `from` on, as plain values (column A first). */
function sheetRows(sheet: ExcelJS.Worksheet, from: number): unknown[][] {
  const rows: unknown[][] = [];
  for (let r = from; r <= sheet.rowCount; r++) rows.push((sheet.getRow(r).values as unknown[]).slice(1));
  return rows;
}

/** Patterns that must appear in this order in a text. */
function expectInOrder(text: string, patterns: RegExp[]): void {
  let rest = text;
  for (const pattern of patterns) {
    const match = pattern.exec(rest);
    expect(match, `${pattern} after the previous one`).not.toBeNull();
    rest = rest.slice(match!.index + match![0].length);
  }
}

beforeAll(async () => {
  roles = await startRolesInstance('worked');
  byKey = roles.byKey;
  pat = await roles.signIn('pat@example.com', 'manager');
  await ok(byKey, 'PUT', `/v1/user/${pat.id}`, { firstname: 'Pat', lastname: 'Planner' });
  welding = (await ok(byKey, 'POST', '/v1/activity', { description: 'Welding', hourly_rate: 50, billable: true })).id;
  cleaning = (await ok(byKey, 'POST', '/v1/activity', { description: 'Cleaning', hourly_rate: 20, billable: false })).id;
  const board = await ok(byKey, 'POST', '/v1/board?with=stages', {
    name: 'Workshop',
    stages: [{ name: 'Welding', activities: [{ id: welding }] }],
    statuses: [{ name: 'To do', entry: true }],
  });
  const collection = (await ok(byKey, 'POST', '/v1/collection', { name: 'SO-1001', board_id: board.id })).id;
  card = (
    await ok(byKey, 'POST', `/v1/collection/${collection}/card`, {
      stage_id: board.stages[0].id,
      start_date: '2026-11-02',
      end_date: '2026-11-05',
    })
  ).id;
  const annaResource = (
    await ok(byKey, 'POST', '/v1/resource', {
      name: 'Anna (welder)',
      workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
    })
  ).id;
  const benResource = (
    await ok(byKey, 'POST', '/v1/resource', {
      name: 'Ben (night shift)',
      workdays: { '1': 6, '2': 6, '3': 6, '4': 6, '5': null, '6': null, '7': null },
    })
  ).id;
  await ok(byKey, 'POST', `/v1/resource/${annaResource}/schedule_deviation`, {
    type: 'sick',
    start_date: '2026-11-04',
    end_date: '2026-11-04',
    time: null,
  });
  anna = (await roles.signIn('anna@example.com', 'member')).id;
  ben = (await roles.signIn('ben@example.com', 'member')).id;
  await ok(byKey, 'PUT', `/v1/user/${anna}`, { firstname: 'Anna', lastname: 'Adams', resource_id: annaResource });
  await ok(byKey, 'PUT', `/v1/user/${ben}`, { firstname: 'Ben', lastname: 'Bakker', resource_id: benResource });

  const post = (body: Record<string, unknown>) => ok(byKey, 'POST', '/v1/time_tracking', body);
  entries.E1 = await post({ user_id: anna, card_id: card, start: '2026-11-02T07:00:00Z', end: '2026-11-02T11:00:00Z' });
  entries.E2 = await post({
    user_id: anna,
    activity_id: cleaning,
    start: '2026-11-02T12:00:00Z',
    end: '2026-11-02T13:30:00Z',
    note: 'Cleaned the booth',
  });
  entries.E3 = await post({ user_id: anna, card_id: card, start: '2026-11-02T13:00:00Z', end: '2026-11-02T15:00:00Z' });
  entries.E4 = await post({ user_id: ben, card_id: card, start: '2026-11-03T21:00:00Z', end: '2026-11-03T05:00:00Z', overnight: true });
  entries.E5 = await post({ user_id: ben, activity_id: cleaning, start: '2026-11-05T08:00:00Z', duration: 45 });
  entries.E6 = await post({ user_id: anna, card_id: card, start: '2026-11-05T07:00:00Z', end: '2026-11-05T15:30:00Z' });
});
afterAll(async () => {
  await roles?.stop();
});

describe('the entries of the worked example', () => {
  it("are booked as the planner sent them: no card, overnight, duration only, the card's activity, overlaps flagged", async () => {
    expect(entries.E1).toMatchObject({ activity_id: welding, duration: 240, overlaps: [] });
    expect(entries.E2).toMatchObject({ card_id: null, activity_id: cleaning, duration: 90 });
    expect(entries.E3).toMatchObject({ duration: 120, overlaps: [entries.E2.id] });
    expect(await ok(byKey, 'GET', `/v1/time_tracking/${entries.E2.id}`)).toMatchObject({ overlaps: [entries.E3.id] });
    expect(entries.E4).toMatchObject({ start: '2026-11-03T21:00:00Z', end: '2026-11-04T05:00:00Z', duration: 480 });
    expect(entries.E5).toMatchObject({ card_id: null, end: '2026-11-05T08:45:00Z', duration: 45, running: false });
    // The same overnight entry without the tick is refused, and nothing is booked.
    expectFieldErrors(
      await byKey('POST', '/v1/time_tracking', { user_id: ben, card_id: card, start: '2026-11-03T21:00:00Z', end: '2026-11-03T05:00:00Z' }),
      ['end'],
    );
  });
});

describe('the time report, grouped by users and days', () => {
  const query = `${period}&group_by=users,days`;

  it('JSON: every line with user, card, activity, rate, amount and the overlap flag; groups and totals with amounts', async () => {
    const r: FormattedTimeReport = await ok(roles.as(pat), 'GET', `/v1/time_tracking/export?${query}`);
    expect(r.lines.map((l) => [l.user, l.date, l.card, l.activity, l.minutes, l.hourly_rate, l.billable, l.amount, l.overlaps])).toEqual([
      ['Anna Adams', '2026-11-02', 'SO-1001 · Welding', 'Welding', 240, 50, true, 200, false],
      ['Anna Adams', '2026-11-02', '', 'Cleaning', 90, 20, false, 30, true],
      ['Anna Adams', '2026-11-02', 'SO-1001 · Welding', 'Welding', 120, 50, true, 100, true],
      ['Ben Bakker', '2026-11-03', 'SO-1001 · Welding', 'Welding', 120, 50, true, 100, false],
      ['Ben Bakker', '2026-11-04', 'SO-1001 · Welding', 'Welding', 360, 50, true, 300, false],
      ['Anna Adams', '2026-11-05', 'SO-1001 · Welding', 'Welding', 510, 50, true, 425, false],
      ['Ben Bakker', '2026-11-05', '', 'Cleaning', 45, 20, false, 15, false],
    ]);
    expect(
      r.groups.map((u) => [
        u.label,
        u.minutes,
        u.amount,
        u.billable_minutes,
        u.billable_amount,
        u.non_billable_minutes,
        u.non_billable_amount,
        u.groups!.map((d) => [d.label, d.minutes, d.amount]),
      ]),
    ).toEqual([
      [
        'Anna Adams',
        960,
        755,
        870,
        725,
        90,
        30,
        [
          ['2026-11-02', 450, 330],
          ['2026-11-05', 510, 425],
        ],
      ],
      [
        'Ben Bakker',
        525,
        415,
        480,
        400,
        45,
        15,
        [
          ['2026-11-03', 120, 100],
          ['2026-11-04', 360, 300],
          ['2026-11-05', 45, 15],
        ],
      ],
    ]);
    expect(r).toMatchObject({
      total_minutes: 1485,
      total_duration: '24.75',
      totals: { amount: 1170, billable_minutes: 1350, billable_amount: 1125, non_billable_minutes: 135, non_billable_amount: 45 },
      exported_by: 'Pat Planner',
      currency: 'EUR',
      filter_text: 'none',
    });
  });

  it('CSV: the same lines, subtotals, grand total and billable split, and what the file is', async () => {
    const file = await download(`/v1/time_tracking/export?${query}&format=csv`);
    const rows = parseCsv(file.body.toString('utf8'));
    const header = rows[0]!;
    const at = (name: string) => header.indexOf(name);
    const lines = rows.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0]!));
    expect(
      lines.map((r) => [
        r[at('User')],
        r[at('Card')],
        r[at('Activity')],
        r[at('Minutes')],
        r[at('Billable')],
        r[at('Rate')],
        r[at('Amount')],
        r[at('Overlap')],
      ]),
    ).toEqual([
      ['Anna Adams', 'SO-1001 · Welding', 'Welding', '240', 'yes', '50.00', '200.00', ''],
      ['Anna Adams', '', 'Cleaning', '90', 'no', '20.00', '30.00', 'yes'],
      ['Anna Adams', 'SO-1001 · Welding', 'Welding', '120', 'yes', '50.00', '100.00', 'yes'],
      ['Anna Adams', 'SO-1001 · Welding', 'Welding', '510', 'yes', '50.00', '425.00', ''],
      ['Ben Bakker', 'SO-1001 · Welding', 'Welding', '120', 'yes', '50.00', '100.00', ''],
      ['Ben Bakker', 'SO-1001 · Welding', 'Welding', '360', 'yes', '50.00', '300.00', ''],
      ['Ben Bakker', '', 'Cleaning', '45', 'no', '20.00', '15.00', ''],
    ]);
    const totals = rows
      .filter((r) => /^(Total |Grand total$|Billable$|Non-billable$)/.test(r[0]!))
      .map((r) => [r[0], r[at('Duration')], r[at('Amount')]]);
    expect(totals).toEqual([
      ['Total 2026-11-02', '7.50', '330.00'],
      ['Total 2026-11-05', '8.50', '425.00'],
      ['Total Anna Adams', '16.00', '755.00'],
      ['Total 2026-11-03', '2.00', '100.00'],
      ['Total 2026-11-04', '6.00', '300.00'],
      ['Total 2026-11-05', '0.75', '15.00'],
      ['Total Ben Bakker', '8.75', '415.00'],
      ['Grand total', '24.75', '1170.00'],
      ['Billable', '22.50', '1125.00'],
      ['Non-billable', '2.25', '45.00'],
    ]);
    const facts = Object.fromEntries(rows.slice(rows.findIndex((r) => r[0] === 'Non-billable') + 1).map((r) => [r[0], r[1]]));
    expect(facts).toEqual({
      Title: 'Time report',
      Period: '2026-11-02 – 2026-11-08 (Europe/Amsterdam)',
      Filters: 'none',
      'Exported by': 'Pat Planner',
      Currency: 'EUR',
    });
  });

  it('XLSX: amounts as currency-formatted numbers, totals and split, the heading naming period, filters and exporter', async () => {
    const file = await download(`/v1/time_tracking/export?${query}&format=xlsx`);
    const sheet = await sheetOf(file.body, 'Report');
    expect(sheet.getCell('A2').value).toBe('Period: 2026-11-02 – 2026-11-08 · Time zone: Europe/Amsterdam · Exported by: Pat Planner');
    expect(sheet.getCell('A3').value).toBe('Filters: none · Grouped by: users, days · Currency: EUR');
    const header = (sheet.getRow(4).values as unknown[]).slice(1) as string[];
    const at = (name: string) => header.indexOf(name) + 1;
    const rows: ExcelJS.Row[] = [];
    for (let r = 5; r <= sheet.rowCount; r++) rows.push(sheet.getRow(r));
    const lines = rows.filter((row) => row.getCell(1).value instanceof Date);
    expect(
      lines.map((row) => [
        row.getCell(at('User')).value,
        row.getCell(at('Minutes')).value,
        row.getCell(at('Rate')).value,
        row.getCell(at('Amount')).value,
        row.getCell(at('Billable')).value,
        row.getCell(at('Overlap')).value,
      ]),
    ).toEqual([
      ['Anna Adams', 240, 50, 200, 'yes', 'no'],
      ['Anna Adams', 90, 20, 30, 'no', 'yes'],
      ['Anna Adams', 120, 50, 100, 'yes', 'yes'],
      ['Anna Adams', 510, 50, 425, 'yes', 'no'],
      ['Ben Bakker', 120, 50, 100, 'yes', 'no'],
      ['Ben Bakker', 360, 50, 300, 'yes', 'no'],
      ['Ben Bakker', 45, 20, 15, 'no', 'no'],
    ]);
    for (const row of lines) expect(row.getCell(at('Amount')).numFmt).toBe('"€"#,##0.00');
    const totals = rows
      .filter((row) => typeof row.getCell(1).value === 'string')
      .map((row) => [
        row.getCell(1).value,
        row.getCell(at('Minutes')).value,
        row.getCell(at('Amount')).value,
        row.getCell(at('Amount')).numFmt,
      ]);
    expect(totals).toEqual([
      ['Total 2026-11-02', 450, 330, '"€"#,##0.00'],
      ['Total 2026-11-05', 510, 425, '"€"#,##0.00'],
      ['Total Anna Adams', 960, 755, '"€"#,##0.00'],
      ['Total 2026-11-03', 120, 100, '"€"#,##0.00'],
      ['Total 2026-11-04', 360, 300, '"€"#,##0.00'],
      ['Total 2026-11-05', 45, 15, '"€"#,##0.00'],
      ['Total Ben Bakker', 525, 415, '"€"#,##0.00'],
      ['Grand total', 1485, 1170, '"€"#,##0.00'],
      ['Billable', 1350, 1125, '"€"#,##0.00'],
      ['Non-billable', 135, 45, '"€"#,##0.00'],
    ]);
  });

  it('PDF: lines with rate, amount and overlap, totals with amounts, the billable split, and the heading', async () => {
    const text = await pdfText((await download(`/v1/time_tracking/export?${query}&format=pdf`)).body);
    expect(text).toMatch(/Period: 2026-11-02 – 2026-11-08\s+Time zone: Europe\/Amsterdam/);
    expect(text).toContain('Filters: none');
    expect(text).toMatch(/Exported by: Pat Planner\s+Currency: EUR/);
    expectInOrder(text, [
      /User: Anna Adams/,
      /Day: 2026-11-02/,
      /Workshop\s+SO-1001 · Welding\s+Welding\s+draft\s+08:00\s+12:00\s+4\.00\s+100\s+50\.00\s+200\.00\s+yes/,
      /Cleaning\s+draft\s+13:00\s+14:30\s+1\.50\s+100\s+20\.00\s+30\.00\s+no\s+yes\s+Cleaned the booth/,
      /SO-1001 · Welding\s+Welding\s+draft\s+14:00\s+16:00\s+2\.00\s+100\s+50\.00\s+100\.00\s+yes\s+yes/,
      /Total 2026-11-02\s+7\.50\s+330\.00/,
      /Total 2026-11-05\s+8\.50\s+425\.00/,
      /Total Anna Adams\s+16\.00\s+755\.00/,
      /User: Ben Bakker/,
      /22:00\s+24:00\s+2\.00\s+100\s+50\.00\s+100\.00/,
      /00:00\s+06:00\s+6\.00\s+100\s+50\.00\s+300\.00/,
      /Total Ben Bakker\s+8\.75\s+415\.00/,
      /Grand total\s+24\.75\s+1170\.00/,
      /Billable\s+22\.50\s+1125\.00/,
      /Non-billable\s+2\.25\s+45\.00/,
    ]);
  });

  it('names the filtered user in the filters and the file name', async () => {
    const filter = encodeURIComponent(`user_id:eq:'${anna}',and,activity_id:eq:'${cleaning}'`);
    const r = await ok(roles.as(pat), 'GET', `/v1/time_tracking/export?${period}&filter=${filter}`);
    expect(r).toMatchObject({
      filter_text: 'user: Anna Adams; activity: Cleaning',
      total_minutes: 90,
      totals: { amount: 30, non_billable_amount: 30 },
    });
    // E2 still overlaps E3, which the filter leaves out.
    expect(r.lines.map((l: any) => [l.entry_id, l.overlaps])).toEqual([[entries.E2.id, true]]);
    const file = await download(`/v1/time_tracking/export?${period}&filter=${filter}&format=csv`);
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="time-report-anna-adams-2026-11-02-2026-11-08.csv"');
    const rows = parseCsv(file.body.toString('utf8'));
    expect(rows.find((row) => row[0] === 'Filters')![1]).toBe('user: Anna Adams; activity: Cleaning');
  });
});

describe('the payroll summary', () => {
  beforeAll(async () => {
    await ok(byKey, 'PUT', `/v1/activity/${welding}`, { hour_code: 'ORD' });
    await ok(byKey, 'PUT', `/v1/activity/${cleaning}`, { hour_code: 'CLN' });
    await ok(byKey, 'POST', '/v1/surcharge_rule', {
      name: 'Night',
      weekdays: [1, 2, 3, 4, 5],
      from_time: '23:00',
      to_time: '06:00',
      percentage: 125,
      hour_code: 'NIGHT',
    });
    await ok(byKey, 'POST', '/v1/overtime_correction', { user_id: anna, date: '2026-10-30', minutes: 120 });
    await ok(byKey, 'POST', '/v1/overtime_correction', { user_id: ben, date: '2026-11-06', minutes: -90 });
  });

  const perDay = (summary: PayrollSummary) =>
    summary.users.map((u) => [
      u.user,
      u.resource,
      u.buckets.map(
        (b) => `${b.key} ${b.worked_minutes}/${b.scheduled_minutes}/${b.absence_minutes}/${b.expected_minutes}/${b.difference_minutes}`,
      ),
    ]);

  it('JSON per day: worked against scheduled hours, the sick day, the difference; totals per user and in all', async () => {
    const summary: PayrollSummary = await ok(roles.as(pat), 'GET', `/v1/time_tracking/payroll?${period}&per=day`);
    expect(perDay(summary)).toEqual([
      [
        'Anna Adams',
        'Anna (welder)',
        [
          '2026-11-02 450/480/0/480/-30',
          '2026-11-03 0/480/0/480/-480',
          '2026-11-04 0/480/480/0/0',
          '2026-11-05 510/480/0/480/30',
          '2026-11-06 0/480/0/480/-480',
          '2026-11-07 0/0/0/0/0',
          '2026-11-08 0/0/0/0/0',
        ],
      ],
      [
        'Ben Bakker',
        'Ben (night shift)',
        [
          '2026-11-02 0/360/0/360/-360',
          '2026-11-03 120/360/0/360/-240',
          '2026-11-04 360/360/0/360/0',
          '2026-11-05 45/360/0/360/-315',
          '2026-11-06 0/0/0/0/0',
          '2026-11-07 0/0/0/0/0',
          '2026-11-08 0/0/0/0/0',
        ],
      ],
    ]);
    expect(
      summary.users.map((u) => [
        u.user,
        u.worked_minutes,
        u.scheduled_minutes,
        u.absence_minutes,
        u.expected_minutes,
        u.difference_minutes,
      ]),
    ).toEqual([
      ['Anna Adams', 960, 2400, 480, 1920, -960],
      ['Ben Bakker', 525, 1440, 0, 1440, -915],
    ]);
    expect(summary).toMatchObject({
      per: 'day',
      exported_by: 'Pat Planner',
      totals: { worked_minutes: 1485, scheduled_minutes: 3840, absence_minutes: 480, expected_minutes: 3360, difference_minutes: -1875 },
    });
  });

  it('JSON per week: one ISO week with the same totals', async () => {
    const summary: PayrollSummary = await ok(roles.as(pat), 'GET', `/v1/time_tracking/payroll?${period}`);
    expect(summary.per).toBe('week');
    expect(perDay(summary)).toEqual([
      ['Anna Adams', 'Anna (welder)', ['2026-W45 960/2400/480/1920/-960']],
      ['Ben Bakker', 'Ben (night shift)', ['2026-W45 525/1440/0/1440/-915']],
    ]);
  });

  it('CSV, XLSX and PDF show the same figures in hours', async () => {
    const csv = parseCsv((await download(`/v1/time_tracking/payroll?${period}&per=day&format=csv`)).body.toString('utf8'));
    expect(csv[0]).toEqual([
      'User',
      'Resource',
      'Day',
      'From',
      'To',
      'Worked',
      'Scheduled',
      'Absence',
      'Expected',
      'Difference',
      'Hour code',
      'Percentage',
      'Opening balance',
      'Overtime change',
      'Closing balance',
    ]);
    expect(csv.filter((r) => r[2] === '2026-11-04').map((r) => [r[0], ...r.slice(5, 10)])).toEqual([
      ['Anna Adams', '0.00', '8.00', '8.00', '0.00', '0.00'],
      ['Ben Bakker', '6.00', '6.00', '0.00', '6.00', '0.00'],
    ]);
    expect(csv.filter((r) => /^(Total |Grand total$)/.test(r[0]!)).map((r) => [r[0], ...r.slice(5, 10)])).toEqual([
      ['Total Anna Adams', '16.00', '40.00', '8.00', '32.00', '-16.00'],
      ['Total Ben Bakker', '8.75', '24.00', '0.00', '24.00', '-15.25'],
      ['Grand total', '24.75', '64.00', '8.00', '56.00', '-31.25'],
    ]);
    expect(Object.fromEntries(csv.slice(-4).map((r) => [r[0], r[1]]))).toEqual({
      Title: 'Payroll summary',
      Period: '2026-11-02 – 2026-11-08 (Europe/Amsterdam)',
      Filters: 'none',
      'Exported by': 'Pat Planner',
    });
    const hhmm = parseCsv((await download(`/v1/time_tracking/payroll?${period}&format=csv&duration_format=hh:mm`)).body.toString('utf8'));
    expect(hhmm.find((r) => r[0] === 'Grand total')!.slice(5, 10)).toEqual(['24:45', '64:00', '8:00', '56:00', '-31:15']);

    const xlsx = await download(`/v1/time_tracking/payroll?${period}&per=day&format=xlsx`);
    expect(xlsx.headers.get('content-disposition')).toBe('attachment; filename="payroll-summary-2026-11-02-2026-11-08.xlsx"');
    const rows = sheetRows(await sheetOf(xlsx.body, 'Payroll'), 5);
    expect(rows.filter((r) => typeof r[0] === 'string' && /^(Total |Grand total$)/.test(r[0])).map((r) => [r[0], ...r.slice(5)])).toEqual([
      ['Total Anna Adams', 16, 40, 8, 32, -16],
      ['Total Ben Bakker', 8.75, 24, 0, 24, -15.25],
      ['Grand total', 24.75, 64, 8, 56, -31.25],
    ]);
    expect(rows.find((r) => r[0] === 'Anna Adams' && r[2] === '2026-11-05')!.slice(5)).toEqual([8.5, 8, 0, 8, 0.5]);

    const pdf = await pdfText((await download(`/v1/time_tracking/payroll?${period}&per=day&format=pdf`)).body);
    expect(pdf).toContain('Exported by: Pat Planner');
    expectInOrder(pdf, [
      /User\s+Resource\s+Day\s+From\s+To\s+Worked\s+Scheduled\s+Absence\s+Expected\s+Difference/,
      /Anna Adams\s+Anna \(welder\)\s+2026-11-02\s+2026-11-02\s+2026-11-02\s+7\.50\s+8\.00\s+0\.00\s+8\.00\s+-0\.50/,
      /Anna Adams\s+Anna \(welder\)\s+2026-11-04\s+2026-11-04\s+2026-11-04\s+0\.00\s+8\.00\s+8\.00\s+0\.00\s+0\.00/,
      /Total Anna Adams\s+Anna \(welder\)\s+16\.00\s+40\.00\s+8\.00\s+32\.00\s+-16\.00/,
      /Total Ben Bakker\s+Ben \(night shift\)\s+8\.75\s+24\.00\s+0\.00\s+24\.00\s+-15\.25/,
      /Grand total\s+24\.75\s+64\.00\s+8\.00\s+56\.00\s+-31\.25/,
      /Page 1 of 1/,
    ]);
  });

  it("JSON, CSV, XLSX and PDF carry each user's hours per hour code and their overtime balance", async () => {
    const summary: PayrollSummary = await ok(roles.as(pat), 'GET', `/v1/time_tracking/payroll?${period}`);
    expect(summary.users.map((u) => [u.user, u.hour_codes, u.overtime])).toEqual([
      [
        'Anna Adams',
        [
          { hour_code: 'CLN', percentage: 100, minutes: 90 },
          { hour_code: 'ORD', percentage: 100, minutes: 870 },
        ],
        { opening_minutes: 120, change_minutes: 0, closing_minutes: 120 },
      ],
      [
        'Ben Bakker',
        [
          { hour_code: 'CLN', percentage: 100, minutes: 45 },
          { hour_code: 'NIGHT', percentage: 125, minutes: 420 },
          { hour_code: 'ORD', percentage: 100, minutes: 60 },
        ],
        { opening_minutes: 0, change_minutes: -90, closing_minutes: -90 },
      ],
    ]);

    // Per user: the week, a row per hour code (hours under Worked), the balance row, the total.
    const csv = parseCsv((await download(`/v1/time_tracking/payroll?${period}&format=csv&separator=;`)).body.toString('utf8'), ';');
    expect(csv.slice(1, 13)).toEqual([
      [
        'Anna Adams',
        'Anna (welder)',
        '2026-W45',
        '2026-11-02',
        '2026-11-08',
        '16,00',
        '40,00',
        '8,00',
        '32,00',
        '-16,00',
        '',
        '',
        '',
        '',
        '',
      ],
      ['Anna Adams', 'Anna (welder)', '', '', '', '1,50', '', '', '', '', 'CLN', '100', '', '', ''],
      ['Anna Adams', 'Anna (welder)', '', '', '', '14,50', '', '', '', '', 'ORD', '100', '', '', ''],
      ['Anna Adams', 'Anna (welder)', '', '', '', '', '', '', '', '', '', '', '2,00', '0,00', '2,00'],
      ['Total Anna Adams', 'Anna (welder)', '', '', '', '16,00', '40,00', '8,00', '32,00', '-16,00', '', '', '', '', ''],
      [
        'Ben Bakker',
        'Ben (night shift)',
        '2026-W45',
        '2026-11-02',
        '2026-11-08',
        '8,75',
        '24,00',
        '0,00',
        '24,00',
        '-15,25',
        '',
        '',
        '',
        '',
        '',
      ],
      ['Ben Bakker', 'Ben (night shift)', '', '', '', '0,75', '', '', '', '', 'CLN', '100', '', '', ''],
      ['Ben Bakker', 'Ben (night shift)', '', '', '', '7,00', '', '', '', '', 'NIGHT', '125', '', '', ''],
      ['Ben Bakker', 'Ben (night shift)', '', '', '', '1,00', '', '', '', '', 'ORD', '100', '', '', ''],
      ['Ben Bakker', 'Ben (night shift)', '', '', '', '', '', '', '', '', '', '', '0,00', '-1,50', '-1,50'],
      ['Total Ben Bakker', 'Ben (night shift)', '', '', '', '8,75', '24,00', '0,00', '24,00', '-15,25', '', '', '', '', ''],
      ['Grand total', '', '', '', '', '24,75', '64,00', '8,00', '56,00', '-31,25', '', '', '', '', ''],
    ]);
    const hhmm = parseCsv((await download(`/v1/time_tracking/payroll?${period}&format=csv&duration_format=hh:mm`)).body.toString('utf8'));
    expect(
      hhmm
        .slice(1)
        .filter((r) => r[10] === 'NIGHT' || r[12] !== '')
        .map((r) => [r[0], r[5], r[10], r[11], ...r.slice(12)]),
    ).toEqual([
      ['Anna Adams', '', '', '', '2:00', '0:00', '2:00'],
      ['Ben Bakker', '7:00', 'NIGHT', '125', '', '', ''],
      ['Ben Bakker', '', '', '', '0:00', '-1:30', '-1:30'],
    ]);

    const sheet = await sheetOf((await download(`/v1/time_tracking/payroll?${period}&format=xlsx`)).body, 'Payroll');
    expect((sheet.getRow(4).values as unknown[]).slice(11)).toEqual([
      'Hour code',
      'Percentage',
      'Opening balance',
      'Overtime change',
      'Closing balance',
    ]);
    const cells = (r: number) => Array.from({ length: 15 }, (_, c) => sheet.getRow(r).getCell(c + 1).value ?? null);
    expect([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15].map(cells).map((r) => [r[0], r[5], r[10], r[11], r[12], r[13], r[14]])).toEqual([
      ['Anna Adams', 16, null, null, null, null, null],
      ['Anna Adams', 1.5, 'CLN', 100, null, null, null],
      ['Anna Adams', 14.5, 'ORD', 100, null, null, null],
      ['Anna Adams', null, null, null, 2, 0, 2],
      ['Total Anna Adams', 16, null, null, null, null, null],
      ['Ben Bakker', 8.75, null, null, null, null, null],
      ['Ben Bakker', 0.75, 'CLN', 100, null, null, null],
      ['Ben Bakker', 7, 'NIGHT', 125, null, null, null],
      ['Ben Bakker', 1, 'ORD', 100, null, null, null],
      ['Ben Bakker', null, null, null, 0, -1.5, -1.5],
      ['Total Ben Bakker', 8.75, null, null, null, null, null],
    ]);
    expect(sheet.getRow(14).getCell(14).numFmt).toBe('0.00;[Red]-0.00');

    const pdf = await pdfText((await download(`/v1/time_tracking/payroll?${period}&format=pdf`)).body);
    expectInOrder(pdf, [
      /Anna Adams\s+Anna \(welder\)\s+2026-W45\s+2026-11-02\s+2026-11-08\s+16\.00/,
      /Anna Adams\s+Anna \(welder\)\s+Hours CLN at 100 %\s+1\.50\n/,
      /Anna Adams\s+Anna \(welder\)\s+Hours ORD at 100 %\s+14\.50\n/,
      /Anna Adams\s+Anna \(welder\)\s+Overtime balance: opening 2\.00 · change 0\.00 · closing 2\.00/,
      /Total Anna Adams\s+Anna \(welder\)\s+16\.00/,
      /Ben Bakker\s+Ben \(night shift\)\s+Hours CLN at 100 %\s+0\.75\n/,
      /Ben Bakker\s+Ben \(night shift\)\s+Hours NIGHT at 125 %\s+7\.00\n/,
      /Ben Bakker\s+Ben \(night shift\)\s+Hours ORD at 100 %\s+1\.00\n/,
      /Ben Bakker\s+Ben \(night shift\)\s+Overtime balance: opening 0\.00 · change -1\.50 · closing -1\.50/,
      /Total Ben Bakker\s+Ben \(night shift\)\s+8\.75/,
      /Grand total\s+24\.75/,
    ]);
  });

  it('refuses a bad per or a group_by with a 422 naming it', async () => {
    expectFieldErrors(await roles.as(pat)('GET', `/v1/time_tracking/payroll?${period}&per=month`), ['per']);
    expectFieldErrors(await roles.as(pat)('GET', `/v1/time_tracking/payroll?${period}&group_by=users`), ['group_by']);
  });
});
