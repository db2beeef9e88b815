/**
 * What a remote's push writes besides records (docs/API.md "Sync"; docs/architecture.md "Push",
 * "Team server on PostgreSQL"): inside the push's transaction, the records as sync sees them,
 * their field clocks, the replica's mark, the data kept for other versions, and savepoints for
 * a mutation or a group that lands whole or not at all. One interface with two engines, so the
 * push is written once (api/sync/push.ts): this file's over the SQLite store, and the one in
 * postgres/record-store.ts, where the mark is locked until the transaction ends, so a push
 * resent to another node meanwhile waits and is answered from the mark.
 */
import type { Clocks, ReplicaMark } from './sync-book.js';
import { bookOf } from './sync-book.js';
import type { EnvironmentStore } from './environment-store.js';
import type { TableDef } from './table-def.js';
import type { SyncRecordRow } from './sync-feed.js';
import { unknownDataOf } from './unknown-data.js';

/** Keeps a record's fields this version does not declare (unknown-data.ts); the writer is `key:<id>` or `user:<id>`, or null. */
export type KeepFields = (
  resource: string,
  id: string,
  fields: Readonly<Record<string, unknown>>,
  clockOf: (field: string) => string,
  writer: string | null,
) => Promise<void>;

export interface SyncWrites {
  /** A record as sync sees it, deleted or not. */
  /** `lock`: on PostgreSQL, held to the end of the transaction, so nobody writes it meanwhile (a SQLite transaction holds the whole file). */
  getForSync(table: TableDef, id: string, options?: { lock?: boolean }): Promise<SyncRecordRow | undefined>;
  clocksOf(resource: string, id: string): Promise<Clocks>;
  /**
   * Runs `fn` with its writes as a replica's change: each field written gets that replica's
   * clock from `clocks`, not a fresh one, and is never queued again. Uniqueness is still checked.
   */
  asReplica<T>(clocks: Clocks, fn: () => Promise<T>): Promise<T>;
  /** Writes fields of a record whatever its state: creates, changes, deletes (`deleted_at`) or restores it. */
  writeForSync(table: TableDef, id: string, values: Record<string, unknown>): Promise<void>;
  /** Runs `fn` all or nothing inside the transaction: its writes roll back when it throws. */
  savepoint<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * A replica's mark (undefined before its first push), held until the transaction ends: a
   * second push of the same replica waits for this one and reads the mark it leaves.
   */
  replicaMark(replicaId: string): Promise<ReplicaMark | undefined>;
  setReplicaMark(replicaId: string, mark: ReplicaMark): Promise<void>;
  /**
   * Keeps fields this version does not declare, each when its clock is later than the kept one,
   * with who wrote them (`key:<id>`, `user:<id>`; unknown-data.ts).
   */
  keep: KeepFields;
  /** The names of a record's kept fields. */
  keptFieldNames(resource: string, id: string): Promise<string[]>;
  /** The bytes kept in the environment in all (each field's name and JSON value). */
  keptBytes(): Promise<number>;
  /** Deletes a record's kept fields (`fields`, or all); answers how many there were. */
  forgetKept(resource: string, id: string, fields?: readonly string[]): Promise<number>;
  /** Moves this remote's clock past a replica's, so its own later writes win over what it received. */
  receiveClock(hlc: string): void;
}

/**
 * The SQLite store's, inside the asynchronous transaction that holds the file
 * (SqliteRecordStore.transaction): every call is the synchronous store's, answered at once.
 * One writer, so the mark needs no lock.
 */
export function sqliteSyncWrites(store: EnvironmentStore): SyncWrites {
  const book = () => bookOf(store);
  return {
    getForSync: async (table, id) => store.getForSync(table, id),
    clocksOf: async (resource, id) => book().clocksOf(resource, id),
    async asReplica(clocks, fn) {
      const end = store.beginOrigin({ kind: 'sync', clocks, checkUnique: true });
      try {
        return await fn();
      } finally {
        end();
      }
    },
    writeForSync: async (table, id, values) => store.writeForSync(table, id, values),
    async savepoint(fn) {
      const savepoint = store.openSavepoint();
      try {
        const result = await fn();
        savepoint.end(true);
        return result;
      } catch (error) {
        savepoint.end(false);
        throw error;
      }
    },
    replicaMark: async (replicaId) => book().replicaMark(replicaId),
    setReplicaMark: async (replicaId, mark) => book().setReplicaMark(replicaId, mark),
    keep: async (resource, id, fields, clockOf, writer) => void unknownDataOf(store).keep(resource, id, fields, clockOf, writer),
    keptFieldNames: async (resource, id) => unknownDataOf(store).fieldNames(resource, id),
    keptBytes: async () => unknownDataOf(store).bytes(),
    forgetKept: async (resource, id, fields) => unknownDataOf(store).forgetRecord(resource, id, fields),
    receiveClock: (hlc) => book().clock.receive(hlc),
  };
}
