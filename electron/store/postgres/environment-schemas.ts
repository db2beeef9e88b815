/**
 * Environments on PostgreSQL (docs/architecture.md "Team server on PostgreSQL"): each
 * environment is its own schema, with its own NOLOGIN role that has privileges on that schema
 * only. Every query of an environment runs inside `withEnvironment`, one transaction with
 * `SET LOCAL ROLE` to that role and `search_path` to that schema, so a query that names
 * another environment's schema (a bug, a wrong id) gets a permission error instead of rows —
 * the same isolation the SQLite store gets from one file per environment.
 *
 * Schema and role names come from the environment's id alone (a UUID, checked), never from a
 * name a user typed.
 */
import pg from 'pg';
import { isUuid } from '../../../shared/ids.js';
import {
  checkedMigrations,
  commit,
  inTransaction,
  PostgresSchemaError,
  serverSchema,
  type PostgresClient,
  type PostgresMigration,
  type PostgresPool,
} from './postgres-database.js';
import { scenarioTableMigration } from './scenario-tables.js';

export interface EnvironmentSchema {
  environmentId: string;
  /** `env_<id without dashes>`. */
  schema: string;
  /** `planner_env_<id without dashes>`, NOLOGIN. */
  role: string;
}

/** Thrown for an environment id that is not a UUID, or one without a schema in the database. */
export class UnknownEnvironmentError extends Error {
  constructor(readonly environmentId: string) {
    super(`No environment ${JSON.stringify(environmentId)} on this database.`);
    this.name = 'UnknownEnvironmentError';
  }
}

export function environmentSchemaOf(environmentId: string): EnvironmentSchema {
  if (!isUuid(environmentId)) throw new UnknownEnvironmentError(environmentId);
  const key = environmentId.toLowerCase().replaceAll('-', '');
  return { environmentId, schema: `env_${key}`, role: `planner_env_${key}` };
}

const quote = (name: string) => pg.escapeIdentifier(name);

/** The schema of a plan scenario (scenario-book.ts): named by its id alone, a UUID, checked. */
export function scenarioSchemaOf(scenarioId: string): string {
  if (!isUuid(scenarioId)) throw new Error('A scenario is named by a UUID.');
  return `scn_${scenarioId.toLowerCase().replaceAll('-', '')}`;
}

/**
 * Creates the environment's role and schema when missing and brings the schema up to
 * `migrations`; safe to call on every start of every node. The registry row is locked for the
 * run, so two nodes creating one environment at once do it once. Throws
 * `PostgresSchemaError` when a newer Planner migrated this environment's schema.
 */
export async function ensureEnvironmentSchema(
  pool: PostgresPool,
  environmentId: string,
  migrations: readonly PostgresMigration[],
): Promise<EnvironmentSchema & { version: number }> {
  const names = environmentSchemaOf(environmentId);
  const sorted = checkedMigrations(migrations);
  return inTransaction(pool, async (client) => {
    // ON CONFLICT without a target: a node inserting the same row at the same moment conflicts
    // on every unique column (id, schema, role), and each of those must wait, not fail.
    await client.query(
      `INSERT INTO ${serverSchema}.environment_schemas (environment_id, schema_name, role_name) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [environmentId, names.schema, names.role],
    );
    const { rows } = await client.query<{ version: number }>(
      `SELECT version FROM ${serverSchema}.environment_schemas WHERE environment_id = $1 FOR UPDATE`,
      [environmentId],
    );
    const current = rows[0]!.version;
    if (current > sorted.length) throw new PostgresSchemaError(current, sorted.length, `environment ${environmentId}`);
    const schema = quote(names.schema);
    const role = quote(names.role);
    if (current === 0) {
      // Roles are per cluster, not per database: another database on the cluster may have
      // made this environment's role already.
      const existing = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [names.role]);
      if (existing.rowCount === 0) await client.query(`CREATE ROLE ${role} NOLOGIN`);
      // The server's own user owns the schema and its tables (so the migrations run as it);
      // the environment's role may read and write rows there, and nothing else anywhere.
      // It must be a member of the role to SET ROLE to it.
      await client.query(`
        GRANT ${role} TO CURRENT_USER;
        CREATE SCHEMA ${schema};
        GRANT USAGE ON SCHEMA ${schema} TO ${role};
        ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role};
        ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT USAGE, SELECT ON SEQUENCES TO ${role};
      `);
    }
    if (current < sorted.length) {
      await client.query(`SET LOCAL search_path TO ${schema}`);
      for (const m of sorted.slice(current)) await m.up(client);
      // The environment's scenarios are copies of its schema: they follow it (docs/decisions/scenarios-on-postgres.md).
      if (current >= scenarioTableMigration.version) {
        const { rows: scenarios } = await client.query<{ id: string; version: number }>('SELECT id, version FROM scenario');
        for (const { id, version } of scenarios) {
          await client.query(`SET LOCAL search_path TO ${quote(scenarioSchemaOf(id))}`);
          for (const m of sorted.slice(version)) await m.up(client);
          await client.query(`UPDATE ${schema}.scenario SET version = $2 WHERE id = $1`, [id, sorted.length]);
        }
      }
      await client.query(`UPDATE ${serverSchema}.environment_schemas SET version = $2 WHERE environment_id = $1`, [
        environmentId,
        sorted.length,
      ]);
    }
    return { ...names, version: Math.max(current, sorted.length) };
  });
}

/**
 * `fn` on one checked-out client, in one transaction as the environment's role with its schema
 * as `search_path`: COMMIT when `fn` resolves, ROLLBACK when it throws, and the client goes
 * back to the pool either way. `SET LOCAL` ends with the transaction, so the next user of the
 * client starts as the server's user again.
 *
 * This guards the server's own query paths (a query that names another schema, a wrong
 * `search_path`), not arbitrary SQL: SQL that ran `RESET ROLE` would be the server's user
 * again, and no SQL a user typed ever reaches the database (filters are parameters).
 */
export async function withEnvironment<T>(
  pool: PostgresPool,
  environmentId: string,
  fn: (client: PostgresClient) => Promise<T>,
  /** Another schema of the environment's, as its role: a plan scenario's (scenario-book.ts). */
  inSchema?: string,
): Promise<T> {
  const { role, schema: own } = environmentSchemaOf(environmentId);
  const schema = inSchema ?? own;
  const client = await pool.connect();
  // A client whose ROLLBACK failed has lost its connection: released with the error, the pool
  // drops it instead of handing it out again.
  let broken: Error | undefined;
  const rollBack = () => client.query('ROLLBACK').then(undefined, (e: Error) => void (broken = e));
  try {
    try {
      // One round trip for the three statements (simple query protocol, no parameters).
      await client.query(`BEGIN; SET LOCAL ROLE ${quote(role)}; SET LOCAL search_path TO ${quote(schema)}`);
    } catch (error) {
      await rollBack();
      // SET ROLE answers a missing role with 22023 (invalid_parameter_value), the only value
      // in these fixed statements that can be invalid: the environment has no schema here.
      if ((error as { code?: unknown }).code === '22023') throw new UnknownEnvironmentError(environmentId);
      throw error;
    }
    try {
      const result = await fn(client);
      await commit(client);
      return result;
    } catch (error) {
      await rollBack();
      throw error;
    }
  } finally {
    client.release(broken);
  }
}
