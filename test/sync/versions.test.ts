/**
 * Versions on the wire; no field ever dropped (docs/API.md "Sync", "Versions and unknown
 * data"). Users do not update every computer at once, so replicas one version ahead of the
 * remote, or behind it, meet in normal use. A newer app is played by raw pushes and reads
 * with fields and resources this version does not declare and its version headers; an older
 * one by a sync client that knows fewer declarations than the database it writes to; a
 * remote of another version by a small HTTP server that answers as one would. Everything else
 * is real: in-process remotes and replicas over HTTP on 127.0.0.1, real SQLite files.
 */
import { createServer, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import type { EnvironmentStore } from '../../electron/store/environment-store.js';
import { tableFor, type TableDef } from '../../electron/store/table-def.js';
import { bookOf, mutationHash } from '../../electron/store/sync-book.js';
import { syncProtocol } from '../../shared/sync.js';
import type { Mutation } from '../../shared/operations/sync.js';
import { unknownDataOf } from '../../electron/store/unknown-data.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { admitAsWriter } from '../../electron/api/sync/books.js';
import { resourceModules } from '../../electron/api/resources/index.js';
import { userModule } from '../../electron/api/resources/user.js';
import { SyncClient, type SyncTiming } from '../../electron/sync/client.js';
import { MemoryVault } from '../../electron/sync/credentials.js';
import { syncTables } from '../../electron/sync/tables.js';
import { formatHlc, HybridClock, maxClockSkewMs } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { projectSpec } from '../../shared/resources/index.js';
import { tempDir } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { call, ok, remoteEnv, remoteHeaders, remoteKey, type Response } from '../helpers/sync-cluster.js';
import {
  signInMemberOn,
  startInProcessClient,
  startInProcessRemote,
  type InProcessClient,
  type InProcessRemote,
} from '../helpers/sync-inprocess.js';
import { listenOnLoopback, snapshotPages } from '../helpers/sync-snapshot.js';

/** A newer app: the current protocol and a schema this version has not reached. */
const newerHeaders = { ...remoteHeaders, 'x-planner-sync-protocol': '2', 'x-planner-schema': '99' };
const never = 3_600_000;
const quiet: Partial<SyncTiming> = { pullIntervalMs: never, pushDelayMs: never, backoffMs: never, maxBackoffMs: never, live: false };

/** A clock `ms` before now (within the remote's skew) on `node`. */
const ago = (ms: number, node: string, counter = 0) => formatHlc({ millis: Date.now() - ms, counter, node });

function push(
  target: { url: string },
  clientId: string,
  mutations: unknown[],
  headers: Record<string, string> = newerHeaders,
): Promise<Response> {
  return call({ url: target.url, headers }, 'POST', '/v1/sync/push', { client_id: clientId, mutations });
}

async function pushOk(target: { url: string }, clientId: string, mutations: unknown[]): Promise<any[]> {
  const res = await push(target, clientId, mutations);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results;
}

/** The whole change feed as a newer replica reads it. */
async function feed(remote: InProcessRemote, headers: Record<string, string> = newerHeaders): Promise<any[]> {
  const page = await ok({ url: remote.url, headers, name: 'reader' }, 'GET', '/v1/sync/changes?since=0&limit=5000');
  expect(page).toMatchObject({ protocol: syncProtocol, schema: expect.any(Number) });
  return page.changes;
}

/** Every snapshot page, `limit` records at a time. */
async function snapshot(remote: InProcessRemote, limit: number): Promise<any[]> {
  const pages = await snapshotPages(remote, newerHeaders, `limit=${limit}`, 1000);
  for (const page of pages) expect(page).toMatchObject({ protocol: syncProtocol, schema: expect.any(Number) });
  return pages.flatMap((page) => page.records);
}

const storeOf = (remote: InProcessRemote) => remote.dataDir.environment(remote.environment.id);
const clientStore = (client: { instance: LocalInstance }) => client.instance.dataDir.environment(client.instance.environment.id);

interface KeptRow {
  resource: string;
  record_id: string;
  field: string;
  value: unknown;
  clock: string;
}

/** What a database keeps of other versions' data, straight from its table. */
function keptRows(store: EnvironmentStore, resource?: string): KeptRow[] {
  const rows = store.db
    .prepare('SELECT resource, record_id, field, value, clock FROM sync_unknown ORDER BY resource, record_id, field')
    .all() as (KeptRow & { value: string })[];
  return rows.filter((r) => resource === undefined || r.resource === resource).map((r) => ({ ...r, value: JSON.parse(r.value) }));
}

function changeLogCount(store: EnvironmentStore, resource: string, id: string): number {
  return (store.db.prepare('SELECT count(*) AS n FROM change_log WHERE resource = ? AND record_id = ?').get(resource, id) as { n: number })
    .n;
}

const createProject = (mutationId: number, id: string, fields: Record<string, unknown>, hlc: string) => ({
  mutation_id: mutationId,
  resource: 'project',
  id,
  op: 'create',
  fields,
  hlc,
});
const updateOf = (mutationId: number, resource: string, id: string, fields: Record<string, unknown>, hlc: string) => ({
  mutation_id: mutationId,
  resource,
  id,
  op: 'update',
  fields,
  hlc,
});

/** A member signed in on the remote (OAuth), as a member's replica calls it. */
async function signInMember(remote: InProcessRemote): Promise<Record<string, string>> {
  return { ...(await signInMemberOn(remote, 'member@versions.test')), 'x-planner-sync-protocol': '2' };
}

describe('a newer replica writes a field the remote lacks', () => {
  let remote: InProcessRemote;
  beforeAll(async () => {
    remote = await startInProcessRemote();
  });
  afterAll(async () => {
    await remote?.close();
  });

  it('keeps it with its clock, last-writer-wins, and passes it on in the change feed and the snapshot (to admins only)', async () => {
    const id = uuidv7();
    const created = ago(5_000, 'newer');
    const results = await pushOk(remote, 'newer', [
      createProject(1, id, { name: 'Moulds', budget_code: 'BC-7', tooling: { presses: 2 } }, created),
    ]);
    expect(results).toEqual([{ mutation_id: 1, status: 'applied' }]);
    // This version serves what it declares …
    expect(await ok(remote, 'GET', `/v1/project/${id}`)).not.toHaveProperty('budget_code');
    // … and keeps the rest, each field with the mutation's clock.
    expect(keptRows(storeOf(remote))).toEqual([
      { resource: 'project', record_id: id, field: 'budget_code', value: 'BC-7', clock: created },
      { resource: 'project', record_id: id, field: 'tooling', value: { presses: 2 }, clock: created },
    ]);
    let entry = (await feed(remote)).find((c) => c.id === id);
    expect(entry.record).toMatchObject({ name: 'Moulds', budget_code: 'BC-7', tooling: { presses: 2 } });
    expect(entry.clocks).toMatchObject({ name: created, budget_code: created, tooling: created });

    // A change to that field alone is a change of the record: the feed carries it again, and
    // the store tells its listeners (the live channel) after the commit.
    const before = entry.seq as number;
    const later = ago(3_000, 'newer');
    const events: unknown[] = [];
    const stopListening = storeOf(remote).onChange((batch) => events.push(...batch));
    expect(await pushOk(remote, 'newer', [updateOf(2, 'project', id, { budget_code: 'BC-8' }, later)])).toEqual([
      { mutation_id: 2, status: 'applied' },
    ]);
    stopListening();
    expect(events).toContainEqual({ resource: 'project', id, op: 'update', kept: true });
    entry = (await feed(remote)).find((c) => c.id === id);
    expect(entry.seq).toBeGreaterThan(before);
    expect(entry.record.budget_code).toBe('BC-8');
    expect(entry.clocks.budget_code).toBe(later);

    // An older clock for it changes nothing (arrival order does not matter).
    await pushOk(remote, 'other-newer', [updateOf(1, 'project', id, { budget_code: 'BC-old' }, ago(4_000, 'other'))]);
    expect(keptRows(storeOf(remote)).find((r) => r.field === 'budget_code')).toMatchObject({ value: 'BC-8', clock: later });

    const snap = (await snapshot(remote, 1)).find((r) => r.id === id);
    expect(snap.record).toMatchObject({ name: 'Moulds', budget_code: 'BC-8', tooling: { presses: 2 } });
    expect(snap.clocks).toMatchObject({ budget_code: later, tooling: created });

    // A member's replica gets only what this version can judge it may read.
    const member = await signInMember(remote);
    const memberEntry = (await feed(remote, member)).find((c) => c.id === id);
    expect(memberEntry.record).toMatchObject({ name: 'Moulds' });
    expect(memberEntry.record).not.toHaveProperty('budget_code');
    expect(memberEntry.clocks).not.toHaveProperty('budget_code');
  });

  it('refuses a field named as no version could name one, and keeps nothing of that mutation', async () => {
    const id = uuidv7();
    const res = await push(remote, 'names', [
      createProject(1, id, { name: 'Odd', 'Budget-Code': 1 }, ago(1_000, 'names')),
      createProject(2, uuidv7(), { name: 'Spaced', 'budget code': 1 }, ago(900, 'names')),
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.status)).toEqual(['rejected', 'rejected']);
    expectErrorBody(res.body.results[0].error, 10422, 'Unprocessable Content');
    expect(res.body.results[0].error.errors[0].field).toBe('Budget-Code');
    expect(res.body.results[1].error.errors[0].field).toBe('budget code');
    expect(keptRows(storeOf(remote)).filter((r) => r.record_id === id)).toEqual([]);
    expect((await ok(remote, 'GET', '/v1/project?limit=0&filter=name:eq:Odd')).count).toBe(0);
  });

  it('moves it into the table when the remote is upgraded to a version that declares it, with its clock', async () => {
    const id = uuidv7();
    const created = ago(2_000, 'upgrade');
    await pushOk(remote, 'upgrade', [createProject(1, id, { name: 'Upgraded', budget_code: 'BC-9', tooling_ref: 'T-1' }, created)]);
    const store = storeOf(remote);
    // The newer version's migration adds the column and its declaration the field.
    store.db.exec('ALTER TABLE "project" ADD COLUMN "budget_code" TEXT');
    const plain = tableFor(projectSpec);
    const newer: TableDef = { ...plain, fields: { ...plain.fields, budget_code: { type: 'string', nullable: true, maxLength: 50 } } };
    const replayed = await unknownDataOf(store).replayKnownData(bookOf(store), new Map([['project', newer]]));
    expect(replayed).toBeGreaterThanOrEqual(1);
    expect(store.db.prepare('SELECT name, budget_code FROM project WHERE id = ?').get(id)).toEqual({
      name: 'Upgraded',
      budget_code: 'BC-9',
    });
    expect(bookOf(store).clocksOf('project', id)).toMatchObject({ name: created, budget_code: created });
    // What it still does not declare stays kept; what it does is no longer.
    expect(
      keptRows(store)
        .filter((r) => r.record_id === id)
        .map((r) => r.field),
    ).toEqual(['tooling_ref']);
    // An earlier kept value loses to a later write of the now declared field (last-writer-wins).
    const other = uuidv7();
    await pushOk(remote, 'upgrade', [createProject(2, other, { name: 'Both', budget_code: 'kept, older' }, ago(1_500, 'upgrade'))]);
    store.db.prepare('UPDATE project SET budget_code = ? WHERE id = ?').run('written, newer', other);
    bookOf(store).setClocks('project', other, { budget_code: ago(0, 'upgrade') });
    await unknownDataOf(store).replayKnownData(bookOf(store), new Map([['project', newer]]));
    expect(store.db.prepare('SELECT budget_code FROM project WHERE id = ?').get(other)).toEqual({ budget_code: 'written, newer' });
    expect(keptRows(store).filter((r) => r.record_id === other)).toEqual([]);
  });
});

describe('kept data replayed by a version that declares it', () => {
  let remote: InProcessRemote;
  beforeAll(async () => {
    remote = await startInProcessRemote();
  });
  afterAll(async () => {
    await remote?.close();
  });

  it("meets that version's rules as its writer's write: a member's value that only an admin may write stays kept", async () => {
    const member = await signInMember(remote);
    const memberId = (await ok({ url: remote.url, headers: member, name: 'member' }, 'GET', '/v1/me')).user.id as string;
    await signInMemberOn(remote, 'colleague@versions.test');
    const colleague = (await ok(remote, 'GET', `/v1/user?filter=${encodeURIComponent("email:eq:'colleague@versions.test'")}`)).data[0];
    // A newer version's pay_grade: the member sets their own, the environment's key a colleague's.
    const byMember = await push({ url: remote.url }, 'member-newer', [updateOf(1, 'user', memberId, { pay_grade: 'A' }, ago(2_000, 'm'))], {
      ...member,
      'x-planner-schema': '99',
    });
    expect(byMember.body.results[0].status, JSON.stringify(byMember.body)).toBe('applied');
    await pushOk(remote, 'key-newer', [updateOf(1, 'user', colleague.id, { pay_grade: 'B' }, ago(2_000, 'k'))]);
    const store = storeOf(remote);
    expect(store.db.prepare('SELECT record_id, writer FROM sync_unknown WHERE field = ? ORDER BY writer').all('pay_grade')).toEqual([
      { record_id: colleague.id, writer: expect.stringMatching(/^key:/) },
      { record_id: memberId, writer: `user:${memberId}` },
    ]);

    // The newer version: its migration adds the column, its declaration the field (no profile field).
    store.db.exec('ALTER TABLE "user" ADD COLUMN "pay_grade" TEXT');
    const payGrade = { type: 'string', nullable: true, maxLength: 20 } as const;
    const newerUser = {
      ...userModule,
      spec: { ...userModule.spec, fields: { ...userModule.spec.fields, pay_grade: payGrade } },
      table: { ...userModule.table, fields: { ...userModule.table.fields, pay_grade: payGrade } },
    };
    const modules = [newerUser, ...resourceModules.filter((m) => m !== userModule)];
    await unknownDataOf(store).replayKnownData(
      bookOf(store),
      new Map([['user', newerUser.table]]),
      admitAsWriter(remote.dataDir, modules, recordsOf(store), store.environmentId),
    );
    const grade = (id: string) =>
      (store.db.prepare('SELECT pay_grade FROM "user" WHERE id = ?').get(id) as { pay_grade: string | null }).pay_grade;
    expect(grade(colleague.id)).toBe('B');
    // Only an admin changes a user's pay_grade: the member's stays kept, where an admin sees it.
    expect(grade(memberId)).toBeNull();
    expect(keptRows(store, 'user').map((r) => [r.record_id, r.field, r.value])).toEqual([[memberId, 'pay_grade', 'A']]);
  });
});

describe('an older replica pulls a newer record, edits it and pushes', () => {
  let remote: InProcessRemote;
  let older: InProcessClient;
  let other: InProcessClient;
  beforeAll(async () => {
    remote = await startInProcessRemote();
    older = await startInProcessClient(remote.url, 'older');
    other = await startInProcessClient(remote.url, 'other');
  });
  afterAll(async () => {
    await older?.close();
    await other?.close();
    await remote?.close();
  });

  it('the field it does not know survives on the remote and on the other replicas, with its clock', async () => {
    const id = uuidv7();
    const written = ago(5_000, 'newer');
    await pushOk(remote, 'newer', [createProject(1, id, { name: 'Presses', budget_code: 'BC-1' }, written)]);

    expect((await older.instance.sync.run()).error).toBeNull();
    expect(keptRows(clientStore(older))).toEqual([
      { resource: 'project', record_id: id, field: 'budget_code', value: 'BC-1', clock: written },
    ]);

    await ok(older, 'PUT', `/v1/project/${id}`, { name: 'Presses (edited offline)' }, 200);
    const pushed = await older.instance.sync.run();
    expect(pushed).toMatchObject({ pushed: 1, rejected: 0, error: null });

    expect(await ok(remote, 'GET', `/v1/project/${id}`)).toMatchObject({ name: 'Presses (edited offline)' });
    const entry = (await feed(remote)).find((c) => c.id === id);
    expect(entry.record).toMatchObject({ name: 'Presses (edited offline)', budget_code: 'BC-1' });
    expect(entry.clocks.budget_code).toBe(written);
    expect(entry.clocks.name > written).toBe(true);

    expect((await other.instance.sync.run()).error).toBeNull();
    expect(await ok(other, 'GET', `/v1/project/${id}`)).toMatchObject({ name: 'Presses (edited offline)' });
    expect(keptRows(clientStore(other))).toEqual([
      { resource: 'project', record_id: id, field: 'budget_code', value: 'BC-1', clock: written },
    ]);
    // The older replica's own copy is still there too, and nothing of it waits to be pushed.
    expect(keptRows(clientStore(older))).toHaveLength(1);
    expect((await ok(older, 'GET', '/v1/sync/status')).pending).toBe(0);
  });
});

describe('kept data moves into the tables when the replica is upgraded', () => {
  let remote: InProcessRemote;
  let newer: InProcessClient;
  const folder = tempDir('planner-older-');
  let instance: LocalInstance | undefined;
  let olderClient: SyncClient | undefined;

  beforeAll(async () => {
    remote = await startInProcessRemote();
    newer = await startInProcessClient(remote.url, 'newer');
  });
  afterAll(async () => {
    await olderClient?.stop();
    await instance?.close();
    await newer?.close();
    await remote?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('an older version keeps a field and a resource it does not declare; after the upgrade they are records of their own, queued nowhere', async () => {
    const project = await ok(newer, 'POST', '/v1/project', { name: 'Press line', description: 'Hydraulic, 400 t' });
    const warehouse = await ok(newer, 'POST', '/v1/warehouse', { name: 'North hall', code: 'NH' });
    expect((await newer.instance.sync.run()).error).toBeNull();

    // The older version: the same database, but declarations from before `description` and
    // warehouses existed. It syncs through the real client, merge and HTTP.
    instance = await openLocalInstance(folder, { vault: new MemoryVault(null), syncTiming: quiet });
    const store = instance.dataDir.environment(instance.environment.id);
    const all = syncTables();
    const plainProject = all.get('project')!;
    const { description: _unknownThen, ...olderProjectFields } = plainProject.fields;
    const olderTables = new Map([...all].filter(([name]) => name !== 'warehouse'));
    olderTables.set('project', { ...plainProject, fields: olderProjectFields });
    olderClient = new SyncClient({
      records: recordsOf(store),
      tables: olderTables,
      vault: new MemoryVault({ remote_url: remote.url, api_env: remoteEnv, api_key: remoteKey }),
      environmentId: instance.environment.id,
      timing: quiet,
    });
    const first = await olderClient.run();
    // Before, a resource it did not know refused the whole page: nothing synced at all.
    expect(first.error).toBeNull();
    expect(store.db.prepare('SELECT name, description FROM project WHERE id = ?').get(project.id)).toEqual({
      name: 'Press line',
      description: null,
    });
    expect(store.db.prepare('SELECT count(*) AS n FROM warehouse').get()).toEqual({ n: 0 });
    const remoteClocks = bookOf(storeOf(remote)).clocksOf('project', project.id);
    const kept = keptRows(store);
    expect(kept).toContainEqual({
      resource: 'project',
      record_id: project.id,
      field: 'description',
      value: 'Hydraulic, 400 t',
      clock: remoteClocks.description,
    });
    expect(kept.filter((r) => r.resource === 'warehouse' && r.record_id === warehouse.id).map((r) => r.field)).toEqual(
      expect.arrayContaining(['name', 'code', 'created_at']),
    );
    await olderClient.stop();
    olderClient = undefined;
    await instance.close();

    // The upgrade: the app that declares both opens the same folder.
    instance = await openLocalInstance(folder, { vault: new MemoryVault(null), syncTiming: quiet });
    const upgraded = instance.dataDir.environment(instance.environment.id);
    expect(upgraded.db.prepare('SELECT name, description FROM project WHERE id = ?').get(project.id)).toEqual({
      name: 'Press line',
      description: 'Hydraulic, 400 t',
    });
    expect(upgraded.db.prepare('SELECT name, code, deleted_at FROM warehouse WHERE id = ?').get(warehouse.id)).toEqual({
      name: 'North hall',
      code: 'NH',
      deleted_at: null,
    });
    expect(keptRows(upgraded)).toEqual([]);
    const book = bookOf(upgraded);
    expect(book.clocksOf('project', project.id).description).toBe(remoteClocks.description);
    expect(book.clocksOf('warehouse', warehouse.id)).toEqual(bookOf(storeOf(remote)).clocksOf('warehouse', warehouse.id));
    // Data that came from the remote is not sent back to it.
    expect(book.pendingCount()).toBe(0);
  });
});

describe('an unknown resource', () => {
  let remote: InProcessRemote;
  let older: InProcessClient;
  let fresh: InProcessClient | undefined;
  beforeAll(async () => {
    remote = await startInProcessRemote();
    older = await startInProcessClient(remote.url, 'older');
  });
  afterAll(async () => {
    await older?.close();
    await fresh?.close();
    await remote?.close();
  });

  it('round-trips through the remote to a replica that knows it, and is kept on an older one; a resource no version could name is refused', async () => {
    const mould = uuidv7();
    const t1 = ago(6_000, 'newer');
    const created = await pushOk(remote, 'newer', [
      { mutation_id: 1, resource: 'mould', id: mould, op: 'create', fields: { name: 'M-12', cavities: 4 }, hlc: t1 },
    ]);
    // Applied, so the newer replica neither sends it again nor lists it as a conflict.
    expect(created).toEqual([{ mutation_id: 1, status: 'applied' }]);

    let entry = (await feed(remote)).find((c) => c.id === mould);
    expect(entry).toMatchObject({
      resource: 'mould',
      record: { id: mould, name: 'M-12', cavities: 4, deleted_at: null },
      clocks: { name: t1, cavities: t1 },
    });

    // The older replica keeps it: before, a resource it did not know refused the whole page.
    expect((await older.instance.sync.run()).error).toBeNull();
    expect(keptRows(clientStore(older), 'mould')).toEqual([
      { resource: 'mould', record_id: mould, field: 'cavities', value: 4, clock: t1 },
      { resource: 'mould', record_id: mould, field: 'name', value: 'M-12', clock: t1 },
    ]);

    const t2 = ago(5_000, 'newer');
    const t3 = ago(4_000, 'newer');
    await pushOk(remote, 'newer', [
      updateOf(2, 'mould', mould, { cavities: 8 }, t2),
      { mutation_id: 3, resource: 'mould', id: mould, op: 'delete', fields: { deleted_at: '2026-11-01T10:00:00.000Z' }, hlc: t3 },
    ]);
    expect((await older.instance.sync.run()).error).toBeNull();
    expect(keptRows(clientStore(older), 'mould')).toEqual([
      { resource: 'mould', record_id: mould, field: 'cavities', value: 8, clock: t2 },
      { resource: 'mould', record_id: mould, field: 'deleted_at', value: '2026-11-01T10:00:00.000Z', clock: t3 },
      { resource: 'mould', record_id: mould, field: 'name', value: 'M-12', clock: t1 },
    ]);

    // Another newer replica gets it unchanged, from the feed and from a snapshot (page by page).
    entry = (await feed(remote)).find((c) => c.id === mould);
    expect(entry.record).toEqual({ id: mould, name: 'M-12', cavities: 8, deleted_at: '2026-11-01T10:00:00.000Z' });
    expect(entry.clocks).toEqual({ name: t1, cavities: t2, deleted_at: t3 });
    const records = await snapshot(remote, 1);
    expect(records.filter((r) => r.id === mould)).toEqual([{ resource: 'mould', id: mould, record: entry.record, clocks: entry.clocks }]);

    // A replica that starts from the snapshot keeps it too.
    fresh = await startInProcessClient(remote.url, 'fresh');
    expect((await fresh.instance.sync.run()).error).toBeNull();
    expect(keptRows(clientStore(fresh), 'mould')).toEqual(keptRows(clientStore(older), 'mould'));

    // Refused: a name no version could give a resource, and one this version declares that does not sync.
    const res = await push(remote, 'odd', [
      { mutation_id: 1, resource: 'Mould!', id: uuidv7(), op: 'create', fields: { name: 'x' }, hlc: ago(1_000, 'odd') },
      { mutation_id: 2, resource: 'webhook', id: uuidv7(), op: 'create', fields: { url: 'http://127.0.0.1/x' }, hlc: ago(900, 'odd') },
      { mutation_id: 3, resource: 'oauth_client', id: uuidv7(), op: 'create', fields: { name: 'x' }, hlc: ago(800, 'odd') },
    ]);
    expect(res.body.results.map((r: any) => [r.status, r.error.errors[0].field])).toEqual([
      ['rejected', 'resource'],
      ['rejected', 'resource'],
      ['rejected', 'resource'],
    ]);
    expect(keptRows(storeOf(remote)).filter((r) => r.resource !== 'mould')).toEqual([]);
  });
});

describe('a duplicated or reordered batch', () => {
  let remote: InProcessRemote;
  let proxy: FaultProxy;
  let older: InProcessClient;
  beforeAll(async () => {
    remote = await startInProcessRemote();
    proxy = await startFaultProxy(remote.url, { seed: 15 });
    older = await startInProcessClient(proxy.url, 'older');
  });
  afterAll(async () => {
    await older?.close();
    await proxy?.close();
    await remote?.close();
  });

  it('a batch applied but unanswered and sent again is answered as before and kept once', async () => {
    const project = uuidv7();
    const mould = uuidv7();
    const batch: Mutation[] = [
      createProject(1, project, { name: 'Duplicated', budget_code: 'D-1' }, ago(3_000, 'dup')) as Mutation,
      { mutation_id: 2, resource: 'mould', id: mould, op: 'create', fields: { name: 'M-dup' }, hlc: ago(2_900, 'dup') },
    ];
    await proxy.set({ mode: 'drop-response', match: /^POST \/v1\/sync\/push/ });
    await expect(push(proxy, 'dup', batch)).rejects.toThrow();
    expect(proxy.log.filter((e) => e.path === '/v1/sync/push').at(-1)).toMatchObject({
      mode: 'drop-response',
      reachedRemote: true,
      answered: false,
    });
    await proxy.set('pass');
    const again = await pushOk(proxy, 'dup', batch);
    expect(again).toEqual([
      { mutation_id: 1, status: 'applied', duplicate: true, hash: mutationHash(batch[0]!) },
      { mutation_id: 2, status: 'applied', duplicate: true, hash: mutationHash(batch[1]!) },
    ]);
    const store = storeOf(remote);
    expect(changeLogCount(store, 'mould', mould)).toBe(1);
    expect(
      keptRows(store)
        .filter((r) => r.record_id === project || r.record_id === mould)
        .map((r) => `${r.resource}.${r.field}=${JSON.stringify(r.value)}`),
    ).toEqual(['mould.name="M-dup"', 'project.budget_code="D-1"']);

    // A replica whose pull answer is lost pulls the page again: still one of each.
    await proxy.set({ mode: 'drop-response', match: /^GET \/v1\/sync\/(changes|snapshot)/ });
    expect((await older.instance.sync.run()).error).not.toBeNull();
    await proxy.set('pass');
    expect((await older.instance.sync.run()).error).toBeNull();
    expect((await older.instance.sync.run()).error).toBeNull();
    expect(keptRows(clientStore(older)).map((r) => `${r.resource}.${r.field}`)).toEqual(['mould.name', 'project.budget_code']);
  });

  it("two replicas' pushes reordered on the way: the later clock wins whatever the arrival order", async () => {
    const project = uuidv7();
    await pushOk(remote, 'first', [createProject(1, project, { name: 'Reordered', budget_code: 'R-0' }, ago(5_000, 'first'))]);
    const earlier = ago(2_000, 'first');
    const later = ago(1_000, 'second');
    await proxy.set({ mode: 'reorder', holdMs: 5_000, match: /^POST \/v1\/sync\/push/ });
    const start = proxy.log.length;
    // The earlier edit is sent first, and arrives last.
    const first = push(proxy, 'first', [
      updateOf(2, 'project', project, { budget_code: 'R-earlier' }, earlier),
      updateOf(3, 'mould', project, { name: 'M-earlier' }, earlier),
    ]);
    await new Promise((r) => setTimeout(r, 50));
    const second = push(proxy, 'second', [
      updateOf(1, 'project', project, { budget_code: 'R-later' }, later),
      updateOf(2, 'mould', project, { name: 'M-later' }, later),
    ]);
    const answers = await Promise.all([first, second]);
    await proxy.set('pass');
    for (const answer of answers) expect(answer.body.results.map((r: any) => r.status)).toEqual(['applied', 'applied']);
    const pushes = proxy.log.slice(start).filter((e) => e.path === '/v1/sync/push');
    // The first request was held until the second came, and forwarded after it.
    expect(pushes.map((e) => e.reversed)).toEqual([true, false]);
    expect(pushes[0]!.remoteDoneAt!).toBeGreaterThan(pushes[1]!.remoteDoneAt!);

    const kept = keptRows(storeOf(remote)).filter((r) => r.record_id === project);
    expect(kept.map((r) => [r.resource, r.field, r.value, r.clock])).toEqual([
      ['mould', 'name', 'M-later', later],
      ['project', 'budget_code', 'R-later', later],
    ]);
    expect((await older.instance.sync.run()).error).toBeNull();
    expect(
      keptRows(clientStore(older))
        .filter((r) => r.record_id === project)
        .map((r) => r.value),
    ).toEqual(['M-later', 'R-later']);
  });
});

describe('clock skew', () => {
  let remote: InProcessRemote;
  let skewed: InProcessClient;
  beforeAll(async () => {
    remote = await startInProcessRemote();
    skewed = await startInProcessClient(remote.url, 'skewed');
  });
  afterAll(async () => {
    await skewed?.close();
    await remote?.close();
  });

  it('a change stamped minutes ahead waits on its replica, unknown fields and all, and lands once the clocks agree', async () => {
    // This computer's clock runs a little more than the allowed skew ahead of the remote's.
    const aheadMs = maxClockSkewMs + 4_000;
    const store = clientStore(skewed);
    const book = bookOf(store);
    // A newer replica on the same computer stamps its unknown field just as far ahead (first,
    // so the replica's own change is not older than it).
    const future = formatHlc({ millis: Date.now() + aheadMs, counter: 0, node: 'newer-skewed' });
    const newerCreate = createProject(1, uuidv7(), { name: 'Newer, ahead', budget_code: 'F-1' }, future);
    Object.assign(book, { clock: new HybridClock(book.clock.node, () => Date.now() + aheadMs) });
    const project = await ok(skewed, 'POST', '/v1/project', { name: 'From the future' });
    const deferred = await pushOk(remote, 'newer-skewed', [newerCreate]);
    expect(deferred).toMatchObject([{ mutation_id: 1, status: 'deferred' }]);
    expect(keptRows(storeOf(remote))).toEqual([]);

    const held = await skewed.instance.sync.run();
    expect(held.pushed).toBe(0);
    expect(held.error).toMatch(/ahead/);
    expect(await ok(skewed, 'GET', '/v1/sync/status')).toMatchObject({
      pending: 1,
      conflicts: 0,
      update_required: null,
      last_error: expect.stringMatching(/ahead/),
    });
    expect((await ok(remote, 'GET', "/v1/project?limit=0&filter=name:eq:'From the future'")).count).toBe(0);

    // Once the remote's clock has caught up (a few seconds), both land, in one piece.
    let summary = held;
    for (let i = 0; i < 60 && summary.pushed === 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      summary = await skewed.instance.sync.run();
    }
    expect(summary).toMatchObject({ pushed: 1, rejected: 0, error: null });
    expect(await ok(remote, 'GET', `/v1/project/${project.id}`)).toMatchObject({ name: 'From the future' });
    const landed = await pushOk(remote, 'newer-skewed', [newerCreate]);
    expect(landed).toEqual([{ mutation_id: 1, status: 'applied' }]);
    expect(keptRows(storeOf(remote))).toMatchObject([{ field: 'budget_code', value: 'F-1', clock: future }]);
    expect(await ok(skewed, 'GET', '/v1/sync/status')).toMatchObject({ pending: 0, conflicts: 0 });
  });
});

/** A remote of another version: answers every request with `answer`, and counts them. */
async function startOtherVersion(
  answer: (method: string, path: string) => { status: number; body: unknown },
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push(`${req.method} ${req.url} ${String(req.headers['x-planner-sync-protocol'])}`);
      const { status, body } = answer(req.method ?? 'GET', req.url ?? '/');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  return { ...(await listenOnLoopback(server)), requests };
}

describe('versions below the minimum', () => {
  let remote: InProcessRemote;
  let client: InProcessClient | undefined;
  let other: Awaited<ReturnType<typeof startOtherVersion>> | undefined;
  beforeAll(async () => {
    remote = await startInProcessRemote();
  });
  afterEach(async () => {
    await client?.close();
    await other?.close();
    client = undefined;
    other = undefined;
  });
  afterAll(async () => {
    await remote?.close();
  });

  it('the remote refuses a replica speaking an older protocol with 426, and applies nothing', async () => {
    const old = { ...remoteHeaders, 'x-planner-sync-protocol': '1', 'x-planner-schema': '12' };
    const refused = await push(remote, 'old-app', [createProject(1, uuidv7(), { name: 'From an old app' }, ago(1_000, 'old'))], old);
    expect(refused.status).toBe(426);
    expectErrorBody(refused.body, 10426, 'Upgrade Required');
    expect(refused.body.errors[0]).toMatchObject({
      field: 'x-planner-sync-protocol',
      description: expect.stringMatching(/Update the app/),
    });
    for (const path of ['/v1/sync/changes?since=0', '/v1/sync/snapshot']) {
      const res = await call({ url: remote.url, headers: old }, 'GET', path);
      expect(res.status, path).toBe(426);
      expectErrorBody(res.body, 10426, 'Upgrade Required');
    }
    expect((await ok(remote, 'GET', '/v1/project?limit=0')).count).toBe(0);
    expect(
      (await call({ url: remote.url, headers: { ...remoteHeaders, 'x-planner-sync-protocol': 'two' } }, 'GET', '/v1/sync/changes?since=0'))
        .status,
    ).toBe(400);
    expect(
      (await call({ url: remote.url, headers: { ...remoteHeaders, 'x-planner-schema': '-1' } }, 'GET', '/v1/sync/snapshot')).status,
    ).toBe(400);
    // The current protocol, and an integration that sends no version, are answered.
    expect(await ok(remote, 'GET', '/v1/sync/snapshot?limit=1')).toMatchObject({ protocol: syncProtocol, schema: expect.any(Number) });
    expect((await push(remote, 'current', [], newerHeaders)).body).toMatchObject({ results: [], protocol: syncProtocol });
  });

  it('a replica refused by a newer remote says this app needs an update, and keeps every change', async () => {
    other = await startOtherVersion(() => ({
      status: 426,
      body: {
        reference: uuidv7(),
        errors: [
          {
            code: 10426,
            message: 'Upgrade Required',
            field: 'x-planner-sync-protocol',
            description: `This app syncs with protocol ${syncProtocol}; the server needs at least ${syncProtocol + 1}.`,
          },
        ],
      },
    }));
    client = await startInProcessClient(other.url, 'behind');
    await ok(client, 'POST', '/v1/project', { name: 'Typed while behind' });
    const summary = await client.instance.sync.run();
    expect(summary.error).toMatch(new RegExp(`newer version of this app.*at least ${syncProtocol + 1}`));
    expect(other.requests[0]!.endsWith(` ${syncProtocol}`)).toBe(true);
    expect(await ok(client, 'GET', '/v1/sync/status')).toMatchObject({
      update_required: 'this app',
      last_error: summary.error,
      pending: 1,
      conflicts: 0,
      online: false,
    });
    expect((await ok(client, 'GET', '/v1/sync/pending')).data).toEqual([
      expect.objectContaining({ resource: 'project', fields: expect.objectContaining({ name: 'Typed while behind' }) }),
    ]);
  });

  it('a replica refuses a remote speaking an older protocol: nothing it answered is used, every change stays until the server is updated', async () => {
    const stranger = uuidv7();
    // A remote from before versions on the wire: no protocol in its answers, and it claims to
    // have applied everything.
    other = await startOtherVersion((method, path) => {
      if (path.startsWith('/v1/sync/push'))
        return {
          status: 200,
          body: {
            results: [
              { mutation_id: 1, status: 'applied' },
              { mutation_id: 2, status: 'applied' },
            ],
            last_mutation_id: 2,
          },
        };
      if (path.startsWith('/v1/sync/snapshot'))
        return {
          status: 200,
          body: {
            records: [
              { resource: 'project', id: stranger, record: { id: stranger, name: 'From the old server', deleted_at: null }, clocks: {} },
            ],
            cursor: null,
            seq: 1,
          },
        };
      return { status: 200, body: { changes: [], cursor: 1, more: false } };
    });
    client = await startInProcessClient(other.url, 'ahead');
    const mine = await ok(client, 'POST', '/v1/project', { name: 'Typed while the server is old' });
    const summary = await client.instance.sync.run();
    expect(summary.error).toMatch(/older version of Planner/);
    expect(summary.pushed).toBe(0);
    expect(await ok(client, 'GET', '/v1/sync/status')).toMatchObject({ update_required: 'the server', pending: 1, conflicts: 0 });
    expect((await call(client, 'GET', `/v1/project/${stranger}`)).status).toBe(404);

    // The server is updated (here: the replica is pointed at one of this version).
    await ok(client, 'PUT', '/v1/sync/settings', { remote_url: remote.url, api_env: remoteEnv, api_key: remoteKey }, 200);
    // (Saving the settings starts a run of its own; this one comes after it.)
    expect((await client.instance.sync.run()).error).toBeNull();
    expect(await ok(client, 'GET', '/v1/sync/status')).toMatchObject({ update_required: null, pending: 0, conflicts: 0 });
    expect(await ok(remote, 'GET', `/v1/project/${mine.id}`)).toMatchObject({ name: 'Typed while the server is old' });
  });
});
