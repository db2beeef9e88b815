/**
 * What a replica's sync client keeps and writes besides what a request does, behind the store
 * boundary (docs/architecture.md "The asynchronous store boundary"): its sync state (the
 * cursor, its ids), the outbox it pushes, the field clocks, the refused changes, the overruled
 * edits it notices, the attachment files still to move, its runs; and records as sync sees and
 * writes them, with another replica's clocks. Only the storage mechanics are here; the sync
 * rules (the field-level merge, what a bulk load checks) are electron/sync's.
 *
 * A RecordStore's `replica` book reads, in the store's turn; a transaction's also writes, in
 * that transaction, so a pulled page, its clocks, its cursor and the webhook events of what it
 * changed commit together or not at all. Only a local SQLite instance has one (none on the
 * team server, which is never a replica). Its calls answer at once (the synchronous store's),
 * so a transaction that awaits only them runs within one turn of the event loop.
 */
import type { Mutation } from '../../shared/operations/sync.js';
import type { EnvironmentStore } from './environment-store.js';
import { overruledEditsOf, type OverruledNotice } from './overruled-edits.js';
import { bookOf, type Clocks, type FileDirection, type QueuedFile } from './sync-book.js';
import type { SyncRecordRow } from './sync-feed.js';
import type { KeepFields } from './sync-writes.js';
import { syncHistoryOf, type SyncRunRecord } from './sync-history.js';
import type { TableDef } from './table-def.js';
import { unknownDataOf } from './unknown-data.js';

export interface ReplicaBookReads {
  /** The id naming this replica in the clocks of its own writes. */
  node(): Promise<string>;
  /** A value of the replica's sync state (`cursor`, `node_id`, `push_client_id`). */
  state<T>(key: string): Promise<T | undefined>;
  /** Changes waiting to be pushed. */
  pendingCount(): Promise<number>;
  /** The next changes to push, oldest first. */
  nextPush(limit: number): Promise<Mutation[]>;
  clocksOf(resource: string, id: string): Promise<Clocks>;
  /** Attachments whose content waits to move, those that failed less often first. */
  queuedFiles(direction: FileDirection, limit: number): Promise<QueuedFile[]>;
  /** A record as sync sees it, deleted or not. */
  getForSync(table: TableDef, id: string): Promise<SyncRecordRow | undefined>;
  /** Whether a table holds any record, deleted ones included. */
  hasRecords(table: TableDef): Promise<boolean>;
}

/** A record the replica does not have, for insertManyForSync: its values as writeForSync takes them, and its field clocks. */
export interface NewSyncedRecord {
  id: string;
  values: Record<string, unknown>;
  clocks: Clocks;
}

export interface ReplicaBookWrites extends ReplicaBookReads {
  /** Sets a value of the sync state; undefined removes it. */
  setState(key: string, value: unknown): Promise<void>;
  /**
   * Writes fields of a record whatever its state, as another replica's change: each field gets
   * its clock from `clocks`, uniqueness is not checked (the remote's records passed its own),
   * and nothing goes to the outbox. The transaction's write hooks see it.
   */
  writeForSync(table: TableDef, id: string, values: Record<string, unknown>, clocks: Clocks): Promise<void>;
  /**
   * Inserts records the replica does not have with their clocks (a first snapshot,
   * docs/decisions/first-snapshot-unlogged.md): no write hooks, no change-log rows; a record
   * already here throws a SQLite constraint error.
   */
  insertManyForSync(table: TableDef, records: readonly NewSyncedRecord[]): Promise<void>;
  /** As insertManyForSync, the records as rows of `columns` as stored (`id` first), their clocks as JSON by row. */
  insertRowsForSync(table: TableDef, columns: readonly string[], rows: readonly unknown[][], clocks: readonly string[]): Promise<void>;
  /** Sets the clocks of some fields, older or not (after taking the remote's version of them). */
  setClocks(resource: string, id: string, clocks: Clocks): Promise<void>;
  /** Moves the replica's clock past one it received, so its own later writes win. */
  receiveClock(hlc: string): Promise<void>;
  /** Keeps fields this version does not declare, each when its clock is later than the kept one (unknown-data.ts). */
  keep: KeepFields;
  /** Takes pushed changes out of the outbox. */
  acknowledge(mutationIds: readonly number[]): Promise<void>;
  /** A change the remote refused, with its reason and the remote's version; answers the entry's id. */
  addConflict(mutation: Mutation, error: unknown, serverRecord: Record<string, unknown> | null): Promise<string>;
  queueFiles(direction: FileDirection, attachmentIds: readonly string[]): Promise<void>;
  fileMoved(direction: FileDirection, attachmentId: string): Promise<void>;
  fileFailed(direction: FileDirection, attachmentId: string, error: string): Promise<void>;
  /** Whether this replica's write of a field with clock `hlc` still waits for the remote's word (overruled-edits.ts). */
  stillToConfirm(resource: string, recordId: string, hlc: string): Promise<boolean>;
  /** Notes an offline edit that lost (overruled-edits.ts). */
  noticeOverruled(notice: OverruledNotice): Promise<void>;
  /** Adds a run to the sync history (sync-history.ts). */
  recordRun(run: SyncRunRecord): Promise<void>;
}

/**
 * The replica book of an environment's SQLite file; `inTurn` runs each call in the store's
 * turn (outside a transaction), or checks that the transaction is still open (inside one).
 */
export function sqliteReplicaBook(store: EnvironmentStore, inTurn: <T>(fn: () => T) => Promise<T>): ReplicaBookWrites {
  const book = () => bookOf(store);
  return {
    node: () => inTurn(() => book().clock.node),
    state: <T>(key: string) => inTurn(() => book().getState<T>(key)),
    pendingCount: () => inTurn(() => book().pendingCount()),
    nextPush: (limit) => inTurn(() => book().nextPush(limit)),
    clocksOf: (resource, id) => inTurn(() => book().clocksOf(resource, id)),
    queuedFiles: (direction, limit) => inTurn(() => book().queuedFiles(direction, limit)),
    getForSync: (table, id) => inTurn(() => store.getForSync(table, id)),
    hasRecords: (table) => inTurn(() => store.scanForSync(table, '', 1).length > 0),
    setState: (key, value) => inTurn(() => book().setState(key, value)),
    writeForSync: (table, id, values, clocks) =>
      inTurn(() => store.withOrigin({ kind: 'sync', clocks, checkUnique: false }, () => store.writeForSync(table, id, values))),
    insertManyForSync: (table, records) =>
      inTurn(() => {
        store.insertManyForSync(table, records);
        book().insertClocks(table.resource, records);
      }),
    insertRowsForSync: (table, columns, rows, clocks) =>
      inTurn(() => {
        store.insertRowsForSync(table, columns, rows);
        book().insertClocks(
          table.resource,
          rows.map((row, i) => ({ id: row[0] as string, clocks: clocks[i]! })),
        );
      }),
    setClocks: (resource, id, clocks) => inTurn(() => book().setClocks(resource, id, clocks)),
    receiveClock: (hlc) => inTurn(() => void book().clock.receive(hlc)),
    keep: (resource, id, fields, clockOf, writer) => inTurn(() => void unknownDataOf(store).keep(resource, id, fields, clockOf, writer)),
    acknowledge: (mutationIds) => inTurn(() => book().acknowledge(mutationIds)),
    addConflict: (mutation, error, serverRecord) => inTurn(() => book().addConflict(mutation, error, serverRecord)),
    queueFiles: (direction, ids) => inTurn(() => book().queueFiles(direction, ids)),
    fileMoved: (direction, id) => inTurn(() => book().fileMoved(direction, id)),
    fileFailed: (direction, id, error) => inTurn(() => book().fileFailed(direction, id, error)),
    stillToConfirm: (resource, recordId, hlc) => inTurn(() => overruledEditsOf(store).stillToConfirm(resource, recordId, hlc)),
    noticeOverruled: (notice) => inTurn(() => overruledEditsOf(store).notice(notice)),
    recordRun: (run) => inTurn(() => void syncHistoryOf(store).record(run)),
  };
}
