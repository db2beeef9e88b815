/**
 * One environment's database. Records of every resource go through the same generic
 * operations here; the few narrow reads and books beside it (sync-book.ts, planned-cards.ts,
 * webhook-queue.ts) live in this folder too, so no SQL is written above the store layer.
 * Each write appends its change-log row in the same transaction, and change events are
 * emitted only after the transaction commits, so a listener never sees a change that was
 * rolled back.
 */
import { own, type FieldSpec, type ResourceSpec, type StoredOf, type StoredRecord } from '../../shared/fields.js';
import { nowTimestamp, uuidv7 } from '../../shared/ids.js';
import type { ChangeEvent } from '../../shared/ipc.js';
import { dirname, join } from 'node:path';
import { AttachmentFiles } from './attachment-files.js';
import { openDatabase, type SqliteDatabase, type SqliteStatement } from './database.js';
import { quoteIdentifier, sqliteDialect, type SqlFragment } from './filter-sql.js';
import { listSelection, listWhere, valuesSelection, type ListQuery } from './record-sql.js';
import { environmentMigrations } from './migrations/environment/index.js';
import { DuplicateError, QueryError } from './query-error.js';
import { StatementCache } from './statement-cache.js';
import type { CommandMeta, LoggedChange, WriteHook, WriteOrigin } from './changes.js';
import type { TableDef } from './table-def.js';

/**
 * A part of a `getWhereIn`: at most `limit` records, in id order, those whose id sorts after
 * `after` when given (a reader that goes through many records in parts).
 */
export interface WherePage {
  limit: number;
  after?: string;
}

type ChangeListener = (events: ChangeEvent[]) => void;

function toRow(table: TableDef, values: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = own(table.fields, name);
    if (!field && name !== 'deleted_at') continue;
    row[name] = sqliteDialect.toColumn(field, value);
  }
  return row;
}

/** A column's value as the field holds it: booleans from 0/1, JSON parsed, null for none. */
function fromColumn(field: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (field.type === 'boolean') return value === 1;
  // toRow writes a json field as JSON.stringify text.
  if (field.type === 'json') return JSON.parse(value as string);
  return value;
}

/** Each table's fields as a list, made once: a page of 1,000 cards decodes 30,000 columns. */
const fieldLists = new WeakMap<TableDef, [string, FieldSpec][]>();

function fieldListOf(table: TableDef): [string, FieldSpec][] {
  let list = fieldLists.get(table);
  if (!list) {
    list = Object.entries(table.fields);
    fieldLists.set(table, list);
  }
  return list;
}

function fromRow<S extends ResourceSpec>(table: TableDef<S>, row: Record<string, unknown>): StoredOf<S> {
  const record: Record<string, unknown> = {};
  const fields = fieldListOf(table);
  for (let i = 0; i < fields.length; i++) {
    const [name, field] = fields[i]!;
    record[name] = fromColumn(field, row[name]);
  }
  // Every column of the declaration S, decoded as declared (a json one as its check keeps it).
  return record as StoredOf<S>;
}

/** The values `current` had for the fields of `written` (null for none), as the change log keeps them. */
function previousValues(current: Record<string, unknown>, written: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(written).map((name) => [name, current[name] ?? null]));
}

/** The store was used from outside the asynchronous transaction that holds it (EnvironmentStore.hold). */
export class HeldStoreError extends Error {
  constructor() {
    super(
      'An asynchronous transaction is open on this store and this call is not part of it: inside such a transaction, await only its own reads and writes.',
    );
    this.name = 'HeldStoreError';
  }
}

export class EnvironmentStore {
  private readonly listeners = new Set<ChangeListener>();
  private readonly writeHooks = new Set<WriteHook>();
  private readonly statements = new StatementCache((sql) => this.db.prepare<unknown[], unknown>(sql));
  private pendingEvents: ChangeEvent[] = [];
  private depth = 0;
  private origin: WriteOrigin = { kind: 'local' };
  private currentCommand: CommandMeta | undefined;
  /** Set while an asynchronous transaction holds this file (hold): whether the caller is its code. */
  private holder: (() => boolean) | undefined;

  constructor(
    readonly db: SqliteDatabase,
    readonly environmentId: string,
    /** Uploaded attachment content of this environment. */
    readonly files: AttachmentFiles,
  ) {}

  static open(file: string, environmentId: string): EnvironmentStore {
    const files = new AttachmentFiles(join(dirname(file), 'attachments', environmentId));
    return new EnvironmentStore(openDatabase(file, environmentMigrations), environmentId, files);
  }

  close(): void {
    for (const closing of this.closers.splice(0)) closing();
    this.statements.clear();
    this.db.close();
  }

  /** What else closes with this store: the scenarios opened beside it (scenario-book.ts). */
  private readonly closers: (() => void)[] = [];

  /** Runs `fn` when this store closes, before its file does. */
  onClose(fn: () => void): void {
    this.closers.push(fn);
  }

  /**
   * While an asynchronous transaction of the adapter (record-store.ts) is open, this file
   * belongs to that transaction's code, which `isHolder` recognises. Every other caller of the
   * store's SQL is refused (HeldStoreError) instead of reading the transaction's uncommitted
   * writes or writing into it: that can only happen when the transaction awaits something other
   * than its own reads and writes (docs/architecture.md "The asynchronous store boundary").
   * Returns the release. The narrow books that reach `db` themselves are not checked.
   */
  hold(isHolder: () => boolean): () => void {
    this.holder = isHolder;
    return () => {
      if (this.holder === isHolder) this.holder = undefined;
    };
  }

  private checkHolder(): void {
    if (this.holder && !this.holder()) throw new HeldStoreError();
  }

  /** Adds a hook that runs inside every write's transaction (see WriteHook). */
  onWrite(hook: WriteHook): () => void {
    this.writeHooks.add(hook);
    return () => this.writeHooks.delete(hook);
  }

  /** Runs `fn` with its writes marked as coming from `origin` (see WriteOrigin). */
  withOrigin<T>(origin: WriteOrigin, fn: () => T): T {
    const previous = this.origin;
    this.origin = origin;
    try {
      return this.transaction(fn);
    } finally {
      this.origin = previous;
    }
  }

  /**
   * For a transaction of the asynchronous store, which spans awaits (record-store.ts): marks
   * every write from now until the returned release as coming from `origin`, as withOrigin
   * does for a synchronous `fn`. That transaction holds the file meanwhile.
   */
  beginOrigin(origin: WriteOrigin): () => void {
    const previous = this.origin;
    this.origin = origin;
    return () => {
      this.origin = previous;
    };
  }

  /**
   * A savepoint inside the open transaction of the asynchronous store (openTransaction): `end`
   * keeps its writes, or rolls them back with their change events. Savepoints nest.
   */
  openSavepoint(): { end(keep: boolean): void } {
    if (!this.db.inTransaction) throw new Error('A savepoint needs an open transaction.');
    const name = `async_${++this.savepoints}`;
    this.db.exec(`SAVEPOINT ${name}`);
    const mark = this.pendingEvents.length;
    let open = true;
    return {
      end: (keep) => {
        if (!open) return;
        open = false;
        if (!keep) {
          this.db.exec(`ROLLBACK TO ${name}`);
          this.pendingEvents.length = mark;
        }
        this.db.exec(`RELEASE ${name}`);
      },
    };
  }

  /** Savepoints opened so far (openSavepoint): each gets a name of its own. */
  private savepoints = 0;

  /**
   * Runs `fn` as one command: one transaction, its writes' change-log rows stamped with the
   * command's id (and, like every write, their previous values), so undo can find and invert
   * them as one step. A command inside a command is part of the outer one.
   */
  command<T>(meta: CommandMeta, fn: () => T): T {
    if (this.currentCommand) return this.transaction(fn);
    this.currentCommand = meta;
    try {
      return this.transaction(() => {
        this.writeCommandRow(meta);
        return fn();
      });
    } finally {
      this.currentCommand = undefined;
    }
  }

  /**
   * For a transaction of the asynchronous store (record-store.ts), which spans awaits: writes
   * the command's row in the open transaction, and stamps every write from now until the
   * returned release as the command `meta`. That transaction holds the file meanwhile (hold),
   * so every write in between is its own, whether it goes through the transaction's writes or,
   * in code still moving onto the asynchronous store, straight to this store.
   */
  beginCommand(meta: CommandMeta): () => void {
    if (this.currentCommand) throw new Error('A command is running on this store already.');
    this.writeCommandRow(meta);
    this.currentCommand = meta;
    return () => {
      if (this.currentCommand === meta) this.currentCommand = undefined;
    };
  }

  private writeCommandRow(meta: CommandMeta): void {
    this.statement('INSERT INTO command (id, description, undoes, actor, created_at) VALUES (?, ?, ?, ?, ?)').run(
      meta.id,
      meta.description,
      meta.undoes ?? null,
      meta.actor ?? null,
      nowTimestamp(),
    );
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `fn` in one transaction (nested calls become savepoints). Change events are sent
   * after the outermost commit; events of a part that threw are dropped with it.
   */
  transaction<T>(fn: () => T): T {
    this.checkHolder();
    const mark = this.pendingEvents.length;
    this.depth++;
    try {
      const result = this.db.transaction(fn)();
      if (this.depth === 1 && this.pendingEvents.length > 0) {
        const events = this.pendingEvents;
        this.pendingEvents = [];
        for (const listener of this.listeners) listener(events);
      }
      return result;
    } catch (error) {
      this.pendingEvents.length = mark;
      throw error;
    } finally {
      this.depth--;
    }
  }

  /**
   * Opens a transaction that stays open until `end` is called, for the asynchronous record
   * store (record-store.ts), whose transactions span awaits. That store runs one at a time and
   * nothing else on this store meanwhile. Writes inside it are part of it (their own
   * transactions become savepoints); change events go out when it commits, and are dropped
   * when it rolls back.
   */
  openTransaction(): { end(commit: boolean): void } {
    if (this.depth > 0 || this.db.inTransaction) throw new Error('A transaction is open on this store already.');
    this.db.exec('BEGIN');
    this.depth++;
    let open = true;
    const rollBack = () => {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.pendingEvents = [];
    };
    return {
      end: (commit) => {
        if (!open) return;
        open = false;
        this.depth--;
        if (!commit) return rollBack();
        try {
          this.db.exec('COMMIT');
        } catch (error) {
          rollBack();
          throw error;
        }
        const events = this.pendingEvents;
        this.pendingEvents = [];
        if (events.length > 0) for (const listener of this.listeners) listener(events);
      },
    };
  }

  /** How many prepared statements are kept now (bounded: see statement-cache.ts). */
  get cachedStatements(): number {
    return this.statements.size;
  }

  /** A prepared statement, cached; `raw` ones give each row as an array of its values. */
  private statement<Row = unknown>(sql: string, options: { raw?: boolean } = {}): SqliteStatement<Row> {
    this.checkHolder();
    const statement = options.raw ? this.statements.get(sql, `raw:${sql}`, (made) => made.raw(true)) : this.statements.get(sql);
    // The shape of the rows of this store's own SQL text, named by the caller (StatementCache.rows).
    return statement as SqliteStatement<Row>;
  }

  // ------------------------------------------------------------------------- reads

  list<S extends ResourceSpec>(table: TableDef<S>, query: ListQuery): { count: number; rows: StoredOf<S>[] } {
    const { from, order, params } = this.selection(table, query);
    const count = this.statement<{ n: number }>(`SELECT count(*) AS n ${from}`).get(...params)!.n;
    if (query.limit === 0 || query.offset >= count) return { count, rows: [] };
    const rows = this.statement<Record<string, unknown>>(`SELECT t.* ${from} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
      ...params,
      query.limit,
      query.offset,
    );
    return { count, rows: rows.map((row) => fromRow(table, row)) };
  }

  /**
   * Calls `visit` with each record of the page `list` would give, as the values of `fields` in
   * that order, without counting the matches first: for reads of many records of which a few
   * fields are used. A time report reads up to 200,000 entries; as whole records (every column
   * decoded, an object each, all held at once) they would cost it more than everything it
   * computes from them. The database is busy until this returns: `visit` may not use it.
   */
  eachValues(table: TableDef, query: ListQuery, fields: readonly string[], visit: (values: unknown[]) => void): void {
    const { sql, params, columns } = valuesSelection(table, query, fields, sqliteDialect);
    // Text and numbers come out of SQLite as the fields hold them; only the others are decoded.
    const decoded = columns.flatMap((field, i) => (field.type === 'boolean' || field.type === 'json' ? [i] : []));
    for (const values of this.statement<unknown[]>(sql, { raw: true }).iterate(...params)) {
      for (const i of decoded) values[i] = fromColumn(columns[i]!, values[i]);
      visit(values);
    }
  }

  /** The FROM … WHERE and ORDER BY of a list query, and the WHERE's parameters. */
  private selection(table: TableDef, query: ListQuery): { from: string; order: string; params: unknown[] } {
    return listSelection(table, query, sqliteDialect);
  }

  private whereClause(table: TableDef, query: ListQuery): SqlFragment {
    return listWhere(table, query, sqliteDialect);
  }

  get<S extends ResourceSpec>(table: TableDef<S>, id: string, options: { includeDeleted?: boolean } = {}): StoredOf<S> | undefined {
    const sql = `SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" = ?${options.includeDeleted ? '' : ' AND "deleted_at" IS NULL'}`;
    const row = this.statement<Record<string, unknown>>(sql).get(id);
    return row ? fromRow(table, row) : undefined;
  }

  /** The largest value of a column among live records matching `match` (null when none). */
  max(table: TableDef, field: string, match: Record<string, unknown>): unknown {
    if (!own(table.fields, field)) throw new QueryError(`Unknown field: ${field}`);
    const where = this.whereClause(table, { match, limit: 0, offset: 0 });
    const row = this.statement<{ m: unknown }>(
      `SELECT max(t.${quoteIdentifier(field)}) AS m FROM ${quoteIdentifier(table.table)} t WHERE ${where.sql}`,
    ).get(...where.params)!;
    return row.m ?? null;
  }

  /** Live records whose `field` is one of `values`: one query for a whole page (eager loading). */
  getWhereIn<S extends ResourceSpec>(
    table: TableDef<S>,
    field: string & keyof StoredOf<S>,
    values: readonly unknown[],
    page?: WherePage,
  ): StoredOf<S>[] {
    if (values.length === 0) return [];
    if (!own(table.fields, field)) throw new QueryError(`Unknown field: ${field}`);
    const unique = [...new Set(values)];
    const rows: StoredOf<S>[] = [];
    const after = page?.after === undefined ? '' : ' AND "id" > ?';
    const limit = page ? ' LIMIT ?' : '';
    // SQLite limits bound parameters; 500 per query keeps well inside it.
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const sql = `SELECT * FROM ${quoteIdentifier(table.table)} WHERE ${quoteIdentifier(field)} IN (${chunk.map(() => '?').join(',')}) AND "deleted_at" IS NULL${after} ORDER BY "id"${limit}`;
      const params = [...chunk, ...(page?.after === undefined ? [] : [page.after]), ...(page ? [page.limit] : [])];
      for (const row of this.statement<Record<string, unknown>>(sql).all(...params)) {
        rows.push(fromRow(table, row));
      }
    }
    // A page over several queries: each gave its first `limit`, so the first `limit` of them all are the page's.
    return page && unique.length > 500 ? rows.sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, page.limit) : rows;
  }

  // ------------------------------------------------------------------------- writes

  private checkUnique(table: TableDef, values: Record<string, unknown>, id: string | null): void {
    if (this.origin.kind === 'sync' && !this.origin.checkUnique) return;
    for (const key of table.unique) {
      const keyValues = key.map((column) => values[column]);
      if (keyValues.some((v) => v === null || v === undefined)) continue;
      // Soft-deleted and archived records still count, as in the public API.
      const sql = `SELECT 1 FROM ${quoteIdentifier(table.table)} WHERE ${key.map((c) => `${quoteIdentifier(c)} = ?`).join(' AND ')} AND "id" IS NOT ? LIMIT 1`;
      if (this.statement(sql).get(...keyValues, id)) throw new DuplicateError(key[0]!);
    }
  }

  /** `before`: the previous values of the fields written (null for a new record), for undo. */
  private logChange(
    table: TableDef,
    id: string,
    op: ChangeEvent['op'],
    fields: Record<string, unknown> | null,
    before: Record<string, unknown> | null = null,
  ) {
    const at = nowTimestamp();
    const commandId = this.currentCommand?.id;
    const result = this.statement(
      'INSERT INTO change_log (resource, record_id, op, fields, at, command_id, before) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(table.resource, id, op, fields ? JSON.stringify(fields) : null, at, commandId ?? null, before ? JSON.stringify(before) : null);
    const change: LoggedChange = {
      origin: this.origin,
      seq: Number(result.lastInsertRowid),
      resource: table.resource,
      id,
      op,
      fields,
      at,
      ...(commandId ? { commandId } : {}),
    };
    for (const hook of this.writeHooks) hook(change);
    this.pendingEvents.push({ resource: table.resource, id, op });
  }

  /**
   * Logs a change to data kept beside the tables (fields and records of other app versions,
   * unknown-data.ts): its change-log row, so the sync change feed carries the record again, and
   * its change event after the commit (marked `kept`), so listeners (the live channel) hear of
   * it, whether or not this version declares the resource. The row names no values: the feed
   * reads them from where they are kept, and a kept value an admin deletes is gone for good, not
   * left in the log. No write hook runs: the data has its clocks already and is never queued.
   * Call it inside a transaction.
   */
  logKeptChange(resource: string, id: string, op: ChangeEvent['op']): void {
    this.statement('INSERT INTO change_log (resource, record_id, op, fields, at) VALUES (?, ?, ?, NULL, ?)').run(
      resource,
      id,
      op,
      nowTimestamp(),
    );
    this.pendingEvents.push({ resource, id, op, kept: true });
  }

  /** Inserts a record; `id`, `created_at` and `updated_at` are set here unless given. */
  insert<S extends ResourceSpec>(table: TableDef<S>, values: Partial<StoredOf<S>>): StoredOf<S> {
    return this.transaction(() => {
      const now = nowTimestamp();
      const id = values.id ?? uuidv7();
      // Every stored resource has these two; the broad record reads them for any table.
      const given: Partial<StoredRecord> = values;
      const record: Record<string, unknown> = { ...values, id, created_at: given.created_at ?? now, updated_at: given.updated_at ?? now };
      this.checkUnique(table, record, null);
      const row = toRow(table, record);
      const columns = Object.keys(row);
      this.statement(
        `INSERT INTO ${quoteIdentifier(table.table)} (${columns.map(quoteIdentifier).join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
      ).run(row);
      this.logChange(table, id, 'create', record);
      return this.get(table, id)!;
    });
  }

  /** Changes the given fields of a live record; returns undefined when there is none. */
  update<S extends ResourceSpec>(table: TableDef<S>, id: string, values: Partial<StoredOf<S>>): StoredOf<S> | undefined {
    return this.transaction(() => {
      const current = this.get(table, id);
      if (!current) return undefined;
      const changes: Record<string, unknown> = { ...values, updated_at: nowTimestamp() };
      delete changes.id;
      delete changes.created_at;
      this.checkUnique(table, { ...current, ...changes }, id);
      const row = toRow(table, changes);
      const columns = Object.keys(row);
      this.statement(
        `UPDATE ${quoteIdentifier(table.table)} SET ${columns.map((c) => `${quoteIdentifier(c)} = @${c}`).join(', ')} WHERE "id" = @id`,
      ).run({ ...row, id });
      this.logChange(table, id, 'update', changes, previousValues(current, changes));
      return this.get(table, id)!;
    });
  }

  /**
   * A record as sync sees it: every column, `deleted_at` too, deleted or not.
   */
  getForSync<S extends ResourceSpec>(table: TableDef<S>, id: string): (StoredOf<S> & { deleted_at: string | null }) | undefined {
    const row = this.statement<Record<string, unknown>>(`SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" = ?`).get(id);
    // deleted_at is a datetime column of every table, or null.
    return row ? { ...fromRow(table, row), deleted_at: (row.deleted_at as string | null) ?? null } : undefined;
  }

  /** Soft-deleted records of a table, newest deletion first (the trash). */
  listDeleted(table: TableDef, limit: number, offset: number): { count: number; rows: (StoredRecord & { deleted_at: string })[] } {
    const from = `FROM ${quoteIdentifier(table.table)} WHERE "deleted_at" IS NOT NULL`;
    const count = this.statement<{ n: number }>(`SELECT count(*) AS n ${from}`).get()!.n;
    const rows = this.statement<Record<string, unknown>>(`SELECT * ${from} ORDER BY "deleted_at" DESC, "id" LIMIT ? OFFSET ?`).all(
      limit,
      offset,
    );
    // The WHERE above keeps deleted rows only: deleted_at holds their datetime.
    return { count, rows: rows.map((row) => ({ ...fromRow(table, row), deleted_at: row.deleted_at as string })) };
  }

  /** A page of every record of a table, deleted ones included, in id order (snapshots). */
  scanForSync(table: TableDef, afterId: string, limit: number): (StoredRecord & { deleted_at: string | null })[] {
    // Rows as arrays, each made into one object (a snapshot page is thousands of them), with
    // what fromRow gives: every field, decoded, and null for one without a column.
    const statement = this.statement<unknown[]>(`SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" > ? ORDER BY "id" LIMIT ?`, {
      raw: true,
    });
    const names = statement.columns().map((c) => c.name);
    const decoders = names.map((name) => own(table.fields, name));
    const deleted = names.indexOf('deleted_at');
    const absent = Object.keys(table.fields).filter((name) => !names.includes(name));
    return statement.all(afterId, limit).map((row) => {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) if (decoders[i]) record[names[i]!] = fromColumn(decoders[i]!, row[i]);
      for (const name of absent) record[name] = null;
      record.deleted_at = (deleted === -1 ? null : row[deleted]) ?? null;
      // Every field of the table, decoded as fromRow does, and the id column among them.
      return record as StoredRecord & { deleted_at: string | null };
    });
  }

  /**
   * Writes fields of a record whatever its state: creates it, changes it, deletes it (setting
   * `deleted_at`) or restores it (clearing it). Sync applies other replicas' changes with it;
   * the change is logged like any other.
   */
  writeForSync(table: TableDef, id: string, values: Record<string, unknown>): void {
    this.transaction(() => {
      const existing = this.getForSync(table, id);
      const row = toRow(table, values);
      if ('deleted_at' in values) row.deleted_at = values.deleted_at ?? null;
      if (!existing) {
        const record: Record<string, unknown> = {
          ...row,
          id,
          created_at: row.created_at ?? nowTimestamp(),
          updated_at: row.updated_at ?? nowTimestamp(),
        };
        this.checkUnique(table, values, null);
        const columns = Object.keys(record);
        this.statement(
          `INSERT INTO ${quoteIdentifier(table.table)} (${columns.map(quoteIdentifier).join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
        ).run(record);
        this.logChange(table, id, record.deleted_at ? 'delete' : 'create', values);
        return;
      }
      const columns = Object.keys(row).filter((c) => c !== 'id');
      if (columns.length === 0) return;
      this.checkUnique(table, { ...existing, ...values }, id);
      this.statement(
        `UPDATE ${quoteIdentifier(table.table)} SET ${columns.map((c) => `${quoteIdentifier(c)} = @${c}`).join(', ')} WHERE "id" = @id`,
      ).run({ ...row, id });
      const deleting = !existing.deleted_at && typeof values.deleted_at === 'string';
      this.logChange(table, id, deleting ? 'delete' : 'update', values, previousValues(existing, values));
    });
  }

  /**
   * Inserts records this store does not have, in one transaction: a replica's first snapshot,
   * loaded in bulk (electron/sync/bulk-load.ts). The values are as `writeForSync` takes them and
   * the rows are what it would write for a new record, but the write hooks do not run: the
   * caller writes the field clocks (SyncBook.insertClocks). No change-log row is written: the
   * records are the remote's, which this replica neither pushes nor serves, and nothing reads a
   * first snapshot's rows (docs/decisions/first-snapshot-unlogged.md). Change events go out after
   * commit as for any write. A record already here fails the whole call.
   */
  insertManyForSync(table: TableDef, records: readonly { id: string; values: Record<string, unknown> }[]): void {
    this.transaction(() => {
      const now = nowTimestamp();
      // Records of a snapshot mostly have the same fields: their rows go in together.
      const byColumns = new Map<string, { columns: string[]; rows: unknown[][] }>();
      for (const { id, values } of records) {
        const row = toRow(table, values);
        if ('deleted_at' in values) row.deleted_at = values.deleted_at ?? null;
        row.id = id;
        row.created_at ??= now;
        row.updated_at ??= now;
        const columns = Object.keys(row);
        const key = columns.join(',');
        let group = byColumns.get(key);
        if (!group) byColumns.set(key, (group = { columns, rows: [] }));
        group.rows.push(Object.values(row));
        this.pendingEvents.push({ resource: table.resource, id, op: row.deleted_at ? 'delete' : 'create' });
      }
      for (const { columns, rows } of byColumns.values()) this.insertRows(table.table, columns, rows);
    });
  }

  /**
   * Inserts records this store does not have, given as rows of the values of `columns` as they
   * are stored (booleans 0/1, JSON as text; `id` first): a replica's first snapshot in rows
   * (electron/sync/bulk-load.ts). As insertManyForSync: no write hooks, no change-log rows,
   * change events after commit, and a record already here fails the whole call.
   */
  insertRowsForSync(table: TableDef, columns: readonly string[], rows: readonly unknown[][]): void {
    if (columns[0] !== 'id') throw new Error('insertRowsForSync takes the id first');
    const deleted = columns.indexOf('deleted_at');
    this.transaction(() => {
      this.insertRows(table.table, columns, rows);
      for (const row of rows)
        this.pendingEvents.push({
          resource: table.resource,
          id: row[0] as string,
          op: deleted !== -1 && row[deleted] ? 'delete' : 'create',
        });
    });
  }

  /**
   * Inserts rows of the same columns, as many to a statement as about 1,000 parameters allow:
   * far fewer calls into SQLite than a statement each. The rest go one by one, so only two
   * statement texts are ever made per table and set of columns.
   */
  private insertRows(into: string, columns: readonly string[], rows: readonly unknown[][]): void {
    const perStatement = Math.max(1, Math.floor(990 / columns.length));
    const head = `INSERT INTO ${quoteIdentifier(into)} (${columns.map(quoteIdentifier).join(', ')}) VALUES `;
    const one = `(${columns.map(() => '?').join(', ')})`;
    let i = 0;
    if (rows.length >= perStatement) {
      const many = this.statement(head + Array.from({ length: perStatement }, () => one).join(', '));
      const params: unknown[] = [];
      for (; i + perStatement <= rows.length; i += perStatement) {
        params.length = 0;
        for (let r = i; r < i + perStatement; r++) for (const value of rows[r]!) params.push(value);
        many.run(params);
      }
    }
    if (i < rows.length) {
      const single = this.statement(head + one);
      for (; i < rows.length; i++) single.run(rows[i]);
    }
  }

  /** Soft-deletes a live record, so the delete can sync and the record be restored. */
  softDelete(table: TableDef, id: string, at?: string): boolean {
    return this.transaction(() => {
      const now = at ?? nowTimestamp();
      const result = this.statement(
        `UPDATE ${quoteIdentifier(table.table)} SET "deleted_at" = ?, "updated_at" = ? WHERE "id" = ? AND "deleted_at" IS NULL`,
      ).run(now, now, id);
      if (result.changes === 0) return false;
      // A live record had no deleted_at; its updated_at is not restored by an undo (it changes anyway).
      this.logChange(table, id, 'delete', { deleted_at: now, updated_at: now }, { deleted_at: null });
      return true;
    });
  }
}
