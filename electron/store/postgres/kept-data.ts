/**
 * Data another app version syncs that this one does not declare, kept by the remote on
 * PostgreSQL (docs/API.md "Sync", "Versions and unknown data"; docs/architecture.md "Wire
 * versions and unknown data", "Team server on PostgreSQL"): a field of a known resource, or
 * every field of a record of a resource this version does not have, one `kept_field` row per
 * field with its value (JSON text) and the clock of its last write. The operations of
 * `UnknownData` that a remote uses, with `Promise` results, each on a client inside
 * `withEnvironment`, in the caller's transaction:
 *
 *  - `keep` merges last-writer-wins per field, and logs one change when something changed, so
 *    the change feed carries the record again;
 *  - `fieldsOf`, `fieldsOfMany` read kept fields back with their clocks (for the change feed
 *    and the snapshot); `recordsChanged`, `recordsPage`, `keepsRecords`, `isEmpty` find the
 *    kept records of resources this version does not declare.
 *
 * Not here: `replayKnownData`, which moves kept fields into the records' tables once a
 * migration declares them. It writes records through the domain (a sync write checked against
 * the resource's declaration, merged against the record's clocks), which does not run on
 * PostgreSQL yet; it comes with the domain's port to the asynchronous store.
 *
 * Several nodes keep at once: a field's clock is compared with the kept one inside the upsert
 * (`ON CONFLICT DO UPDATE … WHERE excluded.clock > kept_field.clock`), which locks the row and,
 * when another node changed it meanwhile, waits for that commit and compares with the row as
 * it left it (READ COMMITTED re-reads a row it had to wait for). Reading the clock first and
 * writing after, as two statements, would let an older value that arrives second overwrite a
 * newer one that committed in between. Clocks compare as text bytes (the columns are
 * `COLLATE "C"`, postgres/sync-clock-tables.ts), as in JavaScript.
 */
import {
  keptFieldsOf,
  keptInfoOf,
  keptSummaryOf,
  type KeptFieldInfo,
  type KeptFields,
  type KeptRecordSummary,
  type KeptSummaryRow,
} from '../unknown-data.js';
import { appendChange, type ChangeCursor } from './change-log.js';
import type { PostgresClient, PostgresMigration } from './postgres-database.js';

/**
 * Environment migration 10: who wrote each kept value (`key:<id>`, `user:<id>`, or null), as
 * SQLite's environment migration 23 (migrations/environment/0023-kept-writer.ts). Frozen.
 */
export const keptWriterMigration: PostgresMigration = {
  version: 10,
  name: 'kept-writer',
  async up(client) {
    await client.query('ALTER TABLE kept_field ADD COLUMN writer text');
  },
};

export type { KeptFields };

interface KeptRow {
  record_id: string;
  field: string;
  value: string;
  clock: string;
  writer: string | null;
}

/** Whether anything is kept at all (most environments never keep anything). */
export async function isEmpty(client: PostgresClient): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM kept_field LIMIT 1');
  return rows.length === 0;
}

/**
 * Keeps fields of a record, each only when its clock is later than the kept one (a resent or
 * older change changes nothing). Appends one change to the change log when something changed
 * (`delete` when that includes a `deleted_at` set, as UnknownData logs it); the caller raises
 * the change notice for its transaction (postgres/change-notices.ts). Answers the fields that
 * changed.
 */
export async function keep(
  client: PostgresClient,
  resource: string,
  id: string,
  fields: Readonly<Record<string, unknown>>,
  clockOf: (field: string) => string,
  writer: string | null = null,
): Promise<string[]> {
  // In name order, so two transactions keeping fields of one record lock their rows in the
  // same order and never deadlock.
  const names = Object.keys(fields).sort();
  if (names.length === 0) return [];
  const { rows } = await client.query<{ field: string }>(
    `INSERT INTO kept_field (resource, record_id, field, value, clock, writer)
     SELECT $1, $2, k.field, k.value, k.clock, $6 FROM unnest($3::text[], $4::text[], $5::text[]) AS k (field, value, clock) ORDER BY k.field
     ON CONFLICT (resource, record_id, field) DO UPDATE SET value = excluded.value, clock = excluded.clock, writer = excluded.writer
     WHERE excluded.clock > kept_field.clock
     RETURNING field`,
    [
      resource,
      id,
      names,
      names.map((f) => JSON.stringify(fields[f] === undefined ? null : fields[f])),
      names.map((f) => clockOf(f)),
      writer,
    ],
  );
  const taken = new Set(rows.map((r) => r.field));
  const changed = names.filter((f) => taken.has(f));
  if (changed.length > 0) {
    const deleting = changed.includes('deleted_at') && typeof fields.deleted_at === 'string';
    await appendChange(client, {
      resource,
      recordId: id,
      op: deleting ? 'delete' : 'update',
      // No values: the feed reads them from kept_field, and one an admin deletes is gone for good.
      fields: null,
    });
  }
  return changed;
}

/** The bytes kept in all (UnknownData.bytes: each field's name and JSON value). */
export async function bytes(client: PostgresClient): Promise<number> {
  const { rows } = await client.query<{ n: string | null }>('SELECT sum(octet_length(field) + octet_length(value)) AS n FROM kept_field');
  return Number(rows[0]?.n ?? 0);
}

/** The names of a record's kept fields. */
export async function fieldNames(client: PostgresClient, resource: string, id: string): Promise<string[]> {
  const { rows } = await client.query<{ field: string }>(
    'SELECT field FROM kept_field WHERE resource = $1 AND record_id = $2 ORDER BY field',
    [resource, id],
  );
  return rows.map((r) => r.field);
}

/** A page of the records with kept data (UnknownData.list). */
export async function list(
  client: PostgresClient,
  resource: string | undefined,
  limit: number,
  offset: number,
): Promise<{ count: number; records: KeptRecordSummary[] }> {
  const where = resource === undefined ? '' : 'WHERE resource = $1';
  const params = resource === undefined ? [] : [resource];
  const counted = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT DISTINCT resource, record_id FROM kept_field ${where}) AS k`,
    params,
  );
  const at = params.length;
  const { rows } = await client.query<KeptSummaryRow>(
    `SELECT resource, record_id, json_agg(field)::text AS fields, sum(octet_length(field) + octet_length(value)) AS bytes,
            max(clock) AS clock, json_agg(writer)::text AS writers
       FROM kept_field ${where} GROUP BY resource, record_id ORDER BY resource, record_id LIMIT $${at + 1} OFFSET $${at + 2}`,
    [...params, limit, offset],
  );
  return { count: Number(counted.rows[0]!.n), records: rows.map(keptSummaryOf) };
}

/** The kept fields of one record with their sizes, clocks and writers (UnknownData.record). */
export async function record(client: PostgresClient, resource: string, id: string): Promise<Record<string, KeptFieldInfo>> {
  const { rows } = await client.query<KeptRow>(
    'SELECT record_id, field, value, clock, writer FROM kept_field WHERE resource = $1 AND record_id = $2 ORDER BY field',
    [resource, id],
  );
  return keptInfoOf(rows);
}

/** Deletes a record's kept fields (`fields`, or all); answers how many there were (UnknownData.forgetRecord). */
export async function forgetRecord(client: PostgresClient, resource: string, id: string, fields?: readonly string[]): Promise<number> {
  const { rowCount } =
    fields === undefined
      ? await client.query('DELETE FROM kept_field WHERE resource = $1 AND record_id = $2', [resource, id])
      : await client.query('DELETE FROM kept_field WHERE resource = $1 AND record_id = $2 AND field = ANY($3::text[])', [
          resource,
          id,
          fields,
        ]);
  return rowCount ?? 0;
}

/** The kept fields of one record (empty when none). */
export async function fieldsOf(client: PostgresClient, resource: string, id: string): Promise<KeptFields> {
  const { rows } = await client.query<KeptRow>(
    'SELECT record_id, field, value, clock FROM kept_field WHERE resource = $1 AND record_id = $2 ORDER BY field',
    [resource, id],
  );
  return keptFieldsOf(rows);
}

/** The kept fields of many records of one resource, by record id (only those with some); one statement. */
export async function fieldsOfMany(client: PostgresClient, resource: string, ids: readonly string[]): Promise<Map<string, KeptFields>> {
  const out = new Map<string, KeptFields>();
  if (ids.length === 0) return out;
  const { rows } = await client.query<KeptRow>(
    'SELECT record_id, field, value, clock FROM kept_field WHERE resource = $1 AND record_id = ANY($2::text[]) ORDER BY record_id, field',
    [resource, ids],
  );
  const byRecord = new Map<string, KeptRow[]>();
  for (const row of rows) {
    const list = byRecord.get(row.record_id);
    if (list) list.push(row);
    else byRecord.set(row.record_id, [row]);
  }
  for (const [id, recordRows] of byRecord) out.set(id, keptFieldsOf(recordRows));
  return out;
}

/** A kept record of a resource this version does not declare, at its latest change. */
export interface ChangedKeptRecord {
  cursor: ChangeCursor;
  resource: string;
  id: string;
}

/**
 * Kept records of resources not in `declared` changed after `since`, each once at its latest
 * change, up to `through` (the cursor of the change-feed page they join: a record changed
 * again after it waits for a later page), in cursor order. The change log's cursor is the pair
 * (xid, position) (postgres/change-log.ts), where SQLite's is one number; `through` comes from
 * `readChanges`, so every change up to it is final.
 */
export async function recordsChanged(
  client: PostgresClient,
  declared: ReadonlySet<string>,
  since: ChangeCursor,
  through: ChangeCursor,
): Promise<ChangedKeptRecord[]> {
  // Most remotes keep none: no second pass over the change log for them.
  if (!(await keepsRecords(client, declared))) return [];
  const { rows } = await client.query<{ xid: string; position: string; resource: string; record_id: string }>(
    `SELECT l.xid::text AS xid, l.position::text AS position, l.resource, l.record_id FROM (
       SELECT DISTINCT ON (c.resource, c.record_id) c.resource, c.record_id, c.xid, c.position
         FROM change_log c
        WHERE (c.xid, c.position) > ($1::xid8, $2::bigint) AND c.resource <> ALL($3::text[])
          AND EXISTS (SELECT 1 FROM kept_field k WHERE k.resource = c.resource AND k.record_id = c.record_id)
        ORDER BY c.resource, c.record_id, c.xid DESC, c.position DESC
     ) l
     WHERE (l.xid, l.position) <= ($4::xid8, $5::bigint)
     ORDER BY l.xid, l.position`,
    [since.xid, since.position, [...declared], through.xid, through.position],
  );
  return rows.map((r) => ({ cursor: { xid: r.xid, position: r.position }, resource: r.resource, id: r.record_id }));
}

/**
 * A page of the kept records of resources not in `declared`, in (resource, id) order (text
 * bytes, as SQLite's) after `after`, with their fields; a snapshot's last part. One statement.
 */
export async function recordsPage(
  client: PostgresClient,
  declared: ReadonlySet<string>,
  after: readonly [string, string] | null,
  limit: number,
): Promise<{ resource: string; id: string; fields: KeptFields }[]> {
  const { rows } = await client.query<KeptRow & { resource: string }>(
    `WITH page AS (
       SELECT DISTINCT resource, record_id FROM kept_field
        WHERE (resource, record_id) > ($1, $2) AND resource <> ALL($3::text[])
        ORDER BY resource, record_id LIMIT $4
     )
     SELECT k.resource, k.record_id, k.field, k.value, k.clock FROM kept_field k JOIN page USING (resource, record_id)
      ORDER BY k.resource, k.record_id, k.field`,
    [after?.[0] ?? '', after?.[1] ?? '', [...declared], limit],
  );
  const page: { resource: string; id: string; rows: KeptRow[] }[] = [];
  for (const row of rows) {
    const last = page.at(-1);
    if (last && last.resource === row.resource && last.id === row.record_id) last.rows.push(row);
    else page.push({ resource: row.resource, id: row.record_id, rows: [row] });
  }
  return page.map((p) => ({ resource: p.resource, id: p.id, fields: keptFieldsOf(p.rows) }));
}

/** Whether records of resources not in `declared` are kept. */
export async function keepsRecords(client: PostgresClient, declared: ReadonlySet<string>): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM kept_field WHERE resource <> ALL($1::text[]) LIMIT 1', [[...declared]]);
  return rows.length > 0;
}
