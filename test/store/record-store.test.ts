/**
 * The asynchronous record store on both engines (docs/architecture.md "Team server on
 * PostgreSQL"): the same tests, parametrized, against a real SQLite file and a real
 * PostgreSQL cluster started for this file. When PostgreSQL is not installed, starting the
 * cluster throws and says how to install it, so its half fails rather than being skipped.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceSpecs } from '../../shared/resources/index.js';
import type { ChangeEvent } from '../../shared/ipc.js';
import { uuidv7 } from '../../shared/ids.js';
import { parseFilter as parse } from '../../shared/filter.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { DuplicateError, QueryError } from '../../electron/store/query-error.js';
import {
  CommandConflictError,
  SqliteRecordStore,
  TransactionEndedError,
  type RecordStore,
  type RecordWrites,
} from '../../electron/store/record-store.js';
import { changesOfCommand, type CommandChange } from '../../electron/store/command-book.js';
import { HeldStoreError, type EnvironmentStore } from '../../electron/store/environment-store.js';
import { changesOfCommand as postgresChangesOfCommand } from '../../electron/store/postgres/command-book.js';
import { ensureEnvironmentSchema, withEnvironment } from '../../electron/store/postgres/environment-schemas.js';
import { tables } from '../../electron/store/tables.js';
import { environmentMigrations } from '../../electron/store/postgres/migrations.js';
import { PostgresRecordStore } from '../../electron/store/postgres/record-store.js';
import { recordTableMigrations } from '../../electron/store/postgres/record-tables.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { tempDir } from '../helpers/api.js';

interface Engine {
  name: 'sqlite' | 'postgres';
  /** A store of a fresh environment. */
  open(): Promise<RecordStore>;
  close(): Promise<void>;
  /** The change-log rows of command `id` in `store`'s environment, read by the engine's command book. */
  changesOfCommand(store: RecordStore, id: string): Promise<CommandChange[]>;
}

function sqliteEngine(): Engine {
  const folder = tempDir('planner-records-');
  const dataDir = DataDir.open(folder);
  const environments = new Map<RecordStore, EnvironmentStore>();
  return {
    name: 'sqlite',
    open: async () => {
      const environment = dataDir.environment(dataDir.system.ensureEnvironment(`env-${uuidv7()}`).id);
      const store = new SqliteRecordStore(environment);
      environments.set(store, environment);
      return store;
    },
    close: async () => {
      dataDir.close();
      rmSync(folder, { recursive: true, force: true });
    },
    changesOfCommand: async (store, id) => changesOfCommand(environments.get(store)!, id),
  };
}

function postgresEngine(): Engine {
  let team: TeamDatabase<1> | undefined;
  return {
    name: 'postgres',
    open: async () => {
      team ??= await startTeamDatabase('records', { nodes: 1 });
      const [pool] = team.nodes;
      const environmentId = uuidv7();
      await ensureEnvironmentSchema(pool, environmentId, environmentMigrations);
      return new PostgresRecordStore(pool, environmentId);
    },
    close: async () => {
      await team?.stop();
    },
    changesOfCommand: (store, id) =>
      withEnvironment(team!.nodes[0], (store as PostgresRecordStore).environmentId, (client) => postgresChangesOfCommand(client, id)),
  };
}

const activity = tables.activity;
const boardId = uuidv7();
const workdays = { 1: 8, 2: 8, 3: 8, 4: 8, 5: 6.5, 6: null, 7: null };
const resource = tables.resource;

describe.each([{ make: sqliteEngine }, { make: postgresEngine }])('the record store', ({ make }) => {
  const engine = make();
  let store: RecordStore;
  const events: ChangeEvent[][] = [];

  beforeAll(async () => {
    store = await engine.open();
    store.onChange((batch) => events.push(batch));
  });
  afterAll(() => engine.close());

  const insert = <T>(fn: (tx: RecordWrites) => Promise<T>) => store.transaction(fn);

  describe(engine.name, () => {
    it("counts a transaction's writes by table, for what a caller keeps while they stay the same", async () => {
      await store.transaction(async (tx) => {
        expect([tx.writesTo(resource), tx.writesTo(activity)]).toEqual([0, 0]);
        const saw = await tx.insert(resource, { name: 'Saw 9', type: 'machine', workdays, boards: [] });
        await tx.update(resource, saw.id, { name: 'Saw 10' });
        expect([tx.writesTo(resource), tx.writesTo(activity)]).toEqual([2, 0]);
        await tx.softDelete(resource, saw.id);
        await tx.restore(resource, saw.id);
        expect([tx.writesTo(resource), tx.writesTo(activity)]).toEqual([4, 0]);
      });
      // Each transaction counts its own.
      await store.transaction(async (tx) => expect(tx.writesTo(resource)).toBe(0));
    });

    it('keeps every kind of field as it was written', async () => {
      const saved = await insert((tx) =>
        tx.insert(resource, {
          name: 'Saw 1',
          type: 'machine',
          start_date: '2026-11-02',
          workdays: workdays,
          boards: [{ id: boardId, active: true, stages: [] }],
          integration_schedule: true,
          archived_at: null,
        }),
      );
      expect(saved).toMatchObject({
        name: 'Saw 1',
        type: 'machine',
        start_date: '2026-11-02',
        workdays,
        boards: [{ id: boardId, active: true, stages: [] }],
        integration_schedule: true,
        archived_at: null,
        description: null,
      });
      expect(saved.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(await store.get(resource, saved.id)).toEqual(saved);

      const rated = await insert((tx) =>
        tx.insert(activity, { description: 'Welding', default_duration: 90, hourly_rate: 42.5, billable: false }),
      );
      expect(await store.get(activity, rated.id)).toMatchObject({ default_duration: 90, hourly_rate: 42.5, billable: false });
    });

    it('lists with filters, sort, paging and count the same way', async () => {
      const names = ['Assembly', 'assembly check', 'Painting', 'Packing', 'Drilling'];
      await insert(async (tx) => {
        for (const [i, description] of names.entries())
          await tx.insert(activity, { description, code: `L${i}`, default_duration: (i + 1) * 10, billable: i % 2 === 0 });
      });
      const page = (filter: string, extra: Partial<Parameters<RecordStore['list']>[1]> = {}) =>
        store.list(activity, { filter: parse(filter), sort: [{ field: 'description', direction: 'asc' }], limit: 10, offset: 0, ...extra });

      const contains = await page('description:contains:ASSEMB');
      expect(contains.rows.map((r) => r.description)).toEqual(['Assembly', 'assembly check']);
      expect((await page('description:starts_with:Pa')).rows.map((r) => r.description)).toEqual(['Packing', 'Painting']);
      expect((await page('default_duration:gt:30,and,code:starts_with:L')).rows.map((r) => r.description)).toEqual(['Drilling', 'Packing']);
      expect((await page('billable:eq:true,and,code:starts_with:L')).count).toBe(3);
      // A missing value counts as not matching, so `not` includes it.
      expect((await page('code:not:eq:L0,and,code:starts_with:L')).count).toBe(4);

      const sorted = await store.list(activity, {
        match: { billable: true },
        filter: parse('code:starts_with:L'),
        sort: [{ field: 'default_duration', direction: 'desc' }],
        limit: 2,
        offset: 1,
      });
      expect(sorted.count).toBe(3);
      expect(sorted.rows.map((r) => r.code)).toEqual(['L2', 'L0']);

      // A JSON list has a member by its id, or as the member itself.
      const json = await store.list(resource, { filter: parse(`boards:has:${boardId}`), limit: 10, offset: 0 });
      expect(json.rows.map((r) => r.name)).toEqual(['Saw 1']);
      expect((await store.list(resource, { filter: parse(`boards:has:${uuidv7()}`), limit: 10, offset: 0 })).count).toBe(0);
      await insert((tx) =>
        tx.insert(tables.webhook, { url: 'https://example.com/hook', active: true, event_types: ['card.created', 'card.updated'] }),
      );
      const hooks = (type: string) => store.list(tables.webhook, { filter: parse(`event_types:has:${type}`), limit: 10, offset: 0 });
      expect((await hooks('card.updated')).count).toBe(1);
      expect((await hooks('card.deleted')).count).toBe(0);
    });

    it('visits the values of many records in list order, decoded as declared, inside a transaction too', async () => {
      const written = await insert(async (tx) => [
        await tx.insert(resource, { name: 'Values B', type: 'machine', workdays, integration_schedule: false }),
        // No workdays: read back as null.
        await tx.insert(resource, { name: 'Values A', type: 'employee', integration_schedule: true }),
      ]);
      const query = {
        filter: parse('name:starts_with:Values'),
        sort: [{ field: 'name', direction: 'asc' as const }],
        limit: 10,
        offset: 0,
      };
      const fields = ['id', 'name', 'workdays', 'integration_schedule'] as const;
      const seen: unknown[][] = [];
      await store.eachValues(resource, query, fields, (values) => seen.push([...values]));
      expect(seen).toEqual([
        [written[1]!.id, 'Values A', null, true],
        [written[0]!.id, 'Values B', workdays, false],
      ]);
      // Paging as a list pages, and the same from inside a transaction.
      const paged: unknown[] = [];
      await store.transaction((tx) => tx.eachValues(resource, { ...query, limit: 1, offset: 1 }, ['name'], ([name]) => paged.push(name)));
      expect(paged).toEqual(['Values B']);
      // A field that is not declared, or that is never read back (a secret), is refused as in a list.
      await expect(store.eachValues(resource, query, ['id', 'colour'], () => undefined)).rejects.toThrow('Unknown field: colour');
      await expect(store.eachValues(tables.webhook, { limit: 1, offset: 0 }, ['secret'], () => undefined)).rejects.toThrow(QueryError);
    });

    it('refuses an unknown field with the same QueryError', async () => {
      await expect(store.list(activity, { filter: parse('colour:eq:red'), limit: 1, offset: 0 })).rejects.toThrow(QueryError);
      await expect(store.list(activity, { sort: [{ field: 'nope', direction: 'asc' }], limit: 1, offset: 0 })).rejects.toThrow(
        'Unknown sort field: nope',
      );
      await expect(store.list(activity, { filter: parse('default_duration:gt:ten'), limit: 1, offset: 0 })).rejects.toThrow(
        "filter value 'ten' for default_duration is not a number",
      );
    });

    it('updates, soft-deletes and reads by a list of values', async () => {
      const [a, b] = await insert(async (tx) => [
        await tx.insert(activity, { description: 'Cutting', code: 'C1' }),
        await tx.insert(activity, { description: 'Grinding', code: 'C2' }),
      ]);
      const changed = await insert((tx) => tx.update(activity, a!.id, { description: 'Laser cutting', billable: true }));
      expect(changed).toMatchObject({ id: a!.id, description: 'Laser cutting', billable: true, code: 'C1', created_at: a!.created_at });
      expect(await insert((tx) => tx.update(activity, uuidv7(), { description: 'x' }))).toBeUndefined();

      expect(await insert((tx) => tx.softDelete(activity, b!.id))).toBe(true);
      expect(await insert((tx) => tx.softDelete(activity, b!.id))).toBe(false);
      expect(await store.get(activity, b!.id)).toBeUndefined();
      expect(await store.get(activity, b!.id, { includeDeleted: true })).toMatchObject({ id: b!.id, code: 'C2' });
      expect((await store.list(activity, { match: { code: 'C2' }, limit: 5, offset: 0 })).count).toBe(0);

      const found = await store.getWhereIn(activity, 'code', ['C1', 'C2', 'C1', 'none']);
      expect(found.map((r) => r.description)).toEqual(['Laser cutting']);
      expect(await store.getWhereIn(activity, 'code', [])).toEqual([]);
    });

    it('refuses a duplicate unique key and rolls back the whole transaction', async () => {
      await insert((tx) => tx.insert(activity, { description: 'Sawing', external_ref: 'ERP-1' }));
      const before = events.length;
      const attempt = insert(async (tx) => {
        await tx.insert(activity, { description: 'Planing', code: 'ROLLED' });
        await tx.insert(activity, { description: 'Sawing again', external_ref: 'ERP-1' });
      });
      await expect(attempt).rejects.toThrow(DuplicateError);
      expect((await store.list(activity, { match: { code: 'ROLLED' }, limit: 1, offset: 0 })).count).toBe(0);
      expect(events.length).toBe(before);
      // An update onto a taken key too; a key whose other columns are missing is not a rule.
      const other = await insert((tx) => tx.insert(activity, { description: 'Turning', external_ref: 'ERP-2' }));
      await expect(insert((tx) => tx.update(activity, other.id, { external_ref: 'ERP-1' }))).rejects.toThrow(DuplicateError);
      expect((await store.get(activity, other.id))?.external_ref).toBe('ERP-2');
    });

    it('sends change events after the commit, once per transaction, and none for a rollback', async () => {
      const before = events.length;
      let seenInside = -1;
      const made = await insert(async (tx) => {
        const one = await tx.insert(activity, { description: 'Boring' });
        await tx.update(activity, one.id, { code: 'B1' });
        seenInside = events.length;
        return one;
      });
      expect(seenInside).toBe(before);
      expect(events.slice(before)).toEqual([
        [
          { resource: 'activity', id: made.id, op: 'create' },
          { resource: 'activity', id: made.id, op: 'update' },
        ],
      ]);
      await expect(
        insert(async (tx) => {
          await tx.insert(activity, { description: 'Lost' });
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(events.length).toBe(before + 1);
      expect((await store.list(activity, { filter: parse('description:eq:Lost'), limit: 1, offset: 0 })).count).toBe(0);
    });

    it('never shows a read outside a transaction what the transaction has not committed', async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let inserted!: string;
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const open = insert(async (tx) => {
        inserted = (await tx.insert(activity, { description: 'Uncommitted' })).id;
        written();
        await held;
      });
      await wrote;
      // SQLite waits for its turn (after the commit); PostgreSQL reads the committed state now.
      const outside = store.get(activity, inserted).then((row) => ({ row, committed }));
      let committed = false;
      await new Promise((resolve) => setTimeout(resolve, 50));
      committed = true;
      release();
      await open;
      const seen = await outside;
      if (seen.row) expect(seen.committed).toBe(true);
      expect(await store.get(activity, inserted)).toMatchObject({ description: 'Uncommitted' });
    });

    it('refuses a transaction’s reads and writes after it ended', async () => {
      let kept!: RecordWrites;
      await insert(async (tx) => {
        kept = tx;
      });
      await expect(kept.insert(activity, { description: 'Late' })).rejects.toThrow(TransactionEndedError);
      await expect(kept.get(activity, uuidv7())).rejects.toThrow(TransactionEndedError);
      // A local replica's sync books too (replica-book.ts); the team server has none.
      if (kept.replica) await expect(kept.replica.setState('cursor', 1)).rejects.toThrow(TransactionEndedError);
      else expect(store.engine).toBe('postgres');
    });

    it('stamps a command’s writes with its id and their previous values, and refuses its id a second time', async () => {
      const milling = await insert((tx) => tx.insert(activity, { description: 'Milling', code: 'M1' }));
      const command = { id: uuidv7(), description: 'Edit activities' };
      const added = await store.transaction(
        async (tx) => {
          await tx.update(activity, milling.id, { description: 'CNC milling' });
          const deburring = await tx.insert(activity, { description: 'Deburring' });
          await tx.softDelete(activity, milling.id);
          return deburring;
        },
        { command },
      );
      // A write of no command is not one of its changes.
      await insert((tx) => tx.update(activity, added.id, { code: 'D1' }));

      const changes = await engine.changesOfCommand(store, command.id);
      expect(changes.map(({ op, record_id, command_id }) => ({ op, record_id, command_id }))).toEqual([
        { op: 'update', record_id: milling.id, command_id: command.id },
        { op: 'create', record_id: added.id, command_id: command.id },
        { op: 'delete', record_id: milling.id, command_id: command.id },
      ]);
      expect(changes[0]!.before).toEqual({ description: 'Milling', updated_at: milling.updated_at });
      expect(changes[0]!.fields).toMatchObject({ description: 'CNC milling' });
      expect(changes[1]!.before).toBeNull();
      expect(changes[2]!.before).toEqual({ deleted_at: null });
      expect(changes[0]!.seq).toBeLessThan(changes[1]!.seq);

      // The same id again is refused before anything is written.
      const again = store.transaction((tx) => tx.insert(activity, { description: 'Reaming', code: 'AGAIN' }), { command });
      await expect(again).rejects.toThrow(CommandConflictError);
      expect((await store.list(activity, { match: { code: 'AGAIN' }, limit: 1, offset: 0 })).count).toBe(0);
      expect(await engine.changesOfCommand(store, command.id)).toHaveLength(3);
    });

    it('keeps environments apart', async () => {
      const other = await engine.open();
      const mine = await insert((tx) => tx.insert(activity, { description: 'Mine only', external_ref: 'SHARED-REF' }));
      expect(await other.get(activity, mine.id)).toBeUndefined();
      expect((await other.list(activity, { limit: 10, offset: 0 })).count).toBe(0);
      // The same unique key in another environment is another record.
      const theirs = await other.transaction((tx) => tx.insert(activity, { description: 'Theirs', external_ref: 'SHARED-REF' }));
      expect(theirs.id).not.toBe(mine.id);
    });
  });
});

describe('the SQLite engine while one of its transactions is open', () => {
  const folder = tempDir('planner-held-');
  const dataDir = DataDir.open(folder);
  const environment = dataDir.environment(dataDir.system.ensureEnvironment('held').id);
  const records = new SqliteRecordStore(environment);
  afterAll(() => {
    dataDir.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses the synchronous store to everyone but the transaction, which a transaction awaiting a timer would let in', async () => {
    let letOthersIn!: () => void;
    const others = new Promise<void>((resolve) => (letOthersIn = resolve));
    let outside: unknown;
    const written = records.transaction(async (tx) => {
      const mine = await tx.insert(activity, { description: 'Mine, not committed' });
      // The transaction's own code may use the synchronous store: it is the same SQLite transaction.
      expect(environment.get(activity, mine.id)?.description).toBe('Mine, not committed');
      // Against the rule: awaiting a timer lets another caller run in the middle of the transaction.
      letOthersIn();
      await new Promise((resolve) => setTimeout(resolve, 20));
      return mine;
    });
    await others;
    try {
      environment.list(activity, { limit: 10, offset: 0 });
    } catch (error) {
      outside = error;
    }
    expect(outside).toBeInstanceOf(HeldStoreError);
    expect(() => environment.transaction(() => environment.insert(activity, { description: 'Theirs' }))).toThrow(HeldStoreError);
    const mine = await written;
    // Released once it ends: the record is committed, and nobody else wrote in the transaction.
    expect(environment.list(activity, { limit: 10, offset: 0 }).rows.map((a) => a.description)).toEqual([mine.description]);
  });

  it('releases the store when a transaction rolls back', async () => {
    await expect(
      records.transaction(async (tx) => {
        await tx.insert(activity, { description: 'Rolled back' });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(environment.list(activity, { filter: parse("description:eq:'Rolled back'"), limit: 10, offset: 0 }).count).toBe(0);
  });
});

describe('the PostgreSQL record tables', () => {
  it('have a column for every declared field of every stored resource', async () => {
    // What migration 2 and the record migrations after it create, read from their SQL: a field
    // declared later needs a migration.
    const sql: string[] = [];
    for (const migration of recordTableMigrations) await migration.up({ query: async (text: string) => void sql.push(text) } as never);
    const created = new Map(
      [...sql.join('\n').matchAll(/CREATE TABLE "([a-z_]+)" \(([^;]*)\);/g)].map((m) => [
        m[1]!,
        new Set([...m[2]!.matchAll(/"([a-z_0-9]+)" /g)].map((c) => c[1]!)),
      ]),
    );
    // A field added to a table later (the order row's quantity_scrapped).
    for (const m of sql.join('\n').matchAll(/ALTER TABLE "([a-z_]+)" ADD COLUMN "([a-z_0-9]+)" /g)) created.get(m[1]!)?.add(m[2]!);
    for (const table of Object.values(tables)) {
      const columns = created.get(table.table);
      expect(columns, table.table).toBeDefined();
      expect(
        [...Object.keys(table.fields), 'deleted_at'].filter((field) => !columns!.has(field)),
        table.table,
      ).toEqual([]);
    }
    expect(Object.keys(resourceSpecs).every((name) => created.has(tables[name as keyof typeof tables].table))).toBe(true);
  });
});
