/**
 * Compact field clocks in a snapshot in rows (docs/decisions/compact-field-clocks.md, docs/API.md
 * "Snapshot in rows"): a replica of sync protocol 4 gets a record's clocks as one clock when all
 * its fields share it, anyone else the objects; a replica reads both forms, so it syncs with an
 * older remote as before, and an older replica with this remote. And a replica's first snapshot
 * writes no change-log rows, while its own later writes are logged and pushed
 * (docs/decisions/first-snapshot-unlogged.md).
 *
 * Real HTTP on 127.0.0.1; the remote on SQLite, or on PostgreSQL in the `postgres` project
 * (test/helpers/sync-inprocess.ts); replicas on SQLite files as the desktop app opens them.
 */
import { describe, expect, it } from 'vitest';
import { recordsOf } from '../../electron/store/record-store.js';
import { bookOf } from '../../electron/store/sync-book.js';
import type { EnvironmentStore } from '../../electron/store/environment-store.js';
import { bulkLoad, checkRows } from '../../electron/sync/bulk-load.js';
import { SyncMessageError } from '../../electron/sync/merge.js';
import { syncTables } from '../../electron/sync/tables.js';
import { formatHlc } from '../../shared/hlc.js';
import { dump, ok } from '../helpers/sync-cluster.js';
import { createCollection, createOrder, createPlanningBase, createProject, plan, remove, update } from '../helpers/sync-data.js';
import { signInMemberOn, startInProcessClient, startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';
import { cleanupsAfterEach, snapshotPages, startForwarder } from '../helpers/sync-snapshot.js';

const cleanups = cleanupsAfterEach();

/** A remote with records written once (one clock each), records edited since, and a deleted one. */
async function seededRemote(): Promise<InProcessRemote> {
  const remote = await startInProcessRemote();
  cleanups.push(() => remote.close());
  const base = await createPlanningBase(remote, 'Compact');
  const planned = await createCollection(remote, base, 'Planned', 600, { description: null });
  await plan(remote, base, planned.id);
  await createOrder(remote, 'O-1', [{ quantity: 2, description: 'two' }]);
  for (let i = 0; i < 5; i++) await createProject(remote, `Project ${i}`);
  const edited = await createProject(remote, 'Edited');
  await update(remote, `/v1/project/${edited.id}`, { description: 'edited since' });
  const gone = await createProject(remote, 'Deleted');
  await remove(remote, `/v1/project/${gone.id}`);
  return remote;
}

/** Every snapshot page in rows, as one list of tables, asked with these headers. */
async function rowsSnapshot(remote: InProcessRemote, headers: Record<string, string>): Promise<any[]> {
  return (await snapshotPages(remote, headers, 'limit=7&format=rows')).flatMap((page) => page.tables);
}

/** The rows with each compact cell, `[clock, clocks with 0 for it]`, written out as the object it stands for (docs/API.md "Snapshot in rows"). */
function expanded(tables: any[]): any[] {
  return tables.map((part) => ({
    ...part,
    rows: part.rows.map((row: unknown[]) => {
      const cell = row[part.fields.length];
      if (!Array.isArray(cell)) return row;
      const [clock, compact] = cell;
      const clocks = Object.fromEntries(Object.entries(compact).map(([name, hlc]) => [name, hlc === 0 ? clock : hlc]));
      return [...row.slice(0, part.fields.length), clocks];
    }),
  }));
}

/** The fields of a compact cell with a clock of their own, not the shared one. */
const ownClocks = (cell: any) =>
  Object.keys(cell[1])
    .filter((name) => cell[1][name] !== 0)
    .sort();

const cells = (tables: any[]) => tables.flatMap((part) => part.rows.map((row: unknown[]) => row[part.fields.length]));

/** A forwarder to the remote that says every request speaks sync protocol 3: the remote answers as to an older replica, or as an older remote would. */
async function startOldProtocolForwarder(target: string) {
  return startForwarder(target, {
    headers: { 'x-planner-sync-protocol': '3' },
    rewrite: (path, body) => {
      // An older remote never sends one clock for a record: this one must not either.
      if (path.startsWith('/v1/sync/snapshot')) expect(cells(body.tables ?? []).some((c) => Array.isArray(c))).toBe(false);
      return body;
    },
  });
}

function storeOf(client: Awaited<ReturnType<typeof startInProcessClient>>): EnvironmentStore {
  return client.instance.dataDir.environment(client.instance.environment.id);
}

const clockRows = (store: EnvironmentStore) => store.db.prepare('SELECT * FROM sync_clock ORDER BY resource, record_id').all();

describe('GET /v1/sync/snapshot?format=rows with compact clocks', () => {
  it('gives protocol 4 each record’s clocks as [clock, clocks with 0 for it], and the objects to protocol 3 and to a caller without the header', async () => {
    const remote = await seededRemote();
    const member = await signInMemberOn(remote, 'member@compact.test');
    for (const headers of [remote.headers, member]) {
      const compact = await rowsSnapshot(remote, { ...headers, 'x-planner-sync-protocol': '4' });
      const old = await rowsSnapshot(remote, { ...headers, 'x-planner-sync-protocol': '3' });
      const plain = await rowsSnapshot(remote, headers);
      // The old forms: every record's clocks an object, the same with or without the header.
      expect(cells(old).every((c) => typeof c === 'object' && c !== null)).toBe(true);
      expect(plain).toEqual(old);
      // The compact form stands for exactly the same clocks.
      expect(expanded(compact)).toEqual(old);
      expect(cells(compact).every((c) => Array.isArray(c))).toBe(true);
      // Fields written at once share the clock; a record edited since has its edit's clock as another.
      const projects = compact.filter((part) => part.resource === 'project');
      const nameAt = projects[0].fields.indexOf('name');
      const rows = projects.flatMap((part) => part.rows);
      const written = rows.find((row: unknown[]) => row[nameAt] === 'Project 1');
      expect(ownClocks(written.at(-1))).toEqual([]);
      expect(Object.keys(written.at(-1)[1])).toContain('name');
      const edited = rows.find((row: unknown[]) => row[nameAt] === 'Edited');
      expect(ownClocks(edited.at(-1))).toEqual(['description', 'updated_at']);
      const gone = rows.find((row: unknown[]) => row[nameAt] === 'Deleted');
      expect(ownClocks(gone.at(-1))).toContain('deleted_at');
    }
  });
});

describe('a replica reading compact clocks', () => {
  it('loads [clock, clocks with 0 for it] as the object it stands for (deleted_at’s only for a deleted record), and refuses a malformed one', async () => {
    const hlc = formatHlc({ millis: Date.parse('2026-03-02T10:00:00Z'), counter: 3, node: 'writer' });
    const later = formatHlc({ millis: Date.parse('2026-03-02T11:00:00Z'), counter: 0, node: 'editor' });
    const fields = ['id', 'deleted_at', 'name', 'code', 'created_at', 'updated_at'];
    const live = ['0193a7a4-1f4e-7000-8000-000000000001', null, 'Live', 'L', '2026-03-02T10:00:00Z', '2026-03-02T10:00:00Z'];
    const gone = [
      '0193a7a4-1f4e-7000-8000-000000000002',
      '2026-03-02T11:00:00Z',
      'Gone',
      'G',
      '2026-03-02T10:00:00Z',
      '2026-03-02T11:00:00Z',
    ];
    const compact = [
      [...live, [hlc, { name: 0, created_at: 0, updated_at: later, deleted_at: 0 }]],
      [...gone, [hlc, { name: 0, code: 0, created_at: 0, deleted_at: later, updated_at: later }]],
    ];
    const objects = [
      [...live, { name: hlc, created_at: hlc, updated_at: later, deleted_at: hlc }],
      [...gone, { name: hlc, code: hlc, created_at: hlc, deleted_at: later, updated_at: later }],
    ];
    const { loads } = checkRows(syncTables(), [{ resource: 'project', fields, rows: compact }]);
    const fromObjects = checkRows(syncTables(), [{ resource: 'project', fields, rows: objects }]);
    expect(loads[0]!.clocks).toEqual(fromObjects.loads[0]!.clocks);
    // deleted_at's clock is kept for the deleted record only, as from the object.
    expect(loads[0]!.clocks.map((text) => JSON.parse(text))).toEqual([
      { name: hlc, created_at: hlc, updated_at: later },
      { name: hlc, code: hlc, created_at: hlc, updated_at: later, deleted_at: later },
    ]);
    expect(loads[0]!.entries().map((e) => e.clocks)).toEqual(fromObjects.loads[0]!.entries().map((e) => e.clocks));
    expect(loads[0]!.newest).toBe(later);
    const malformed: unknown[] = [
      ['yesterday', { name: 0 }],
      [hlc],
      [hlc, { name: 0 }, {}],
      [hlc, 'name'],
      [hlc, { name: 1 }],
      [hlc, { name: 'yesterday' }],
      [0, { name: 0 }],
    ];
    for (const cell of malformed)
      expect(() => checkRows(syncTables(), [{ resource: 'project', fields, rows: [[...live, cell]] }]), JSON.stringify(cell)).toThrow(
        SyncMessageError,
      );
    // Rows of a field this version does not declare become records, the compact clocks an object.
    const unknown = checkRows(syncTables(), [
      { resource: 'project', fields: [...fields, 'budget_code'], rows: [[...live, 'B-7', [hlc, { name: 0, budget_code: later }]]] },
    ]);
    expect(unknown.records).toEqual([expect.objectContaining({ clocks: { name: hlc, budget_code: later } })]);
  });

  it('syncs from a remote answering the old form (an older remote) to what a compact sync writes; and an older replica is answered the old form', async () => {
    const remote = await seededRemote();
    const old = await startOldProtocolForwarder(remote.url);
    cleanups.push(() => old.close());
    const fromOld = await startInProcessClient(old.url, 'replica of an older remote', { bulkPage: 7 });
    cleanups.push(() => fromOld.close());
    const compact = await startInProcessClient(remote.url, 'replica', { bulkPage: 7 });
    cleanups.push(() => compact.close());
    for (const client of [fromOld, compact]) expect((await client.instance.sync.run()).error).toBeNull();
    expect(old.requests.filter((r) => r.startsWith('GET /v1/sync/snapshot')).length).toBeGreaterThan(1);
    const expected = await dump(remote, { trash: true });
    expect(await dump(fromOld, { trash: true })).toEqual(expected);
    expect(await dump(compact, { trash: true })).toEqual(expected);
    // The same field clocks, row for row, whichever form they came in.
    expect(clockRows(storeOf(compact))).toEqual(clockRows(storeOf(fromOld)));
    expect(clockRows(storeOf(compact)).length).toBeGreaterThan(10);
  });
});

describe("a replica's first snapshot", () => {
  it('writes no change-log rows; the replica’s own later edit is logged, pushed and reaches the remote', async () => {
    const remote = await seededRemote();
    const client = await startInProcessClient(remote.url, 'replica', { bulkPage: 7 });
    cleanups.push(() => client.close());
    expect((await client.instance.sync.run()).error).toBeNull();
    const store = storeOf(client);
    const logged = () => store.db.prepare('SELECT resource, record_id, op FROM change_log ORDER BY seq').all();
    expect(logged()).toEqual([]);
    expect(bookOf(store).pendingCount()).toBe(0);

    const projects = (await ok(client, 'GET', '/v1/project?limit=100')).data as { id: string; name: string }[];
    const target = projects.find((p) => p.name === 'Project 2')!;
    await update(client, `/v1/project/${target.id}`, { description: 'edited on the replica' });
    expect(logged()).toEqual([{ resource: 'project', record_id: target.id, op: 'update' }]);
    expect(bookOf(store).pendingCount()).toBe(1);
    const summary = await client.instance.sync.run();
    expect(summary.error).toBeNull();
    expect(summary.pushed).toBe(1);
    expect(bookOf(store).pendingCount()).toBe(0);
    expect((await ok(remote, 'GET', `/v1/project/${target.id}`)).description).toBe('edited on the replica');
    // The remote's change comes back: the replica is as the remote.
    expect(await dump(client, { trash: true })).toEqual(await dump(remote, { trash: true }));
  });

  it('an empty replica that meets a record it has after all merges that page, logged as any merge', async () => {
    const remote = await seededRemote();
    const page = await ok(
      { url: remote.url, headers: { ...remote.headers, 'x-planner-sync-protocol': '4' }, name: 'remote' },
      'GET',
      '/v1/sync/snapshot?limit=5000&format=rows',
    );
    const client = await startInProcessClient(remote.url, 'replica');
    cleanups.push(() => client.close());
    const store = storeOf(client);
    const tables = syncTables();
    await bulkLoad(recordsOf(store), tables, [], async () => undefined, checkRows(tables, page.tables).loads);
    expect(store.db.prepare('SELECT count(*) AS n FROM change_log').get()).toEqual({ n: 0 });
    // The same page again: every record is here, so it is merged instead, and nothing changes.
    const clocks = clockRows(store);
    await bulkLoad(recordsOf(store), tables, [], async () => undefined, checkRows(tables, page.tables).loads);
    expect(clockRows(store)).toEqual(clocks);
  });
});
