/**
 * The remote's field clocks on PostgreSQL (docs/architecture.md "Outbox and clocks", "Team
 * server on PostgreSQL"): round trips one and many, a merge that keeps the later clock of each
 * field whichever arrives first, the same when two nodes merge one record at once (two pools
 * on one real cluster, random clocks: the end is exactly the per-field maximum), a bulk insert,
 * clocks ordered by text bytes whatever the database's collation, environments apart.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridClock, formatHlc } from '../../../shared/hlc.js';
import { uuidv7 } from '../../../shared/ids.js';
import { ensureEnvironmentSchema, withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import {
  clocksOf,
  clocksOfMany,
  insertClocks,
  mergeClocks,
  setClocks,
  clocksOfWrite,
  type ClockedWrite,
  type Clocks,
} from '../../../electron/store/postgres/field-clocks.js';
import { environmentMigrations, serverMigrations } from '../../../electron/store/postgres/migrations.js';
import { appendChange } from '../../../electron/store/postgres/change-log.js';
import { openPostgresDatabase, type PostgresClient, type PostgresPool } from '../../../electron/store/postgres/postgres-database.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let nodes: TeamDatabase['nodes'];
const env = uuidv7();

beforeAll(async () => {
  team = await startTeamDatabase('clocks', { environments: [env] });
  nodes = team.nodes;
});

afterAll(() => team?.stop());

const on = <T>(node: PostgresPool, fn: (client: PostgresClient) => Promise<T>) => withEnvironment(node, env, fn);
const hlc = (millis: number, counter = 0, node = 'abc') => formatHlc({ millis: 1_700_000_000_000 + millis, counter, node });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (bounded) until a backend of the cluster waits for a row lock. */
async function someoneWaitsForALock(node: PostgresPool): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await node.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
    if (rows.length > 0) return;
    await sleep(10);
  }
  throw new Error('no transaction ever waited for the row lock');
}

describe('field clocks on PostgreSQL', () => {
  it('reads back the clocks of one record and of many, none for a record without', async () => {
    await on(nodes[0], async (c) => {
      await setClocks(c, 'card', 'c1', { name: hlc(1), note: hlc(2) });
      await setClocks(c, 'card', 'c2', { name: hlc(3) });
      await setClocks(c, 'stage', 'c1', { name: hlc(4) });
    });
    await on(nodes[1], async (c) => {
      expect(await clocksOf(c, 'card', 'c1')).toEqual({ name: hlc(1), note: hlc(2) });
      expect(await clocksOf(c, 'card', 'nothing')).toEqual({});
      const many = await clocksOfMany(c, 'card', ['c1', 'c2', 'nothing']);
      expect(Object.fromEntries(many)).toEqual({ c1: { name: hlc(1), note: hlc(2) }, c2: { name: hlc(3) } });
      expect((await clocksOfMany(c, 'card', [])).size).toBe(0);
    });
  });

  it('sets clocks older or not, keeping the other fields', async () => {
    await on(nodes[0], (c) => setClocks(c, 'card', 'set', { name: hlc(9), note: hlc(9) }));
    await on(nodes[1], (c) => setClocks(c, 'card', 'set', { name: hlc(1) }));
    expect(await on(nodes[0], (c) => clocksOf(c, 'card', 'set'))).toEqual({ name: hlc(1), note: hlc(9) });
  });

  it('keeps the later clock of each field whichever merge arrives first', async () => {
    const early = { name: hlc(10), note: hlc(30), rank: hlc(5, 1) };
    const late = { name: hlc(20), note: hlc(25), rank: hlc(5, 2), color: hlc(1) };
    const expected = { name: hlc(20), note: hlc(30), rank: hlc(5, 2), color: hlc(1) };
    for (const [id, order] of [
      ['first', [early, late]],
      ['second', [late, early]],
    ] as const) {
      for (const [i, clocks] of order.entries()) await on(nodes[i % 2]!, (c) => mergeClocks(c, 'card', id, clocks));
      expect(await on(nodes[0], (c) => clocksOf(c, 'card', id))).toEqual(expected);
    }
    // A clock no later than the zero clock is never taken, as in SyncBook.
    await on(nodes[0], (c) => mergeClocks(c, 'card', 'zero', { name: '0000000000000-0000-' }));
    expect(await on(nodes[0], (c) => clocksOf(c, 'card', 'zero'))).toEqual({});
  });

  it("a merge that waits for another node's uncommitted merge of the record keeps its newer clock", async () => {
    let commitFirst!: () => void;
    const held = new Promise<void>((resolve) => (commitFirst = resolve));
    const first = on(nodes[0], async (c) => {
      await mergeClocks(c, 'card', 'held', { name: hlc(50) });
      await held;
    });
    await sleep(20);
    const second = on(nodes[1], (c) => mergeClocks(c, 'card', 'held', { name: hlc(40), note: hlc(40) }));
    await someoneWaitsForALock(nodes[0]);
    commitFirst();
    await Promise.all([first, second]);
    expect(await on(nodes[0], (c) => clocksOf(c, 'card', 'held'))).toEqual({ name: hlc(50), note: hlc(40) });
  });

  it('many concurrent merges from two nodes on one record end with exactly the per-field maximum', async () => {
    const fields = ['name', 'note', 'rank', 'color', 'start_date'];
    const merge = fc.dictionary(
      fc.constantFrom(...fields),
      fc
        .tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom('a', 'B', 'node1', 'Node1'))
        .map(([millis, counter, node]) => hlc(millis, counter, node)),
      { minKeys: 1 },
    );
    // Bounded: 4 runs of 60 merges each, all 60 at once over the two pools (10 connections each).
    await fc.assert(
      fc.asyncProperty(fc.array(merge, { minLength: 60, maxLength: 60 }), async (merges) => {
        const id = uuidv7();
        await Promise.all(merges.map((clocks, i) => on(nodes[i % 2]!, (c) => mergeClocks(c, 'card', id, clocks))));
        const expected: Clocks = {};
        for (const clocks of merges) for (const [f, t] of Object.entries(clocks)) if (t > (expected[f] ?? '')) expected[f] = t;
        expect(await on(nodes[0], (c) => clocksOf(c, 'card', id))).toEqual(expected);
      }),
      { numRuns: 4, endOnFailure: true },
    );
  });

  it('inserts the clocks of many records in batches, given as objects or as JSON text', async () => {
    const records = Array.from({ length: 12_345 }, (_, i) => ({
      id: `bulk-${i}`,
      clocks: i % 2 === 0 ? { name: hlc(i) } : JSON.stringify({ name: hlc(i), note: hlc(i, 1) }),
    }));
    await on(nodes[0], (c) => insertClocks(c, 'order', records));
    await on(nodes[1], async (c) => {
      const { rows } = await c.query<{ n: number }>("SELECT count(*)::integer AS n FROM field_clock WHERE resource = 'order'");
      expect(rows[0]!.n).toBe(records.length);
      const some = await clocksOfMany(c, 'order', ['bulk-0', 'bulk-12343', 'bulk-12344']);
      expect(Object.fromEntries(some)).toEqual({
        'bulk-0': { name: hlc(0) },
        'bulk-12343': { name: hlc(12343), note: hlc(12343, 1) },
        'bulk-12344': { name: hlc(12344) },
      });
    });
    // A record that has clocks already is refused, and the load with it.
    await expect(on(nodes[0], (c) => insertClocks(c, 'order', [{ id: 'bulk-new', clocks: {} }, records[0]!]))).rejects.toThrow(
      /duplicate key/,
    );
    expect(await on(nodes[0], (c) => clocksOf(c, 'order', 'bulk-new'))).toEqual({});
  });

  it("stamps a local write with one fresh clock per field and merges a sync write's own clocks, with the write's change-log row", async () => {
    const clock = new HybridClock('node-a', () => 1_800_000_000_000);
    // As a write of a synced resource does it (postgres/record-store.ts): the clocks go with the change.
    const write = (node: PostgresPool, fields: Record<string, unknown>, origin: ClockedWrite['origin']) =>
      on(node, async (c) => {
        const clocks = clocksOfWrite(clock, { resource: 'card', id: 'stamped', fields, origin });
        await appendChange(c, { resource: 'card', recordId: 'stamped', op: 'update', fields }, clocks);
        return clocks;
      });
    const local = await write(nodes[0], { id: 'stamped', name: 'Weld', note: 'x' }, { kind: 'local' });
    expect(Object.keys(local)).toEqual(['name', 'note']);
    expect(local.name).toBe(local.note);
    expect(local.name).toMatch(/^1800000000000-0000-node-a$/);
    await write(nodes[1], { name: 'Cut', rank: 'b' }, { kind: 'sync', clocks: { name: hlc(1), rank: hlc(2), color: hlc(3) } });
    // The pulled clock of name is older than the local write's: the local one stays.
    expect(await on(nodes[0], (c) => clocksOf(c, 'card', 'stamped'))).toEqual({ name: local.name, note: local.note, rank: hlc(2) });
    const logged = await on(
      nodes[0],
      async (c) => (await c.query("SELECT count(*)::integer AS n FROM change_log WHERE record_id = 'stamped'")).rows[0],
    );
    expect(logged).toEqual({ n: 2 });
  });

  it('orders clocks by their text bytes on a database with a language collation', async () => {
    const admin = new pg.Client({ connectionString: team.cluster.url });
    await admin.connect();
    try {
      await admin.query("CREATE DATABASE clocks_icu TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'");
    } finally {
      await admin.end();
    }
    const pool = await openPostgresDatabase(team.cluster.url.replace(/\/postgres$/, '/clocks_icu'), serverMigrations);
    try {
      const other = uuidv7();
      await ensureEnvironmentSchema(pool, other, environmentMigrations);
      // In that collation 'B' sorts after 'a'; as text bytes (and in JavaScript) it is before.
      expect(await pool.query("SELECT 'x-B' > 'x-a' AS after").then((r) => r.rows[0].after)).toBe(true);
      await withEnvironment(pool, other, async (c) => {
        await mergeClocks(c, 'card', 'c', { name: hlc(1, 0, 'a') });
        await mergeClocks(c, 'card', 'c', { name: hlc(1, 0, 'B') });
        expect(await clocksOf(c, 'card', 'c')).toEqual({ name: hlc(1, 0, 'a') });
      });
    } finally {
      await pool.end();
    }
  });

  it('keeps environments apart', async () => {
    const other = uuidv7();
    await ensureEnvironmentSchema(nodes[0], other, environmentMigrations);
    await withEnvironment(nodes[1], other, (c) => mergeClocks(c, 'card', 'c1', { name: hlc(99) }));
    expect(await on(nodes[0], (c) => clocksOf(c, 'card', 'c1'))).toEqual({ name: hlc(1), note: hlc(2) });
    expect(await withEnvironment(nodes[0], other, (c) => clocksOf(c, 'card', 'c1'))).toEqual({ name: hlc(99) });
    const { schema } = await ensureEnvironmentSchema(nodes[0], env, environmentMigrations);
    await expect(
      withEnvironment(nodes[0], other, (c) => c.query(`SELECT clocks FROM ${pg.escapeIdentifier(schema)}.field_clock`)),
    ).rejects.toThrow(/permission denied for schema/);
  });
});
