/**
 * The week sheet and every report add a day up the same way (docs/API.md "Time tracking",
 * "Time reports"): the sheet's day totals, built by the renderer's own code from the entries
 * it reads over real HTTP, against the JSON report, the CSV file and the payroll summary of the
 * same week, days cut in the person's time zone (shared/entry-days.ts decides for all of them).
 *
 * Week 43 of 2026 in Europe/Amsterdam, chosen for the night summer time ends: on Sunday 25
 * October 03:00 CEST becomes 02:00 CET, a 25-hour day. Anna's entries (local times):
 *
 *   E1  Sun 18 22:00 → Mon 19 06:00   began the week before: Mon 360 (Sun 18's 120 is last week's)
 *   E2  Tue 20 23:59:40 → Wed 21 00:00:50   70 seconds, 1 minute: on Wednesday, its larger part
 *   E3  Wed 21 09:00–12:00                 180
 *   E4  Fri 23 22:00 → Sat 24 06:00   Fri 120, Sat 360
 *   E5  Sat 24 22:00 → Sun 25 06:00   nine real hours over the extra one: Sat 120, Sun 420
 *   E6  Sun 25 23:00 → Mon 26 01:00   Sun 60 (Mon 26's 60 is next week's)
 *
 *   Mon 360  Tue 0  Wed 181  Thu 0  Fri 120  Sat 480  Sun 480  = 1621
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayrollSummary } from '../../shared/payroll-summary.js';
import type { FormattedTimeReport } from '../../shared/time-report.js';
import { personTimeZone, rangeInstants } from '../../renderer/views/time/periods.js';
import { entriesWithTimeIn } from '../../renderer/views/time/time-filters.js';
import { buildWeekGrid } from '../../renderer/views/time/week-grid.js';
import { nowMs } from '../../shared/clock.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { parseCsv } from '../helpers/time-report.js';

const week = { start: '2026-10-19', end: '2026-10-25' };
const expected = { '2026-10-19': 360, '2026-10-21': 181, '2026-10-23': 120, '2026-10-24': 480, '2026-10-25': 480 };

let api: TestApi;
let anna: { id: string; timezone: string };

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

beforeAll(async () => {
  api = await startTestApi();
  const resource = await ok('POST', '/v1/resource', {
    name: 'Anna (welder)',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
  });
  await ok('POST', '/v1/user', { email: 'anna@example.com', role: 'member', resource: { id: resource.id } });
  anna = (await ok('GET', `/v1/user?filter=${encodeURIComponent("email:eq:'anna@example.com'")}`)).data[0];
  await ok('PUT', `/v1/user/${anna.id}`, { firstname: 'Anna', lastname: 'Adams', timezone: 'Europe/Amsterdam' });
  const activity = (await ok('POST', '/v1/activity', { description: 'Welding' })).id;
  for (const [start, end] of [
    ['2026-10-18T20:00:00Z', '2026-10-19T04:00:00Z'],
    ['2026-10-20T21:59:40Z', '2026-10-20T22:00:50Z'],
    ['2026-10-21T07:00:00Z', '2026-10-21T10:00:00Z'],
    ['2026-10-23T20:00:00Z', '2026-10-24T04:00:00Z'],
    ['2026-10-24T20:00:00Z', '2026-10-25T05:00:00Z'],
    ['2026-10-25T22:00:00Z', '2026-10-26T00:00:00Z'],
  ])
    await ok('POST', '/v1/time_tracking', { user_id: anna.id, activity_id: activity, start, end });
});
afterAll(async () => {
  await api?.close();
});

/** Minutes per date of the week, zeros left out. */
function byDate(pairs: Iterable<[string, number]>): Record<string, number> {
  const days: Record<string, number> = {};
  for (const [date, minutes] of pairs) if (date >= week.start && date <= week.end) days[date] = (days[date] ?? 0) + minutes;
  for (const date of Object.keys(days)) if (days[date] === 0) delete days[date];
  return days;
}

describe("Anna's week", () => {
  it('holds the same minutes per day on the sheet, in the JSON report, its CSV file and the payroll summary', async () => {
    // The sheet, read and built as the app does it.
    const timeZone = personTimeZone(anna);
    expect(timeZone).toBe('Europe/Amsterdam');
    const filter = entriesWithTimeIn(anna.id, rangeInstants(week, timeZone));
    const entries = await ok('GET', `/v1/time_tracking?limit=1000&sort=start:asc&filter=${encodeURIComponent(filter)}`);
    expect(entries.count).toBe(6);
    const grid = buildWeekGrid({ monday: week.start, entries: entries.data, timeZone, now: nowMs() });
    expect(byDate(grid.days.map((date, i) => [date, grid.dayTotals[i]!]))).toEqual(expected);
    expect(grid.total).toBe(1621);

    const annas = `start=${week.start}&end=${week.end}&timezone=Europe/Amsterdam&filter=${encodeURIComponent(`user_id:eq:'${anna.id}'`)}`;
    const report: FormattedTimeReport = await ok('GET', `/v1/time_tracking/export?${annas}&group_by=days`);
    expect(byDate(report.groups.map((group) => [group.key!, group.minutes]))).toEqual(expected);
    expect(report.total_minutes).toBe(1621);

    const csv = parseCsv((await api.http('GET', `/v1/time_tracking/export?${annas}&group_by=days&format=csv`)).body as string);
    const header = csv[0]!;
    const lines = csv.filter((row) => /^\d{4}-\d{2}-\d{2}$/.test(row[0]!));
    expect(byDate(lines.map((row) => [row[0]!, Number(row[header.indexOf('Minutes')])]))).toEqual(expected);

    const payroll: PayrollSummary = await ok('GET', `/v1/time_tracking/payroll?${annas}&per=day`);
    const [row] = payroll.users;
    expect(byDate(row!.buckets.map((bucket) => [bucket.key, bucket.worked_minutes]))).toEqual(expected);
    expect(row!.worked_minutes).toBe(1621);
  });
});
