/**
 * Data kept for other app versions on PostgreSQL (docs/API.md "Sync", "Versions and unknown
 * data"; docs/architecture.md "Team server on PostgreSQL"): fields kept with their clocks and
 * read back one and many, a later kept value winning an earlier one whichever arrives first
 * (also from two nodes at once), one change logged per keep that changed something, the kept
 * records of undeclared resources changed in a change-log range and paged for a snapshot,
 * environments apart. Two pools are two nodes on one real cluster.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHlc } from '../../../shared/hlc.js';
import { uuidv7 } from '../../../shared/ids.js';
import { appendChange, changeLogStart, readChanges, type ChangeCursor } from '../../../electron/store/postgres/change-log.js';
import { ensureEnvironmentSchema, withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import {
  bytes,
  fieldNames,
  fieldsOf,
  fieldsOfMany,
  forgetRecord,
  isEmpty,
  keep,
  keepsRecords,
  list,
  record,
  recordsChanged,
  recordsPage,
} from '../../../electron/store/postgres/kept-data.js';
import { declaredResources } from '../../../electron/api/sync/kept-data.js';
import { isInternalName } from '../../../electron/store/unknown-data.js';
import { environmentMigrations } from '../../../electron/store/postgres/migrations.js';
import type { PostgresClient, PostgresPool } from '../../../electron/store/postgres/postgres-database.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let nodes: TeamDatabase['nodes'];

beforeAll(async () => {
  team = await startTeamDatabase('kept');
  nodes = team.nodes;
});

afterAll(() => team?.stop());

/** A fresh environment, so each test reads only its own change log. */
async function environment(): Promise<string> {
  const id = uuidv7();
  await ensureEnvironmentSchema(nodes[0], id, environmentMigrations);
  return id;
}

const hlc = (millis: number, counter = 0, node = 'abc') => formatHlc({ millis: 1_700_000_000_000 + millis, counter, node });
const declared = new Set(['card', 'stage']);

/** Every change of the environment so far and the cursor after the last. */
const changes = (node: PostgresPool, env: string) => withEnvironment(node, env, (c) => readChanges(c, changeLogStart, 1000));

describe('data kept for other versions on PostgreSQL', () => {
  it('keeps fields with their clocks, reads them back one and many, and logs one change', async () => {
    const env = await environment();
    const on = <T>(node: PostgresPool, fn: (c: PostgresClient) => Promise<T>) => withEnvironment(node, env, fn);
    expect(await on(nodes[0], isEmpty)).toBe(true);
    const values = { mood: 'calm', weight: 12.5, tags: ['a', 'b'], meta: { z: 1, a: { y: null } }, gone: null, flag: false };
    const changed = await on(nodes[0], (c) => keep(c, 'card', 'c1', values, (f) => (f === 'mood' ? hlc(2) : hlc(1))));
    expect(changed.sort()).toEqual(['flag', 'gone', 'meta', 'mood', 'tags', 'weight']);
    // A name that is a prototype's key comes back as a field of its own (the API refuses such
    // names; the store does not rely on that).
    await on(nodes[0], (c) => keep(c, 'gadget', 'odd', JSON.parse('{"__proto__": "kept"}') as Record<string, unknown>, () => hlc(1)));
    const odd = await on(nodes[1], (c) => fieldsOf(c, 'gadget', 'odd'));
    expect(Object.getPrototypeOf(odd.values)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(odd.values, '__proto__')?.value).toBe('kept');
    await on(nodes[0], (c) => keep(c, 'card', 'c2', { mood: 'busy' }, () => hlc(3)));
    await on(nodes[1], async (c) => {
      expect(await isEmpty(c)).toBe(false);
      const one = await fieldsOf(c, 'card', 'c1');
      expect(one.values).toEqual(values);
      // Objects come back with their keys in the order they were sent.
      expect(Object.keys(one.values.meta as object)).toEqual(['z', 'a']);
      expect(one.clocks).toEqual({ mood: hlc(2), weight: hlc(1), tags: hlc(1), meta: hlc(1), gone: hlc(1), flag: hlc(1) });
      expect(await fieldsOf(c, 'card', 'nothing')).toEqual({ values: {}, clocks: {} });
      const many = await fieldsOfMany(c, 'card', ['c1', 'c2', 'nothing']);
      expect([...many.keys()].sort()).toEqual(['c1', 'c2']);
      expect(many.get('c1')).toEqual(one);
      expect(many.get('c2')).toEqual({ values: { mood: 'busy' }, clocks: { mood: hlc(3) } });
      expect((await fieldsOfMany(c, 'stage', ['c1'])).size).toBe(0);
    });
    const logged = (await changes(nodes[1], env)).changes;
    expect(logged.map((l) => [l.resource, l.recordId, l.op])).toEqual([
      ['card', 'c1', 'update'],
      ['gadget', 'odd', 'update'],
      ['card', 'c2', 'update'],
    ]);
    // The change names no values: the feed reads them from kept_field, and one deleted is gone for good.
    expect(logged[0]!.fields).toBeNull();
  });

  it('a later kept value wins an earlier one whichever arrives first; a resent or older one changes and logs nothing', async () => {
    const env = await environment();
    const on = <T>(node: PostgresPool, fn: (c: PostgresClient) => Promise<T>) => withEnvironment(node, env, fn);
    const early = { mood: 'early', size: 's' };
    const late = { mood: 'late', size: 'l' };
    await on(nodes[0], (c) => keep(c, 'card', 'first', early, () => hlc(10)));
    expect(await on(nodes[1], (c) => keep(c, 'card', 'first', late, (f) => (f === 'mood' ? hlc(20) : hlc(5))))).toEqual(['mood']);
    await on(nodes[1], (c) => keep(c, 'card', 'second', late, (f) => (f === 'mood' ? hlc(20) : hlc(5))));
    expect(await on(nodes[0], (c) => keep(c, 'card', 'second', early, () => hlc(10)))).toEqual(['size']);
    for (const id of ['first', 'second']) {
      expect(await on(nodes[0], (c) => fieldsOf(c, 'card', id))).toEqual({
        values: { mood: 'late', size: 's' },
        clocks: { mood: hlc(20), size: hlc(10) },
      });
    }
    const before = (await changes(nodes[0], env)).changes.length;
    expect(await on(nodes[1], (c) => keep(c, 'card', 'first', late, (f) => (f === 'mood' ? hlc(20) : hlc(5))))).toEqual([]);
    expect((await changes(nodes[0], env)).changes.length).toBe(before);
    // A kept record's delete is logged as a delete.
    expect(await on(nodes[0], (c) => keep(c, 'gadget', 'g1', { deleted_at: '2026-11-27T00:00:00.000Z' }, () => hlc(30)))).toEqual([
      'deleted_at',
    ]);
    expect((await changes(nodes[0], env)).changes.at(-1)).toMatchObject({ resource: 'gadget', recordId: 'g1', op: 'delete' });
  });

  it('concurrent keeps from two nodes end with the latest value of each field', async () => {
    const env = await environment();
    const field = fc.constantFrom('mood', 'size', 'shade', 'zone');
    const write = fc.record({
      fields: fc.uniqueArray(field, { minLength: 1, maxLength: 4 }),
      millis: fc.integer({ min: 0, max: 1000 }),
      node: fc.constantFrom('a', 'B', 'n1'),
    });
    // Bounded: 4 runs of 40 keeps each, all 40 at once over the two pools. Clocks are distinct
    // (the index is the counter), so each field has one latest write.
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 40, maxLength: 40 }), async (writes) => {
        const id = uuidv7();
        const clockOf = (i: number) => hlc(writes[i]!.millis, i, writes[i]!.node);
        await Promise.all(
          writes.map((w, i) =>
            withEnvironment(nodes[i % 2]!, env, (c) =>
              keep(c, 'gadget', id, Object.fromEntries(w.fields.map((f) => [f, `${f} ${i}`])), () => clockOf(i)),
            ),
          ),
        );
        const latest: Record<string, { value: string; clock: string }> = {};
        writes.forEach((w, i) => {
          for (const f of w.fields) if (!latest[f] || clockOf(i) > latest[f].clock) latest[f] = { value: `${f} ${i}`, clock: clockOf(i) };
        });
        const kept = await withEnvironment(nodes[0], env, (c) => fieldsOf(c, 'gadget', id));
        expect(kept.values).toEqual(Object.fromEntries(Object.entries(latest).map(([f, l]) => [f, l.value])));
        expect(kept.clocks).toEqual(Object.fromEntries(Object.entries(latest).map(([f, l]) => [f, l.clock])));
      }),
      { numRuns: 4, endOnFailure: true },
    );
  });

  it('finds kept records of undeclared resources changed in a change-log range, each once at its latest change', async () => {
    const env = await environment();
    const on = <T>(node: PostgresPool, fn: (c: PostgresClient) => Promise<T>) => withEnvironment(node, env, fn);
    expect(await on(nodes[0], (c) => recordsChanged(c, declared, changeLogStart, { xid: '999999999', position: '999999999' }))).toEqual([]);
    await on(nodes[0], (c) => keep(c, 'card', 'c1', { mood: 'x' }, () => hlc(1))); // a declared resource's kept field
    await on(nodes[1], (c) => keep(c, 'gadget', 'g1', { name: 'one' }, () => hlc(1)));
    await on(nodes[0], (c) => keep(c, 'widget', 'w1', { name: 'w' }, () => hlc(1)));
    await on(nodes[1], (c) => appendChange(c, { resource: 'gadget', recordId: 'never-kept', op: 'update', fields: {} }));
    const middle = (await changes(nodes[0], env)).cursor;
    await on(nodes[0], (c) => keep(c, 'gadget', 'g1', { name: 'two' }, () => hlc(2)));
    await on(nodes[1], (c) => keep(c, 'gadget', 'g2', { name: 'new' }, () => hlc(1)));
    const { changes: all, cursor: end } = await changes(nodes[0], env);
    const at = (i: number): ChangeCursor => all[i]!.cursor;

    // g1 changed again after `middle`: it waits for the page that reaches its latest change.
    expect(await on(nodes[1], (c) => recordsChanged(c, declared, changeLogStart, middle))).toEqual([
      { cursor: at(2), resource: 'widget', id: 'w1' },
    ]);
    expect(await on(nodes[1], (c) => recordsChanged(c, declared, changeLogStart, end))).toEqual([
      { cursor: at(2), resource: 'widget', id: 'w1' },
      { cursor: at(4), resource: 'gadget', id: 'g1' },
      { cursor: at(5), resource: 'gadget', id: 'g2' },
    ]);
    expect(await on(nodes[1], (c) => recordsChanged(c, declared, middle, end))).toEqual([
      { cursor: at(4), resource: 'gadget', id: 'g1' },
      { cursor: at(5), resource: 'gadget', id: 'g2' },
    ]);
    expect(await on(nodes[1], (c) => recordsChanged(c, new Set([...declared, 'gadget']), changeLogStart, end))).toEqual([
      { cursor: at(2), resource: 'widget', id: 'w1' },
    ]);
  });

  it('pages kept records of undeclared resources in (resource, id) order and tells whether there are any', async () => {
    const env = await environment();
    const on = <T>(node: PostgresPool, fn: (c: PostgresClient) => Promise<T>) => withEnvironment(node, env, fn);
    await on(nodes[0], (c) => keep(c, 'card', 'c1', { mood: 'x' }, () => hlc(1)));
    expect(await on(nodes[0], (c) => keepsRecords(c, declared))).toBe(false);
    for (const [resource, id] of [
      ['widget', 'b'],
      ['gadget', 'b'],
      ['gadget', 'B'],
      ['gadget', 'a'],
      ['widget', 'a'],
    ])
      await on(nodes[0], (c) => keep(c, resource!, id!, { name: `${resource} ${id}`, size: 1 }, () => hlc(1)));
    expect(await on(nodes[1], (c) => keepsRecords(c, declared))).toBe(true);
    const keys: string[] = [];
    let after: [string, string] | null = null;
    for (let page = 0; page < 10; page++) {
      const rows = await on(nodes[1], (c) => recordsPage(c, declared, after, 2));
      if (rows.length === 0) break;
      for (const r of rows) {
        expect(r.fields).toEqual({ values: { name: `${r.resource} ${r.id}`, size: 1 }, clocks: { name: hlc(1), size: hlc(1) } });
        keys.push(`${r.resource}/${r.id}`);
      }
      after = [rows.at(-1)!.resource, rows.at(-1)!.id];
    }
    // Text bytes, as SQLite orders them: 'B' before 'a'.
    expect(keys).toEqual(['gadget/B', 'gadget/a', 'gadget/b', 'widget/a', 'widget/b']);
  });

  it('keeps environments apart', async () => {
    const [one, two] = [await environment(), await environment()];
    await withEnvironment(nodes[0], one, (c) => keep(c, 'gadget', 'g1', { name: 'one' }, () => hlc(1)));
    await withEnvironment(nodes[1], two, (c) => keep(c, 'gadget', 'g1', { name: 'two' }, () => hlc(1)));
    expect((await withEnvironment(nodes[1], one, (c) => fieldsOf(c, 'gadget', 'g1'))).values).toEqual({ name: 'one' });
    expect((await withEnvironment(nodes[0], two, (c) => fieldsOf(c, 'gadget', 'g1'))).values).toEqual({ name: 'two' });
    const { schema } = await ensureEnvironmentSchema(nodes[0], one, environmentMigrations);
    await expect(
      withEnvironment(nodes[0], two, (c) => c.query(`SELECT value FROM ${pg.escapeIdentifier(schema)}.kept_field`)),
    ).rejects.toThrow(/permission denied for schema/);
  });

  it('keeps who wrote each value, and lists, shows, counts and removes what is kept, as an admin sees it', async () => {
    const env = await environment();
    const on = <T>(fn: (c: PostgresClient) => Promise<T>) => withEnvironment(nodes[0], env, fn);
    await on((c) => keep(c, 'gadget', 'g1', { name: 'Clamp', size: 4 }, () => hlc(1), 'user:u1'));
    await on((c) => keep(c, 'gadget', 'g1', { size: 5 }, () => hlc(2), 'key:k1'));
    await on((c) => keep(c, 'card', 'c1', { zz_note: 'é' }, () => hlc(1), null));
    expect(await on((c) => record(c, 'gadget', 'g1'))).toEqual({
      name: { value: 'Clamp', bytes: 'name'.length + '"Clamp"'.length, clock: hlc(1), writer: 'user:u1' },
      size: { value: 5, bytes: 'size'.length + 1, clock: hlc(2), writer: 'key:k1' },
    });
    // Bytes in UTF-8: é is two.
    expect(await on(bytes)).toBe(4 + 7 + 4 + 1 + 'zz_note'.length + 4);
    expect(await on((c) => fieldNames(c, 'gadget', 'g1'))).toEqual(['name', 'size']);
    expect(await on((c) => list(c, undefined, 10, 0))).toEqual({
      count: 2,
      records: [
        { resource: 'card', record_id: 'c1', fields: ['zz_note'], bytes: 11, clock: hlc(1), writers: [null] },
        { resource: 'gadget', record_id: 'g1', fields: ['name', 'size'], bytes: 16, clock: hlc(2), writers: ['key:k1', 'user:u1'] },
      ],
    });
    expect((await on((c) => list(c, 'gadget', 1, 0))).records.map((r) => r.record_id)).toEqual(['g1']);
    expect(await on((c) => forgetRecord(c, 'gadget', 'g1', ['size']))).toBe(1);
    expect(await on((c) => forgetRecord(c, 'gadget', 'g1'))).toBe(1);
    expect(await on((c) => record(c, 'gadget', 'g1'))).toEqual({});
  });

  it('has no table a kept resource could be named as: each is declared or one of the store’s own', async () => {
    const env = await environment();
    const { schema } = await ensureEnvironmentSchema(nodes[0], env, environmentMigrations);
    const { rows } = await nodes[0].query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema IN ('planner', $1)`,
      [schema],
    );
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.map((r) => r.table_name).filter((name) => !declaredResources.has(name) && !isInternalName(name))).toEqual([]);
  });
});
