/**
 * Benchmark: sync (issue 8 "Figures", issue 15 "Live, not polled"). Standalone:
 * `npx tsx test/bench/sync.ts`.
 *
 *  (a) Initial sync of 50,000 records into an empty client: a remote (in this process, real
 *      HTTP on 127.0.0.1) is seeded through its own push endpoint (25,000 projects and 25,000
 *      items, 1,000 mutations a request); then a fresh client process starts offline (behind a
 *      refusing proxy), goes online, and `POST /v1/sync/run` is timed until it answers (the
 *      run downloads the snapshot, loads it in bulk and pulls until up to date); twice, with
 *      two fresh clients. Beside it, in the same run, a raw bulk load of what the replica must
 *      store (issue 39, "Initial sync, restated"): the same rows with their field clocks (read
 *      from the remote's tables) into a fresh database with the app's schema and settings
 *      (better-sqlite3, one transaction per page of the bulk load's size, one prepared INSERT
 *      per table), three times. Budgets: ≤ 15 s, and the best sync ≤ 2× the best raw load. Then
 *      the same remote's folder is
 *      copied into a throwaway PostgreSQL cluster (migrate-to-postgres's copy) and served from
 *      it (a team-server node in this process: ApiOptions.recordsOf), and two more fresh clients
 *      sync from that. Budget (issue 21): the best from PostgreSQL ≤ 1.5× the best from SQLite.
 *  (b) A push of 1,000 mutations queued offline: a client process makes 1,000 writes while its
 *      proxy refuses, goes online, and one `POST /v1/sync/run` is timed (its push, measured at
 *      the proxy, and the whole run with the pull of the echo). Budget ≤ 2 s for the push.
 *  (c) Latency from an edit on client A to its visibility on client B while polling (the live
 *      channel off, PLANNER_SYNC_LIVE=off: push 0.5 s after a change, pull every 1 s when
 *      idle): B is polled every 50 ms; p50 and max over 10 edits. Budget ≤ 3 s for the max.
 *  (d) The same with the live channel and the app's own timing (push 50 ms after a change
 *      while the stream is up; B pulls when the remote announces the change): B is read every
 *      10 ms; p50, p95 and max over 40 edits. Budget p95 ≤ 300 ms.
 *  (e) An idle replica with the live channel: the requests its fault proxy sees over 60 s,
 *      besides the one stream opened before. Budget 0. A polling replica (channel off) is
 *      counted beside it over the same 60 s.
 *  (f) 50 replicas connected to one remote (a server process; the replicas are sync clients
 *      in this process, each with its own database, the app's timing): the remote's CPU time
 *      (utime + stime from /proc) and RSS over 30 s idle, first alone, then with 50 replicas
 *      listening, then with 50 polling replicas for contrast. Budgets with the 50 listening:
 *      CPU ≤ 300 ms over the 30 s (1% of a core) and RSS growth over the 30 s ≤ 5 MiB.
 *
 * Prints a table with PASS or OVER BUDGET; exits 0 either way, non-zero only when something is
 * broken (a count that does not match, a sync error). `SYNC_BENCH=a,c` runs only those.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { uuidv7 } from '../../shared/ids.js';
import { formatHlc } from '../../shared/hlc.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { installSyncBooks } from '../../electron/store/sync-book.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { defaultTiming, SyncClient } from '../../electron/sync/client.js';
import { MemoryVault } from '../../electron/sync/credentials.js';
import { syncTables } from '../../electron/sync/tables.js';
import { tempDir } from '../helpers/api.js';
import { benchSize } from '../helpers/bench-size.js';
import { startTeamDatabase } from '../helpers/postgres.js';
import { buildApi } from '../../electron/api/app.js';
import { teamRecordStores } from '../../electron/api/team-records.js';
import { copyToPostgres } from '../../electron/store/postgres/copy-from-sqlite.js';
import {
  call,
  goOnline,
  ok,
  remoteEnv,
  remoteKey,
  removeFolders,
  runSync,
  startClient,
  startRemote,
  waitFor,
  type ClientNode,
} from '../helpers/sync-cluster.js';
import { startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';

// A smoke run (bench-size.ts) goes through every scenario with fewer records, edits and
// replicas, and waits and watches for a moment where the real run takes seconds.
/** (a) records synced into an empty client: in a smoke run too, more than one snapshot page. */
const initialRecords = benchSize(50_000, 8_000);
/** (a) fresh clients timed, from SQLite and again from PostgreSQL: each a process to start. */
const initialSyncs = benchSize(2, 1);
/** (b) projects made offline, each edited once: twice as many mutations. */
const offlineProjects = benchSize(500, 25);
/** (c) and (d) edits timed. */
const pollingEdits = benchSize(10, 2);
const liveEdits = benchSize(40, 5);
/** (d) and (e) the quiet before timing, with every stream open. */
const quietMs = benchSize(1_500, 300);
/** (e) the idle window watched. */
const idleWindowMs = benchSize(60_000, 1_500);
/** (f) replicas on one remote, the remote's idle windows, and the waits around them. */
const replicaCount = benchSize(50, 3);
const replicaWindowMs = benchSize(30_000, 500);
const settleAloneMs = benchSize(2_000, 300);
const settleReplicasMs = benchSize(3_000, 500);

const thousands = (n: number) => n.toLocaleString('en');

interface Row {
  scenario: string;
  measured: string;
  budget: string;
  pass: boolean;
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
          ? {
              name: `Seed project ${i}`,
              code: `P-${i}`,
              description: 'seeded for the sync benchmark',
              created_at: '2026-01-01T00:00:00Z',
              updated_at: '2026-01-01T00:00:00Z',
            }
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

/** One timed initial sync of a fresh client process; returns its time and where it went. */
async function timedInitialSync(
  remote: { url: string },
  total: number,
  name: string,
): Promise<{ ms: number; cpuMs: number; detail: string }> {
  // Started offline, so its own first sync fails at once and the timed run does the work.
  const client = await startClient(remote, { name, offline: true });
  const stopClient = trackClient(client);
  await goOnline(client);
  const logged = client.proxy!.log.length;
  // CPU time too, which a busy machine disturbs less: the client process, and this one (the remote and the proxy).
  const clientCpu = usageOf(client.process.child.pid!).cpuMs;
  const ownCpu = process.cpuUsage();
  const began = performance.now();
  const summary = await runSync(client);
  const ms = performance.now() - began;
  const own = process.cpuUsage(ownCpu);
  const clientCpuMs = usageOf(client.process.child.pid!).cpuMs - clientCpu;
  const remoteCpuMs = (own.user + own.system) / 1000;
  if (summary.error) fail(`initial sync failed: ${summary.error}`);
  // The snapshot pages as the proxy saw them: the remote answers the next page while the client loads one.
  const pages = client.proxy!.log.slice(logged).filter((e) => e.path.startsWith('/v1/sync/snapshot'));
  const remoteMs = pages.reduce((sum, e) => sum + ((e.remoteDoneAt ?? e.startedAt) - e.startedAt), 0);
  const got = (await count(client, '/v1/project')) + (await count(client, '/v1/item'));
  const status = await ok(client, 'GET', '/v1/sync/status', undefined, 200);
  if (got !== total) fail(`the client has ${got} records after its initial sync, not ${total}`);
  if (status.pending !== 0) fail(`the client has ${status.pending} pending mutations after its initial sync`);
  const again = await runSync(client);
  if (again.pulled !== 0 || again.error) fail(`the client was not up to date: ${JSON.stringify(again)}`);
  await stopClient();
  return {
    ms,
    cpuMs: clientCpuMs,
    detail: `${(ms / 1000).toFixed(2)} s: ${summary.pulled} records in ${pages.length} snapshot pages (the remote answering them: ${(remoteMs / 1000).toFixed(2)} s in all; CPU: the client ${clientCpuMs.toFixed(0)} ms, the remote with the proxy ${remoteCpuMs.toFixed(0)} ms)`,
  };
}

/**
 * What a replica must store of the remote's records, loaded raw into a fresh database with the
 * app's schema and settings: the rows with their field clocks (sync_clock rows, as the remote
 * keeps them), in pages of the bulk load's size (defaultTiming.bulkPage), one transaction per
 * page, one prepared INSERT per table (issue 39, "Initial sync, restated"). Returns the
 * milliseconds and the CPU time.
 */
function rawBulkLoad(tables: { name: string; rows: Record<string, unknown>[]; clocks: Map<string, string> }[]): {
  ms: number;
  cpuMs: number;
} {
  const folder = tempDir('planner-raw-');
  const dataDir = DataDir.open(folder);
  try {
    const db = dataDir.environment(dataDir.system.ensureEnvironment('raw').id).db;
    const page = defaultTiming.bulkPage;
    const began = performance.now();
    const cpu = process.cpuUsage();
    const clock = db.prepare('INSERT INTO sync_clock (resource, record_id, clocks) VALUES (?, ?, ?)');
    for (const { name, rows, clocks } of tables) {
      const columns = Object.keys(rows[0]!);
      const insert = db.prepare(
        `INSERT INTO "${name}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
      );
      for (let from = 0; from < rows.length; from += page)
        db.transaction(() => {
          for (const row of rows.slice(from, from + page)) {
            insert.run(row);
            clock.run(name, row.id, clocks.get(row.id as string) ?? '{}');
          }
        })();
    }
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - began, cpuMs: (used.user + used.system) / 1000 };
  } finally {
    dataDir.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

async function initialSync(): Promise<void> {
  const total = initialRecords;
  const remote = await startInProcessRemote({ name: `remote (${thousands(total)})` });
  const stopRemote = track(() => remote.close());
  const seedMs = await seedRemote(remote, total);
  const projects = await count(remote, '/v1/project');
  const items = await count(remote, '/v1/item');
  if (projects + items !== total) fail(`the remote has ${projects + items} records, not ${total}`);

  const syncs: { ms: number; cpuMs: number; detail: string }[] = [];
  for (let n = 1; n <= initialSyncs; n++) syncs.push(await timedInitialSync(remote, total, `fresh client ${n}`));
  const db = remote.dataDir.environment(remote.environment.id).db;
  const source = ['project', 'item'].map((name) => ({
    name,
    // Rows of this SQL text (better-sqlite3 gives them untyped).
    rows: db.prepare(`SELECT * FROM "${name}" ORDER BY id`).all() as Record<string, unknown>[],
    clocks: new Map(
      // The same: (record_id, clocks) rows.
      (db.prepare('SELECT record_id, clocks FROM sync_clock WHERE resource = ?').all(name) as { record_id: string; clocks: string }[]).map(
        (r) => [r.record_id, r.clocks],
      ),
    ),
  }));
  if (source.reduce((n, t) => n + t.rows.length, 0) !== total) fail("the raw load does not have the remote's rows");
  const raws = [rawBulkLoad(source), rawBulkLoad(source), rawBulkLoad(source)];
  const fromPostgres = await initialSyncFromPostgres(remote, total);
  const best = Math.min(...syncs.map((s) => s.ms));
  const raw = Math.min(...raws.map((r) => r.ms));
  const rawCpu = Math.min(...raws.map((r) => r.cpuMs));
  const clientCpu = Math.min(...syncs.map((s) => s.cpuMs));
  rows.push({
    scenario: `(a) initial sync, ${thousands(total)} records, empty client`,
    measured: `${(best / 1000).toFixed(2)} s`,
    budget: '≤ 15 s',
    pass: best <= 15_000,
    detail: `${syncs.map((s) => s.detail).join('; ')}; ${Math.round(total / (best / 1000))} records/s; seeding took ${(seedMs / 1000).toFixed(1)} s`,
  });
  rows.push({
    scenario: '(a) the same, against a raw load of its rows with their clocks',
    measured: `${(best / raw).toFixed(2)}× (${best.toFixed(0)} vs ${raw.toFixed(0)} ms)`,
    budget: '≤ 2× raw',
    pass: best <= 2 * raw,
    detail:
      `raw loads of the ${thousands(total)} rows with their field clocks, a transaction per ${thousands(defaultTiming.bulkPage)}: ${raws.map((r) => `${r.ms.toFixed(0)} ms (CPU ${r.cpuMs.toFixed(0)} ms)`).join(', ')}; initial syncs: ${syncs.map((s) => `${s.ms.toFixed(0)} ms`).join(', ')}; ` +
      `the client's CPU time against the raw load's: ${(clientCpu / rawCpu).toFixed(2)}× (${clientCpu.toFixed(0)} vs ${rawCpu.toFixed(0)} ms)`,
  });
  const fromPg = Math.min(...fromPostgres.syncs.map((s) => s.ms));
  rows.push({
    scenario: '(a) the same from a team server on PostgreSQL',
    measured: `${(fromPg / best).toFixed(2)}× (${fromPg.toFixed(0)} vs ${best.toFixed(0)} ms)`,
    budget: '≤ 1.5× SQLite',
    pass: fromPg <= 1.5 * best,
    detail: `copy into PostgreSQL ${(fromPostgres.copyMs / 1000).toFixed(1)} s; initial syncs: ${fromPostgres.syncs.map((s) => s.detail).join('; ')}`,
  });
  await stopRemote();
}

/** The remote's folder copied into a throwaway PostgreSQL cluster, served from there, and two fresh clients' initial syncs from it. */
async function initialSyncFromPostgres(
  remote: InProcessRemote,
  total: number,
): Promise<{ copyMs: number; syncs: { ms: number; cpuMs: number; detail: string }[] }> {
  const team = await startTeamDatabase('bench_sync', { nodes: 1 });
  const stopTeam = track(() => team.stop());
  const copyStarted = performance.now();
  const report = await copyToPostgres(remote.dataDir, team.nodes[0]);
  const copyMs = performance.now() - copyStarted;
  if (!report.matches) fail('the PostgreSQL copy does not match the remote');
  // A node of the team server in this process, with the remote's keys (ApiOptions.recordsOf).
  const app = await buildApi({ dataDir: remote.dataDir, recordsOf: teamRecordStores(team.nodes[0]) });
  const stopApp = track(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') fail('the PostgreSQL node has no port');
  const node = { url: `http://127.0.0.1:${(address as { port: number }).port}` };
  const syncs: { ms: number; cpuMs: number; detail: string }[] = [];
  for (let n = initialSyncs + 1; n <= 2 * initialSyncs; n++)
    syncs.push(await timedInitialSync(node, total, `fresh client ${n} (PostgreSQL)`));
  await stopApp();
  await stopTeam();
  return { copyMs, syncs };
}

async function offlinePush(remote: InProcessRemote): Promise<void> {
  const client = await startClient(remote, { name: 'offline client' });
  const stopClient = trackClient(client);
  await runSync(client);
  await client.proxy!.set('refuse');
  // 1,000 queued mutations (in the real run): 500 projects created, each edited once.
  const mutations = 2 * offlineProjects;
  const ids: string[] = [];
  for (let i = 0; i < offlineProjects; i++) ids.push((await ok(client, 'POST', '/v1/project', { name: `Offline ${i}` })).id);
  for (const [i, id] of ids.entries()) await ok(client, 'PUT', `/v1/project/${id}`, { description: `edited offline ${i}` }, 200);
  const pending = (await ok(client, 'GET', '/v1/sync/status', undefined, 200)).pending as number;
  if (pending !== mutations) fail(`expected ${thousands(mutations)} pending mutations, the client has ${pending}`);
  await goOnline(client);
  const logged = client.proxy!.log.length;
  const began = performance.now();
  const summary = await runSync(client);
  const runMs = performance.now() - began;
  if (summary.error || summary.pushed !== mutations) fail(`the push did not go through: ${JSON.stringify(summary)}`);
  const pushes = client.proxy!.log.slice(logged).filter((e) => e.path.startsWith('/v1/sync/push'));
  const pushMs =
    pushes.length > 0 ? Math.max(...pushes.map((e) => e.remoteDoneAt ?? e.startedAt)) - Math.min(...pushes.map((e) => e.startedAt)) : runMs;
  if ((await ok(remote, 'GET', '/v1/project?limit=0&filter=name:starts_with:Offline', undefined, 200)).count !== offlineProjects)
    fail(`the remote does not have the ${offlineProjects} projects`);
  rows.push({
    scenario: `(b) push of ${thousands(mutations)} queued offline mutations`,
    measured: `${pushMs.toFixed(0)} ms`,
    budget: '≤ 2 s',
    pass: pushMs <= 2_000,
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
  for (let i = 0; i < pollingEdits; i++) {
    const value = `edit ${i} ${uuidv7()}`;
    await ok(a, 'PUT', `/v1/project/${project.id}`, { description: value }, 200);
    const began = performance.now();
    await waitFor(
      async () => (await call(b, 'GET', `/v1/project/${project.id}`)).body?.description === value,
      `edit ${i} on B`,
      15_000,
      50,
    );
    samples.push(performance.now() - began);
    // Edits spaced out, so each one meets the sync loops at a different phase.
    await new Promise((r) => setTimeout(r, 137 * (i % 4)));
  }
  const sorted = [...samples].sort((x, y) => x - y);
  const p50 = sorted[Math.floor(sorted.length / 2)]!;
  const max = sorted[sorted.length - 1]!;
  rows.push({
    scenario: '(c) edit on A visible on B, polling',
    measured: `p50 ${(p50 / 1000).toFixed(2)} s, max ${(max / 1000).toFixed(2)} s`,
    budget: '≤ 3 s max',
    pass: max <= 3_000,
    detail: `${pollingEdits} edits, polled every 50 ms; min ${(sorted[0]! / 1000).toFixed(2)} s`,
  });
  await stopA();
  await stopB();
}

/** Latency of edits on A seen on B, each client with the live channel and the app's own timing. */
async function liveLatency(remote: InProcessRemote): Promise<void> {
  const [a, b] = await Promise.all([
    startClient(remote, { name: 'live client A', proxy: false, live: true, syncIntervalMs: defaultTiming.pullIntervalMs }),
    startClient(remote, { name: 'live client B', proxy: false, live: true, syncIntervalMs: defaultTiming.pullIntervalMs }),
  ]);
  const stopA = trackClient(a);
  const stopB = trackClient(b);
  const project = await ok(a, 'POST', '/v1/project', { name: 'Live latency' });
  await waitFor(async () => (await call(b, 'GET', `/v1/project/${project.id}`)).status === 200, 'the project on B', 15_000, 20);
  // Both listening (each opened its stream when it started) and quiet.
  await new Promise((r) => setTimeout(r, quietMs));
  const samples: number[] = [];
  for (let i = 0; i < liveEdits; i++) {
    const value = `live edit ${i} ${uuidv7()}`;
    await ok(a, 'PUT', `/v1/project/${project.id}`, { description: value }, 200);
    const began = performance.now();
    await waitFor(
      async () => (await call(b, 'GET', `/v1/project/${project.id}`)).body?.description === value,
      `live edit ${i} on B`,
      15_000,
      10,
    );
    samples.push(performance.now() - began);
    await new Promise((r) => setTimeout(r, 37 * (i % 5)));
  }
  const sorted = [...samples].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const p95 = at(0.95);
  rows.push({
    scenario: '(d) edit on A visible on B, live channel',
    measured: `p50 ${at(0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    budget: '≤ 300 ms p95',
    pass: p95 <= 300,
    detail: `${liveEdits} edits, B read every 10 ms; min ${sorted[0]!.toFixed(0)} ms`,
  });
  await stopA();
  await stopB();
}

/** Requests an idle replica sends over 60 s, with the live channel and without. */
async function idleRequests(remote: InProcessRemote): Promise<void> {
  const [live, polling] = await Promise.all([
    startClient(remote, { name: 'idle live client', live: true, syncIntervalMs: defaultTiming.pullIntervalMs }),
    startClient(remote, { name: 'idle polling client', syncIntervalMs: defaultTiming.pullIntervalMs }),
  ]);
  const stops = [trackClient(live), trackClient(polling)];
  await waitFor(() => live.proxy!.log.some((e) => e.path.startsWith('/v1/sync/stream') && e.answered), "the live client's stream", 15_000);
  await runSync(live);
  await runSync(polling);
  await new Promise((r) => setTimeout(r, quietMs));
  const from = Date.now();
  const windowMs = idleWindowMs;
  await new Promise((r) => setTimeout(r, windowMs));
  const seen = (client: ClientNode) => client.proxy!.log.filter((e) => e.startedAt >= from && e.startedAt < from + windowMs);
  const liveSeen = seen(live);
  const streams = live.proxy!.log.filter((e) => e.path.startsWith('/v1/sync/stream'));
  rows.push({
    scenario: `(e) idle replica, requests in ${windowMs / 1000} s besides its stream`,
    measured: `${liveSeen.length}`,
    budget: '0',
    pass: liveSeen.length === 0 && streams.length === 1,
    detail: `the live replica: ${liveSeen.length} requests (${liveSeen.map((e) => `${e.method} ${e.path}`).join(', ') || 'none'}), ${streams.length} stream opened in all; a polling replica over the same ${windowMs / 1000} s: ${seen(polling).length} requests`,
  });
  for (const stop of stops) await stop();
}

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** A process's CPU time (user + system, ms) and resident memory (bytes), from /proc (Linux). */
function usageOf(pid: number): { cpuMs: number; rss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  return { cpuMs, rss };
}

async function idleWindow(pid: number, ms: number): Promise<{ cpuMs: number; rssBefore: number; rssAfter: number }> {
  const before = usageOf(pid);
  await new Promise((r) => setTimeout(r, ms));
  const after = usageOf(pid);
  return { cpuMs: after.cpuMs - before.cpuMs, rssBefore: before.rss, rssAfter: after.rss };
}

/** `count` sync clients of one remote, each with its own database, with the app's timing. */
async function manyReplicas(
  remoteUrl: string,
  count: number,
  live: boolean,
): Promise<{ clients: SyncClient[]; stop: () => Promise<void> }> {
  const made: { client: SyncClient; dataDir: DataDir; folder: string }[] = [];
  const stop = track(async () => {
    for (const { client, dataDir, folder } of made) {
      await client.stop();
      dataDir.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
  for (let i = 0; i < count; i++) {
    const folder = tempDir('planner-replica-');
    const dataDir = DataDir.open(folder);
    installSyncBooks(dataDir, 'local', new Set(syncTables().keys()));
    const environment = dataDir.system.ensureEnvironment('local');
    const store = dataDir.environment(environment.id);
    const client = new SyncClient({
      records: recordsOf(store),
      tables: syncTables(),
      vault: new MemoryVault({ remote_url: remoteUrl, api_env: remoteEnv, api_key: remoteKey }),
      environmentId: environment.id,
      timing: { live },
    });
    made.push({ client, dataDir, folder });
    client.start();
  }
  await waitFor(() => made.every(({ client }) => client.status().last_pull_at !== null), `${count} replicas' first sync`, 60_000, 100);
  return { clients: made.map((m) => m.client), stop };
}

async function manyIdle(): Promise<void> {
  const replicas = replicaCount;
  const remote = await startRemote([], `remote (${replicas} replicas)`);
  const stopRemote = track(() => remote.stop());
  const pid = remote.process.child.pid!;
  const windowMs = replicaWindowMs;
  await new Promise((r) => setTimeout(r, settleAloneMs));
  const alone = await idleWindow(pid, windowMs);
  const listening = await manyReplicas(remote.url, replicas, true);
  // Every stream open (each replica opens its own when it starts) and the first runs over.
  await new Promise((r) => setTimeout(r, settleReplicasMs));
  const withLive = await idleWindow(pid, windowMs);
  // Still listening after the quiet: a change reaches every replica without a poll.
  const pulledBefore = listening.clients.map((c) => c.status().last_pull_at);
  const project = await ok(remote, 'POST', '/v1/project', { name: `Announced to ${replicas}` });
  await waitFor(
    () => listening.clients.every((c, i) => c.status().last_pull_at !== pulledBefore[i]),
    `the ${replicas} replicas to pull the announced change`,
    30_000,
    50,
  );
  await listening.stop();
  const polling = await manyReplicas(remote.url, replicas, false);
  await new Promise((r) => setTimeout(r, settleReplicasMs));
  const withPolling = await idleWindow(pid, windowMs);
  await polling.stop();
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  const growth = withLive.rssAfter - withLive.rssBefore;
  rows.push({
    scenario: `(f) remote with ${replicas} listening replicas, idle ${windowMs / 1000} s`,
    measured: `CPU ${withLive.cpuMs.toFixed(0)} ms, RSS ${growth >= 0 ? '+' : ''}${mib(growth)}`,
    budget: '≤ 300 ms, ≤ +5 MiB',
    pass: withLive.cpuMs <= 300 && growth <= 5 * 1024 * 1024,
    detail:
      `the remote alone: CPU ${alone.cpuMs.toFixed(0)} ms in ${windowMs / 1000} s, RSS ${mib(alone.rssBefore)} → ${mib(alone.rssAfter)}; ` +
      `with ${replicas} listening: CPU ${withLive.cpuMs.toFixed(0)} ms, RSS ${mib(withLive.rssBefore)} → ${mib(withLive.rssAfter)}, and a change (${String(project.id).slice(0, 8)}…) then reached all ${replicas}; ` +
      `with ${replicas} polling every second instead: CPU ${withPolling.cpuMs.toFixed(0)} ms, RSS ${mib(withPolling.rssBefore)} → ${mib(withPolling.rssAfter)}`,
  });
  await stopRemote();
}

function print(): void {
  const header = ['scenario', 'measured', 'budget', 'verdict'];
  const lines = rows.map((r) => [r.scenario, r.measured, r.budget, r.pass ? 'PASS' : 'OVER BUDGET']);
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
  const only = new Set((process.env.SYNC_BENCH ?? 'a,b,c,d,e,f').split(','));
  try {
    if (only.has('a')) await initialSync();
    const remote = await startInProcessRemote({ name: 'remote' });
    track(() => remote.close());
    if (only.has('b')) await offlinePush(remote);
    if (only.has('c')) await steadyLatency(remote);
    if (only.has('d')) await liveLatency(remote);
    if (only.has('e')) await idleRequests(remote);
    if (only.has('f')) await manyIdle();
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
