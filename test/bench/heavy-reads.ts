/**
 * Benchmark: reads that embed a lot (security audit 2, N1; docs/API.md "Relations"). A real
 * server process on 127.0.0.1 holds the audit's ordinary plan: one board, 600 cards in orders of
 * 10, 20 people with 30 cards each. While one client sends a heavy read, another times small
 * requests (`GET /v1/project?limit=1`, one after the other, 10 ms apart). Printed per read:
 * its status, size and time, the small requests' p50, p95 and max meanwhile, and the server's
 * memory (RSS) before, at its peak and after.
 *
 *  - `cards.resources.cards` embeds 19,200 records: within the budget, written in parts;
 *  - `cards.resources.cards.resources.cards` would embed 577,200: the audit's read (400 MiB, the
 *    server at 1.39 GB), over the budget.
 *
 * PLANNER_BENCH_BASELINE=DIR also runs a server from DIR, another checkout of the project (an
 * earlier commit, with node_modules), on the same plan in the same run: figures before and after,
 * side by side. A smoke run (bench-size.ts) has 100 cards and 4 people, and only this checkout.
 * Exits non-zero only when something is broken (a small request fails, a read answers what it
 * should not).
 */
import { readFileSync, rmSync } from 'node:fs';
import { tempDir } from '../helpers/api.js';
import { percentile } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

const cardCount = benchSize(600, 100);
const peopleCount = benchSize(20, 4);
const env = 'bench';
const key = 'bench-heavy-reads-key';
const headers = { 'x-api-env': env, 'x-api-key': key, 'content-type': 'application/json' };
/** The longest a heavy read may take before the bench gives up on it. */
const readTimeoutMs = benchSize(120_000, 30_000);

const reads = [
  { name: 'within the budget', path: 'cards.resources.cards' },
  { name: "the audit's read", path: 'cards.resources.cards.resources.cards' },
];

interface Figures {
  read: string;
  status: number | string;
  mib: number;
  ms: number;
  probes: number[];
  failedProbes: number;
  rssBefore: number;
  rssPeak: number;
  rssAfter: number;
}

/** The server's resident memory, now and at its peak so far, in MiB (Linux: /proc). */
function memory(server: ServerProcess): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function seed(url: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as any;
  };
  const board = await post('/v1/board?with=stages', {
    name: 'Shop floor',
    stages: [{ name: 'Cut' }, { name: 'Weld' }, { name: 'Paint' }],
    statuses: [{ name: 'To do' }],
  });
  const people: string[] = [];
  for (let p = 0; p < peopleCount; p++) people.push((await post('/v1/resource', { name: `Person ${p}` })).id);
  const cards: string[] = [];
  for (let c = 0; c < cardCount / 10; c++) {
    const inline = Array.from({ length: 10 }, (_, i) => ({ stage_id: board.stages[i % 3].id, name: `Job ${c}-${i}` }));
    const order = await post('/v1/collection?with=cards', { name: `Order ${c}`, board_id: board.id, cards: inline });
    cards.push(...order.cards.map((card: { id: string }) => card.id));
  }
  for (let p = 0; p < peopleCount; p++) {
    await post('/v1/command/assign_cards', { cards: cards.filter((_, i) => i % peopleCount === p), add: [people[p]] });
  }
  return board.id;
}

/** Small requests one after the other until `stop()`; their times in ms. */
function probe(url: string): { stop(): Promise<{ times: number[]; failed: number }> } {
  const times: number[] = [];
  let failed = 0;
  let running = true;
  const done = (async () => {
    // Bounded in count as well as by the read it accompanies.
    for (let i = 0; running && i < 50_000; i++) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/v1/project?limit=1`, { headers, signal: AbortSignal.timeout(readTimeoutMs) });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      }
      times.push(performance.now() - started);
      await pause(10);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { times: times.sort((a, b) => a - b), failed };
    },
  };
}

async function measure(server: ServerProcess, boardId: string, read: (typeof reads)[number] | undefined): Promise<Figures> {
  const before = memory(server).rss;
  const probes = probe(server.url);
  await pause(300);
  let status: number | string = '-';
  let bytes = 0;
  const started = performance.now();
  if (read) {
    try {
      const res = await fetch(`${server.url}/v1/board/${boardId}?with=${read.path}`, {
        headers,
        signal: AbortSignal.timeout(readTimeoutMs),
      });
      bytes = (await res.arrayBuffer()).byteLength;
      status = res.status;
    } catch (error) {
      status = (error as Error).name;
    }
  } else {
    await pause(benchSize(2_000, 500));
  }
  const ms = performance.now() - started;
  await pause(300);
  const { times, failed } = await probes.stop();
  await pause(500);
  const after = memory(server);
  return {
    read: read ? `${read.name}: with=${read.path}` : 'nothing (the small requests alone)',
    status,
    mib: bytes / 2 ** 20,
    ms,
    probes: times,
    failedProbes: failed,
    rssBefore: before,
    rssPeak: after.peak,
    rssAfter: after.rss,
  };
}

async function run(label: string, checkout: string | undefined): Promise<{ label: string; rows: Figures[] }> {
  const folder = tempDir('planner-bench-reads-');
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(
      ['--data-dir', folder, '--api-env', env],
      60_000,
      { PLANNER_API_KEY: key },
      ...(checkout ? [checkout] : []),
    );
    const boardId = await seed(server.url);
    const rows = [await measure(server, boardId, undefined)];
    for (const read of reads) rows.push(await measure(server, boardId, read));
    return { label, rows };
  } finally {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

const baseline = process.env.PLANNER_BENCH_BASELINE;
const runs = [await run('this checkout', undefined)];
if (baseline) runs.push(await run(`baseline (${baseline})`, baseline));

const f = (n: number, digits = 0) => n.toFixed(digits).padStart(8);
console.log(`\nHeavy reads: ${cardCount} cards, ${peopleCount} people; node ${process.version}`);
console.log('| server | read | status | MiB | read ms | small p50 ms | small p95 ms | small max ms | RSS before | RSS peak | RSS after |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
let broken = false;
for (const { label, rows } of runs) {
  for (const row of rows) {
    const p = (q: number) => (row.probes.length > 0 ? percentile(row.probes, q) : NaN);
    console.log(
      `| ${label} | ${row.read} | ${row.status} | ${f(row.mib, 1)} | ${f(row.ms)} | ${f(p(0.5), 1)} | ${f(p(0.95), 1)} | ${f(row.probes.at(-1) ?? NaN, 1)} | ${f(row.rssBefore)} | ${f(row.rssPeak)} | ${f(row.rssAfter)} |`,
    );
    if (row.failedProbes > 0) broken = true;
  }
}
// This checkout answers the read within the budget and refuses the audit's read.
const mine = runs[0]!.rows;
if (mine[1]!.status !== 200 || mine[2]!.status !== 400) broken = true;
if (broken) console.log('\nBROKEN: a small request failed, or a read answered what it should not.');
process.exitCode = broken ? 1 : 0;
