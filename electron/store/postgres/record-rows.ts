/**
 * A record table's rows on PostgreSQL read back as records (postgres/record-tables.ts has the
 * columns): one decoding for the record store and the sync feed.
 */
import type { FieldSpec, ResourceSpec, StoredOf } from '../../../shared/fields.js';
import type { TableDef } from '../table-def.js';
import type { SyncRecordRow } from '../sync-feed.js';

export function fromColumn(field: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // Stored as JSON text by postgresDialect.toColumn.
  if (field.type === 'json') return JSON.parse(value as string);
  return value;
}

/** A live record: every declared field, decoded as declared. */
export function fromRow<S extends ResourceSpec>(table: TableDef<S>, row: Record<string, unknown>): StoredOf<S> {
  const record: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(table.fields)) record[name] = fromColumn(field, row[name]);
  // Every column of the declaration S, decoded as declared.
  return record as StoredOf<S>;
}

/** A record as sync sees it: the same, with `deleted_at` (null for a live one). */
export function syncRowOf(table: TableDef, row: Record<string, unknown>): SyncRecordRow {
  // deleted_at is a text column of every record table, or null.
  return { ...fromRow(table, row), deleted_at: (row.deleted_at as string | null | undefined) ?? null };
}
