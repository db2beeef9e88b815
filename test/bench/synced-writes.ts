/**
 * Benchmark: what sync costs the planner's writes (docs/architecture.md "Sync"). Sync works in
 * the background, so a write on a replica that syncs with a running remote should cost almost
 * what the same write costs on one that syncs with nobody.
 *
 * Three server processes on 127.0.0.1: a remote, a replica of it (the app's own sync timing,
 * live channel on), and a replica that syncs with nobody: its remote is a port on 127.0.0.1
 * where nothing listens, so it keeps its outbox as the app without a remote does, and tries
 * again now and then. On both replicas alike, over real HTTP, one after the other:
 *  - N sequential `POST /v1/order` with three rows; then N sequential plans (a collection with
 *    work, planned onto the board), each a create and a plan;
 *  - a bulk import: M orders with their plans, 4 calls in flight at a time.
 * Prints p50/p95 per call and the ratio synced/unsynced of the p50s, against the budgets: 1.2×
 * for the sequential writes, 1.3× for the bulk import's wall time; and how long after the last
 * call the remote had every record (budget 5 s). Exits non-zero only when something is broken.
 *
 *   npx tsx test/bench/synced-writes.ts
 */
import { performance } from 'node:perf_hooks';
import { rmSync } from 'node:fs';
import { tempDir } from '../helpers/api.js';
import { percentile, runBench } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { freePort } from '../helpers/ports.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';
import { localHeaders, ok, removeFolders, startClient, startRemote, waitFor, type Node } from '../helpers/sync-cluster.js';

// A smoke run (bench-size.ts) makes a few of each.
const sequential = benchSize(500, 10);
const bulk = benchSize(600, 12);
const inFlight = 4;
const budgets = { sequential: 1.2, bulk: 1.3, remoteMs: 5_000 };

type Target = Pick<Node, 'url' | 'headers' | 'name'>;

interface Base {
  boardId: string;
  activityId: string;
}

async function base(node: Target): Promise<Base> {
  const activity = await ok(node, 'POST', '/v1/activity', { description: 'Assembly', resource_type: 'employee' });
  const board = await ok(node, 'POST', '/v1/board?with=stages', {
    name: 'Bench',
    statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    stages: [{ name: 'Assembly', priority: 0, activities: [{ id: activity.id, priority: 0 }] }],
  });
  return { boardId: board.id, activityId: activity.id };
}

let made = 0;

async function order(node: Target, b: Base): Promise<void> {
  made++;
  await ok(node, 'POST', '/v1/order', {
    code: `SO-${made}`,
    description: `Order ${made}`,
    order_rows: [1, 2, 3].map((line) => ({ description: `Row ${line}`, quantity: line, unit: 'hours', activity_id: b.activityId })),
  });
}

async function plan(node: Target, b: Base): Promise<void> {
  made++;
  const collection = await ok(node, 'POST', '/v1/collection', {
    name: `Job ${made}`,
    board_id: b.boardId,
    activities: [{ id: b.activityId, time: 120 }],
  });
  await ok(node, 'POST', `/v1/collection/${collection.id}/board/${b.boardId}`, { start: '2027-03-01' }, 200);
}

async function timedEach(count: number, call: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

/** `count` orders with their plans, `inFlight` at a time; answers the wall time. */
async function bulkImport(node: Target, b: Base, count: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next++;
        await order(node, b);
        await plan(node, b);
      }
    }),
  );
  return performance.now() - started;
}

const p50 = (s: number[]) => percentile(s, 0.5);
const p95 = (s: number[]) => percentile(s, 0.95);
const verdict = (ratio: number, budget: number) => `${ratio.toFixed(2)}× (budget ≤ ${budget}×) ${ratio <= budget ? 'PASS' : 'OVER BUDGET'}`;

async function main(): Promise<void> {
  const servers: ServerProcess[] = [];
  const loneFolder = tempDir('planner-bench-lone-');
  const remote = await startRemote();
  try {
    const replica = await startClient(remote, { name: 'replica', proxy: false, live: true, syncIntervalMs: 30_000 });
    const lone = await startServerProcess([
      '--data-dir',
      loneFolder,
      '--api-env',
      'local',
      '--api-key',
      'local-key',
      '--remote',
      `http://127.0.0.1:${await freePort()}`,
      '--remote-api-env',
      'nowhere',
      '--remote-api-key',
      'no-key-here',
    ]);
    servers.push(lone);
    const loneNode: Target = { url: lone.url, headers: localHeaders, name: 'unsynced' };
    const targets: [string, Target][] = [
      ['synced', replica],
      ['unsynced', loneNode],
    ];
    const bases = new Map<string, Base>();
    for (const [name, node] of targets) bases.set(name, await base(node));

    const figures = new Map<string, { orders: number[]; plans: number[]; bulkMs: number }>();
    // Alternated, so that the machine's load falls on both alike.
    for (const [name] of targets) figures.set(name, { orders: [], plans: [], bulkMs: 0 });
    for (const [name, node] of targets) figures.get(name)!.orders = await timedEach(sequential, () => order(node, bases.get(name)!));
    for (const [name, node] of targets) figures.get(name)!.plans = await timedEach(sequential, () => plan(node, bases.get(name)!));
    for (const [name, node] of targets) figures.get(name)!.bulkMs = await bulkImport(node, bases.get(name)!, bulk);

    // Every record of the replica on the remote: as many cards and orders there as here.
    const lastCall = performance.now();
    const countOf = async (node: Target, path: string) => (await ok(node, 'GET', `${path}?limit=1`, undefined, 200)).count;
    await waitFor(
      async () =>
        (await countOf(remote, '/v1/card')) === (await countOf(replica, '/v1/card')) &&
        (await countOf(remote, '/v1/order')) === (await countOf(replica, '/v1/order')),
      'the remote to have every record',
      60_000,
      50,
    );
    const remoteMs = performance.now() - lastCall;

    const synced = figures.get('synced')!;
    const unsynced = figures.get('unsynced')!;
    console.log(`writes on a synced replica against the same writes unsynced; node ${process.version}`);
    for (const [what, key] of [
      [`${sequential} orders with 3 rows, one at a time`, 'orders'],
      [`${sequential} plans (create + plan), one at a time`, 'plans'],
    ] as const) {
      console.log(
        `${what}: synced p50 ${p50(synced[key]).toFixed(1)} ms p95 ${p95(synced[key]).toFixed(1)} ms; ` +
          `unsynced p50 ${p50(unsynced[key]).toFixed(1)} ms p95 ${p95(unsynced[key]).toFixed(1)} ms; ` +
          `ratio of p50s ${verdict(p50(synced[key]) / p50(unsynced[key]), budgets.sequential)}`,
      );
    }
    console.log(
      `bulk import of ${bulk} orders with plans, ${inFlight} in flight: synced ${(synced.bulkMs / 1000).toFixed(2)} s, ` +
        `unsynced ${(unsynced.bulkMs / 1000).toFixed(2)} s; ratio ${verdict(synced.bulkMs / unsynced.bulkMs, budgets.bulk)}`,
    );
    console.log(
      `the remote had every record ${(remoteMs / 1000).toFixed(2)} s after the last call (budget ≤ ${budgets.remoteMs / 1000} s) ${remoteMs <= budgets.remoteMs ? 'PASS' : 'OVER BUDGET'}`,
    );
    await replica.stop();
  } finally {
    for (const server of servers) await server.stop();
    await remote.stop();
    rmSync(loneFolder, { recursive: true, force: true });
    removeFolders();
  }
}

runBench(main);
