/**
 * Environments on PostgreSQL are schemas with roles of their own (docs/architecture.md "Team
 * server on PostgreSQL"): inside `withEnvironment` a query reaches its own schema only, and a
 * rolled-back transaction leaves nothing behind. Against a real PostgreSQL cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import { appendChange } from '../../../electron/store/postgres/change-log.js';
import {
  ensureEnvironmentSchema,
  environmentSchemaOf,
  UnknownEnvironmentError,
  withEnvironment,
} from '../../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations, serverMigrations } from '../../../electron/store/postgres/migrations.js';
import {
  openPostgresDatabase,
  openPostgresPool,
  PostgresSchemaError,
  type PostgresMigration,
  type PostgresPool,
} from '../../../electron/store/postgres/postgres-database.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase<1>;
let pool: PostgresPool;
const north = uuidv7();
const south = uuidv7();

beforeAll(async () => {
  team = await startTeamDatabase('environments', { nodes: 1, environments: [north, south] });
  [pool] = team.nodes;
});

afterAll(() => team?.stop());

const count = (environmentId: string) =>
  withEnvironment(pool, environmentId, async (client) => {
    const { rows } = await client.query<{ count: number }>('SELECT count(*)::integer AS count FROM change_log');
    return rows[0]!.count;
  });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string },
  );

describe('environment schemas on PostgreSQL', () => {
  it('names schema and role after the environment id only, and refuses an id that is not one', () => {
    const id = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    expect(environmentSchemaOf(id)).toEqual({
      environmentId: id,
      schema: 'env_0190a1b2c3d47e5f8a9b0c1d2e3f4a5b',
      role: 'planner_env_0190a1b2c3d47e5f8a9b0c1d2e3f4a5b',
    });
    for (const bad of ['Acme; DROP SCHEMA planner', 'env_north', '', '../0190a1b2']) {
      expect(() => environmentSchemaOf(bad)).toThrow(UnknownEnvironmentError);
    }
  });

  it("reads and writes its own schema, and gets a permission error for another environment's schema", async () => {
    await withEnvironment(pool, north, (client) =>
      appendChange(client, { resource: 'card', recordId: 'c1', op: 'create', fields: { name: 'Cut' } }),
    );
    expect(await count(north)).toBe(1);
    expect(await count(south)).toBe(0);

    const other = environmentSchemaOf(north).schema;
    const read = await failure(withEnvironment(pool, south, (client) => client.query(`SELECT * FROM ${other}.change_log`)));
    expect(read?.code).toBe('42501'); // insufficient_privilege
    expect(read?.message).toBe(`permission denied for schema ${other}`);
    const write = await failure(
      withEnvironment(pool, south, (client) =>
        client.query(`INSERT INTO ${other}.change_log (resource, record_id, op) VALUES ('card', 'x', 'create')`),
      ),
    );
    expect(write?.code).toBe('42501');
    // Nor the server's own registry, which names every environment.
    const registry = await failure(withEnvironment(pool, south, (client) => client.query('SELECT * FROM planner.environment_schemas')));
    expect(registry?.code).toBe('42501');
    expect(await count(north)).toBe(1);
  });

  it('leaves nothing behind when the function throws: the transaction is rolled back', async () => {
    const before = await count(south);
    const thrown = await failure(
      withEnvironment(pool, south, async (client) => {
        await appendChange(client, { resource: 'card', recordId: 'c2', op: 'create' });
        await appendChange(client, { resource: 'card', recordId: 'c2', op: 'update', fields: { name: 'Weld' } });
        throw new Error('the planner cancelled');
      }),
    );
    expect(thrown?.message).toBe('the planner cancelled');
    expect(await count(south)).toBe(before);
  });

  it('commits nothing when a statement failed even though the function caught its error', async () => {
    const before = await count(south);
    const thrown = await failure(
      withEnvironment(pool, south, async (client) => {
        await appendChange(client, { resource: 'card', recordId: 'c3', op: 'create' });
        await client.query("INSERT INTO change_log (resource, record_id, op) VALUES ('card', 'c3', 'rename')").catch(() => undefined);
      }),
    );
    expect(thrown?.message).toMatch(/rolled back/);
    expect(await count(south)).toBe(before);
  });

  it('gives the client back as the server user: the role and search path end with the transaction', async () => {
    await withEnvironment(pool, south, async () => undefined);
    const clients = await Promise.all(Array.from({ length: 10 }, () => pool.connect()));
    try {
      for (const client of clients) {
        const { rows } = await client.query<{ user: string; path: string }>('SELECT current_user AS user, current_setting($1) AS path', [
          'search_path',
        ]);
        expect(rows[0]).toEqual({ user: 'planner', path: '"$user", public' });
      }
    } finally {
      for (const client of clients) client.release();
    }
  });

  it('works for a database owner with CREATEROLE, not a superuser (docs/deployment.md "The database")', async () => {
    await pool.query("CREATE ROLE planner_owner LOGIN CREATEROLE PASSWORD 'owner-password-1'");
    await pool.query('CREATE DATABASE owned OWNER planner_owner');
    const owned = new URL(team.url);
    owned.username = 'planner_owner';
    owned.password = 'owner-password-1';
    owned.pathname = '/owned';
    const node = await openPostgresDatabase(owned.toString(), serverMigrations);
    try {
      const { rows } = await node.query<{ superuser: boolean }>('SELECT rolsuper AS superuser FROM pg_roles WHERE rolname = current_user');
      expect(rows).toEqual([{ superuser: false }]);
      const id = uuidv7();
      await ensureEnvironmentSchema(node, id, environmentMigrations);
      await withEnvironment(node, id, (client) => appendChange(client, { resource: 'card', recordId: 'c1', op: 'create' }));
      const changes = await withEnvironment(
        node,
        id,
        async (client) => (await client.query('SELECT count(*)::integer AS n FROM change_log')).rows[0],
      );
      expect(changes).toEqual({ n: 1 });
    } finally {
      await node.end();
    }
  });

  it('refuses an environment that has no schema on this database', async () => {
    await expect(withEnvironment(pool, uuidv7(), async () => undefined)).rejects.toBeInstanceOf(UnknownEnvironmentError);
  });

  it('creates an environment once when several nodes ensure it at once, and refuses one a newer Planner migrated', async () => {
    // Many environments, each ensured by four nodes at once, so that some starts really overlap.
    const ids = Array.from({ length: 30 }, () => uuidv7());
    const nodes = Array.from({ length: 4 }, () => openPostgresPool(team.url, { max: 3 }));
    try {
      const results = await Promise.all(ids.flatMap((id) => nodes.map((node) => ensureEnvironmentSchema(node, id, environmentMigrations))));
      expect(results.map((r) => r.version)).toEqual(results.map(() => environmentMigrations.length));
    } finally {
      await Promise.all(nodes.map((node) => node.end()));
    }
    const id = ids[0]!;
    const newer: PostgresMigration[] = [
      ...environmentMigrations,
      {
        version: environmentMigrations.length + 1,
        name: 'later',
        up: async (client) => void (await client.query('CREATE TABLE later (id integer)')),
      },
    ];
    await ensureEnvironmentSchema(pool, id, newer);
    const refused = await failure(ensureEnvironmentSchema(pool, id, environmentMigrations));
    expect(refused).toBeInstanceOf(PostgresSchemaError);
    expect(refused?.message).toBe(
      `The schema of environment ${id} was migrated by a newer Planner (schema ${newer.length}; this node knows ${environmentMigrations.length}): update this node.`,
    );
  });
});
