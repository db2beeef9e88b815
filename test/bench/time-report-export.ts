/**
 * Benchmark: exporting 100,000 time entries through the API, grouped by users and days, in
 * each format: `GET /v1/time_tracking/export?group_by=users,days&format=…` over real HTTP on
 * 127.0.0.1 against a real data folder. Unlike time-report-writers.ts (the file writers on a
 * report already in memory) this counts everything a planner waits for: reading the entries
 * and their cards, collections, boards, activities and users, building the report, writing
 * the file and sending it.
 *
 * The entries (20 users × 25 days × 200 a day, of 3 minutes each) are seeded once, straight
 * into the store, in a folder of the OS temp dir that is removed at the end. Each format then
 * runs in a child process of its own that opens that folder and serves the API, so one
 * format's memory does not count against the next. Printed per format: wall time from the
 * request to the last byte, the file size, and peak RSS of the serving process (sampled every
 * 5 ms) over its RSS before the request. Budgets (issue 6): CSV ≤ 1 s, XLSX ≤ 5 s, PDF ≤ 5 s;
 * JSON has none and is shown for comparison. Since issue 17 every line also carries its rate,
 * amount, billable flag and overlap flag, and the cards their display names: the activities
 * have rates (two in three billed), and the JSON's grand amount is checked. Since the payroll
 * hour codes (docs/API.md "Surcharge rules") every line is also split by two rules, weekends at
 * 150 % and weekday hours from 16:00 to 06:00 at 125 %, and the JSON's minutes per code are
 * checked. The verdict is PASS or OVER BUDGET; the script
 * exits non-zero only when something is broken (an HTTP error, a wrong total).
 */
import { rmSync } from 'node:fs';
import { buildApi } from '../../electron/api/app.js';
import { timeTrackingModule } from '../../electron/api/resources/time-tracking.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { tempDir } from '../helpers/api.js';
import { benchSize } from '../helpers/bench-size.js';
import { childFormat, mib, runEachFormat, watchPeakRss } from '../helpers/format-runs.js';

// A smoke run (bench-size.ts) exports a few hundred entries; the children, started with this
// process's environment, read the same sizes.
const users = benchSize(20, 2);
const days = benchSize(25, 3);
const perDay = benchSize(200, 40);
const orders = benchSize(50, 5);
const cardsPerOrder = benchSize(10, 4);
const minutesEach = 3;
const entries = users * days * perDay;
const environmentName = 'bench';
const key = 'bench-key-123';
const query = { start: '2026-11-01', end: '2026-11-30', group_by: 'users,days', timezone: 'Europe/Amsterdam' };
const budgetsMs: Record<string, number | null> = { json: null, csv: 1000, xlsx: 5000, pdf: 5000 };
/** Activity a's hourly rate: 30.00, 32.50, … 57.50. */
const rateOf = (a: number) => 30 + a * 2.5;
/** The report's grand amount: entry n is activity n % 12, 3 minutes each, in whole cents. */
const expectedCents = Array.from({ length: entries }, (_, n) => Math.round((rateOf(n % 12) * minutesEach * 100) / 60)).reduce(
  (sum, c) => sum + c,
  0,
);

/**
 * The JSON's minutes per hour code and percentage: each user's day runs from 07:00 local (06:00
 * UTC, November is CET) for perDay × 3 minutes; Saturdays and Sundays are all weekend hours,
 * other days' minutes after 16:00 late hours, the rest normal.
 */
function expectedSplit(): Record<string, number> {
  const dayMinutes = perDay * minutesEach;
  const late = Math.min(dayMinutes, Math.max(0, 7 * 60 + dayMinutes - 16 * 60));
  const split: Record<string, number> = { 'WKND 150': 0, 'LATE 125': 0, 'null 100': 0 };
  for (let d = 1; d <= days; d++) {
    const weekday = new Date(Date.UTC(2026, 10, d)).getUTCDay();
    if (weekday === 0 || weekday === 6) split['WKND 150']! += users * dayMinutes;
    else {
      split['LATE 125']! += users * late;
      split['null 100']! += users * (dayMinutes - late);
    }
  }
  return Object.fromEntries(Object.entries(split).filter(([, minutes]) => minutes > 0));
}

async function seed(folder: string): Promise<void> {
  const dataDir = DataDir.open(folder);
  const environment = dataDir.system.ensureEnvironment(environmentName);
  dataDir.system.ensureApiKey(environment.id, key);
  const app = await buildApi({ dataDir });
  const headers = { 'x-api-key': key, 'x-api-env': environmentName, 'content-type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const res = await app.inject({ method: 'POST', url: path, headers, payload: JSON.stringify(body) });
    if (res.statusCode !== 201) throw new Error(`seeding ${path} failed: ${res.statusCode} ${res.payload}`);
    return (res.payload ? JSON.parse(res.payload) : null) as { id: string; stages?: { id: string }[] };
  };
  const activities: string[] = [];
  for (let a = 0; a < 12; a++)
    activities.push((await post('/v1/activity', { description: `Activity ${a}`, hourly_rate: rateOf(a), billable: a % 3 !== 0 })).id);
  await post('/v1/surcharge_rule', { name: 'Weekend', weekdays: [6, 7], percentage: 150, hour_code: 'WKND' });
  await post('/v1/surcharge_rule', {
    name: 'Late',
    weekdays: [1, 2, 3, 4, 5],
    from_time: '16:00',
    to_time: '06:00',
    percentage: 125,
    hour_code: 'LATE',
  });
  const board = await post('/v1/board?with=stages', {
    name: 'Workshop',
    stages: [{ name: 'Assembly', priority: 0 }],
    statuses: [{ name: 'To do', entry: true }],
  });
  const cards: string[] = [];
  for (let c = 0; c < orders; c++) {
    const collection = await post('/v1/collection', { name: `Order ${1000 + c} Customer B.V.`, board_id: board.id });
    for (let k = 0; k < cardsPerOrder; k++)
      cards.push(
        (await post(`/v1/collection/${collection.id}/card`, { name: `Card ${c}-${k} Frame assembly`, stage_id: board.stages![0]!.id })).id,
      );
  }
  // Inviting a user answers 201 with no body, as the public API does: read them back.
  for (let u = 0; u < users; u++) await post('/v1/user', { email: `worker${u}@example.com`, role: 'member' });
  const invited = await app.inject({ method: 'GET', url: '/v1/user?limit=100&sort=email', headers });
  const people = (JSON.parse(invited.payload) as { data: { id: string }[] }).data.map((user) => user.id);
  if (people.length !== users) throw new Error(`seeding users: ${people.length} of ${users}`);

  // Straight into the store: 100,000 API calls would measure seeding, not exporting.
  const store = dataDir.environment(environment.id);
  store.transaction(() => {
    let n = 0;
    for (let u = 0; u < users; u++) {
      for (let d = 0; d < days; d++) {
        const dayStart = Date.parse(`2026-11-${String(d + 1).padStart(2, '0')}T06:00:00Z`);
        for (let i = 0; i < perDay; i++, n++) {
          const start = dayStart + i * minutesEach * 60_000;
          store.insert(timeTrackingModule.table, {
            card_id: cards[n % cards.length],
            activity_id: activities[n % activities.length],
            user_id: people[u],
            start: new Date(start).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            end: new Date(start + minutesEach * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            duration: minutesEach,
            status: n % 3 ? 'approved' : 'pending',
            locked: n % 3 !== 0,
            running: false,
            external_failed: false,
          });
        }
      }
    }
  });
  await app.close();
  dataDir.close();
}

async function measure(folder: string, format: string): Promise<void> {
  const dataDir = DataDir.open(folder);
  const app = await buildApi({ dataDir });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}/v1/time_tracking/export?${new URLSearchParams({ ...query, format })}`;
  const rss = watchPeakRss();
  const started = performance.now();
  const response = await fetch(url, { headers: { 'x-api-key': key, 'x-api-env': environmentName } });
  if (response.status !== 200) throw new Error(`${format}: HTTP ${response.status} ${await response.text()}`);
  const chunks: Buffer[] = [];
  let bytes = 0;
  const reader = response.body!.getReader();
  // Until the body ends; read as it comes, as a browser saving the file would.
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (format === 'json') chunks.push(Buffer.from(value));
    rss.sample();
  }
  const ms = performance.now() - started;
  const { baseline, peak } = rss.stop();
  await app.close();
  dataDir.close();
  if (bytes === 0) throw new Error(`${format}: empty file`);
  if (format === 'json') {
    const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      total_minutes: number;
      totals: { amount: number };
      lines: unknown[];
      hour_codes: { hour_code: string | null; percentage: number; minutes: number }[];
    };
    // Minutes per `code percentage`, in order of the key, as one text.
    const inOrder = (split: Record<string, number>) => JSON.stringify(Object.entries(split).sort(([a], [b]) => a.localeCompare(b)));
    const split = inOrder(Object.fromEntries(report.hour_codes.map((c) => [`${c.hour_code} ${c.percentage}`, c.minutes])));
    if (split !== inOrder(expectedSplit())) throw new Error(`json: minutes per hour code ${split}; expected ${inOrder(expectedSplit())}`);
    if (
      report.lines.length !== entries ||
      report.total_minutes !== entries * minutesEach ||
      Math.round(report.totals.amount * 100) !== expectedCents
    ) {
      throw new Error(
        `json: ${report.lines.length} lines, ${report.total_minutes} minutes, ${report.totals.amount} amount; expected ${entries}, ${entries * minutesEach} and ${expectedCents / 100}`,
      );
    }
  }
  const budget = budgetsMs[format] ?? null;
  const verdict = budget === null ? '(no budget)' : ms <= budget ? 'PASS' : 'OVER BUDGET';
  console.log(
    `${format.padEnd(4)} ${entries} entries  ${ms.toFixed(0).padStart(5)} ms${budget ? ` (budget ${budget} ms)` : ''}  ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MiB  peak RSS ${mib(peak)} MiB (+${mib(peak - baseline)} MiB over ${mib(baseline)} MiB)  ${verdict}`,
  );
}

const format = childFormat();
if (format) {
  await measure(process.argv[process.argv.indexOf('--folder') + 1]!, format);
} else {
  const folder = tempDir('planner-bench-export-');
  let ok: boolean;
  try {
    const seeding = performance.now();
    await seed(folder);
    console.log(
      `time report export: ${entries} entries seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s; grouped by users, days; node ${process.version}`,
    );
    ok = runEachFormat(import.meta.url, ['json', 'csv', 'xlsx', 'pdf'], ['--folder', folder]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  process.exit(ok ? 0 : 1);
}
