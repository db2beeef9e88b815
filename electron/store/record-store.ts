/**
 * The asynchronous record store: one interface over the two store engines, SQLite (desktop,
 * browser host, replica, a small remote) and PostgreSQL (the team server), so code above the
 * store does not know which one it runs on (docs/architecture.md "Team server on PostgreSQL",
 * "The asynchronous store boundary").
 *
 * Transactions are explicit: `transaction(fn)` hands `fn` the transaction's own reads and
 * writes, and every write goes through one. Change events go out after the commit, once per
 * transaction, never for one that rolled back. Reads outside a transaction see only what is
 * committed.
 *
 * This file also holds the SQLite engine, an adapter over the synchronous EnvironmentStore:
 * better-sqlite3 has one connection per file, so its transactions and reads take turns. A
 * transaction that awaits something slow makes every other caller wait: inside one, await
 * only its own reads and writes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ResourceSpec, StoredOf, StoredRecord } from '../../shared/fields.js';
import type { ChangeEvent } from '../../shared/ipc.js';
import type { EnvironmentStore, WherePage } from './environment-store.js';
import type { CommandMeta, WrittenChange } from './changes.js';
import type { ListQuery } from './record-sql.js';
import type { TableDef } from './table-def.js';
import { plannedCards, type PlannedCards } from './planned-cards.js';
import { cardLoads, type CardLoadRow } from './card-load.js';
import { filesAsBlobStore, type AttachmentBlobStore } from './attachment-files.js';
import { recentCommands, sqliteCommandBook, type CommandBookReads, type CommandRecord } from './command-book.js';
import { sqliteSyncFeed, type SyncFeed } from './sync-feed.js';
import { sqliteSyncWrites, type SyncWrites } from './sync-writes.js';
import { sqliteDeliveryWork, sqliteDeliveryWrites, type DeliveryQueueWork, type DeliveryQueueWrites } from './webhook-queue.js';
import { passwordHashOf, setPasswordHash } from './user-passwords.js';
import { sqliteFloorBook, type FloorBook } from './floor-book.js';
import { sqliteLocalBooks, type LocalBookReads, type LocalBookWrites } from './local-books.js';
import { sqliteReplicaBook, type ReplicaBookReads, type ReplicaBookWrites } from './replica-book.js';
import { sqliteScenarioBook, type ScenarioBook } from './scenario-book.js';

export interface RecordReads {
  get<S extends ResourceSpec>(table: TableDef<S>, id: string, options?: { includeDeleted?: boolean }): Promise<StoredOf<S> | undefined>;
  list<S extends ResourceSpec>(table: TableDef<S>, query: ListQuery): Promise<{ count: number; rows: StoredOf<S>[] }>;
  /**
   * Live records whose `field` is one of `values`, by id. With `page`, only the first `limit` of
   * them whose id sorts after `after`: a reader that goes through many in parts (docs/API.md
   * "Relations": `with` loads at most a batch of records at a time).
   */
  getWhereIn<S extends ResourceSpec>(
    table: TableDef<S>,
    field: string & keyof StoredOf<S>,
    values: readonly unknown[],
    page?: WherePage,
  ): Promise<StoredOf<S>[]>;
  /**
   * The `fields` of each live record the query matches, in its order, as their values (a
   * boolean as a boolean, JSON decoded): `visit` gets one array per record, resolved when all
   * are visited. For reading many records without an object each (a time report's entries).
   */
  eachValues(table: TableDef, query: ListQuery, fields: readonly string[], visit: (values: unknown[]) => void): Promise<void>;
  /** The largest value of a column among live records matching `match` (null when none). */
  max(table: TableDef, field: string, match: Record<string, unknown>): Promise<unknown>;
  /**
   * The live cards of a board that overlap `start`…`end` (YYYY-MM-DD, inclusive) as capacity
   * reads them, joined in SQL (planned-cards.ts): too many for whole records on every request.
   */
  plannedCards(boardId: string, start: string, end: string): Promise<PlannedCards>;
  /**
   * The live cards of a board that overlap `start`…`end` as finite planning counts them, one
   * row per card (card-load.ts); their assigned resources only with `resources`.
   */
  cardLoads(boardId: string, start: string, end: string, resources: boolean): Promise<CardLoadRow[]>;
}

export interface RecordWrites extends RecordReads {
  /** `id`, `created_at` and `updated_at` are set unless given; a duplicate unique key throws DuplicateError. */
  insert<S extends ResourceSpec>(table: TableDef<S>, values: Partial<StoredOf<S>>): Promise<StoredOf<S>>;
  /** Undefined when there is no live record `id`. */
  update<S extends ResourceSpec>(table: TableDef<S>, id: string, values: Partial<StoredOf<S>>): Promise<StoredOf<S> | undefined>;
  /** False when there is no live record `id`. `at`: when it was deleted (a replica's deletion), now when not given. */
  softDelete(table: TableDef, id: string, at?: string): Promise<boolean>;
  /** Brings a soft-deleted record back from the trash; false when `id` is no deleted record. */
  restore(table: TableDef, id: string): Promise<boolean>;
  /** What a remote's push writes besides records, in this transaction (sync-writes.ts). */
  readonly sync: SyncWrites;
  /** The webhook delivery queue, in this transaction (webhook-queue.ts). */
  readonly deliveries: DeliveryQueueWrites;
  /** Attachment content, written in this transaction on PostgreSQL (the data folder's files on SQLite). */
  readonly files: AttachmentBlobStore;
  /** The command history, read in this transaction (undo, command-book.ts). */
  readonly commands: CommandBookReads;
  /** Sets the digest a user signs in with (user-passwords.ts): its own table, never the record. */
  setPasswordHash(userId: string, hash: string): Promise<void>;
  /** The floor's kiosks and PINs, in this transaction (floor-book.ts): the store's own tables, never a record. */
  readonly floor: FloorBook;
  /** A local SQLite instance's own books, in this transaction (local-books.ts); none on the team server. */
  readonly local?: LocalBookWrites;
  /** A local replica's sync bookkeeping, in this transaction (replica-book.ts); none on the team server. */
  readonly replica?: ReplicaBookWrites;
  /**
   * How many writes this transaction has made to `table` so far (and, counted for every table,
   * each time its `sync` writes were reached). What a caller worked out from the table stays
   * true while the count stays the same: stage-workdays.ts keeps a board's stage weeks for the
   * rest of the transaction that way, rather than reading them again for every card it writes.
   * Writes through the `replica` book (a pull's merge) are not counted: nothing a pull runs
   * reads what it keeps.
   */
  writesTo(table: TableDef): number;
}

export interface TransactionOptions {
  /**
   * The planner's action this transaction is (docs/API.md "Commands and undo"): its row is
   * written with the transaction, and every change-log row of the transaction carries its id
   * and the previous values of what it wrote, so undo finds and inverts it as one step. Its id
   * must be new: one used already throws CommandConflictError and writes nothing.
   */
  command?: CommandMeta;
}

export interface RecordStore extends RecordReads {
  readonly engine: 'sqlite' | 'postgres';
  /** The environment's attachment content: the data folder's files, or the team server's database. */
  readonly files: AttachmentBlobStore;
  /** What a remote's pull endpoints read: the change log, records as sync sees them, their clocks (sync-feed.ts). */
  readonly feed: SyncFeed;
  /** The most recent commands (docs/API.md "Commands and undo"), newest first: in the order they were done. */
  recentCommands(limit: number): Promise<CommandRecord[]>;
  /** The digest a user signs in with, if they have one (user-passwords.ts). */
  passwordHashOf(userId: string): Promise<string | undefined>;
  /** A local SQLite instance's own books (local-books.ts); none on the team server. */
  readonly local?: LocalBookReads;
  /** A local replica's sync bookkeeping (replica-book.ts); none on the team server. */
  readonly replica?: ReplicaBookReads;
  /**
   * The environment's plan scenarios: copies of a data folder's file (scenario-book.ts), or of
   * a team environment's schema (postgres/scenario-book.ts).
   */
  readonly scenarios: ScenarioBook<RecordStore>;
  /** Soft-deleted records of a table, newest deletion first (the trash). */
  listDeleted(table: TableDef, limit: number, offset: number): Promise<{ count: number; rows: (StoredRecord & { deleted_at: string })[] }>;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: RecordWrites) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Called after each commit that changed records, with its changes. */
  onChange(listener: (events: ChangeEvent[]) => void): () => void;
  /**
   * Called after each commit that changed records of the `synced` resources, or data kept for
   * another version (of any resource: it syncs too), made here or, on a team server, by any node
   * on the database (postgres/change-notices.ts): what the live channel announces.
   */
  onSyncedChange(synced: ReadonlySet<string>, listener: () => void): () => void;
}

/**
 * Runs inside a write's transaction after each change, on the transaction's reads and writes,
 * so what it writes (the webhook events' deliveries) commits or rolls back with the change.
 * One is made per transaction, so it may gather across the transaction's writes. PostgreSQL
 * runs it right after each change-log row; SQLite after each write of the transaction, and
 * before a savepoint or the transaction ends (SqliteRecordStore.onTransactionWrite).
 */
export type WriteHook = (change: WrittenChange, tx: RecordWrites) => Promise<void>;

/** Thrown when a transaction's reads or writes are used after it ended. */
export class TransactionEndedError extends Error {
  constructor() {
    super('The transaction has ended: use its reads and writes only inside transaction().');
    this.name = 'TransactionEndedError';
  }
}

/**
 * A command that cannot be written: its id was used already, or (PostgreSQL) the command it
 * undoes was undone already. The API checks both before it writes (docs/API.md "Commands and
 * undo": 409); this is the answer when another writer got there between that check and this
 * write.
 */
export class CommandConflictError extends Error {
  constructor(
    readonly problem: 'id-taken' | 'undone-already',
    readonly commandId: string,
  ) {
    super(
      problem === 'id-taken'
        ? `A command with id ${commandId} was done already.`
        : `The command that command ${commandId} undoes was undone already.`,
    );
    this.name = 'CommandConflictError';
  }
}

/** A transaction's reads and writes, refused once it has ended, its writes counted by table (RecordWrites.writesTo). */
export function guarded(
  writes: Omit<RecordWrites, 'writesTo'> & Partial<Pick<RecordWrites, 'writesTo'>>,
  isOpen: () => boolean,
): RecordWrites {
  const check = () => {
    if (!isOpen()) throw new TransactionEndedError();
  };
  const counts = new Map<string, number>();
  /** Reaching `sync` may write any table: it counts for all. */
  let anyTable = 0;
  const count = (table: TableDef) => counts.set(table.table, (counts.get(table.table) ?? 0) + 1);
  return {
    // An engine that counts its writes itself (PostgreSQL logs every one, its hooks' too) answers; else these counts.
    writesTo: (table) => writes.writesTo?.(table) ?? anyTable + (counts.get(table.table) ?? 0),
    get: async (table, id, options) => (check(), writes.get(table, id, options)),
    list: async (table, query) => (check(), writes.list(table, query)),
    getWhereIn: async (table, field, values, page) => (check(), writes.getWhereIn(table, field, values, page)),
    eachValues: async (table, query, fields, visit) => (check(), writes.eachValues(table, query, fields, visit)),
    max: async (table, field, match) => (check(), writes.max(table, field, match)),
    plannedCards: async (boardId, start, end) => (check(), writes.plannedCards(boardId, start, end)),
    cardLoads: async (boardId, start, end, resources) => (check(), writes.cardLoads(boardId, start, end, resources)),
    insert: async (table, values) => (check(), count(table), writes.insert(table, values)),
    update: async (table, id, values) => (check(), count(table), writes.update(table, id, values)),
    softDelete: async (table, id, at) => (check(), count(table), writes.softDelete(table, id, at)),
    restore: async (table, id) => (check(), count(table), writes.restore(table, id)),
    setPasswordHash: async (userId, hash) => (check(), writes.setPasswordHash(userId, hash)),
    get sync() {
      check();
      anyTable++;
      return writes.sync;
    },
    get deliveries() {
      check();
      return writes.deliveries;
    },
    get commands() {
      check();
      return writes.commands;
    },
    get files() {
      check();
      return writes.files;
    },
    get floor() {
      check();
      return writes.floor;
    },
    // Its books check for themselves: their turn refuses calls once it has ended (SqliteRecordStore.transaction).
    ...(writes.local ? { local: writes.local } : {}),
    ...(writes.replica ? { replica: writes.replica } : {}),
  };
}

/**
 * A transaction's reads as a RecordStore, for code that reads through a request's `records`
 * while the transaction is open (a dry run presents what it planned before it rolls back).
 * It cannot open a transaction of its own or listen for changes.
 */
export function readingThrough(tx: RecordReads, outside: RecordStore): RecordStore {
  return {
    engine: outside.engine,
    files: outside.files,
    feed: outside.feed,
    scenarios: outside.scenarios,
    get: (table, id, options) => tx.get(table, id, options),
    list: (table, query) => tx.list(table, query),
    getWhereIn: (table, field, values, page) => tx.getWhereIn(table, field, values, page),
    eachValues: (table, query, fields, visit) => tx.eachValues(table, query, fields, visit),
    max: (table, field, match) => tx.max(table, field, match),
    plannedCards: (boardId, start, end) => tx.plannedCards(boardId, start, end),
    cardLoads: (boardId, start, end, resources) => tx.cardLoads(boardId, start, end, resources),
    recentCommands: () => Promise.reject(new Error('Inside a transaction, the command history is not read.')),
    listDeleted: () => Promise.reject(new Error('Inside a transaction, the trash is not read.')),
    passwordHashOf: () => Promise.reject(new Error('Inside a transaction, passwords are not read.')),
    transaction: () => Promise.reject(new Error('Inside a transaction, no other transaction can be opened.')),
    onChange: () => {
      throw new Error('Inside a transaction, there are no changes to listen for yet.');
    },
    onSyncedChange: () => {
      throw new Error('Inside a transaction, there are no changes to listen for yet.');
    },
  };
}

/** The command's row, in the open transaction, and its stamping until the release; an id used already is a CommandConflictError. */
function beginCommand(store: EnvironmentStore, command: CommandMeta): () => void {
  try {
    return store.beginCommand(command);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new CommandConflictError('id-taken', command.id);
    throw error;
  }
}

export class SqliteRecordStore implements RecordStore {
  readonly engine = 'sqlite';
  /** Settles when the caller before has finished. */
  #turn: Promise<unknown> = Promise.resolve();
  /** Set inside a transaction: the store itself, called from in there, would wait for its own turn forever. */
  readonly #inside = new AsyncLocalStorage<true>();

  readonly files: AttachmentBlobStore;
  readonly feed: SyncFeed;
  readonly local: LocalBookReads;
  readonly replica: ReplicaBookReads;
  /** The environment whose file this is. */
  readonly environmentId: string;
  /** What the environment's webhook delivery worker reads and records (api/webhooks/dispatcher.ts). */
  readonly deliveryWork: DeliveryQueueWork;
  readonly scenarios: ScenarioBook<RecordStore>;
  /** What makes each transaction's write hooks (onTransactionWrite). */
  readonly #writeHooks = new Set<() => WriteHook>();
  /** The changes of the open transaction not yet given to its hooks; undefined when none is open. */
  #changes: WrittenChange[] | undefined;
  /** Changes written on the file outside any transaction of this store (code still on the synchronous store), for the next one. */
  readonly #outside: WrittenChange[] = [];

  constructor(private readonly store: EnvironmentStore) {
    this.files = filesAsBlobStore(store.files);
    this.feed = sqliteSyncFeed(store, (fn) => this.#inTurn(fn));
    this.local = sqliteLocalBooks(store, (fn) => this.#inTurn(fn));
    this.replica = sqliteReplicaBook(store, (fn) => this.#inTurn(fn));
    this.environmentId = store.environmentId;
    this.deliveryWork = sqliteDeliveryWork(store, (fn) => this.#inTurn(fn));
    this.scenarios = sqliteScenarioBook(store, (fn) => this.#inTurn(fn), {
      recordsOf,
      turnOf: (scenario) => (fn) => recordsOf(scenario).#inTurn(fn),
    });
  }

  /**
   * Adds a write hook, made anew for each transaction (the webhook events, as PostgreSQL's
   * PostgresRecordStore takes one): it sees every change of the transaction, inside it, on its
   * `tx`; a replica's pull too, which merges through the transaction's `replica` book. A change
   * written on the file outside this store's transactions (code still on the synchronous store;
   * none of the API's nor sync's) is given to the hooks in a transaction of its own right
   * after. Returns the removal.
   */
  onTransactionWrite(makeHook: () => WriteHook): () => void {
    if (this.#writeHooks.size === 0) {
      const stop = this.store.onWrite((change) => {
        if (this.#changes) return void this.#changes.push(change);
        this.#outside.push(change);
        // A transaction with no work of its own hands them to the hooks (transaction), in a turn of
        // the event loop of its own: the writer's code, which may go on with the synchronous store
        // in this turn, is never inside it (EnvironmentStore.hold).
        if (this.#outside.length === 1) setImmediate(() => void this.transaction(async () => undefined).catch(() => undefined));
      });
      this.#stopListening = stop;
    }
    this.#writeHooks.add(makeHook);
    return () => {
      this.#writeHooks.delete(makeHook);
      if (this.#writeHooks.size === 0) this.#stopListening();
    };
  }

  #stopListening = () => {};

  #inTurn<T>(fn: () => T | Promise<T>): Promise<T> {
    if (this.#inside.getStore())
      return Promise.reject(new Error('Inside a transaction, read and write through the transaction, not the store.'));
    const run = this.#turn.then(fn);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  get<S extends ResourceSpec>(table: TableDef<S>, id: string, options?: { includeDeleted?: boolean }): Promise<StoredOf<S> | undefined> {
    return this.#inTurn(() => this.store.get(table, id, options));
  }

  list<S extends ResourceSpec>(table: TableDef<S>, query: ListQuery): Promise<{ count: number; rows: StoredOf<S>[] }> {
    return this.#inTurn(() => this.store.list(table, query));
  }

  getWhereIn<S extends ResourceSpec>(
    table: TableDef<S>,
    field: string & keyof StoredOf<S>,
    values: readonly unknown[],
    page?: WherePage,
  ): Promise<StoredOf<S>[]> {
    return this.#inTurn(() => this.store.getWhereIn(table, field, values, page));
  }

  eachValues(table: TableDef, query: ListQuery, fields: readonly string[], visit: (values: unknown[]) => void): Promise<void> {
    return this.#inTurn(() => this.store.eachValues(table, query, fields, visit));
  }

  max(table: TableDef, field: string, match: Record<string, unknown>): Promise<unknown> {
    return this.#inTurn(() => this.store.max(table, field, match));
  }

  plannedCards(boardId: string, start: string, end: string): Promise<PlannedCards> {
    return this.#inTurn(() => plannedCards(this.store, boardId, start, end));
  }

  cardLoads(boardId: string, start: string, end: string, resources: boolean): Promise<CardLoadRow[]> {
    return this.#inTurn(() => cardLoads(this.store, boardId, start, end, resources));
  }

  recentCommands(limit: number): Promise<CommandRecord[]> {
    return this.#inTurn(() => recentCommands(this.store, limit));
  }

  listDeleted(table: TableDef, limit: number, offset: number): Promise<{ count: number; rows: (StoredRecord & { deleted_at: string })[] }> {
    return this.#inTurn(() => this.store.listDeleted(table, limit, offset));
  }

  passwordHashOf(userId: string): Promise<string | undefined> {
    return this.#inTurn(() => passwordHashOf(this.store, userId));
  }

  /**
   * A command (`options.command`) is EnvironmentStore.command's, spread over the awaits of
   * `fn`: its row is written at the start, and every write until the end is stamped with it
   * (beginCommand). The file is this transaction's meanwhile (hold), so those writes are all
   * its own: through `tx`, or through the synchronous store by code that has not moved yet.
   */
  transaction<T>(fn: (tx: RecordWrites) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.#inTurn(async () => {
      const { store } = this;
      const { command } = options;
      const transaction = store.openTransaction();
      let open = true;
      const hooks = [...this.#writeHooks].map((make) => make());
      const changes = (this.#changes = this.#outside.splice(0));
      // The hooks see each change after the write that made it, on this transaction.
      const afterWrites = async () => {
        while (hooks.length > 0 && changes.length > 0) {
          const change = changes.shift()!;
          for (const hook of hooks) await hook(change, tx);
        }
      };
      const written = async <T>(result: T): Promise<T> => {
        await afterWrites();
        return result;
      };
      const sync = sqliteSyncWrites(store);
      // Its books refuse calls once the transaction has ended.
      const ownTurn = async <T>(fn: () => T): Promise<T> => {
        if (!open) throw new TransactionEndedError();
        return fn();
      };
      const replica = sqliteReplicaBook(store, ownTurn);
      const tx: RecordWrites = guarded(
        {
          get: async (table, id, options) => store.get(table, id, options),
          list: async (table, query) => store.list(table, query),
          getWhereIn: async (table, field, values, page) => store.getWhereIn(table, field, values, page),
          eachValues: async (table, query, fields, visit) => store.eachValues(table, query, fields, visit),
          max: async (table, field, match) => store.max(table, field, match),
          plannedCards: async (boardId, start, end) => plannedCards(store, boardId, start, end),
          cardLoads: async (boardId, start, end, resources) => cardLoads(store, boardId, start, end, resources),
          insert: async (table, values) => written(store.insert(table, values)),
          update: async (table, id, values) => written(store.update(table, id, values)),
          softDelete: async (table, id, at) => written(store.softDelete(table, id, at)),
          restore: async (table, id) => {
            if (!store.getForSync(table, id)?.deleted_at) return false;
            store.writeForSync(table, id, { deleted_at: null });
            return written(true);
          },
          setPasswordHash: async (userId, hash) => setPasswordHash(store, userId, hash),
          sync: {
            ...sync,
            writeForSync: async (table, id, values) => written(await sync.writeForSync(table, id, values)),
            // Its changes meet the hooks inside it, and those it rolls back never do.
            savepoint: async (fn) => {
              await afterWrites();
              try {
                return await sync.savepoint(async () => written(await fn()));
              } catch (error) {
                changes.length = 0;
                throw error;
              }
            },
          },
          deliveries: sqliteDeliveryWrites(store),
          commands: sqliteCommandBook(store),
          files: this.files,
          floor: sqliteFloorBook(store),
          local: sqliteLocalBooks(store, ownTurn),
          // A pulled change meets the hooks inside the transaction that writes it.
          replica: {
            ...replica,
            writeForSync: async (table, id, values, clocks) => written(await replica.writeForSync(table, id, values, clocks)),
          },
        },
        () => open,
      );
      let release = () => {};
      let endCommand = () => {};
      try {
        if (command) endCommand = beginCommand(store, command);
        // Until it ends, the file is this transaction's: the synchronous store refuses anyone else (EnvironmentStore.hold).
        release = store.hold(() => this.#inside.getStore() === true);
        const result = await this.#inside.run(true, async () => written(await fn(tx)));
        open = false;
        this.#changes = undefined;
        release();
        endCommand();
        transaction.end(true);
        return result;
      } catch (error) {
        open = false;
        this.#changes = undefined;
        release();
        endCommand();
        transaction.end(false);
        throw error;
      }
    });
  }

  onChange(listener: (events: ChangeEvent[]) => void): () => void {
    return this.store.onChange(listener);
  }

  onSyncedChange(synced: ReadonlySet<string>, listener: () => void): () => void {
    return this.store.onChange((events) => {
      if (events.some((e) => synced.has(e.resource) || e.kept)) listener();
    });
  }
}

/**
 * The asynchronous store of an environment's SQLite file. One per file: its calls take turns
 * with each other (the queue above), so two adapters of one file would not.
 */
export function recordsOf(store: EnvironmentStore): SqliteRecordStore {
  let records = adapters.get(store);
  if (!records) adapters.set(store, (records = new SqliteRecordStore(store)));
  return records;
}

const adapters = new WeakMap<EnvironmentStore, SqliteRecordStore>();
