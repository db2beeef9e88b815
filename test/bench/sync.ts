/**
 * Benchmark: sync (issue 8 "Figures"). Standalone: `npx tsx test/bench/sync.ts`.
 *
 *  (a) Initial sync of 50,000 records into an empty client: a remote (in this process, real
 *      HTTP on 127.0.0.1) is seeded through its own push endpoint (25,000 projects and 25,000
 *      items, 1,000 mutations a request); then a fresh client process starts offline (behind a
 *      refusing proxy), goes online, and `POST /v1/sync/run` is timed until it answers (the
 *      run downloads the snapshot and pulls until up to date). Budget ≤ 15 s.
 *  (b) A push of 1,000 mutations queued offline: a client process makes 1,000 writes while its
 *      proxy refuses, goes online, and one `POST /v1/sync/run` is timed (its push, measured at
 *      the proxy, and the whole run with the pull of the echo). Budget ≤ 2 s for the push.
 *  (c) Steady-state latency from an edit on client A to its visibility on client B, both online
 *      with the app's own timing (push 0.5 s after a change, pull every 1 s when idle): B is
 *      polled every 50 ms; p50 and max over 10 edits.
 *      Budget ≤ 3 s for the max.
 *
 * Prints a table with PASS or OVER BUDGET; exits 0 either way, non-zero only when something is
 * broken (a count that does not match, a sync error). `SYNC_BENCH=a,c` runs only those.
 */
import { performance } from 'node:perf_hooks';
import { uuidv7 } from '../../shared/ids.js';
import { formatHlc } from '../../shared/hlc.js';
import { defaultTiming } from '../../electron/sync/client.js';
import { call, goOnline, ok, removeFolders, runSync, startClient, waitFor, type ClientNode } from '../helpers/sync-cluster.js';
import { startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';

interface Row {
  scenario: string;
  measured: string;
  budgetMs: number;
  valueMs: number;
  detail: string;
}

const rows: Row[] = [];
/** Everything started, stopped at the end whatever happens (each stop runs once). */
const started: (() => Promise<void>)[] = [];

function track(stop: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  const once = () => (done ??= stop().catch(() => undefined));
  started.push(once);
  return once;
}

function trackClient(client: ClientNode): () => Promise<void> {
  return track(async () => {
    await client.stop();
    await client.proxy?.close();
  });
}

function fail(message: string): never {
  throw new Error(message);
}

async function seedRemote(remote: InProcessRemote, total: number): Promise<number> {
  const batch = 1000;
  const at = Date.now() - 60_000;
  const began = performance.now();
  let mutationId = 0;
  for (let offset = 0; offset < total; offset += batch) {
    const mutations = [];
    for (let i = offset; i < Math.min(total, offset + batch); i++) {
      mutationId++;
      const project = i % 2 === 0;
      mutations.push({
        mutation_id: mutationId,
        resource: project ? 'project' : 'item',
        id: uuidv7(),
        op: 'create',
        fields: project
          ? { name: `Seed project ${i}`, code: `P-${i}`, description: 'seeded for the sync benchmark', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' }
          : { description: `Seed item ${i}`, code: `I-${i}`, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
        hlc: formatHlc({ millis: at, counter: i % 0xffff, node: 'seed' }),
      });
    }
    const res = await call(remote, 'POST', '/v1/sync/push', { client_id: 'bench-seed', mutations });
    if (res.status !== 200) fail(`seeding push answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
    const refused = (res.body.results as { status: string }[]).filter((r) => r.status !== 'applied');
    if (refused.length > 0) fail(`seeding refused ${refused.length} mutations: ${JSON.stringify(refused[0]).slice(0, 300)}`);
  }
  return performance.now() - began;
}

async function count(node: { url: string; headers: Record<string, string>; name: string }, path: string): Promise<number> {
  return (await ok(node, 'GET', `${path}?limit=0`, undefined, 200)).count as number;
}

async function initialSync(): Promise<void> {
  const total = 50_000;
  const remote = await startInProcessRemote({ name: 'remote (50k)' });
  const stopRemote = track(() => remote.close());
  const seedMs = await seedRemote(remote, total);
  const projects = await count(remote, '/v1/project');
  const items = await count(remote, '/v1/item');
  if (projects + items !== total) fail(`the remote has ${projects + items} records, not ${total}`);

  // Started offline, so its own first sync fails at once and the timed run does the work.
  const client = await startClient(remote, { name: 'fresh client', offline: true });
  const stopClient = trackClient(client);
  await goOnline(client);
  const logged = client.proxy!.log.length;
  const began = performance.now();
  const summary = await runSync(client);
  const ms = performance.now() - began;
  if (summary.error) fail(`initial sync failed: ${summary.error}`);
  // Where the time went: the remote answering the pages (measured at the proxy), the client the rest.
  const pages = client.proxy!.log.slice(logged).filter((e) => e.path.startsWith('/v1/sync/'));
  const remoteMs = pages.reduce((sum, e) => sum + ((e.remoteDoneAt ?? e.startedAt) - e.startedAt), 0);
  const got = (await count(client, '/v1/project')) + (await count(client, '/v1/item'));
  const status = await ok(client, 'GET', '/v1/sync/status', undefined, 200);
  if (got !== total) fail(`the client has ${got} records after its initial sync, not ${total}`);
  if (status.pending !== 0) fail(`the client has ${status.pending} pending mutations after its initial sync`);
  const again = await runSync(client);
  if (again.pulled !== 0 || again.error) fail(`the client was not up to date: ${JSON.stringify(again)}`);
  rows.push({
    scenario: '(a) initial sync, 50,000 records, empty client',
    measured: `${(ms / 1000).toFixed(2)} s`,
    budgetMs: 15_000,
    valueMs: ms,
    detail: `pulled ${summary.pulled} in ${pages.length} requests (the remote answering them: ${(remoteMs / 1000).toFixed(1)} s, the client merging: ${((ms - remoteMs) / 1000).toFixed(1)} s); ${Math.round(total / (ms / 1000))} records/s; seeding took ${(seedMs / 1000).toFixed(1)} s`,
  });
  await stopClient();
  await stopRemote();
}

async function offlinePush(remote: InProcessRemote): Promise<void> {
  const client = await startClient(remote, { name: 'offline client' });
  const stopClient = trackClient(client);
  await runSync(client);
  await client.proxy!.set('refuse');
  // 1,000 queued mutations: 500 projects created, each edited once.
  const ids: string[] = [];
  for (let i = 0; i < 500; i++) ids.push((await ok(client, 'POST', '/v1/project', { name: `Offline ${i}` })).id);
  for (const [i, id] of ids.entries()) await ok(client, 'PUT', `/v1/project/${id}`, { description: `edited offline ${i}` }, 200);
  const pending = (await ok(client, 'GET', '/v1/sync/status', undefined, 200)).pending as number;
  if (pending !== 1000) fail(`expected 1,000 pending mutations, the client has ${pending}`);
  await goOnline(client);
  const logged = client.proxy!.log.length;
  const began = performance.now();
  const summary = await runSync(client);
  const runMs = performance.now() - began;
  if (summary.error || summary.pushed !== 1000) fail(`the push did not go through: ${JSON.stringify(summary)}`);
  const pushes = client.proxy!.log.slice(logged).filter((e) => e.path.startsWith('/v1/sync/push'));
  const pushMs = pushes.length > 0 ? Math.max(...pushes.map((e) => e.remoteDoneAt ?? e.startedAt)) - Math.min(...pushes.map((e) => e.startedAt)) : runMs;
  if ((await ok(remote, 'GET', '/v1/project?limit=0&filter=name:starts_with:Offline', undefined, 200)).count !== 500) fail('the remote does not have the 500 projects');
  rows.push({
    scenario: '(b) push of 1,000 queued offline mutations',
    measured: `${pushMs.toFixed(0)} ms`,
    budgetMs: 2_000,
    valueMs: pushMs,
    detail: `${pushes.length} push requests; the whole run (push + pull of the echo) ${runMs.toFixed(0)} ms`,
  });
  await stopClient();
}

async function steadyLatency(remote: InProcessRemote): Promise<void> {
  const [a, b] = await Promise.all([
    startClient(remote, { name: 'client A', proxy: false, syncIntervalMs: defaultTiming.pullIntervalMs }),
    startClient(remote, { name: 'client B', proxy: false, syncIntervalMs: defaultTiming.pullIntervalMs }),
  ]);
  const stopA = trackClient(a);
  const stopB = trackClient(b);
  const project = await ok(a, 'POST', '/v1/project', { name: 'Latency' });
  await waitFor(async () => (await call(b, 'GET', `/v1/project/${project.id}`)).status === 200, 'the project on B', 15_000, 50);
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) {
    const value = `edit ${i} ${uuidv7()}`;
    await ok(a, 'PUT', `/v1/project/${project.id}`, { description: value }, 200);
    const began = performance.now();
    await waitFor(async () => (await call(b, 'GET', `/v1/project/${project.id}`)).body?.description === value, `edit ${i} on B`, 15_000, 50);
    samples.push(performance.now() - began);
    // Edits spaced out, so each one meets the sync loops at a different phase.
    await new Promise((r) => setTimeout(r, 137 * (i % 4)));
  }
  const sorted = [...samples].sort((x, y) => x - y);
  const p50 = sorted[Math.floor(sorted.length / 2)]!;
  const max = sorted[sorted.length - 1]!;
  rows.push({
    scenario: '(c) edit on A visible on B (the app\'s timing)',
    measured: `p50 ${(p50 / 1000).toFixed(2)} s, max ${(max / 1000).toFixed(2)} s`,
    budgetMs: 3_000,
    valueMs: max,
    detail: `10 edits, polled every 50 ms; min ${(sorted[0]! / 1000).toFixed(2)} s`,
  });
  await stopA();
  await stopB();
}

function print(): void {
  const header = ['scenario', 'measured', 'budget', 'verdict'];
  const lines = rows.map((r) => [r.scenario, r.measured, `≤ ${r.budgetMs / 1000} s`, r.valueMs <= r.budgetMs ? 'PASS' : 'OVER BUDGET']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log('\nSync benchmark');
  console.log(format(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const line of lines) console.log(format(line));
  console.log('');
  for (const r of rows) console.log(`${r.scenario}: ${r.detail}`);
}

async function main(): Promise<void> {
  // SYNC_BENCH=a,c runs only those scenarios.
  const only = new Set((process.env.SYNC_BENCH ?? 'a,b,c').split(','));
  try {
    if (only.has('a')) await initialSync();
    const remote = await startInProcessRemote({ name: 'remote' });
    track(() => remote.close());
    if (only.has('b')) await offlinePush(remote);
    if (only.has('c')) await steadyLatency(remote);
  } finally {
    for (const stop of started.reverse()) await stop();
    removeFolders();
  }
  print();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  },
);
