/**
 * Plan scenarios of an environment on the team server (docs/API.md "Scenarios",
 * docs/decisions/scenarios-on-postgres.md): each one a schema of its own, `scn_<scenario id>`,
 * holding a copy of every table of the environment's schema, made in one transaction and listed
 * in the environment's `scenario` table (environment migration 25). Every node reads the same
 * list and the same copies: they share the database.
 *
 * Only the environment's role may use a scenario's schema, so an environment never sees
 * another's scenarios, as it never sees another's schema. A scenario's record store is the
 * environment's PostgresRecordStore on that schema without field clocks, change notices or a
 * write hook: what is written in a scenario reaches no replica, no other node's live channel and
 * no webhook by construction. Attachment content stays the environment's (a view of its table):
 * content-addressed, as a data folder's scenarios share its content folder.
 */
import pg from 'pg';
import { nowTimestamp } from '../../../shared/ids.js';
import type { ChangeEvent } from '../../../shared/ipc.js';
import type { Scenario, ScenarioBook, ScenarioChange } from '../scenario-book.js';
import { tableNamed } from '../tables.js';
import { environmentSchemaOf, scenarioSchemaOf, withEnvironment } from './environment-schemas.js';
import { inTransaction, serverSchema, type PostgresClient, type PostgresPool } from './postgres-database.js';
import { syncRowOf } from './record-rows.js';

const quote = (name: string) => pg.escapeIdentifier(name);

/** Fields every write touches: never a change of the plan. */
const bookkeeping = new Set(['id', 'created_at', 'updated_at']);

/** Tables of the environment a scenario does not copy: the list of scenarios, and content (a view instead). */
const notCopied = new Set(['scenario', 'attachment_content']);

const scenarioColumns = 'id, name, description, base, created_at';

interface ScenarioRow extends Omit<Scenario, 'base'> {
  base: string;
}

/** `base` is a bigint, read as text; every change-log position is a safe integer. */
const fromRow = (row: ScenarioRow): Scenario => ({ ...row, base: Number(row.base) });

/**
 * Copies the environment's schema into a new scenario's, as the server's own user (only it may
 * make schemas). The live change log is locked against writers first, so every change up to
 * `base` is in the copy and every later one gets a position after it (promote and its clashes
 * rely on that); the copy reads one snapshot (REPEATABLE READ), taken after the locks.
 */
async function copyEnvironment(
  client: PostgresClient,
  environmentId: string,
  scenario: Pick<Scenario, 'id' | 'name' | 'description'>,
  max: number,
): Promise<Scenario | undefined> {
  const { schema: envName, role } = environmentSchemaOf(environmentId);
  const env = quote(envName);
  const schema = scenarioSchemaOf(scenario.id);
  const scn = quote(schema);
  await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  // The list first: two forks at once, on any nodes, count one after the other.
  await client.query(`LOCK TABLE ${env}.scenario IN SHARE ROW EXCLUSIVE MODE; LOCK TABLE ${env}.change_log IN SHARE MODE`);
  const counted = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${env}.scenario`);
  if (Number(counted.rows[0]!.n) >= max) return undefined;
  const based = await client.query<{ base: string }>(`SELECT coalesce(max(position), 0)::text AS base FROM ${env}.change_log`);
  const base = Number(based.rows[0]!.base);
  const versioned = await client.query<{ version: number }>(
    `SELECT version FROM ${serverSchema}.environment_schemas WHERE environment_id = $1`,
    [environmentId],
  );
  await client.query(`
    CREATE SCHEMA ${scn};
    GRANT USAGE ON SCHEMA ${scn} TO ${quote(role)};
    ALTER DEFAULT PRIVILEGES IN SCHEMA ${scn} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${quote(role)};
    ALTER DEFAULT PRIVILEGES IN SCHEMA ${scn} GRANT USAGE, SELECT ON SEQUENCES TO ${quote(role)};
  `);
  // Each step one round trip of many statements (no parameters: every name below comes from the catalog, quoted).
  const { rows: tables } = await client.query<{ name: string }>('SELECT tablename AS name FROM pg_tables WHERE schemaname = $1', [envName]);
  const copied = tables.map(({ name }) => name).filter((name) => !notCopied.has(name));
  await client.query(
    copied
      .map(
        (name) =>
          `CREATE TABLE ${scn}.${quote(name)} (LIKE ${env}.${quote(name)} INCLUDING ALL EXCLUDING INDEXES);
           INSERT INTO ${scn}.${quote(name)} OVERRIDING SYSTEM VALUE SELECT * FROM ${env}.${quote(name)}`,
      )
      .join(';\n'),
  );
  // Indexes after the rows (faster), under their own names: a unique index's name is how a
  // duplicate is told (record-store.ts). pg_indexes writes `ON <schema>.<table>`; an
  // environment's schema name needs no quotes.
  const { rows: indexes } = await client.query<{ definition: string }>(
    'SELECT indexdef AS definition FROM pg_indexes WHERE schemaname = $1 AND NOT (tablename = ANY($2))',
    [envName, [...notCopied]],
  );
  if (indexes.length > 0)
    await client.query(indexes.map(({ definition }) => definition.replace(` ON ${envName}.`, ` ON ${schema}.`)).join(';\n'));
  // Identity columns (change-log positions, command order) go on from the copied rows.
  const { rows: identities } = await client.query<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1 AND is_identity = 'YES' AND NOT (table_name = ANY($2))",
    [envName, [...notCopied]],
  );
  if (identities.length > 0)
    await client.query(
      identities
        .map(({ table_name: name, column_name: column }) => {
          const qualified = `${scn}.${quote(name)}`;
          return `SELECT setval(pg_get_serial_sequence(${pg.escapeLiteral(qualified)}, ${pg.escapeLiteral(column)}), coalesce((SELECT max(${quote(column)}) FROM ${qualified}), 0) + 1, false)`;
        })
        .join(';\n'),
    );
  await client.query(`
    CREATE VIEW ${scn}.attachment_content AS SELECT * FROM ${env}.attachment_content;
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${scn} TO ${quote(role)};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${scn} TO ${quote(role)};
  `);
  const made: Scenario = { ...scenario, base, created_at: nowTimestamp() };
  await client.query(`INSERT INTO ${env}.scenario (id, name, description, base, version, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
    made.id,
    made.name,
    made.description,
    base,
    versioned.rows[0]!.version,
    made.created_at,
  ]);
  return made;
}

interface ChangeRow {
  resource: string;
  record_id: string;
  op: ChangeEvent['op'];
  fields: Record<string, unknown> | null;
  before: Record<string, unknown> | null;
}

/** The scenario's change-log rows after the fork, as one change per record (as the SQLite book reads them). */
async function changesSince(client: PostgresClient, base: number): Promise<ScenarioChange[]> {
  const { rows } = await client.query<ChangeRow>(
    'SELECT resource, record_id, op, fields, before FROM change_log WHERE position > $1 ORDER BY position',
    [base],
  );
  const byRecord = new Map<string, Omit<ScenarioChange, 'now'>>();
  for (const row of rows) {
    // Rows without fields are data kept for other versions: no plan change.
    if (row.fields === null || !tableNamed(row.resource)) continue;
    const key = `${row.resource}/${row.record_id}`;
    let change = byRecord.get(key);
    if (!change) {
      change = { resource: row.resource, id: row.record_id, created: row.op === 'create' && !row.before, written: [], fork: {} };
      byRecord.set(key, change);
    }
    for (const field of Object.keys(row.fields)) {
      if (bookkeeping.has(field) || change.written.includes(field)) continue;
      change.written.push(field);
      change.fork[field] = row.before?.[field] ?? null;
    }
  }
  // The records as they are now: one read per table, not one per record (each a round trip).
  const idsByResource = new Map<string, string[]>();
  for (const change of byRecord.values()) {
    const ids = idsByResource.get(change.resource);
    if (ids) ids.push(change.id);
    else idsByResource.set(change.resource, [change.id]);
  }
  const now = new Map<string, ReturnType<typeof syncRowOf>>();
  for (const [resource, ids] of idsByResource) {
    const table = tableNamed(resource)!;
    const found = await client.query<Record<string, unknown>>(`SELECT * FROM ${quote(table.table)} WHERE "id" = ANY($1::text[])`, [ids]);
    for (const row of found.rows) now.set(`${resource}/${String(row.id)}`, syncRowOf(table, row));
  }
  const changes: ScenarioChange[] = [];
  for (const [key, change] of byRecord) {
    const record = now.get(key);
    if (record) changes.push({ ...change, now: record });
  }
  return changes;
}

/**
 * The scenario book of an environment on PostgreSQL. `recordsOf` makes the record store of a
 * scenario's schema (PostgresRecordStore passes its own kind); each is made once per node.
 */
export function postgresScenarioBook<Records>(
  pool: PostgresPool,
  environmentId: string,
  recordsOf: (schema: string) => Records,
): ScenarioBook<Records> {
  const open = new Map<string, Records>();
  const inEnvironment = <T>(fn: (client: PostgresClient) => Promise<T>) => withEnvironment(pool, environmentId, fn);
  const read = (id: string) =>
    inEnvironment(async (client) => {
      const { rows } = await client.query<ScenarioRow>(`SELECT ${scenarioColumns} FROM scenario WHERE id = $1`, [id]);
      return rows[0] ? fromRow(rows[0]) : undefined;
    });
  return {
    list: () =>
      inEnvironment(async (client) => {
        const { rows } = await client.query<ScenarioRow>(`SELECT ${scenarioColumns} FROM scenario ORDER BY created_at, id`);
        return rows.map(fromRow);
      }),
    get: read,
    fork: (scenario, max) => inTransaction(pool, (client) => copyEnvironment(client, environmentId, scenario, max)),
    drop: (id) =>
      inTransaction(pool, async (client) => {
        const env = quote(environmentSchemaOf(environmentId).schema);
        // The row first: a second drop, on any node, waits for this one and then finds none.
        const deleted = await client.query(`DELETE FROM ${env}.scenario WHERE id = $1`, [id]);
        if (deleted.rowCount === 0) return false;
        // Waits for a request still writing in the scenario to finish.
        await client.query(`DROP SCHEMA IF EXISTS ${quote(scenarioSchemaOf(id))} CASCADE`);
        open.delete(id);
        return true;
      }),
    records: async (id) => {
      if (!(await read(id))) return undefined;
      let records = open.get(id);
      if (!records) open.set(id, (records = recordsOf(scenarioSchemaOf(id))));
      return records;
    },
    changes: async (id) => {
      const scenario = await read(id);
      if (!scenario) return [];
      return withEnvironment(pool, environmentId, (client) => changesSince(client, scenario.base), scenarioSchemaOf(id));
    },
  };
}
