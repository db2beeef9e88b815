/**
 * The team server's PostgreSQL database (docs/architecture.md "Team server on PostgreSQL"):
 * a `pg.Pool` from a `postgres://` URL, and the server's own numbered migrations, run once.
 *
 * Several nodes may start on one database at the same moment. Each runs the migrations inside
 * one transaction that first takes a transaction-level advisory lock under a fixed key: the
 * first node migrates, the others wait for its commit and then find nothing left to do. A node
 * whose code knows fewer migrations than the database has refuses to serve
 * (`PostgresSchemaError`, mirroring `DatabaseOpenError`'s `newer-schema` of the SQLite store):
 * it would read and write tables it does not know.
 */
import pg from 'pg';

export type PostgresPool = pg.Pool;

const int8 = 20;
/**
 * Query types that read `bigint` columns and counts as numbers rather than pg's default text:
 * every integer the store keeps (record fields, mutation ids, sequence numbers, milliseconds)
 * is a safe integer (shared/fields.ts). Pass as `types` in a query's config.
 */
export const bigintsAsNumbers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8 ? (text: string) => Number(text) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};
export type PostgresClient = pg.PoolClient;

export interface PostgresMigration {
  /** 1, 2, 3 … in order, never reused. */
  version: number;
  /** What it changes: `environment-registry`, `change-log`. */
  name: string;
  /** Runs inside the migrating transaction, on its client. */
  up(client: PostgresClient): Promise<void>;
}

/**
 * The advisory lock key the migrations of the team server's own tables run under. Fixed
 * forever: nodes of different versions must take the same lock. (The digits spell "PLANNER"
 * on a phone keypad; any constant would do, as long as nothing else in the database uses it.)
 */
export const migrationLockKey = 7526637;

/** The team server's own schema: the migration record and the environment registry. */
export const serverSchema = 'planner';

/**
 * Thrown when a database (or one environment's schema in it) was migrated by a newer Planner
 * than this node: the node refuses to serve rather than use tables it does not know.
 */
export class PostgresSchemaError extends Error {
  readonly problem = 'newer-schema';
  constructor(
    /** The schema version the database has. */
    readonly databaseVersion: number,
    /** The newest version this node's code knows. */
    readonly knownVersion: number,
    /** Which migrations: the team server's own, or one environment's schema. */
    readonly scope: string = 'the database',
  ) {
    super(
      `${scope === 'the database' ? 'The database' : `The schema of ${scope}`} was migrated by a newer Planner ` +
        `(schema ${databaseVersion}; this node knows ${knownVersion}): update this node.`,
    );
    this.name = 'PostgresSchemaError';
  }
}

/** Migrations sorted, each numbered one more than the one before it, starting at 1. */
export function checkedMigrations(migrations: readonly PostgresMigration[]): PostgresMigration[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  return sorted;
}

/**
 * A pool on the URL. An idle client whose connection drops (a restarted server, a failover)
 * raises `error` on the pool; without a listener that would end the process, so it is logged
 * and the pool makes a new connection at the next checkout.
 */
export function openPostgresPool(url: string, options: { max?: number } = {}): PostgresPool {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('A PostgreSQL database is named by a postgres:// URL.');
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
  return pool;
}

/**
 * COMMIT, and an error when PostgreSQL rolled back instead: it answers a COMMIT of a
 * transaction in which a statement failed (and whose error the caller caught) with ROLLBACK,
 * not with an error.
 */
export async function commit(client: PostgresClient): Promise<void> {
  const result = await client.query('COMMIT');
  if (result.command !== 'COMMIT') throw new Error('The transaction was rolled back: a statement in it failed.');
}

/** `fn` on one checked-out client inside BEGIN … COMMIT; ROLLBACK when it throws. */
export async function inTransaction<T>(pool: PostgresPool, fn: (client: PostgresClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A client whose ROLLBACK failed has lost its connection: released with the error, the pool
  // drops it instead of handing it out again.
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const result = await fn(client);
      await commit(client);
      return result;
    } catch (error) {
      await client.query('ROLLBACK').then(undefined, (e: Error) => void (broken = e));
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

/**
 * Brings the team server's own tables up to `migrations`, once across all nodes: the whole run
 * is one transaction under `pg_advisory_xact_lock(migrationLockKey)`, so a node that starts
 * while another migrates waits, then reads the version the other committed. Answers the
 * versions before and after.
 */
export async function migrateServer(pool: PostgresPool, migrations: readonly PostgresMigration[]): Promise<{ from: number; to: number }> {
  const sorted = checkedMigrations(migrations);
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    // Created under the lock, so two first nodes do not race on CREATE … IF NOT EXISTS.
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${serverSchema}`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS ${serverSchema}.schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    const { rows } = await client.query<{ version: number }>(
      `SELECT coalesce(max(version), 0)::integer AS version FROM ${serverSchema}.schema_migrations`,
    );
    const current = rows[0]!.version;
    if (current > sorted.length) throw new PostgresSchemaError(current, sorted.length);
    for (const m of sorted.slice(current)) {
      await m.up(client);
      await client.query(`INSERT INTO ${serverSchema}.schema_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
    }
    return { from: current, to: sorted.length };
  });
}

/**
 * A pool on the database, migrated to `migrations`; throws (and closes the pool) when the
 * database cannot be reached or was migrated by a newer Planner.
 */
export async function openPostgresDatabase(
  url: string,
  migrations: readonly PostgresMigration[],
  options: { max?: number } = {},
): Promise<PostgresPool> {
  const pool = openPostgresPool(url, options);
  try {
    await migrateServer(pool, migrations);
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}

/**
 * Whether PostgreSQL stopped a transaction for another's sake: a deadlock it broke (SQLSTATE
 * 40P01) or a serialization failure (40001). Run again, it goes through (record-store.ts).
 */
export function isTransactionConflict(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === '40P01' || code === '40001';
}

/**
 * Whether PostgreSQL refused a text value: its text holds no NUL character (U+0000), which
 * SQLite's does. SQLSTATE 22021 for a NUL in a text parameter, 22P05 for one escaped in JSON.
 * A value or a filter with one is bad input (docs/API.md "Errors", 400), not a server error.
 */
export function isRefusedText(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: unknown };
  return code === '22021' || code === '22P05';
}
