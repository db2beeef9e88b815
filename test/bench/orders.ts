/**
 * Benchmark: a page of 100 orders with their 1,000 rows.
 *
 *  - API path: `GET /v1/order?limit=100&with=order_rows` over real HTTP against the real API
 *    on 127.0.0.1 (the response body is read in full, not parsed).
 *  - Raw path: the same data read with raw better-sqlite3 (count, one page of orders, their
 *    rows in one IN query), grouped in JS and `JSON.stringify`ed as the list envelope.
 *
 * The two paths take turns, one API read then one raw read, so that a busy machine slows both
 * alike: measured one after the other, a burst of load on the shared build machine fell on one
 * path and read as 2.12× where a quiet machine read 1.18×.
 *
 * Prints p50/p95 latency and requests per second of both, and the ratio API/raw of the p50s.
 * The budget is ratio ≤ 1.3×; the verdict is printed (PASS or OVER BUDGET) and the script exits
 * 0 either way. It exits non-zero only when something is broken (wrong data, HTTP errors).
 */
import { performance } from 'node:perf_hooks';
import type { Statement } from 'better-sqlite3';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { benchSize } from '../helpers/bench-size.js';

// A smoke run (bench-size.ts) reads a smaller page, fewer times.
const orderCount = benchSize(100, 20);
const rowsPerOrder = benchSize(10, 5);
const warmup = benchSize(30, 3);
const iterations = benchSize(200, 10);
const budget = 1.3;

interface Stats {
  p50: number;
  p95: number;
  perSecond: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const total = samples.reduce((sum, s) => sum + s, 0);
  return { p50: at(0.5), p95: at(0.95), perSecond: (samples.length / total) * 1000 };
}

/** Runs each path `warmup` times unmeasured, then `iterations` times measured, taking turns. */
async function measureInTurns(paths: readonly (() => Promise<unknown> | unknown)[]): Promise<number[][]> {
  for (let i = 0; i < warmup; i++) for (const path of paths) await path();
  const samples = paths.map((): number[] => []);
  for (let i = 0; i < iterations; i++) {
    for (const [p, path] of paths.entries()) {
      const start = performance.now();
      await path();
      samples[p]!.push(performance.now() - start);
    }
  }
  return samples;
}

async function seed(api: TestApi): Promise<void> {
  const activity = await api.http('POST', '/v1/activity', { description: 'Assembly' });
  if (activity.status !== 201) throw new Error(`seeding the activity failed: ${activity.status}`);
  for (let o = 0; o < orderCount; o++) {
    const res = await api.http('POST', '/v1/order', {
      code: `SO-${10000 + o}`,
      type: 'Sales',
      sub_type: 'none',
      description: `Chair model ${o}`,
      quantity: 3,
      promised_date: '2026-06-30',
      external_ref: `bench-order-${o}`,
      meta: { source: 'bench', index: o },
      order_rows: Array.from({ length: rowsPerOrder }, (_, r) => ({
        code: `R${r}`,
        description: `Row ${r} of order ${o}`,
        item_code: `ITEM-${r}`,
        activity_id: r % 2 === 0 ? activity.body.id : null,
        unit: r % 2 === 0 ? 'hours' : 'pcs',
        quantity: r + 1,
        quantity_delivered: 0,
        external_ref: `bench-row-${o}-${r}`,
      })),
    });
    if (res.status !== 201) throw new Error(`seeding order ${o} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

async function main(): Promise<void> {
  const api = await startTestApi();
  try {
    const seedStart = performance.now();
    await seed(api);
    const seedMs = performance.now() - seedStart;

    // --- API path: real HTTP, body read in full.
    const url = `${api.baseUrl}/v1/order?limit=${orderCount}&with=order_rows`;
    let apiBytes = 0;
    const getPage = async () => {
      const response = await fetch(url, { headers: api.headers });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${text.slice(0, 200)}`);
      apiBytes = text.length;
      return text;
    };
    const check = JSON.parse(await getPage()) as { count: number; data: { order_rows: unknown[] }[] };
    const apiRows = check.data.reduce((n, o) => n + o.order_rows.length, 0);
    if (check.count !== orderCount || check.data.length !== orderCount || apiRows !== orderCount * rowsPerOrder) {
      throw new Error(`API returned ${check.data.length} orders / ${apiRows} rows, expected ${orderCount} / ${orderCount * rowsPerOrder}`);
    }

    // --- Raw path: better-sqlite3 on the same file, grouped in JS, stringified.
    const db = api.dataDir.environment(api.environment.id).db;
    const countOrders = db.prepare('SELECT count(*) AS n FROM "order" WHERE deleted_at IS NULL');
    const pageOrders = db.prepare('SELECT * FROM "order" WHERE deleted_at IS NULL ORDER BY id LIMIT ? OFFSET 0');
    const rowStatements = new Map<number, Statement<string[], unknown>>();
    const rowsIn = (n: number) => {
      let statement = rowStatements.get(n);
      if (!statement) {
        statement = db.prepare<string[], unknown>(
          `SELECT * FROM order_row WHERE order_id IN (${Array(n).fill('?').join(',')}) AND deleted_at IS NULL ORDER BY id`,
        );
        rowStatements.set(n, statement);
      }
      return statement;
    };
    let rawBytes = 0;
    let rawRows = 0;
    const rawPage = () => {
      const { n: count } = countOrders.get() as { n: number };
      const orders = pageOrders.all(orderCount) as Record<string, unknown>[];
      const ids = orders.map((o) => o.id as string);
      const rows = rowsIn(ids.length).all(...ids) as Record<string, unknown>[];
      const byOrder = new Map<string, Record<string, unknown>[]>();
      for (const row of rows) {
        const list = byOrder.get(row.order_id as string);
        if (list) list.push(row);
        else byOrder.set(row.order_id as string, [row]);
      }
      const data = orders.map((o) => ({ ...o, order_rows: byOrder.get(o.id as string) ?? [] }));
      const text = JSON.stringify({ count, limit: orderCount, offset: 0, data });
      rawBytes = text.length;
      rawRows = rows.length;
      return text;
    };
    rawPage();
    if (rawRows !== orderCount * rowsPerOrder) throw new Error(`raw path read ${rawRows} rows`);
    const [apiSamples = [], rawSamples = []] = await measureInTurns([getPage, rawPage]);

    // --- Report.
    const a = stats(apiSamples);
    const r = stats(rawSamples);
    const ratio = a.p50 / r.p50;
    const verdict = ratio <= budget ? 'PASS' : 'OVER BUDGET';
    const line = (name: string, s: Stats, bytes: number) =>
      `${pad(name, 44)} ${pad(String(iterations), 5, true)} ${pad(s.p50.toFixed(2), 9, true)} ${pad(s.p95.toFixed(2), 9, true)} ${pad(s.perSecond.toFixed(0), 8, true)} ${pad((bytes / 1024).toFixed(0), 8, true)}`;

    console.log(
      `orders benchmark: ${orderCount} orders x ${rowsPerOrder} rows (seeded through the API in ${(seedMs / 1000).toFixed(1)} s), warm-up ${warmup}, Node ${process.version}`,
    );
    console.log('');
    console.log(
      `${pad('path', 44)} ${pad('N', 5, true)} ${pad('p50 ms', 9, true)} ${pad('p95 ms', 9, true)} ${pad('req/s', 8, true)} ${pad('KiB', 8, true)}`,
    );
    console.log('-'.repeat(88));
    console.log(line(`API  GET /v1/order?limit=${orderCount}&with=order_rows`, a, apiBytes));
    console.log(line('raw  better-sqlite3 + group + JSON.stringify', r, rawBytes));
    console.log('-'.repeat(88));
    console.log(`ratio API/raw (p50): ${ratio.toFixed(2)}x   budget <= ${budget}x   ${verdict}`);
    if (verdict !== 'PASS') console.log(`*** OVER BUDGET: the API path is ${ratio.toFixed(2)}x the raw path (budget ${budget}x) ***`);
  } finally {
    await api.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
