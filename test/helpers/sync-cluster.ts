/**
 * A sync cluster for the sync tests (test/sync/*) and the sync benchmark: one remote and N
 * client replicas, each a separate headless server process (`electron/host/server.ts`), each
 * client optionally behind its own fault proxy (test/helpers/fault-proxy.ts) so it can be sent
 * offline or have its traffic damaged. All traffic stays on 127.0.0.1.
 *
 *  - `dump(node)`: every live record of every resource, read through the public API (lists
 *    paged with limit=1000, sub-resources per parent), sorted by id, so two replicas compare
 *    with `toEqual`;
 *  - `useTwoClientCluster(options, ready)`: the two-client cluster a test file shares, started
 *    before its tests and stopped after them; `expectConverged(clients, remote)`: both clients'
 *    dumps equal the remote's;
 *  - `syncUntilQuiet(clients)`: rounds of `POST /v1/sync/run` on every client until a round
 *    pushes, refuses and pulls nothing while the remote does not change (at most 10 rounds).
 *
 * Clients run with a long sync interval and without the live channel (PLANNER_SYNC_LIVE=off,
 * unless `live: true`), so they sync on their own only shortly after a local change (the push
 * debounce); everything else is an explicit `POST /v1/sync/run`.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { tempDir } from './api.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import type { ServerProcess } from './process.js';
import { startServerProcess } from './process.js';
import { nowMs } from '../../shared/clock.js';

export const remoteEnv = 'prod';
export const remoteKey = 'remote-key';
export const localEnv = 'local';
export const localKey = 'local-key';
export const remoteHeaders = { 'x-api-env': remoteEnv, 'x-api-key': remoteKey };
export const localHeaders = { 'x-api-env': localEnv, 'x-api-key': localKey };

export interface Node {
  name: string;
  /** The current URL (a client's changes when it restarts). */
  readonly url: string;
  headers: Record<string, string>;
  dataDir: string;
  readonly process: ServerProcess;
}

export interface RemoteNode extends Node {
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ClientNode extends Node {
  proxy: FaultProxy | undefined;
  /** Where the client sends its sync traffic: its proxy, or the remote itself. */
  remoteUrl: string;
  /** Stops the process (SIGKILL for a crash). The data folder stays. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the client again on the same data folder (after stop). */
  restart(): Promise<void>;
}

export interface SyncSummary {
  pushed: number;
  rejected: number;
  pulled: number;
  files_sent: number;
  files_fetched: number;
  resynced: boolean;
  duration_ms: number;
  error: string | null;
}

export interface Response {
  status: number;
  body: any;
}

/** One request to a node's API with its credentials; JSON in, parsed JSON out. */
export async function call(node: Pick<Node, 'url' | 'headers'>, method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(node.url + path, {
    method,
    headers: { ...node.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: parsed };
}

/** A request that must answer `status` (200, or 201 for POST by default); returns the body. */
export async function ok(
  node: Pick<Node, 'url' | 'headers' | 'name'> & { name?: string },
  method: string,
  path: string,
  body?: unknown,
  status?: number,
): Promise<any> {
  const res = await call(node, method, path, body);
  const expected = status ?? (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);
  if (res.status !== expected) {
    throw new Error(
      `${node.name ?? node.url}: ${method} ${path} answered ${res.status}, expected ${expected}: ${JSON.stringify(res.body)}`,
    );
  }
  return res.body;
}

/** Polls `condition` every `intervalMs` until it is truthy or `timeoutMs` passes (then throws). */
export async function waitFor<T>(condition: () => Promise<T> | T, what: string, timeoutMs = 10_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

const folders: string[] = [];

export async function startRemote(extraArgs: string[] = [], name = 'remote'): Promise<RemoteNode> {
  const dataDir = tempDir('planner-remote-');
  folders.push(dataDir);
  const server = await startServerProcess(['--data-dir', dataDir, '--api-env', remoteEnv, '--api-key', remoteKey, ...extraArgs]);
  return {
    name,
    url: server.url,
    headers: remoteHeaders,
    dataDir,
    process: server,
    async stop(signal = 'SIGTERM') {
      await server.stop(signal);
    },
  };
}

export interface ClientOptions {
  name?: string;
  /** Put a fault proxy between this client and the remote (default true). */
  proxy?: boolean;
  /** Go through this proxy (shared with other clients; not closed with this client). */
  via?: FaultProxy;
  /** Seed of the proxy's randomness. */
  seed?: number;
  syncIntervalMs?: number;
  /** Reuse a data folder (a restart in another process). */
  dataDir?: string;
  /** Start offline (its proxy refusing), so its first sync of its own fails; see goOnline. */
  offline?: boolean;
  /** Listen to the remote's live channel and pull when it announces a change (default false). */
  live?: boolean;
  /** Other nodes of the same team server: the proxy sends each request to one of them or the remote, at random. */
  spreadOver?: string[];
}

export async function startClient(remote: Pick<Node, 'url'>, options: ClientOptions = {}): Promise<ClientNode> {
  const dataDir = options.dataDir ?? tempDir('planner-client-');
  if (!options.dataDir) folders.push(dataDir);
  const proxy =
    options.via ??
    (options.proxy === false
      ? undefined
      : await startFaultProxy(remote.url, { seed: options.seed ?? 1, ...(options.spreadOver ? { spreadOver: options.spreadOver } : {}) }));
  if (options.offline) {
    if (!proxy) throw new Error('a client can start offline only behind a proxy');
    await proxy.set('refuse');
  }
  const remoteUrl = proxy?.url ?? remote.url;
  const args = [
    '--data-dir',
    dataDir,
    '--api-env',
    localEnv,
    '--api-key',
    localKey,
    '--remote',
    remoteUrl,
    '--remote-api-env',
    remoteEnv,
    '--remote-api-key',
    remoteKey,
    '--sync-interval-ms',
    String(options.syncIntervalMs ?? 60_000),
  ];
  const env = { PLANNER_SYNC_LIVE: options.live ? 'on' : 'off' };
  let server: ServerProcess;
  try {
    server = await startServerProcess(args, undefined, env);
  } catch (error) {
    if (!options.via) await proxy?.close();
    throw error;
  }
  const node: ClientNode = {
    name: options.name ?? 'client',
    get url() {
      return server.url;
    },
    headers: localHeaders,
    dataDir,
    get process() {
      return server;
    },
    proxy,
    remoteUrl,
    async stop(signal = 'SIGTERM') {
      await server.stop(signal);
    },
    async restart() {
      await server.stop('SIGTERM');
      server = await startServerProcess(args, undefined, env);
    },
  };
  return node;
}

export interface Cluster {
  remote: RemoteNode;
  clients: ClientNode[];
  /** Starts one more client (stopped with the cluster). */
  addClient(options?: ClientOptions): Promise<ClientNode>;
  /** Stops every process and proxy and removes the data folders. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  clients: number;
  proxies?: boolean;
  /** One proxy for every client (so their requests can be reordered against each other). */
  sharedProxy?: boolean;
  remoteArgs?: string[];
  syncIntervalMs?: number;
  seed?: number;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const remote = await startRemote(options.remoteArgs ?? []);
  const clients: ClientNode[] = [];
  const shared = options.sharedProxy ? await startFaultProxy(remote.url, { seed: options.seed ?? 1 }) : undefined;
  let made = 0;
  const cluster: Cluster = {
    remote,
    clients,
    async addClient(extra = {}) {
      // Numbered when asked for, so clients started in parallel get distinct names and seeds.
      const index = made++;
      const client = await startClient(remote, {
        name: `client ${String.fromCharCode(65 + index)}`,
        proxy: options.proxies ?? true,
        seed: (options.seed ?? 1) + index,
        ...(options.syncIntervalMs !== undefined ? { syncIntervalMs: options.syncIntervalMs } : {}),
        ...(shared ? { via: shared } : {}),
        ...extra,
      });
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.stop().catch(() => undefined)));
      const proxies = new Set(clients.map((c) => c.proxy).filter((p): p is FaultProxy => p !== undefined));
      if (shared) proxies.add(shared);
      for (const proxy of proxies) await proxy.close().catch(() => undefined);
      await remote.stop().catch(() => undefined);
      removeFolders();
    },
  };
  try {
    // Started in parallel: each process spends most of its start-up compiling.
    await Promise.all(Array.from({ length: options.clients }, () => cluster.addClient()));
    clients.sort((a, b) => a.name.localeCompare(b.name));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}

/** The nodes of a two-client cluster, as `useTwoClientCluster` hands them to a test file. */
export interface TwoClients {
  a: ClientNode;
  b: ClientNode;
  remote: RemoteNode;
  cluster: Cluster;
}

/**
 * The fixture the sync tests share: a remote and clients A and B (`startCluster` with two
 * clients) started before the file's tests, handed to `ready` (which binds them and seeds the
 * starting data), and stopped after the tests, also when `ready` failed.
 */
export function useTwoClientCluster(options: Omit<ClusterOptions, 'clients'>, ready: (nodes: TwoClients) => Promise<void>): void {
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster({ ...options, clients: 2 });
    const [a, b] = cluster.clients as [ClientNode, ClientNode];
    await ready({ a, b, remote: cluster.remote, cluster });
  });
  afterAll(async () => {
    await cluster?.stop();
  });
}

/**
 * Every client's dump equals the remote's (`trash` compares the deleted records too); with
 * `noConflicts`, no client has an open conflict either. Returns the remote's dump.
 */
export async function expectConverged(
  clients: ClientNode[],
  remote: RemoteNode,
  options: { trash?: boolean; noConflicts?: boolean } = {},
): Promise<Dump> {
  const dumpOptions = options.trash ? { trash: true } : {};
  const [remoteDump, ...clientDumps] = await Promise.all([dump(remote, dumpOptions), ...clients.map((c) => dump(c, dumpOptions))]);
  clients.forEach((client, i) => expect(clientDumps[i], `${client.name} equals the remote`).toEqual(remoteDump));
  if (options.noConflicts) {
    for (const client of clients) {
      expect((await ok(client, 'GET', '/v1/sync/conflict?limit=1000', undefined, 200)).data, `${client.name}: open conflicts`).toEqual([]);
    }
  }
  return remoteDump!;
}

/** Removes the data folders made so far (after their processes have stopped). */
export function removeFolders(): void {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------- sync

export async function runSync(client: Pick<Node, 'url' | 'headers' | 'name'>): Promise<SyncSummary> {
  return (await ok(client, 'POST', '/v1/sync/run', undefined, 200)) as SyncSummary;
}

export async function status(client: Pick<Node, 'url' | 'headers' | 'name'>): Promise<any> {
  return ok(client, 'GET', '/v1/sync/status', undefined, 200);
}

/**
 * Takes a client behind its proxy offline (the proxy stops listening). Its own timers keep
 * trying and back off.
 */
export async function goOffline(...clients: ClientNode[]): Promise<void> {
  await Promise.all(clients.map((c) => c.proxy!.set('refuse')));
}

/**
 * Brings a client back online at a quiet moment: it is not syncing and its next attempt of its
 * own (debounce or backoff) is not due within `marginMs`. So the explicit `POST /v1/sync/run`
 * that follows is the run that pushes, and a test can say which client reaches the remote first.
 */
export async function goOnline(client: ClientNode, marginMs = 500): Promise<void> {
  await waitFor(
    async () => {
      const s = await status(client);
      // The client's clock, which the suite may have fixed (test/helpers/test-clock.ts).
      return !s.syncing && (s.next_attempt_at === null || Date.parse(s.next_attempt_at) > nowMs() + marginMs);
    },
    `${client.name} to be between sync attempts`,
    20_000,
  );
  await client.proxy!.set('pass');
}

/** The remote's newest change number (the `seq` of a snapshot). */
export async function remoteSeq(remote: Pick<Node, 'url' | 'headers' | 'name'>): Promise<number> {
  return (await ok(remote, 'GET', '/v1/sync/snapshot?limit=1', undefined, 200)).seq as number;
}

/**
 * Rounds of `POST /v1/sync/run` on every client (one after another) until a round in which
 * every run pushed, refused and pulled nothing, without error, with nothing pending, while
 * the remote's change number stayed the same. Throws after `rounds` rounds.
 */
export async function syncUntilQuiet(
  clients: readonly Pick<Node, 'url' | 'headers' | 'name'>[],
  remote: Pick<Node, 'url' | 'headers' | 'name'>,
  rounds = 10,
): Promise<SyncSummary[][]> {
  const history: SyncSummary[][] = [];
  for (let round = 0; round < rounds; round++) {
    const before = await remoteSeq(remote);
    const summaries: SyncSummary[] = [];
    for (const client of clients) summaries.push(await runSync(client));
    history.push(summaries);
    const pending = await Promise.all(clients.map(async (c) => (await status(c)).pending as number));
    const after = await remoteSeq(remote);
    const quiet = summaries.every((s) => s.pushed === 0 && s.rejected === 0 && s.pulled === 0 && s.error === null);
    if (quiet && pending.every((p) => p === 0) && before === after) return history;
  }
  throw new Error(`sync did not settle in ${rounds} rounds: ${JSON.stringify(history)}`);
}

// ---------------------------------------------------------------------------------- dump

/** Top-level list endpoints, and the sub-lists read for each of their records. */
const dumpPlan: { path: string; children?: string[] }[] = [
  { path: '/v1/project' },
  { path: '/v1/order', children: ['row'] },
  { path: '/v1/item' },
  { path: '/v1/relation' },
  { path: '/v1/warehouse' },
  { path: '/v1/address' },
  { path: '/v1/board', children: ['label', 'status', 'view', 'checklist', 'custom_field'] },
  { path: '/v1/stage' },
  { path: '/v1/activity' },
  { path: '/v1/resource', children: ['schedule_deviation'] },
  { path: '/v1/company_holiday' },
  { path: '/v1/surcharge_rule' },
  { path: '/v1/payroll_setting' },
  { path: '/v1/group' },
  { path: '/v1/user' },
  { path: '/v1/space' },
  { path: '/v1/collection', children: ['checklist', 'comment', 'attachment'] },
  { path: '/v1/card' },
  { path: '/v1/card_relation' },
  { path: '/v1/time_tracking' },
  { path: '/v1/exception_handling' },
  { path: '/v1/time_tracking/period' },
  { path: '/v1/overtime_correction' },
  { path: '/v1/automation_rule' },
  { path: '/v1/automation_notice' },
];

/** Every record of a list endpoint, 1000 per page, sorted by id. */
export async function listAll(node: Pick<Node, 'url' | 'headers' | 'name'>, path: string): Promise<any[]> {
  const records: any[] = [];
  for (let offset = 0; offset < 1_000_000; offset += 1000) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await ok(node, 'GET', `${path}${sep}limit=1000&offset=${offset}`, undefined, 200);
    records.push(...(page.data as any[]));
    if (offset + 1000 >= (page.count as number)) break;
  }
  return records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export type Dump = Record<string, any[]>;

/**
 * Every live record of every resource through the API, keyed by list path (sub-lists as
 * `/v1/order/{id}/row`), each sorted by id. With `trash`, also the deleted records of the main
 * resources (`/v1/trash/{resource}`); with `children: false`, top-level lists only (quicker).
 */
export async function dump(
  node: Pick<Node, 'url' | 'headers' | 'name'>,
  options: { trash?: boolean; children?: boolean } = {},
): Promise<Dump> {
  const out: Dump = {};
  for (const { path, children } of dumpPlan) {
    const records = await listAll(node, path);
    out[path] = records;
    if (options.children === false) continue;
    for (const child of children ?? []) {
      for (const record of records) {
        const sub = await listAll(node, `${path}/${record.id}/${child}`);
        if (sub.length > 0) out[`${path}/${record.id}/${child}`] = sub;
      }
    }
  }
  if (options.trash) {
    for (const resource of ['project', 'order', 'order_row', 'collection', 'card', 'board', 'stage', 'activity', 'item']) {
      const trash = await ok(node, 'GET', `/v1/trash/${resource}?limit=1000`, undefined, 200);
      out[`trash:${resource}`] = (trash.data as any[]).sort((a, b) => (a.id < b.id ? -1 : 1));
    }
  }
  return out;
}

/** How many live records of a list have each value of `field` (e.g. names → counts). */
export async function countBy(node: Pick<Node, 'url' | 'headers' | 'name'>, path: string, field = 'name'): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const record of await listAll(node, path)) {
    const key = String(record[field]);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
