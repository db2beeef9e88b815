/**
 * What the in-process snapshot tests (test/sync/snapshot-rows, compact-clocks, live, versions)
 * do again and again: close what a test started once it is over, walk a remote's snapshot page
 * by page to its end (docs/API.md "Sync"), open and read whole a fresh replica database to
 * load pages into, and put a forwarder in front of a remote that plays another version.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, expect } from 'vitest';
import { DataDir } from '../../electron/store/data-dir.js';
import type { EnvironmentStore } from '../../electron/store/environment-store.js';
import { installSyncBooks } from '../../electron/store/sync-book.js';
import { syncTables } from '../../electron/sync/tables.js';
import type { ChangeEvent } from '../../shared/ipc.js';
import { tempDir } from './api.js';
import { call, type Node } from './sync-cluster.js';

export type Cleanups = (() => Promise<void> | void)[];

/**
 * A list the file's tests push their closes onto (remotes, replicas, proxies, folders); after
 * each test they run, the last pushed first, so a replica closes before its remote.
 */
export function cleanupsAfterEach(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

/**
 * Every page of a remote's snapshot asked with `query` (its limit, its format) and these
 * headers, each answered 200, from the first to the one whose cursor is null; at most `most`.
 */
export async function snapshotPages(remote: Pick<Node, 'url'>, headers: Record<string, string>, query: string, most = 200): Promise<any[]> {
  const pages: any[] = [];
  let cursor: string | null = null;
  do {
    if (pages.length === most) throw new Error('the snapshot did not end');
    const res = await call({ url: remote.url, headers }, 'GET', `/v1/sync/snapshot?${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    cursor = res.body.cursor;
  } while (cursor !== null);
  return pages;
}

/** A fresh replica database, as the desktop app opens one, closed after the test; and the change events it sends. */
export function freshReplicaStore(cleanups: Cleanups): { store: EnvironmentStore; events: ChangeEvent[] } {
  const dataDir = DataDir.open(tempDir('planner-replica-'));
  installSyncBooks(dataDir, 'local', new Set(syncTables().keys()));
  const store = dataDir.environment(dataDir.system.ensureEnvironment('local').id);
  const events: ChangeEvent[] = [];
  store.onChange((batch) => events.push(...batch));
  cleanups.push(() => dataDir.close());
  return { store, events };
}

/** Every row of a replica's record tables, field clocks, change log (which record, which operation), outbox and other versions' data. */
export function replicaContents(store: EnvironmentStore): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const table of syncTables().values()) out[table.table] = store.db.prepare(`SELECT * FROM "${table.table}" ORDER BY id`).all();
  out.sync_clock = store.db.prepare('SELECT * FROM sync_clock ORDER BY resource, record_id').all();
  out.change_log = store.db.prepare('SELECT resource, record_id, op FROM change_log ORDER BY resource, record_id, seq').all();
  out.sync_outbox = store.db.prepare('SELECT * FROM sync_outbox').all();
  out.sync_unknown = store.db.prepare('SELECT * FROM sync_unknown ORDER BY resource, record_id').all();
  return out;
}

/** Change events as `resource/id/op`, sorted: two loads that sent the same events compare equal. */
export const eventKeys = (events: ChangeEvent[]) => events.map((e) => `${e.resource}/${e.id}/${e.op}`).sort();

/**
 * An HTTP server in front of a remote that passes every request on (with `headers` added when
 * told) and records each as `METHOD path`, except that `answer` may answer one itself or
 * `rewrite` may change an answer's JSON: an older or a broken remote, or an older replica.
 */
export async function startForwarder(
  target: string,
  options: {
    answer?: (method: string, path: string) => { status: number; body: unknown } | undefined;
    rewrite?: (path: string, body: any) => any;
    headers?: Record<string, string>;
  },
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push(`${req.method} ${path}`);
      const own = options.answer?.(req.method ?? 'GET', path);
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(own.body));
        return;
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) headers[name] = value;
      Object.assign(headers, options.headers);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(target + path, { method: req.method ?? 'GET', headers, ...(body && body.length > 0 ? { body } : {}) })
        .then(async (answer) => {
          let text = await answer.text();
          if (options.rewrite && answer.ok) text = JSON.stringify(options.rewrite(path, JSON.parse(text)));
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  return { ...(await listenOnLoopback(server)), requests };
}

/** Starts a test's own HTTP server on a free port of 127.0.0.1: its address, and a close that ends its connections too. */
export async function listenOnLoopback(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
