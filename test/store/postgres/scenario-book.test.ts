/**
 * Plan scenarios on PostgreSQL (docs/decisions/scenarios-on-postgres.md): a scenario is a
 * schema of its own holding a copy of its environment's tables, reachable by that environment's
 * role only, migrated with its environment, and copied only once every live write in flight has
 * committed, so its `base` splits the live change log exactly. Against a real PostgreSQL cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import {
  ensureEnvironmentSchema,
  environmentSchemaOf,
  scenarioSchemaOf,
  withEnvironment,
} from '../../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations } from '../../../electron/store/postgres/migrations.js';
import type { PostgresMigration, PostgresPool } from '../../../electron/store/postgres/postgres-database.js';
import { PostgresRecordStore } from '../../../electron/store/postgres/record-store.js';
import { tables } from '../../../electron/store/tables.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase<1>;
let pool: PostgresPool;
const north = uuidv7();
const south = uuidv7();

beforeAll(async () => {
  team = await startTeamDatabase('scenarios', { nodes: 1, environments: [north, south] });
  [pool] = team.nodes;
});

afterAll(() => team?.stop());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string },
  );

describe('scenarios on PostgreSQL', () => {
  it("copies the environment's plan into a schema only that environment's role reaches", async () => {
    const live = new PostgresRecordStore(pool, north);
    const board = await live.transaction((tx) => tx.insert(tables.board, { name: 'Hall' }));
    const made = await live.scenarios.fork({ id: uuidv7(), name: 'Hall later', description: null }, 20);
    expect(made?.base).toBeGreaterThan(0);
    const inScenario = (await live.scenarios.records(made!.id))!;
    await inScenario.transaction((tx) => tx.update(tables.board, board.id, { name: 'Hall (scenario)' }));
    expect((await live.get(tables.board, board.id))?.name).toBe('Hall');
    expect((await inScenario.get(tables.board, board.id))?.name).toBe('Hall (scenario)');
    // What promote reads: the scenario's own change since the fork, with the value at the fork.
    expect(await live.scenarios.changes(made!.id)).toEqual([
      expect.objectContaining({ resource: 'board', id: board.id, created: false, written: ['name'], fork: { name: 'Hall' } }),
    ]);

    const schema = scenarioSchemaOf(made!.id);
    const read = await failure(withEnvironment(pool, south, (client) => client.query(`SELECT * FROM ${schema}.board`)));
    expect(read?.code).toBe('42501'); // insufficient_privilege
    expect(await new PostgresRecordStore(pool, south).scenarios.list()).toEqual([]);
    expect(await new PostgresRecordStore(pool, south).scenarios.records(made!.id)).toBeUndefined();

    expect(await live.scenarios.drop(made!.id)).toBe(true);
    expect((await pool.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount).toBe(0);
    expect(await live.scenarios.records(made!.id)).toBeUndefined();
  });

  it('waits for a live write in flight, so the copy has every change up to its base and none after', async () => {
    const live = new PostgresRecordStore(pool, north);
    const card = await live.transaction((tx) => tx.insert(tables.card, { name: 'Frame', start_date: '2027-03-01' }));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const inFlight = new Promise<void>((resolve) => (written = resolve));
    const writing = live.transaction(async (tx) => {
      await tx.update(tables.card, card.id, { start_date: '2027-03-08' });
      written();
      await held;
    });
    await inFlight;
    let forked = false;
    const forking = live.scenarios.fork({ id: uuidv7(), name: 'During a write', description: null }, 20).then((made) => {
      forked = true;
      return made;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(forked).toBe(false);
    release();
    await writing;
    const made = (await forking)!;
    const copy = (await live.scenarios.records(made.id))!;
    expect((await copy.get(tables.card, card.id))?.start_date).toBe('2027-03-08');
    const last = await withEnvironment(pool, north, async (client) => {
      const { rows } = await client.query<{ p: string }>('SELECT max(position)::text AS p FROM change_log');
      return Number(rows[0]!.p);
    });
    expect(made.base).toBe(last);
  });

  it('follows its environment through a later migration, and the new table is the role’s to use', async () => {
    const live = new PostgresRecordStore(pool, south);
    const made = (await live.scenarios.fork({ id: uuidv7(), name: 'Before the upgrade', description: null }, 20))!;
    const newer: PostgresMigration[] = [
      ...environmentMigrations,
      {
        version: environmentMigrations.length + 1,
        name: 'later',
        up: async (client) => void (await client.query('CREATE TABLE later (id integer)')),
      },
    ];
    await ensureEnvironmentSchema(pool, south, newer);
    await withEnvironment(pool, south, (client) => client.query('INSERT INTO later (id) VALUES (1)'), scenarioSchemaOf(made.id));
    const counted = await withEnvironment(
      pool,
      south,
      (client) => client.query<{ n: number }>('SELECT count(*)::integer AS n FROM later'),
      scenarioSchemaOf(made.id),
    );
    expect(counted.rows[0]!.n).toBe(1);
    const version = await pool.query<{ version: number }>(
      `SELECT version FROM ${environmentSchemaOf(south).schema}.scenario WHERE id = $1`,
      [made.id],
    );
    expect(version.rows[0]!.version).toBe(newer.length);
  });
});
