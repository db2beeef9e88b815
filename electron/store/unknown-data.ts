/**
 * Data another app version syncs that this one does not declare: a field of a known resource,
 * or a whole record of a resource this version does not have (docs/API.md "Sync", "Versions
 * and unknown data"). Users do not update every computer at once, so both happen in normal
 * use; the data is kept, never dropped:
 *
 *  - one row per field in `sync_unknown`, with its value and the hybrid clock of its last
 *    write, merged last-writer-wins like any field;
 *  - a change to it is logged in the change log like a write, so a remote's change feed
 *    passes a record changed only in such a field on to the replicas that read it;
 *  - who wrote it (`writer`: `key:<id>` or `user:<id>` for a replica's push; null for what a
 *    remote passed on, or what was kept before writers were recorded);
 *  - once a migration declares the field or resource, `replayKnownData` moves it into the
 *    record's table through the same per-field merge, after the declaring version's checks of
 *    it as its writer's write (`KeptAdmission`), and forgets it here.
 *
 * An admin lists it and deletes it (`list`, `record`, `forgetRecord`; docs/API.md "Kept data").
 */
import { checkValue, own } from '../../shared/fields.js';
import { zeroHlc } from '../../shared/hlc.js';
import type { StoredRecord } from '../../shared/fields.js';
import type { TableDef } from './table-def.js';
import { onePerStore, SideTable } from './side-table.js';
import type { Clocks, SyncBook } from './sync-book.js';

/**
 * The say of the version that now declares kept data, in the transaction `Tx` that moves it:
 * may `writer` write `values` to record `id` (`current` as it is now, undefined when it does not
 * exist yet)? Rejects when not. `transaction` runs one record's move in a transaction of the
 * environment's asynchronous store (record-store.ts), in which this store's own calls are that
 * transaction's.
 */
export interface KeptAdmission<Tx> {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  admit(
    tx: Tx,
    table: TableDef,
    id: string,
    values: Readonly<Record<string, unknown>>,
    current: StoredRecord | undefined,
    writer: string | null,
  ): Promise<void>;
}

/** What moving one record's kept fields would write: its values and their clocks, the fields it settles. */
interface KeptMove {
  local: StoredRecord | undefined;
  values: Record<string, unknown>;
  clocks: Clocks;
  settled: string[];
}

/** Kept fields of one record: their values and clocks. */
export interface KeptFields {
  values: Record<string, unknown>;
  clocks: Clocks;
}

/**
 * Names another version may give a resource or a field: lower-case snake case, as every
 * declared one is. Anything else is refused, so a name can never be `__proto__` or SQL.
 */
export const keptNamePattern = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The names of the tables the store keeps besides the declared resources, in SQLite's system
 * and environment databases and PostgreSQL's schemas: a kept resource is never named as one of
 * them, so no record another version sends can pass for one (`api_key`, `sync_outbox`,
 * `signing_key`), wherever it goes later (a version that declares it, a copy to PostgreSQL, an
 * admin reading a list). Names beginning with `sqlite_` or `pg_` are the databases' own.
 * test/store/kept-limits.test.ts checks that every table of a fresh database is here or declared.
 */
export const internalTableNames: ReadonlySet<string> = new Set([
  // system.sqlite, and PostgreSQL's `planner` schema
  'environment',
  'environment_schemas',
  'signing_key',
  'oauth_token_family',
  'oauth_code',
  'oauth_refresh_token',
  'api_key',
  'api_key_pepper',
  'rate_limit',
  'schema_migrations',
  // an environment's database, and its schema on PostgreSQL
  'change_log',
  'change_log_compacted',
  'command',
  'sync_clock',
  'field_clock',
  'sync_outbox',
  'sync_client',
  'replica_mark',
  'sync_conflict',
  'sync_state',
  'sync_file',
  'sync_unknown',
  'kept_field',
  'sync_overruled',
  'sync_history',
  'sync_plan_finding',
  // the floor's kiosks and PINs (docs/decisions/kiosk-pins.md): never synced, never kept
  'floor_pin',
  'floor_kiosk',
  'floor_kiosk_unlock',
  // a data folder's plan scenarios (docs/decisions/scenarios.md): never synced, never kept
  'scenario',
  'user_password',
  'webhook_secret',
  'attachment_content',
]);

/** Whether a name is one of the store's own tables, or the database's (see internalTableNames). */
export function isInternalName(name: string): boolean {
  return internalTableNames.has(name) || name.startsWith('sqlite_') || name.startsWith('pg_');
}

interface KeptRow {
  resource: string;
  record_id: string;
  field: string;
  value: string;
  clock: string;
  writer: string | null;
}

/** One kept field as an admin sees it: its value, size in bytes (name and JSON value), clock and writer. */
export interface KeptFieldInfo {
  value: unknown;
  bytes: number;
  clock: string;
  writer: string | null;
}

/** A record with kept data, as an admin's list shows it (without the values). */
export interface KeptRecordSummary {
  resource: string;
  record_id: string;
  fields: string[];
  bytes: number;
  /** The clock of its latest kept write. */
  clock: string;
  writers: (string | null)[];
}

/**
 * The bytes one kept field counts for: its name and its value as JSON, in UTF-8. The same SQL on
 * both engines (`length(CAST(… AS BLOB))` here, `octet_length` on PostgreSQL).
 */
export function keptBytesOf(field: string, value: unknown): number {
  return Buffer.byteLength(field) + Buffer.byteLength(JSON.stringify(value === undefined ? null : value));
}

/** A kept record's row of the summary SQL (both engines give these columns). */
export interface KeptSummaryRow {
  resource: string;
  record_id: string;
  fields: string;
  bytes: number | string;
  clock: string;
  writers: string;
}

export function keptSummaryOf(row: KeptSummaryRow): KeptRecordSummary {
  return {
    resource: row.resource,
    record_id: row.record_id,
    fields: (JSON.parse(row.fields) as string[]).sort(),
    bytes: Number(row.bytes),
    clock: row.clock,
    writers: [...new Set(JSON.parse(row.writers) as (string | null)[])].sort(),
  };
}

/** Kept rows as an admin sees them, by field; `Object.defineProperty` as in keptFieldsOf. */
export function keptInfoOf(rows: readonly Pick<KeptRow, 'field' | 'value' | 'clock' | 'writer'>[]): Record<string, KeptFieldInfo> {
  const out: Record<string, KeptFieldInfo> = {};
  for (const row of rows) {
    const info: KeptFieldInfo = {
      value: JSON.parse(row.value),
      bytes: Buffer.byteLength(row.field) + Buffer.byteLength(row.value),
      clock: row.clock,
      writer: row.writer,
    };
    Object.defineProperty(out, row.field, { value: info, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The kept unknown data of one environment database. */
export const unknownDataOf = onePerStore((store) => new UnknownData(store));

/**
 * A record built from kept rows; `Object.defineProperty` so no name can reach a prototype.
 * The same on PostgreSQL (postgres/kept-data.ts), whose rows have these columns too.
 */
export function keptFieldsOf(rows: readonly Pick<KeptRow, 'field' | 'value' | 'clock'>[]): KeptFields {
  const values: Record<string, unknown> = {};
  const clocks: Clocks = {};
  for (const row of rows) {
    Object.defineProperty(values, row.field, { value: JSON.parse(row.value), enumerable: true, writable: true, configurable: true });
    Object.defineProperty(clocks, row.field, { value: row.clock, enumerable: true, writable: true, configurable: true });
  }
  return { values, clocks };
}

// Statement texts are fixed (the declared resources do not change while running): each is prepared once.
export class UnknownData extends SideTable {
  /** Whether anything is kept at all (most databases never keep anything). */
  isEmpty(): boolean {
    return this.sql('SELECT 1 FROM sync_unknown LIMIT 1').get() === undefined;
  }

  /**
   * Keeps fields of a record, each only when its clock is newer than the kept one (a resent
   * or older change changes nothing). Logs one change when something changed, so the change
   * feed carries the record again and the live channel announces it. Returns the fields that
   * changed. Runs in one transaction.
   */
  keep(
    resource: string,
    id: string,
    fields: Readonly<Record<string, unknown>>,
    clockOf: (field: string) => string,
    writer: string | null = null,
  ): string[] {
    const names = Object.keys(fields);
    if (names.length === 0) return [];
    return this.store.transaction(() => {
      const changed: string[] = [];
      const upsert = this.sql(
        `INSERT INTO sync_unknown (resource, record_id, field, value, clock, writer) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(resource, record_id, field) DO UPDATE SET value = excluded.value, clock = excluded.clock, writer = excluded.writer
         WHERE excluded.clock > sync_unknown.clock`,
      );
      for (const field of names) {
        const value = fields[field] === undefined ? null : fields[field];
        if (upsert.run(resource, id, field, JSON.stringify(value), clockOf(field), writer).changes > 0) changed.push(field);
      }
      if (changed.length > 0) {
        const deleting = changed.includes('deleted_at') && typeof fields.deleted_at === 'string';
        this.store.logKeptChange(resource, id, deleting ? 'delete' : 'update');
      }
      return changed;
    });
  }

  /** The bytes kept in all (`keptBytesOf` of every field): what the environment's limit counts. */
  bytes(): number {
    // sum() of no rows is null.
    return (
      this.sql<{ n: number | null }>('SELECT sum(length(CAST(field AS BLOB)) + length(CAST(value AS BLOB))) AS n FROM sync_unknown').get()!
        .n ?? 0
    );
  }

  /** The names of a record's kept fields. */
  fieldNames(resource: string, id: string): string[] {
    return this.sql<{ field: string }>('SELECT field FROM sync_unknown WHERE resource = ? AND record_id = ? ORDER BY field')
      .all(resource, id)
      .map((r) => r.field);
  }

  /** A page of the records with kept data, by resource and id; `resource` narrows it to one. */
  list(resource: string | undefined, limit: number, offset: number): { count: number; records: KeptRecordSummary[] } {
    const where = resource === undefined ? '' : 'WHERE resource = ?';
    const params = resource === undefined ? [] : [resource];
    // count(*) always gives one row.
    const { n } = this.sql<{ n: number }>(`SELECT count(*) AS n FROM (SELECT DISTINCT resource, record_id FROM sync_unknown ${where})`).get(
      ...params,
    )!;
    const rows = this.sql<KeptSummaryRow>(
      `SELECT resource, record_id, json_group_array(field) AS fields,
              sum(length(CAST(field AS BLOB)) + length(CAST(value AS BLOB))) AS bytes, max(clock) AS clock, json_group_array(writer) AS writers
       FROM sync_unknown ${where} GROUP BY resource, record_id ORDER BY resource, record_id LIMIT ? OFFSET ?`,
    ).all(...params, limit, offset);
    return { count: n, records: rows.map(keptSummaryOf) };
  }

  /** The kept fields of one record, each with its value, size, clock and writer (empty when none). */
  record(resource: string, id: string): Record<string, KeptFieldInfo> {
    return keptInfoOf(
      this.sql<KeptRow>('SELECT * FROM sync_unknown WHERE resource = ? AND record_id = ? ORDER BY field').all(resource, id),
    );
  }

  /** Deletes a record's kept fields (`fields`, or all); answers how many there were. */
  forgetRecord(resource: string, id: string, fields?: readonly string[]): number {
    if (fields === undefined) return this.sql('DELETE FROM sync_unknown WHERE resource = ? AND record_id = ?').run(resource, id).changes;
    let removed = 0;
    const remove = this.sql('DELETE FROM sync_unknown WHERE resource = ? AND record_id = ? AND field = ?');
    for (const field of fields) removed += remove.run(resource, id, field).changes;
    return removed;
  }

  /** The kept fields of one record (empty when none). */
  fieldsOf(resource: string, id: string): KeptFields {
    return keptFieldsOf(
      this.sql<KeptRow>('SELECT * FROM sync_unknown WHERE resource = ? AND record_id = ? ORDER BY field').all(resource, id),
    );
  }

  /** The kept fields of many records of one resource, by record id (only those with some). */
  fieldsOfMany(resource: string, ids: readonly string[]): Map<string, KeptFields> {
    const out = new Map<string, KeptFields>();
    if (ids.length === 0 || this.isEmpty()) return out;
    const rows: KeptRow[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      // Rows of sync_unknown (KeptRow); a text per chunk size, so prepared here and not kept.
      rows.push(
        ...(this.store.db
          .prepare(`SELECT * FROM sync_unknown WHERE resource = ? AND record_id IN (${chunk.map(() => '?').join(',')})`)
          .all(resource, ...chunk) as KeptRow[]),
      );
    }
    const byRecord = new Map<string, KeptRow[]>();
    for (const row of rows) byRecord.set(row.record_id, [...(byRecord.get(row.record_id) ?? []), row]);
    for (const [id, recordRows] of byRecord) out.set(id, keptFieldsOf(recordRows));
    return out;
  }

  /**
   * Records of resources not in `declared` changed after `since`, each once at its latest
   * change, up to `through` (the cursor of the change-feed page they join), in commit order.
   */
  recordsChanged(declared: ReadonlySet<string>, since: number, through: number): { seq: number; resource: string; id: string }[] {
    // Most remotes keep none: no second pass over the change log for them.
    if (!this.keepsRecords(declared)) return [];
    const names = [...declared];
    // The row shape of this SQL text (SQLite gives untyped rows).
    return this.sql(
      `SELECT resource, record_id AS id, max(seq) AS seq FROM change_log
       WHERE seq > ? AND resource NOT IN (${names.map(() => '?').join(',')})
         AND EXISTS (SELECT 1 FROM sync_unknown AS u WHERE u.resource = change_log.resource AND u.record_id = change_log.record_id)
       GROUP BY resource, record_id HAVING max(seq) <= ? ORDER BY seq`,
    ).all(since, ...names, through) as { seq: number; resource: string; id: string }[];
  }

  /**
   * A page of the kept records of resources not in `declared`, in (resource, id) order after
   * `after`; a snapshot's last part.
   */
  recordsPage(
    declared: ReadonlySet<string>,
    after: readonly [string, string] | null,
    limit: number,
  ): { resource: string; id: string; fields: KeptFields }[] {
    const names = [...declared];
    // The row shape of this SQL text (SQLite gives untyped rows).
    const keys = this.sql(
      `SELECT DISTINCT resource, record_id FROM sync_unknown
       WHERE (resource, record_id) > (?, ?) AND resource NOT IN (${names.map(() => '?').join(',')})
       ORDER BY resource, record_id LIMIT ?`,
    ).all(after?.[0] ?? '', after?.[1] ?? '', ...names, limit) as { resource: string; record_id: string }[];
    return keys.map((k) => ({ resource: k.resource, id: k.record_id, fields: this.fieldsOf(k.resource, k.record_id) }));
  }

  /** Whether records of resources not in `declared` are kept. */
  keepsRecords(declared: ReadonlySet<string>): boolean {
    const names = [...declared];
    return (
      this.sql(`SELECT 1 FROM sync_unknown WHERE resource NOT IN (${names.map(() => '?').join(',')}) LIMIT 1`).get(...names) !== undefined
    );
  }

  private forget(resource: string, id: string, fields: readonly string[]): void {
    const remove = this.sql('DELETE FROM sync_unknown WHERE resource = ? AND record_id = ? AND field = ?');
    for (const field of fields) remove.run(resource, id, field);
  }

  /**
   * Moves kept data that this version now declares into the records' tables (after a
   * migration added the field or the resource): each field last-writer-wins by clock against
   * the record's own, a kept delete winning over the record's edits as a pulled one does.
   * Written as a sync write, with the kept clocks, so a replica queues nothing. A value of the
   * wrong type for its now declared field, or a record its table refuses (a required field
   * missing), stays kept.
   *
   * `admission` is the declaring version's say (the API's: api/sync/books.ts), each record moved
   * in a transaction of its own on the asynchronous store: the values of one record that one
   * writer kept and that would land, as that writer's write of the record, or a rejection, and
   * they stay kept (tried again at the next start, and listed for an admin). So a
   * value kept unchecked, because no rule of the version that kept it knew its field, meets the
   * rules of the version that knows it before it counts. Returns the number of records changed.
   */
  async replayKnownData<Tx>(book: SyncBook, tables: ReadonlyMap<string, TableDef>, admission?: KeptAdmission<Tx>): Promise<number> {
    if (this.isEmpty()) return 0;
    const pairs = this.sql<{ resource: string; field: string }>('SELECT DISTINCT resource, field FROM sync_unknown').all();
    const replayable = pairs.filter((p) => {
      const table = tables.get(p.resource);
      return table !== undefined && (p.field === 'deleted_at' || (p.field !== 'id' && own(table.fields, p.field) !== undefined));
    });
    if (replayable.length === 0) return 0;
    const fieldsByResource = new Map<string, string[]>();
    for (const p of replayable) fieldsByResource.set(p.resource, [...(fieldsByResource.get(p.resource) ?? []), p.field]);
    let replayed = 0;
    for (const [resource, fields] of fieldsByResource) {
      const table = tables.get(resource)!;
      // One text per number of fields, so prepared here and not kept; its rows have a record_id.
      const ids = (
        this.store.db
          .prepare(
            `SELECT DISTINCT record_id FROM sync_unknown WHERE resource = ? AND field IN (${fields.map(() => '?').join(',')}) ORDER BY record_id`,
          )
          .all(resource, ...fields) as { record_id: string }[]
      ).map((r) => r.record_id);
      for (const id of ids) {
        const rows = this.sql<KeptRow>('SELECT * FROM sync_unknown WHERE resource = ? AND record_id = ? ORDER BY field').all(resource, id);
        // Each writer's fields are that writer's write, admitted or not on their own.
        for (const writer of new Set(rows.map((r) => r.writer))) {
          const theirs = rows.filter((r) => r.writer === writer);
          const declared = new Set(fields);
          try {
            const moved = admission
              ? await admission.transaction(async (tx) => {
                  const move = this.keptMove(book, table, id, declared, theirs);
                  if (Object.keys(move.values).length > 0)
                    await admission.admit(tx, table, id, move.values, move.local, theirs[0]?.writer ?? null);
                  return this.move(table, id, move);
                })
              : this.store.transaction(() => this.move(table, id, this.keptMove(book, table, id, declared, theirs)));
            if (moved) replayed++;
          } catch {
            // The table or the declaring version's rules refused the record as kept (a required
            // field another version added, a writer who may not write it): it stays kept, and
            // is tried again at the next start.
          }
        }
      }
    }
    return replayed;
  }

  /** What moving the kept fields `rows` of record `id` into its table writes, by the per-field merge. */
  private keptMove(book: SyncBook, table: TableDef, id: string, declared: ReadonlySet<string>, rows: readonly KeptRow[]): KeptMove {
    const kept = keptFieldsOf(rows);
    const names = Object.keys(kept.values).filter((f) => declared.has(f));
    const local = this.store.getForSync(table, id);
    const localClocks = book.clocksOf(table.resource, id);
    const newer = (field: string) => !local || (kept.clocks[field] ?? zeroHlc) > (localClocks[field] ?? zeroHlc);
    const values: Record<string, unknown> = {};
    const clocks: Clocks = {};
    const settled: string[] = [];
    for (const field of names) {
      if (field === 'deleted_at') continue;
      const value = kept.values[field];
      const check = checkValue({ ...table.fields[field]!, nullable: true, check: undefined, pattern: undefined }, value);
      if (!check.ok) continue; // stays kept: it is not what this version calls that field
      settled.push(field);
      if (newer(field)) {
        values[field] = value;
        if (kept.clocks[field]! > zeroHlc) clocks[field] = kept.clocks[field]!;
      }
    }
    if (names.includes('deleted_at')) {
      settled.push('deleted_at');
      const keptDeleted = typeof kept.values.deleted_at === 'string';
      const localDeleted = Boolean(local?.deleted_at);
      if ((keptDeleted && !localDeleted) || (!keptDeleted && localDeleted && newer('deleted_at'))) {
        values.deleted_at = keptDeleted ? kept.values.deleted_at : null;
        if (kept.clocks.deleted_at! > zeroHlc) clocks.deleted_at = kept.clocks.deleted_at!;
      }
    }
    return { local, values, clocks, settled };
  }

  /**
   * Writes a move and forgets what it settles; whether it wrote anything. After the declaring
   * version admitted it: when it refuses, the transaction rolls back and nothing is forgotten.
   */
  private move(table: TableDef, id: string, { values, clocks, settled }: KeptMove): boolean {
    if (Object.keys(values).length > 0)
      this.store.withOrigin({ kind: 'sync', clocks, checkUnique: false }, () => this.store.writeForSync(table, id, values));
    this.forget(table.resource, id, settled);
    return Object.keys(values).length > 0;
  }
}
