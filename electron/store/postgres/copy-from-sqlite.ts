/**
 * Moving an SQLite remote to PostgreSQL (`npm run server -- migrate-to-postgres`, docs/API.md
 * "Moving a remote to PostgreSQL"): every environment of a data folder, with its records and
 * change log, its API keys and the pepper they are digested with, copied into a PostgreSQL
 * database, and checked afterwards by a count and a checksum per table on both sides.
 *
 * - Nothing is overwritten: an environment whose id or name the database has already is refused
 *   before anything is copied, and so are API keys digested with another pepper.
 * - Each environment's data is copied in one transaction; the environment rows, keys and pepper
 *   in one more, last, so a copy that stopped half-way leaves no environment that a server
 *   would serve. Running it again finishes it: an environment's tables are emptied first when
 *   the environment is not registered.
 * - A checksum is SHA-256 over the rows in id order, each as the JSON of its declared fields
 *   decoded (booleans as booleans, JSON as its value with keys sorted), the same on both sides
 *   whatever each engine stores. Ids sort byte-wise on both (`COLLATE "C"`).
 * - What the team server does not keep on PostgreSQL yet is named in `notCopied` and printed
 *   (nothing, now).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type pg from 'pg';
import type { FieldSpec } from '../../../shared/fields.js';
import { checksumOf, isChecksum } from '../attachment-files.js';
import type { DataDir } from '../data-dir.js';
import type { TableDef } from '../table-def.js';
import { quoteIdentifier } from '../filter-sql.js';
import { tables } from '../tables.js';
import { ensureEnvironmentSchema, withEnvironment } from './environment-schemas.js';
import { environmentMigrations } from './migrations.js';
import { inTransaction, serverSchema, type PostgresClient, type PostgresPool } from './postgres-database.js';

/** What a copy leaves behind, until the team server keeps it on PostgreSQL too. */
export const notCopied: string[] = [];

export interface TableCheck {
  environment: string;
  table: string;
  sqliteRows: number;
  postgresRows: number;
  sqliteChecksum: string;
  postgresChecksum: string;
}

export interface CopyReport {
  environments: string[];
  apiKeys: number;
  tables: TableCheck[];
  /** Whether every table has the same rows on both sides. */
  matches: boolean;
}

/** The copy cannot be made as asked; nothing was copied. */
export class CopyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefused';
  }
}

const batchRows = 500;
const recordTables: TableDef[] = Object.values(tables);

/** JSON with object keys sorted, so that the same value gives the same text on both sides. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/** A column's value as its field holds it, from either engine. */
function decoded(field: FieldSpec | undefined, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field?.type === 'boolean') return value === true || value === 1;
  if (field?.type === 'json') return typeof value === 'string' ? JSON.parse(value) : value;
  if (field?.type === 'integer' || field?.type === 'number') return Number(value);
  return value;
}

class Checksum {
  readonly #hash = createHash('sha256');
  rows = 0;
  add(values: unknown[]): void {
    this.#hash.update(canonical(values)).update('\n');
    this.rows++;
  }
  get hex(): string {
    return this.#hash.digest('hex');
  }
}

function columnsOf(table: TableDef): { name: string; field: FieldSpec | undefined }[] {
  return [...Object.entries(table.fields).map(([name, field]) => ({ name, field })), { name: 'deleted_at', field: undefined }];
}

/** Rows in `batchRows` per INSERT, far fewer round trips than one each; `into` is the table's name in SQL. */
async function insertBatch(client: PostgresClient, into: string, columns: string[], rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  let n = 0;
  const values = rows.map((row) => `(${row.map(() => `$${++n}`).join(', ')})`).join(', ');
  await client.query(`INSERT INTO ${into} (${columns.map(quoteIdentifier).join(', ')}) VALUES ${values}`, rows.flat());
}

/** JSON text (SQLite) or a parsed `jsonb` value (PostgreSQL) as the value it holds. */
const jsonValue = (value: unknown) => (value === null ? null : typeof value === 'string' ? JSON.parse(value) : value);
/** An instant as milliseconds: text in SQLite, a timestamp in PostgreSQL. */
const instant = (value: unknown) => (value instanceof Date ? value.getTime() : Date.parse(String(value)));

/**
 * A table kept beside the records, copied as it is: its rows read from SQLite in `from`'s
 * order and from PostgreSQL in `back`'s, which must be the same order; `checked` is a row as
 * its checksum reads it (same on both sides).
 */
interface SideTable {
  name: string;
  columns: string[];
  /** The columns on PostgreSQL, when they are named otherwise (in the same order). */
  intoColumns?: string[];
  /** A row as PostgreSQL stores it, when not as SQLite has it. */
  stored?(row: unknown[]): unknown[];
  from: string;
  back: string;
  checked(row: unknown[]): unknown[];
}

const sideTables: SideTable[] = [
  {
    // In order: positions are handed out as the rows go in.
    name: 'change_log',
    columns: ['resource', 'record_id', 'op', 'fields', 'at', 'command_id', 'before'],
    from: 'ORDER BY seq',
    back: 'ORDER BY position',
    checked: ([resource, id, op, fields, at, command, before]) => [
      resource,
      id,
      op,
      jsonValue(fields),
      instant(at),
      command,
      jsonValue(before),
    ],
  },
  {
    // The order commands were done in (SQLite's rowid, PostgreSQL's seq), which the undo list shows.
    name: 'command',
    columns: ['id', 'description', 'undoes', 'actor', 'created_at'],
    from: 'ORDER BY rowid',
    back: 'ORDER BY seq',
    checked: (row) => row,
  },
  {
    name: 'sync_clock',
    columns: ['resource', 'record_id', 'clocks'],
    from: 'ORDER BY resource, record_id',
    back: 'ORDER BY resource COLLATE "C", record_id COLLATE "C"',
    checked: ([resource, id, clocks]) => [resource, id, jsonValue(clocks)],
  },
  {
    // A replica's push bookkeeping (sync-book.ts, postgres/push-marks.ts): the same batch format.
    name: 'sync_client',
    columns: ['client_id', 'owner', 'last_mutation_id', 'last_batch', 'updated_at'],
    intoColumns: ['replica_id', 'owner', 'last_mutation_id', 'last_batch', 'updated_at'],
    from: 'ORDER BY client_id',
    back: 'ORDER BY replica_id COLLATE "C"',
    // Marks from before batches were kept have none: an empty batch, as push-marks.ts starts one.
    stored: ([id, owner, last, batch, at]) => [id, owner, last, batch ?? '{}', at],
    checked: ([id, owner, last, batch, at]) => [id, owner, Number(last), jsonValue(batch) ?? {}, instant(at)],
  },
  {
    name: 'user_password',
    columns: ['user_id', 'hash', 'updated_at'],
    from: 'ORDER BY user_id',
    back: 'ORDER BY user_id COLLATE "C"',
    checked: (row) => row,
  },
  {
    name: 'webhook_secret',
    columns: ['webhook_id', 'secret'],
    from: 'ORDER BY webhook_id',
    back: 'ORDER BY webhook_id COLLATE "C"',
    checked: (row) => row,
  },
  {
    name: 'sync_unknown',
    columns: ['resource', 'record_id', 'field', 'value', 'clock', 'writer'],
    from: 'ORDER BY resource, record_id, field',
    back: 'ORDER BY resource COLLATE "C", record_id COLLATE "C", field COLLATE "C"',
    checked: (row) => row,
  },
];

/** Where each SQLite side table's rows go on PostgreSQL (the same columns). */
/**
 * OAuth state of the server, kept in the system database on SQLite and in the `planner`
 * schema on PostgreSQL (postgres/oauth-state.ts): signing keys (so the access tokens already
 * given out still check), clients, sign-ins, codes and refresh tokens, in an order that keeps
 * each reference to a row copied before it.
 */
const systemTables: SideTable[] = [
  {
    name: 'signing_key',
    columns: ['id', 'algorithm', 'secret', 'created_at', 'retired_at'],
    from: 'ORDER BY id',
    back: 'ORDER BY id COLLATE "C"',
    checked: (row) => row,
  },
  {
    name: 'oauth_client',
    columns: ['id', 'name', 'redirect_uris', 'confidential', 'secret_hash', 'environment_id', 'created_at', 'updated_at', 'deleted_at'],
    from: 'ORDER BY id',
    back: 'ORDER BY id COLLATE "C"',
    // redirect_uris: JSON text in SQLite, jsonb in PostgreSQL; confidential: 0/1 or a boolean.
    checked: ([id, name, uris, confidential, ...rest]) => [id, name, jsonValue(uris), confidential === true || confidential === 1, ...rest],
  },
  {
    name: 'oauth_token_family',
    columns: ['id', 'client_id', 'environment_id', 'user_id', 'created_at', 'revoked_at', 'revoked_reason'],
    from: 'ORDER BY id',
    back: 'ORDER BY id COLLATE "C"',
    checked: (row) => row,
  },
  {
    name: 'oauth_code',
    columns: [
      'code_hash',
      'client_id',
      'environment_id',
      'user_id',
      'redirect_uri',
      'code_challenge',
      'expires_at',
      'used_at',
      'family_id',
    ],
    from: 'ORDER BY code_hash',
    back: 'ORDER BY code_hash COLLATE "C"',
    checked: (row) => row.map((value, i) => (i === 6 ? Number(value) : value)),
  },
  {
    name: 'oauth_refresh_token',
    columns: ['token_hash', 'family_id', 'created_at', 'expires_at', 'used_at'],
    from: 'ORDER BY token_hash',
    back: 'ORDER BY token_hash COLLATE "C"',
    checked: (row) => row.map((value, i) => (i === 3 ? Number(value) : value)),
  },
];

/** The report's label of the server's own tables, in the environment column. */
const serverLabel = '(server)';

/** The report's name for the attachment files: content, not a table of the SQLite store. */
const attachmentContent = 'attachment content';

/** An attachment file as its checksum reads it: its name, its size and the SHA-256 of its bytes. */
const contentChecksum = (checksum: string, bytes: number, sha256: string) => [checksum, bytes, sha256];

/**
 * The environment's attachment files (content-addressed, `<2 hex>/<checksum>`) into
 * `attachment_content`, in checksum order, one at a time (up to 25 MiB each). A file whose
 * bytes do not hash to its name is refused: the copy stops and nothing of it stays.
 */
async function copyAttachments(client: PostgresClient, folder: string): Promise<Checksum> {
  const sum = new Checksum();
  if (!existsSync(folder)) return sum;
  const files = readdirSync(folder)
    .filter((part) => /^[0-9a-f]{2}$/.test(part))
    .flatMap((part) =>
      readdirSync(join(folder, part))
        .filter(isChecksum)
        .map((name) => join(folder, part, name)),
    )
    .sort((a, b) => (basename(a) < basename(b) ? -1 : 1));
  for (const file of files) {
    const content = readFileSync(file);
    const checksum = basename(file);
    if (checksumOf(content) !== checksum)
      throw new CopyRefused(`The attachment file ${file} does not hold what its name says; nothing of this environment was copied.`);
    await client.query('INSERT INTO attachment_content (checksum, bytes, content) VALUES ($1, $2, $3)', [
      checksum,
      content.length,
      content,
    ]);
    sum.add(contentChecksum(checksum, content.length, checksum));
  }
  return sum;
}

const postgresName: Record<string, string> = {
  change_log: 'change_log',
  command: 'command',
  sync_clock: 'field_clock',
  sync_unknown: 'kept_field',
  sync_client: 'replica_mark',
  webhook_secret: 'webhook_secret',
  user_password: 'user_password',
};

export async function copyToPostgres(dataDir: DataDir, pool: PostgresPool): Promise<CopyReport> {
  const environments = dataDir.system.listEnvironments();
  const systemDb = dataDir.system.db;
  const pepper = (systemDb.prepare('SELECT secret FROM api_key_pepper WHERE id = 1').get() as { secret: string }).secret;
  const apiKeys = systemDb
    .prepare('SELECT id, environment_id, digest, salt, hash, label, created_at, revoked_at FROM api_key ORDER BY id')
    .raw(true)
    .all() as unknown[][];

  // Refused before anything is written.
  const taken = await pool.query<{ id: string; name: string }>(
    `SELECT id, name FROM ${serverSchema}.environment WHERE id = ANY($1) OR name = ANY($2)`,
    [environments.map((e) => e.id), environments.map((e) => e.name)],
  );
  if (taken.rows.length > 0)
    throw new CopyRefused(
      `The database has ${taken.rows.map((e) => `environment "${e.name}"`).join(', ')} already; nothing was copied. Copy into a database without them.`,
    );
  const keyCount = await pool.query<{ n: number; secret: string }>(
    `SELECT (SELECT count(*)::integer FROM ${serverSchema}.api_key) AS n, (SELECT secret FROM ${serverSchema}.api_key_pepper WHERE id = 1) AS secret`,
  );
  const existing = keyCount.rows[0]!;
  if (existing.n > 0 && existing.secret !== pepper)
    throw new CopyRefused('The database holds API keys digested with another pepper, which these keys cannot join; nothing was copied.');
  const oauthRows = await pool.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM ${serverSchema}.signing_key) + (SELECT count(*) FROM ${serverSchema}.oauth_client) AS n`,
  );
  if (Number(oauthRows.rows[0]!.n) > 0)
    throw new CopyRefused('The database has OAuth clients or signing keys already, which these cannot join; nothing was copied.');

  const checks: TableCheck[] = [];
  for (const environment of environments) {
    const db = dataDir.environment(environment.id).db;
    await ensureEnvironmentSchema(pool, environment.id, environmentMigrations);
    const sums = new Map<string, Checksum>();
    await withEnvironment(pool, environment.id, async (client) => {
      // An earlier copy that stopped half-way may have left rows: the environment is not
      // registered, so no one uses them. Side tables first: webhook secrets name their webhook.
      for (const side of sideTables) await client.query(`DELETE FROM ${postgresName[side.name]!}`);
      await client.query('DELETE FROM attachment_content');
      for (const table of recordTables) await client.query(`DELETE FROM ${quoteIdentifier(table.table)}`);
      for (const table of recordTables) {
        const columns = columnsOf(table);
        const names = columns.map((c) => c.name);
        const sum = new Checksum();
        let batch: unknown[][] = [];
        const select = db
          .prepare(`SELECT ${columns.map((c) => quoteIdentifier(c.name)).join(', ')} FROM ${quoteIdentifier(table.table)} ORDER BY "id"`)
          .raw(true);
        for (const row of select.iterate() as IterableIterator<unknown[]>) {
          const values = columns.map((column, i) => decoded(column.field, row[i]));
          sum.add(values);
          batch.push(values.map((value, i) => (columns[i]!.field?.type === 'json' && value !== null ? JSON.stringify(value) : value)));
          if (batch.length === batchRows) {
            await insertBatch(client, quoteIdentifier(table.table), names, batch);
            batch = [];
          }
        }
        await insertBatch(client, quoteIdentifier(table.table), names, batch);
        sums.set(table.table, sum);
      }
      // A pending delivery waits until `due_at` (ms) on both engines: a column of the queue's own
      // beside the declared fields (webhook-queue.ts, postgres/webhook-queue.ts), so carried here.
      const pending = db.prepare("SELECT id, due_at FROM webhook_delivery WHERE status IN ('started', 'failed')").raw(true).all() as [
        string,
        number,
      ][];
      if (pending.length > 0)
        await client.query(
          'UPDATE webhook_delivery d SET due_at = p.due_at FROM unnest($1::text[], $2::bigint[]) AS p (id, due_at) WHERE d.id = p.id',
          [pending.map(([id]) => id), pending.map(([, due]) => due)],
        );
      for (const side of sideTables) {
        const into = postgresName[side.name]!;
        const sum = new Checksum();
        let batch: unknown[][] = [];
        const select = db.prepare(`SELECT ${side.columns.join(', ')} FROM ${side.name} ${side.from}`).raw(true);
        const columns = side.intoColumns ?? side.columns;
        for (const row of select.iterate() as IterableIterator<unknown[]>) {
          sum.add(side.checked(row));
          batch.push(side.stored ? side.stored(row) : row);
          if (batch.length === batchRows) {
            await insertBatch(client, into, columns, batch);
            batch = [];
          }
        }
        await insertBatch(client, into, columns, batch);
        sums.set(side.name, sum);
      }
      sums.set(attachmentContent, await copyAttachments(client, join(dataDir.path, 'attachments', environment.id)));
    });
    checks.push(...(await checkCopy(pool, environment.name, environment.id, sums)));
  }

  // Last, in one transaction: from here on a server would serve these environments.
  const systemSums = new Map<string, Checksum>();
  await inTransaction(pool, async (client) => {
    await client.query(`UPDATE ${serverSchema}.api_key_pepper SET secret = $1 WHERE id = 1`, [pepper]);
    await insertBatch(
      client,
      `${serverSchema}.environment`,
      ['id', 'name', 'created_at'],
      environments.map((e) => [e.id, e.name, e.created_at]),
    );
    for (let i = 0; i < apiKeys.length; i += batchRows)
      await insertBatch(
        client,
        `${serverSchema}.api_key`,
        ['id', 'environment_id', 'digest', 'salt', 'hash', 'label', 'created_at', 'revoked_at'],
        apiKeys.slice(i, i + batchRows),
      );
    for (const side of systemTables) {
      const sum = new Checksum();
      const rows = systemDb
        .prepare(`SELECT ${side.columns.join(', ')} FROM ${side.name} ${side.from}`)
        .raw(true)
        .all() as unknown[][];
      for (const row of rows) sum.add(side.checked(row));
      for (let i = 0; i < rows.length; i += batchRows)
        await insertBatch(client, `${serverSchema}.${side.name}`, side.columns, rows.slice(i, i + batchRows));
      systemSums.set(side.name, sum);
    }
  });
  for (const side of systemTables) {
    const sum = new Checksum();
    const rows = await pool.query({
      text: `SELECT ${side.columns.join(', ')} FROM ${serverSchema}.${side.name} ${side.back}`,
      rowMode: 'array',
    } as pg.QueryConfig);
    for (const row of rows.rows as unknown[][]) sum.add(side.checked(row));
    const from = systemSums.get(side.name)!;
    checks.push({
      environment: serverLabel,
      table: side.name,
      sqliteRows: from.rows,
      postgresRows: sum.rows,
      sqliteChecksum: from.hex,
      postgresChecksum: sum.hex,
    });
  }
  return {
    environments: environments.map((e) => e.name),
    apiKeys: apiKeys.length,
    tables: checks,
    matches: checks.every((c) => c.sqliteRows === c.postgresRows && c.sqliteChecksum === c.postgresChecksum),
  };
}

/** Each copied table read back from PostgreSQL, counted and summed as it was read from SQLite. */
async function checkCopy(pool: PostgresPool, name: string, environmentId: string, sums: Map<string, Checksum>): Promise<TableCheck[]> {
  return withEnvironment(pool, environmentId, async (client) => {
    const checks: TableCheck[] = [];
    const check = (table: string, sum: Checksum) => {
      const from = sums.get(table)!;
      checks.push({
        environment: name,
        table,
        sqliteRows: from.rows,
        postgresRows: sum.rows,
        sqliteChecksum: from.hex,
        postgresChecksum: sum.hex,
      });
    };
    for (const table of recordTables) {
      const columns = columnsOf(table);
      const sum = new Checksum();
      const result = await client.query({
        text: `SELECT ${columns.map((c) => quoteIdentifier(c.name)).join(', ')} FROM ${quoteIdentifier(table.table)} ORDER BY "id" COLLATE "C"`,
        rowMode: 'array',
      });
      for (const row of result.rows as unknown[][]) sum.add(columns.map((column, i) => decoded(column.field, row[i])));
      check(table.table, sum);
    }
    for (const side of sideTables) {
      const sum = new Checksum();
      const rows = await client.query({
        text: `SELECT ${(side.intoColumns ?? side.columns).join(', ')} FROM ${postgresName[side.name]} ${side.back}`,
        rowMode: 'array',
      } as pg.QueryConfig);
      for (const row of rows.rows as unknown[][]) sum.add(side.checked(row));
      check(side.name, sum);
    }
    const content = new Checksum();
    const stored = await client.query<{ checksum: string; bytes: number; sha256: string }>(
      `SELECT checksum, bytes, encode(sha256(content), 'hex') AS sha256 FROM attachment_content ORDER BY checksum COLLATE "C"`,
    );
    for (const row of stored.rows) content.add(contentChecksum(row.checksum, row.bytes, row.sha256));
    check(attachmentContent, content);
    return checks;
  });
}
