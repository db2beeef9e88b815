/**
 * The team server's migrations on a real PostgreSQL cluster (docs/architecture.md "Team server
 * on PostgreSQL"): run once across nodes that start together, under the advisory lock, and a
 * node that knows fewer migrations than the database refuses to serve.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverMigrations } from '../../../electron/store/postgres/migrations.js';
import { openPostgresDatabase, PostgresSchemaError, type PostgresMigration } from '../../../electron/store/postgres/postgres-database.js';
import { startPostgres, type PostgresCluster } from '../../helpers/postgres.js';

let cluster: PostgresCluster;

beforeAll(async () => {
  cluster = await startPostgres();
});

afterAll(async () => {
  await cluster?.stop();
});

async function appliedVersions(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: number }>('SELECT version FROM planner.schema_migrations ORDER BY version');
    return rows.map((r) => r.version);
  } finally {
    await client.end();
  }
}

/** Migrations after the real ones that count their runs and sleep, so starting nodes overlap. */
function countedMigrations(runs: Map<number, number>, extra: number): PostgresMigration[] {
  return [
    ...serverMigrations,
    ...Array.from({ length: extra }, (_, i) => {
      const version = serverMigrations.length + i + 1;
      return {
        version,
        name: `counted-${version}`,
        async up(client: pg.PoolClient) {
          runs.set(version, (runs.get(version) ?? 0) + 1);
          // A plain CREATE TABLE: run twice, it would fail.
          await client.query(`CREATE TABLE planner.counted_${version} (id integer); SELECT pg_sleep(0.05)`);
        },
      };
    }),
  ];
}

describe('team server migrations on PostgreSQL', () => {
  it('migrates a new database and opens it again without running anything twice', async () => {
    const url = await cluster.database('fresh');
    const first = await openPostgresDatabase(url, serverMigrations);
    await first.end();
    const second = await openPostgresDatabase(url, serverMigrations);
    const { rows } = await second.query<{ count: number }>('SELECT count(*)::integer AS count FROM planner.environment_schemas');
    expect(rows[0]!.count).toBe(0);
    await second.end();
    expect(await appliedVersions(url)).toEqual(serverMigrations.map((m) => m.version));
  });

  it('runs each migration exactly once when four nodes start on one database at the same moment', async () => {
    const url = await cluster.database('together');
    const runs = new Map<number, number>();
    const migrations = countedMigrations(runs, 3);
    const pools = await Promise.all(Array.from({ length: 4 }, () => openPostgresDatabase(url, migrations, { max: 2 })));
    await Promise.all(pools.map((p) => p.end()));
    expect([...runs.entries()].sort((a, b) => a[0] - b[0])).toEqual(migrations.slice(serverMigrations.length).map((m) => [m.version, 1]));
    expect(await appliedVersions(url)).toEqual(migrations.map((m) => m.version));
  });

  it('refuses to serve from a database a newer Planner migrated, and says to update the node', async () => {
    const url = await cluster.database('newer');
    const newer = await openPostgresDatabase(url, countedMigrations(new Map(), 2));
    await newer.end();
    const known = serverMigrations.length;
    const refused = await openPostgresDatabase(url, serverMigrations).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(PostgresSchemaError);
    expect(refused).toMatchObject({ problem: 'newer-schema', databaseVersion: known + 2, knownVersion: known });
    expect((refused as Error).message).toBe(
      `The database was migrated by a newer Planner (schema ${known + 2}; this node knows ${known}): update this node.`,
    );
    // Refusing changed nothing.
    expect(await appliedVersions(url)).toEqual([...serverMigrations.map((m) => m.version), known + 1, known + 2]);
  });

  it('refuses a URL that is not a postgres:// URL', async () => {
    await expect(openPostgresDatabase('mysql://127.0.0.1/planner', serverMigrations)).rejects.toThrow('postgres:// URL');
  });
});
