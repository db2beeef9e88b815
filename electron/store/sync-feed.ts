/**
 * What a remote's pull endpoints read (docs/API.md "Sync", "Pull cursors"; docs/architecture.md
 * "Team server on PostgreSQL"): the change log behind a cursor, records as sync sees them
 * (deleted ones too), their field clocks and the data kept for other app versions. One
 * interface with two engines, so `/v1/sync/changes` and `/v1/sync/snapshot` are written once:
 * this file's, over the SQLite store's SyncBook and UnknownData, and postgres/sync-feed.ts.
 *
 * Cursors are the engine's: a change number on SQLite (one writer numbers its changes in commit
 * order), text on PostgreSQL, where the cursor is the pair (transaction, position) that never
 * skips a commit of a concurrent transaction (postgres/change-log.ts). A replica keeps either
 * as it came and sends it back; it only compares one announced by the live channel with its own
 * (shared/sync.ts, `cursorIsAfter`).
 */
import type { StoredRecord } from '../../shared/fields.js';
import type { SyncCursor } from '../../shared/sync.js';
import type { EnvironmentStore } from './environment-store.js';
import type { TableDef } from './table-def.js';
import { bookOf, type Clocks } from './sync-book.js';
import { unknownDataOf, type KeptFieldInfo, type KeptFields, type KeptRecordSummary } from './unknown-data.js';

export type { SyncCursor };

/** A record as sync reads it: every field, `deleted_at` too, deleted or not. */
export type SyncRecordRow = StoredRecord & { deleted_at: string | null };

/** A record in a page of changes, with the cursor of its latest change. */
export interface ChangedRecord {
  resource: string;
  id: string;
  seq: SyncCursor;
}

export interface SyncFeed {
  /** The cursor a replica sent back (`since`, a snapshot's), if this engine could have given it out. */
  readCursor(text: string): SyncCursor | undefined;
  /** Where the change log ends now: a pull from here misses nothing committed later. */
  latest(): Promise<SyncCursor>;
  /** Whether changes after `since` have been forgotten (the remote's retention): the replica downloads everything again. */
  expired(since: SyncCursor): Promise<boolean>;
  /**
   * Records changed after `since`, each once at its latest change, in commit order, of every
   * resource (the caller picks those it sends), and the cursor this page reaches. `declared`:
   * the resources this version declares; records of others are kept data (unknown-data.ts).
   */
  changedSince(
    since: SyncCursor,
    limit: number,
    declared: ReadonlySet<string>,
  ): Promise<{ records: ChangedRecord[]; cursor: SyncCursor; more: boolean }>;
  /** Records of a table by id, deleted ones too. */
  recordsForSync(table: TableDef, ids: readonly string[]): Promise<Map<string, SyncRecordRow>>;
  clocksOfMany(resource: string, ids: readonly string[]): Promise<Map<string, Clocks>>;
  /** A page of every record of a table, deleted ones too, in id order. */
  scanForSync(table: TableDef, afterId: string, limit: number): Promise<SyncRecordRow[]>;
  /**
   * A snapshot page as rows, put together as JSON text by the database (docs/API.md "Snapshot
   * in rows"); undefined on an engine that has no such query, whose pages go as records. With
   * `compact`, a record's clocks that are one clock for every field go as that clock
   * (docs/decisions/compact-field-clocks.md).
   */
  snapshotRows?(
    table: TableDef,
    hidden: readonly string[],
    afterId: string,
    limit: number,
    compact?: boolean,
  ): Promise<{ fields: string[]; count: number; last: string | null; rows: string }>;
  /** Whether any data of other versions is kept (most environments keep none). */
  keepsData(): Promise<boolean>;
  keptFieldsOfMany(resource: string, ids: readonly string[]): Promise<Map<string, KeptFields>>;
  /** Kept records of resources not in `declared`, in (resource, id) order after `after`. */
  keptRecordsPage(
    declared: ReadonlySet<string>,
    after: readonly [string, string] | null,
    limit: number,
  ): Promise<{ resource: string; id: string; fields: KeptFields }[]>;
  /** A page of the records with kept data, for an admin (docs/API.md "Kept data"); `resource` narrows it. */
  keptList(resource: string | undefined, limit: number, offset: number): Promise<{ count: number; records: KeptRecordSummary[] }>;
  /** One record's kept fields with their values, sizes, clocks and writers. */
  keptRecord(resource: string, id: string): Promise<Record<string, KeptFieldInfo>>;
  /** The bytes kept in the environment in all. */
  keptBytes(): Promise<number>;
  /** Forgets all but the newest `keep` changes (a remote's retention); an engine may keep more. */
  compact(keep: number): Promise<void>;
}

/**
 * The feed of a SQLite remote. `inTurn` runs a read in the record store's turn
 * (SqliteRecordStore): never in the middle of an asynchronous transaction.
 */
export function sqliteSyncFeed(store: EnvironmentStore, inTurn: <T>(fn: () => T) => Promise<T>): SyncFeed {
  const book = () => bookOf(store);
  const unknown = () => unknownDataOf(store);
  return {
    readCursor(text) {
      const seq = Number(text);
      // A cursor past 2^53 - 1 is no cursor this remote gave out, and would come back as 1e+30.
      return /^\d+$/.test(text) && Number.isSafeInteger(seq) ? seq : undefined;
    },
    latest: () => inTurn(() => book().latestSeq()),
    expired: (since) => inTurn(() => Number(since) < book().oldestKeptSeq() - 1),
    changedSince: (since, limit, declared) =>
      inTurn(() => {
        const from = Number(since);
        const { rows, cursor } = book().changesSince(from, limit);
        // Records of resources this version does not declare are not in the sync book's
        // rows; their changes join the page in commit order (unknown-data.ts).
        const kept = unknown().isEmpty() ? [] : unknown().recordsChanged(declared, from, cursor);
        const records = kept.length === 0 ? rows : [...rows, ...kept].sort((a, b) => a.seq - b.seq);
        return { records, cursor, more: cursor < book().latestSeq() };
      }),
    recordsForSync: (table, ids) =>
      inTurn(() => {
        const out = new Map<string, SyncRecordRow>();
        for (const id of ids) {
          const record = store.getForSync(table, id);
          if (record) out.set(id, record);
        }
        return out;
      }),
    clocksOfMany: (resource, ids) => inTurn(() => book().clocksOfMany(resource, ids)),
    scanForSync: (table, afterId, limit) => inTurn(() => store.scanForSync(table, afterId, limit)),
    snapshotRows: (table, hidden, afterId, limit, compact) => inTurn(() => book().snapshotRows(table, hidden, afterId, limit, compact)),
    keepsData: () => inTurn(() => !unknown().isEmpty()),
    keptFieldsOfMany: (resource, ids) => inTurn(() => unknown().fieldsOfMany(resource, ids)),
    keptRecordsPage: (declared, after, limit) => inTurn(() => unknown().recordsPage(declared, after, limit)),
    keptList: (resource, limit, offset) => inTurn(() => unknown().list(resource, limit, offset)),
    keptRecord: (resource, id) => inTurn(() => unknown().record(resource, id)),
    keptBytes: () => inTurn(() => unknown().bytes()),
    compact: (keep) => inTurn(() => book().compact(keep)),
  };
}
