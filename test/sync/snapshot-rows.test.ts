/**
 * A snapshot in rows (docs/API.md "Sync", "Snapshot in rows"): asked with `format=rows`, the
 * remote sends each resource's field names once and then its records as rows of values with
 * their clocks; an empty replica asks for it and loads the rows as they came (bulk-load.ts).
 * The records are those of the usual snapshot, for an admin and for a member alike; a page in
 * rows is checked whole, and a bad one changes nothing.
 *
 * Real HTTP on 127.0.0.1 and real SQLite files: a remote in this process, fresh replica
 * databases as the desktop app opens them.
 */
import { describe, expect, it } from 'vitest';
import { recordsOf } from '../../electron/store/record-store.js';
import { unknownDataOf } from '../../electron/store/unknown-data.js';
import { bulkLoad, checkRows } from '../../electron/sync/bulk-load.js';
import { checkBatch, mergeRecords, SyncMessageError } from '../../electron/sync/merge.js';
import { syncTables } from '../../electron/sync/tables.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { call, ok } from '../helpers/sync-cluster.js';
import { createCollection, createOrder, createPlanningBase, createProject, plan, remove, update } from '../helpers/sync-data.js';
import { signInMemberOn, startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';
import { cleanupsAfterEach, eventKeys, freshReplicaStore, replicaContents, snapshotPages } from '../helpers/sync-snapshot.js';

const cleanups = cleanupsAfterEach();

/** A remote with records of many kinds: planned cards, orders with rows, nulls, JSON, booleans, a deleted record. */
async function seededRemote(): Promise<InProcessRemote> {
  const remote = await startInProcessRemote();
  cleanups.push(() => remote.close());
  const base = await createPlanningBase(remote, 'Rows');
  const planned = await createCollection(remote, base, 'Planned', 900, { description: null });
  await plan(remote, base, planned.id);
  await createCollection(remote, base, 'Waiting', 120, { description: 'in the "backlog" ü' });
  await createOrder(remote, 'O-1', [{ quantity: 3.5, description: 'three and a half' }, { quantity: 1 }]);
  await ok(remote, 'POST', '/v1/item', { code: 'I-1', description: 'stocked', stockmanagement: true }, 201);
  for (let i = 0; i < 6; i++) await createProject(remote, `Project ${i}`, i % 3 === 0 ? { external_ref: `EXT-${i}` } : {});
  const gone = await createProject(remote, 'Deleted');
  await update(remote, `/v1/project/${gone.id}`, { description: 'edited before it went' });
  await remove(remote, `/v1/project/${gone.id}`);
  return remote;
}

/** A member signed in on the remote (OAuth), as a member's replica calls it. */
async function signInMember(remote: InProcessRemote): Promise<Record<string, string>> {
  return { ...(await signInMemberOn(remote, 'member@rows.test')), 'x-planner-sync-protocol': '2' };
}

/** A rows page's tables as the records of the usual shape. */
function asRecords(tables: any[]): any[] {
  return tables.flatMap((part) =>
    part.rows.map((row: unknown[]) => ({
      resource: part.resource,
      id: row[0],
      record: Object.fromEntries(part.fields.map((name: string, i: number) => [name, row[i]])),
      clocks: row[part.fields.length],
    })),
  );
}

/** Every page of the snapshot in one shape, with the cursors it went through. */
async function wholeSnapshot(remote: InProcessRemote, headers: Record<string, string>, format: '' | '&format=rows', limit: number) {
  const pages = await snapshotPages(remote, headers, `limit=${limit}${format}`);
  const records: any[] = [];
  for (const page of pages) {
    if (format) {
      expect(Array.isArray(page.tables)).toBe(true);
      records.push(...asRecords(page.tables));
    } else {
      expect(page).not.toHaveProperty('tables');
    }
    records.push(...page.records);
  }
  return { records, cursors: pages.map((page) => page.cursor as string | null) };
}

describe('GET /v1/sync/snapshot?format=rows', () => {
  it('holds exactly the records of the usual snapshot, page by page with the same cursors, for an admin and for a member', async () => {
    const remote = await seededRemote();
    const member = await signInMember(remote);
    for (const headers of [remote.headers, member]) {
      const whole = await wholeSnapshot(remote, headers, '', 5000);
      expect(whole.records.length).toBeGreaterThan(20);
      expect(whole.records.some((r) => r.record.deleted_at)).toBe(true);
      for (const limit of [5000, 7]) {
        const rows = await wholeSnapshot(remote, headers, '&format=rows', limit);
        const usual = await wholeSnapshot(remote, headers, '', limit);
        expect(rows.cursors).toEqual(usual.cursors);
        expect(rows.records).toEqual(whole.records);
      }
    }
    // The member is not given an admin-only field, in rows as in records.
    const page = await ok({ name: 'remote', url: remote.url, headers: member }, 'GET', '/v1/sync/snapshot?limit=5000&format=rows');
    const users = page.tables.find((t: any) => t.resource === 'user');
    expect(users.fields).not.toContain('invite_id');
    for (const row of users.rows) expect(row[users.fields.length]).not.toHaveProperty('invite_id');
  });

  it('refuses a format it does not know with 400 and the error body', async () => {
    const remote = await startInProcessRemote();
    cleanups.push(() => remote.close());
    const res = await call(remote, 'GET', '/v1/sync/snapshot?format=columns');
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 10400, 'Bad Request');
    expect(res.body.errors[0].description).toMatch(/format/);
  });
});

describe('an empty replica loading a snapshot page in rows', () => {
  it('writes exactly what merging the same page as records writes, and sends the same change events', async () => {
    const remote = await seededRemote();
    const rowsPage = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000&format=rows');
    const recordsPage = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000');
    const { loads, records } = checkRows(syncTables(), rowsPage.tables);
    expect(records).toEqual([]);

    const merged = freshReplicaStore(cleanups);
    await mergeRecords(recordsOf(merged.store), syncTables(), checkBatch(syncTables(), recordsPage.records));
    const bulk = freshReplicaStore(cleanups);
    let applied = false;
    expect(await bulkLoad(recordsOf(bulk.store), syncTables(), [], async () => void (applied = true), loads)).toBe(
      recordsPage.records.length,
    );
    expect(applied).toBe(true);
    // The same, but for the change log: a first snapshot writes no row of it (docs/decisions/first-snapshot-unlogged.md).
    const { change_log: logged, ...written } = replicaContents(bulk.store);
    const { change_log: mergeLogged, ...mergeWritten } = replicaContents(merged.store);
    expect(written).toEqual(mergeWritten);
    expect(logged).toEqual([]);
    expect(mergeLogged!.length).toBe(recordsPage.records.length);
    expect(eventKeys(bulk.events)).toEqual(eventKeys(merged.events));

    // Rows of a record the replica has after all are merged instead.
    const again = checkRows(syncTables(), rowsPage.tables);
    await bulkLoad(recordsOf(bulk.store), syncTables(), [], async () => undefined, again.loads);
    expect(replicaContents(bulk.store).sync_clock).toEqual(replicaContents(merged.store).sync_clock);
  });

  it('keeps a field and a resource of another version with their clocks, as merging keeps them', async () => {
    const remote = await seededRemote();
    const page = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000&format=rows');
    const projects = page.tables.find((t: any) => t.resource === 'project');
    // A newer remote's field on projects, and a resource this version does not declare.
    projects.fields.push('budget_code');
    for (const row of projects.rows) {
      const clocks = row.pop();
      row.push('B-7', { ...clocks, budget_code: clocks.name });
    }
    const hlc = projects.rows[0][projects.fields.length].name;
    page.tables.push({
      resource: 'forecast',
      fields: ['id', 'deleted_at', 'amount'],
      rows: [['0193a7a4-1f4e-7000-8000-00000000f00d', null, 12, { amount: hlc }]],
    });
    const { loads, records } = checkRows(syncTables(), page.tables);
    expect(records).toHaveLength(projects.rows.length + 1);

    const bulk = freshReplicaStore(cleanups);
    await bulkLoad(recordsOf(bulk.store), syncTables(), checkBatch(syncTables(), records), async () => undefined, loads);
    const merged = freshReplicaStore(cleanups);
    await mergeRecords(recordsOf(merged.store), syncTables(), checkBatch(syncTables(), asRecords(page.tables)));
    const { change_log: logged, ...written } = replicaContents(bulk.store);
    const { change_log: mergeLogged, ...mergeWritten } = replicaContents(merged.store);
    expect(written).toEqual(mergeWritten);
    // Only the records that took the merge (those with another version's data) are in the change log.
    expect(logged).toEqual(mergeLogged!.filter((row: any) => row.resource === 'project' || row.resource === 'forecast'));
    expect(logged!.length).toBeGreaterThanOrEqual(records.length);
    expect(unknownDataOf(bulk.store).fieldsOf('forecast', '0193a7a4-1f4e-7000-8000-00000000f00d').values).toEqual({ amount: 12 });
  });

  it('refuses a malformed page in rows whole, and loads nothing of it', async () => {
    const remote = await seededRemote();
    const page = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000&format=rows');
    const damages: [string, (tables: any[]) => void][] = [
      ['not a list', (t) => t.splice(0, t.length, { resource: 'project' })],
      ['a value of the wrong type', (t) => (t.at(-1).rows.at(-1)[t.at(-1).fields.indexOf('created_at')] = 42)],
      ['a date that does not exist', (t) => (t.at(-1).rows.at(-1)[t.at(-1).fields.indexOf('created_at')] = '2026-02-30T10:00:00Z')],
      [
        'a boolean as a number',
        (t) => {
          const items = t.find((p: any) => p.resource === 'item');
          items.rows[0][items.fields.indexOf('stockmanagement')] = 1;
        },
      ],
      ['a row one value short', (t) => t.at(-1).rows.at(-1).splice(2, 1)],
      ['an id that is no uuid', (t) => (t.at(-1).rows.at(-1)[0] = 'card-1')],
      [
        'a clock that is no clock',
        (t) => {
          const row = t.at(-1).rows.at(-1);
          row[row.length - 1] = { name: 'yesterday' };
        },
      ],
      [
        'clocks that are no object',
        (t) => {
          const row = t.at(-1).rows.at(-1);
          row[row.length - 1] = 'now';
        },
      ],
      ['deleted_at of the wrong type', (t) => (t.at(-1).rows.at(-1)[1] = true)],
      ['a field named twice', (t) => t.at(-1).fields.splice(2, 1, t.at(-1).fields[3])],
      ['fields without the id first', (t) => t.at(-1).fields.reverse()],
      ['a field no version could name', (t) => (t.at(-1).fields[2] = 'Budget Code')],
      ['a resource no version could name', (t) => (t.at(-1).resource = 'No Such Thing')],
    ];
    for (const [what, damage] of damages) {
      const tables = structuredClone(page.tables);
      damage(tables);
      const store = freshReplicaStore(cleanups);
      // The client checks a page whole (its rows, then its records) before it loads any of it.
      // Checked before bulkLoad is called: a bad page throws at once, before any transaction.
      const load = () => {
        const { loads, records } = checkRows(syncTables(), tables);
        return bulkLoad(recordsOf(store.store), syncTables(), checkBatch(syncTables(), records), async () => undefined, loads);
      };
      expect(load, what).toThrow(SyncMessageError);
      const left = replicaContents(store.store);
      expect(
        Object.values(left).every((rows) => rows.length === 0),
        what,
      ).toBe(true);
      expect(store.events, what).toEqual([]);
    }
  });
});
