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
 *  - once a migration declares the field or resource, `replayKnownData` moves it into the
 *    record's table through the same per-field merge, and forgets it here.
 */
import { checkValue, own } from '../../shared/fields.js';
import { zeroHlc } from '../../shared/hlc.js';
import type { TableDef } from './environment-store.js';
import { onePerStore, SideTable } from './side-table.js';
import type { Clocks, SyncBook } from './sync-book.js';

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

interface KeptRow {
  resource: string;
  record_id: string;
  field: string;
  value: string;
  clock: string;
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
  keep(resource: string, id: string, fields: Readonly<Record<string, unknown>>, clockOf: (field: string) => string): string[] {
    const names = Object.keys(fields);
    if (names.length === 0) return [];
    return this.store.transaction(() => {
      const changed: string[] = [];
      const upsert = this.sql(
        `INSERT INTO sync_unknown (resource, record_id, field, value, clock) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(resource, record_id, field) DO UPDATE SET value = excluded.value, clock = excluded.clock
         WHERE excluded.clock > sync_unknown.clock`,
      );
      for (const field of names) {
        const value = fields[field] === undefined ? null : fields[field];
        if (upsert.run(resource, id, field, JSON.stringify(value), clockOf(field)).changes > 0) changed.push(field);
      }
      if (changed.length > 0) {
        const deleting = changed.includes('deleted_at') && typeof fields.deleted_at === 'string';
        const logged = Object.fromEntries(changed.map((f) => [f, fields[f] ?? null]));
        this.store.logKeptChange(resource, id, deleting ? 'delete' : 'update', logged);
      }
      return changed;
    });
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
   * missing), stays kept. Returns the number of records changed.
   */
  replayKnownData(book: SyncBook, tables: ReadonlyMap<string, TableDef>): number {
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
        try {
          if (this.store.transaction(() => this.replayRecord(book, table, id, new Set(fields)))) replayed++;
        } catch {
          // The table refused the record as kept (a required field another version added):
          // it stays kept, and is tried again at the next start.
        }
      }
    }
    return replayed;
  }

  private replayRecord(book: SyncBook, table: TableDef, id: string, declared: ReadonlySet<string>): boolean {
    const kept = this.fieldsOf(table.resource, id);
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
    if (Object.keys(values).length > 0) {
      this.store.withOrigin({ kind: 'sync', clocks, checkUnique: false }, () => this.store.writeForSync(table, id, values));
    }
    this.forget(table.resource, id, settled);
    return Object.keys(values).length > 0;
  }
}
