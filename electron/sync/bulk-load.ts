/**
 * A replica's first snapshot, loaded as the bulk load it is (docs/API.md "Sync"). A replica
 * with no records and nothing to push has nothing to merge with, so each snapshot page is
 * inserted with prepared statements in one transaction — the records with their change-log
 * rows, then their field clocks — instead of field by field through mergeRecords (merge.ts),
 * which first reads every record and its clocks and runs every write hook. What lands is what
 * the merge would have written for a record the replica does not have, and the same change
 * events go out.
 *
 * The caller checks the page whole first (checkBatch), so bad data refuses the page and
 * changes nothing. What a plain insert does not cover goes through mergeRecords in the same
 * transaction: records of resources, or with fields, that this version does not declare (kept
 * with their clocks). A page that meets a record the replica has after all (the planner wrote
 * meanwhile, or the remote sent an id twice) is rolled back and merged instead.
 */
import { own } from '../../shared/fields.js';
import { maxClockSkewMs, zeroHlc } from '../../shared/hlc.js';
import type { EnvironmentStore, TableDef } from '../store/environment-store.js';
import type { Clocks, SyncBook } from '../store/sync-book.js';
import { mergeRecords, type RemoteRecord } from './merge.js';

/** Whether the replica has no record of any synced resource (deleted ones included) and nothing to push. */
export function isEmptyReplica(store: EnvironmentStore, book: SyncBook, tables: ReadonlyMap<string, TableDef>): boolean {
  if (book.pendingCount() > 0) return false;
  for (const table of tables.values()) if (store.scanForSync(table, '', 1).length > 0) return false;
  return true;
}

interface NewRecord {
  id: string;
  values: Record<string, unknown>;
  clocks: Clocks;
}

/**
 * What mergeRecords writes for a record the replica does not have: every declared field, the
 * deletion of a deleted record, and the clocks of the fields written. Undefined when the entry
 * needs the merge (a field this version does not declare), null when nothing is written.
 */
function asNewRecord(table: TableDef, entry: RemoteRecord): NewRecord | null | undefined {
  const remote = entry.record;
  if (!remote) return null;
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(remote)) {
    if (field === 'id' || field === 'deleted_at') continue;
    if (!own(table.fields, field)) return undefined;
    values[field] = value;
  }
  if (typeof remote.deleted_at === 'string') values.deleted_at = remote.deleted_at;
  if (Object.keys(values).length === 0) return null;
  const clocks: Clocks = {};
  for (const field of Object.keys(values)) {
    const hlc = entry.clocks[field];
    if (hlc && hlc > zeroHlc) clocks[field] = hlc;
  }
  return { id: entry.id, values, clocks };
}

function isConstraintError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}

/**
 * Loads one checked snapshot page; `afterApply` runs inside its transaction. Returns how many
 * entries it took, as mergeRecords does.
 */
export function bulkLoad(
  store: EnvironmentStore,
  book: SyncBook,
  tables: ReadonlyMap<string, TableDef>,
  entries: readonly RemoteRecord[],
  afterApply: () => void,
): number {
  const byTable = new Map<TableDef, NewRecord[]>();
  const merged: RemoteRecord[] = [];
  // The replica's clock moves past every clock written, as merging does record by record. Clocks
  // sort as text; those further ahead than the allowed skew do not move it.
  const ceiling = String(Date.now() + maxClockSkewMs).padStart(13, '0');
  let newest = '';
  for (const entry of entries) {
    const table = tables.get(entry.resource);
    const record = table ? asNewRecord(table, entry) : undefined;
    if (record === undefined) {
      merged.push(entry);
      continue;
    }
    if (record === null) continue;
    let list = byTable.get(table!);
    if (!list) byTable.set(table!, (list = []));
    list.push(record);
    for (const hlc of Object.values(entry.clocks)) if (hlc > newest && hlc.slice(0, 13) <= ceiling) newest = hlc;
  }
  try {
    store.transaction(() => {
      for (const [table, records] of byTable) {
        store.insertManyForSync(table, records);
        book.insertClocks(table.resource, records);
      }
      if (merged.length > 0) mergeRecords(store, book, tables, merged);
      afterApply();
    });
  } catch (error) {
    if (!isConstraintError(error)) throw error;
    return mergeRecords(store, book, tables, entries, { afterApply });
  }
  if (newest) book.clock.receive(newest);
  return entries.length;
}
