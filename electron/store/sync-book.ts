/**
 * The sync bookkeeping of one environment database. Installed as a write hook, it runs inside
 * every write's transaction, so a change, its field clocks and its outbox entry commit
 * together or not at all (docs/API.md "Sync"):
 *
 *  - a `local`-origin write gets a fresh hybrid clock on each field it writes; on a local
 *    replica it also becomes a mutation in the outbox;
 *  - a `sync`-origin write (another replica's change being applied) records that replica's
 *    clocks and is never queued again.
 */
import { createHash } from 'node:crypto';
import { own } from '../../shared/fields.js';
import { HybridClock, zeroHlc } from '../../shared/hlc.js';
import { nowTimestamp, uuidv7 } from '../../shared/ids.js';
import type { Conflict, ConflictItem, Mutation } from '../../shared/operations/sync.js';
import type { DataDir } from './data-dir.js';
import type { SqliteDatabase, SqliteStatement } from './database.js';
import type { EnvironmentStore } from './environment-store.js';
import type { LoggedChange } from './changes.js';
import type { TableDef } from './table-def.js';
import { quoteIdentifier } from './filter-sql.js';
import { fixedTextStatements, type StatementCache } from './statement-cache.js';
import { compactClocksFrom } from '../../shared/sync.js';

export type ReplicaRole = 'local' | 'remote';

const books = new WeakMap<EnvironmentStore, SyncBook>();

/**
 * Gives every environment store of a data folder its sync bookkeeping when it opens: a local
 * replica keeps an outbox, a remote does not. `synced` names the resources that sync.
 */
export function installSyncBooks(dataDir: DataDir, role: ReplicaRole, synced: ReadonlySet<string>): void {
  dataDir.onOpen((store) => {
    if (!books.has(store)) books.set(store, new SyncBook(store, role, synced));
  });
}

/**
 * Gives a scenario's store (scenario-book.ts) the bookkeeping of a remote, made from its live
 * environment's: its writes get field clocks in its own file, and no outbox, so nothing written
 * in a scenario is ever pushed (docs/decisions/scenarios.md).
 */
export function installScenarioBook(scenario: EnvironmentStore, live: EnvironmentStore): void {
  if (!books.has(scenario)) books.set(scenario, new SyncBook(scenario, 'remote', bookOf(live).synced));
}

export function bookOf(store: EnvironmentStore): SyncBook {
  const book = books.get(store);
  if (!book) throw new Error('sync bookkeeping is not installed on this store');
  return book;
}

/**
 * Makes a restored database a new replica in the remote's eyes: forgets its node id, so the
 * next open picks a fresh one. Outbox ids restart from the backup's sequence, and under the
 * old node id the remote would take them for mutations it has already applied and drop them.
 * Runs on a closed database file before it is opened as a store.
 */
export function forgetReplicaNode(db: SqliteDatabase): void {
  const hasState = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_state'").get();
  if (hasState) db.prepare("DELETE FROM sync_state WHERE key IN ('node_id', 'push_client_id')").run();
}

/**
 * What the remote keeps of each mutation of a replica's last push: its content hash and
 * outcome, so the same batch sent again is answered as before and nothing else is.
 */
export interface BatchEntry {
  hash: string;
  status: 'applied' | 'rejected';
  error?: unknown;
}

export interface ReplicaMark {
  /** The credential that registered the replica id (null for rows from before owners). */
  owner: string | null;
  /** The highest mutation id applied or refused on its merits. */
  last: number;
  /** The last push's mutations by id. */
  batch: Record<string, BatchEntry>;
}

/** JSON with object keys sorted at every level: the same value always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A mutation's content hash, the same on the replica that sends it and the remote that reads
 * it: a resent mutation is recognised by its content, not by its id alone.
 */
export function mutationHash(mutation: Mutation): string {
  const { mutation_id, resource, id, op, fields, hlc } = mutation;
  return createHash('sha256')
    .update(canonicalJson({ mutation_id, resource, id: id.toLowerCase(), op, fields: fields ?? null, hlc }))
    .digest('base64url');
}

export type Clocks = Record<string, string>;

/** Attachment content to `send` to the remote, or to `fetch` from it. */
export type FileDirection = 'send' | 'fetch';

export interface QueuedFile {
  attachment_id: string;
  attempts: number;
  last_error: string | null;
}

interface ConflictRow {
  id: string;
  mutation_id: number;
  resource: string;
  record_id: string;
  op: Mutation['op'];
  fields: string | null;
  hlc: string;
  error: string;
  server_record: string | null;
  created_at: string;
  resolved_at: string | null;
  resolution: string | null;
  group_id: string | null;
  group_description: string | null;
}

interface OutboxRow {
  mutation_id: number;
  resource: string;
  record_id: string;
  op: Mutation['op'];
  fields: string | null;
  hlc: string;
  group_id: string | null;
  group_description: string | null;
}

/** The outbox with each row's action description (the command's), when it has one. */
const outboxRows = 'SELECT o.*, c.description AS group_description FROM sync_outbox o LEFT JOIN command c ON c.id = o.group_id';

function mutationOf(r: OutboxRow): Mutation {
  const mutation: Mutation = {
    mutation_id: r.mutation_id,
    resource: r.resource,
    id: r.record_id,
    op: r.op,
    fields: r.fields ? JSON.parse(r.fields) : null,
    hlc: r.hlc,
  };
  if (r.group_id) {
    mutation.group_id = r.group_id;
    if (r.group_description) mutation.group_description = r.group_description;
  }
  return mutation;
}

export class SyncBook {
  readonly clock: HybridClock;

  constructor(
    private readonly store: EnvironmentStore,
    readonly role: ReplicaRole,
    readonly synced: ReadonlySet<string>,
  ) {
    this.statements = fixedTextStatements(store.db);
    this.clock = new HybridClock(this.nodeId());
    store.onWrite((change) => this.record(change));
  }

  /** The same few statements run on every write: prepare each once (fixed texts; bounded anyway). */
  readonly statements: StatementCache;

  private sql(text: string): SqliteStatement {
    return this.statements.get(text);
  }

  /** A short random id naming this replica in its clocks; kept for the database's life. */
  private nodeId(): string {
    const existing = this.getState<string>('node_id');
    if (existing) return existing;
    const id = uuidv7().replace(/-/g, '').slice(-12);
    this.setState('node_id', id);
    return id;
  }

  getState<T>(key: string): T | undefined {
    const row = this.sql('SELECT value FROM sync_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  setState(key: string, value: unknown): void {
    if (value === undefined) this.sql('DELETE FROM sync_state WHERE key = ?').run(key);
    else
      this.sql('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
        key,
        JSON.stringify(value),
      );
  }

  // ------------------------------------------------------------------ clocks

  clocksOf(resource: string, id: string): Clocks {
    const row = this.sql('SELECT clocks FROM sync_clock WHERE resource = ? AND record_id = ?').get(resource, id) as
      { clocks: string } | undefined;
    return row ? (JSON.parse(row.clocks) as Clocks) : {};
  }

  /** Clocks of many records of one resource in one query per 500. */
  clocksOfMany(resource: string, ids: readonly string[]): Map<string, Clocks> {
    const out = new Map<string, Clocks>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      // Whole chunks (every snapshot page but its last) use one kept statement; the rest their own.
      const sql = `SELECT record_id, clocks FROM sync_clock WHERE resource = ? AND record_id IN (${chunk.map(() => '?').join(',')})`;
      const rows = (chunk.length === 500 ? this.sql(sql) : this.store.db.prepare(sql)).all(resource, ...chunk) as {
        record_id: string;
        clocks: string;
      }[];
      for (const row of rows) out.set(row.record_id, JSON.parse(row.clocks) as Clocks);
    }
    return out;
  }

  /**
   * A snapshot page of one table in rows (docs/API.md "Sync", "Snapshot in rows"): its records
   * after `afterId` in id order, each the JSON array of the values of `fields` followed by its
   * clocks; `fields` are the id, deleted_at and every field but the `hidden` ones. SQLite joins
   * each record to its clocks and writes the page's JSON itself: a page is thousands of records,
   * and made into objects and back into text they cost the remote more than all else it does for
   * the page. Values are as the fields hold them (booleans as true/false, JSON parsed); a field
   * without a column is null. With `compact` (a replica of sync protocol 4 or later), a record's
   * clocks go as `[clock, clocks with 0 for that clock]` (docs/decisions/compact-field-clocks.md). Returns the JSON array text, how many records it
   * has and the last id.
   */
  snapshotRows(
    table: TableDef,
    hidden: readonly string[],
    afterId: string,
    limit: number,
    compact = false,
  ): { fields: string[]; count: number; last: string | null; rows: string } {
    let order = this.columnsOf.get(table.table);
    if (!order)
      this.columnsOf.set(
        table.table,
        (order = this.store.db
          .prepare(`SELECT * FROM ${quoteIdentifier(table.table)} LIMIT 0`)
          .columns()
          .map((c) => c.name)),
      );
    const columns = new Set(order);
    // In the order of the columns, as scanForSync gives a record's fields; then those without one.
    const shown = (name: string) =>
      name !== 'id' && name !== 'deleted_at' && own(table.fields, name) !== undefined && !hidden.includes(name);
    const fields = [
      'id',
      'deleted_at',
      ...order.filter(shown),
      ...Object.keys(table.fields).filter((name) => shown(name) && !columns.has(name)),
    ];
    // Each row's JSON is written out as text: JSON functions would parse and write it again.
    const values = fields.map((name) => {
      if (!columns.has(name)) return "'null'";
      const column = `t.${quoteIdentifier(name)}`;
      const type = table.fields[name]?.type;
      if (type === 'boolean') return `CASE WHEN ${column} IS NULL THEN 'null' WHEN ${column} THEN 'true' ELSE 'false' END`;
      // Stored as JSON text (toRow in environment-store.ts).
      if (type === 'json') return `coalesce(${column}, 'null')`;
      return `json_quote(${column})`;
    });
    // Clocks are stored as JSON text too (JSON.stringify); hidden fields' are taken out.
    const clocks =
      hidden.length === 0
        ? 'c.clocks'
        : `json_remove(c.clocks${hidden.map((name) => `, '$.${name.replace(/[^a-z0-9_]/g, '')}'`).join('')})`;
    const page =
      `SELECT t."id" AS id, ${values.join(" || ',' || ")} AS v, t."deleted_at" AS d, coalesce(${clocks}, '{}') AS k ` +
      `FROM ${quoteIdentifier(table.table)} t LEFT JOIN sync_clock c ON c.resource = ? AND c.record_id = t."id" ` +
      'WHERE t."id" > ? ORDER BY t."id" LIMIT ?';
    // With `compact`: [h, the clocks with 0 for h], h the clock of `shared`, which the fields a
    // record was written with share (docs/decisions/compact-field-clocks.md). Only values are
    // replaced: a clock in quotes is no key (keys are snake case).
    const shared = compact ? compactClocksFrom(fields) : undefined;
    const cell = shared ? `CASE WHEN h IS NULL THEN k ELSE '[' || json_quote(h) || ',' || replace(k, json_quote(h), '0') || ']' END` : 'k';
    const sql =
      `SELECT count(*) AS n, max(id) AS last, '[' || coalesce(group_concat(r, ','), '') || ']' AS rows FROM (` +
      `SELECT id, '[' || v || ',' || ${cell} || ']' AS r FROM (` +
      `SELECT id, v, k, ${shared ? `k ->> '$.${shared}'` : 'NULL'} AS h FROM (${page})))`;
    const row = this.sql(sql).get(table.resource, afterId, limit) as { n: number; last: string | null; rows: string };
    return { fields, count: row.n, last: row.last, rows: row.rows };
  }

  /** The columns of each record table (snapshotRows): the schema does not change while it is open. */
  private readonly columnsOf = new Map<string, string[]>();

  /** Sets the clocks of some fields, older or not (after taking the remote's version of them). */
  setClocks(resource: string, id: string, clocks: Clocks): void {
    const merged = { ...this.clocksOf(resource, id), ...clocks };
    this.sql(
      'INSERT INTO sync_clock (resource, record_id, clocks) VALUES (?, ?, ?) ON CONFLICT(resource, record_id) DO UPDATE SET clocks = excluded.clocks',
    ).run(resource, id, JSON.stringify(merged));
  }

  /** Clocks of records that have none yet, as they are: a replica's first snapshot, loaded in bulk (electron/sync/bulk-load.ts). */
  insertClocks(resource: string, records: readonly { id: string; clocks: Clocks | string }[]): void {
    // Clocks given as text are JSON already (a snapshot in rows: bulk-load.ts).
    const text = (clocks: Clocks | string) => (typeof clocks === 'string' ? clocks : JSON.stringify(clocks));
    // 300 rows to a statement (900 parameters): far fewer calls into SQLite than one each.
    const perStatement = 300;
    const many = this.sql(
      `INSERT INTO sync_clock (resource, record_id, clocks) VALUES ${Array.from({ length: perStatement }, () => '(?, ?, ?)').join(', ')}`,
    );
    const single = this.sql('INSERT INTO sync_clock (resource, record_id, clocks) VALUES (?, ?, ?)');
    this.store.transaction(() => {
      let i = 0;
      const params: unknown[] = [];
      for (; i + perStatement <= records.length; i += perStatement) {
        params.length = 0;
        for (let r = i; r < i + perStatement; r++) params.push(resource, records[r]!.id, text(records[r]!.clocks));
        many.run(params);
      }
      for (; i < records.length; i++) single.run(resource, records[i]!.id, text(records[i]!.clocks));
    });
  }

  private mergeClocks(resource: string, id: string, clocks: Clocks): void {
    const merged = { ...this.clocksOf(resource, id) };
    for (const [field, hlc] of Object.entries(clocks)) if (hlc > (merged[field] ?? zeroHlc)) merged[field] = hlc;
    this.sql(
      'INSERT INTO sync_clock (resource, record_id, clocks) VALUES (?, ?, ?) ON CONFLICT(resource, record_id) DO UPDATE SET clocks = excluded.clocks',
    ).run(resource, id, JSON.stringify(merged));
  }

  private record(change: LoggedChange): void {
    if (!this.synced.has(change.resource)) return;
    const fields = Object.keys(change.fields ?? {}).filter((f) => f !== 'id');
    if (change.origin.kind === 'sync') {
      const clocks: Clocks = {};
      for (const field of fields) if (change.origin.clocks[field]) clocks[field] = change.origin.clocks[field]!;
      this.mergeClocks(change.resource, change.id, clocks);
      return;
    }
    const hlc = this.clock.now();
    this.mergeClocks(change.resource, change.id, Object.fromEntries(fields.map((f) => [f, hlc])));
    if (this.role === 'local') {
      // The command's id makes the write's group: the remote applies an action all or nothing.
      this.sql('INSERT INTO sync_outbox (resource, record_id, op, fields, hlc, created_at, group_id) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
        change.resource,
        change.id,
        change.op,
        change.fields ? JSON.stringify(change.fields) : null,
        hlc,
        nowTimestamp(),
        change.commandId ?? null,
      );
    }
  }

  // ------------------------------------------------------------------ outbox (local replica)

  pending(limit: number): Mutation[] {
    return (this.sql(`${outboxRows} ORDER BY o.mutation_id LIMIT ?`).all(limit) as OutboxRow[]).map(mutationOf);
  }

  /**
   * The next push: up to `limit` mutations, never a group cut in two (the remote applies a
   * group all or nothing, within one push). The push ends before a group that would not fit;
   * a group larger than `limit` on its own goes whole, alone (docs/API.md "Sync").
   */
  nextPush(limit: number): Mutation[] {
    const rows = this.pending(limit);
    const last = rows[rows.length - 1];
    if (rows.length < limit || !last?.group_id) return rows;
    // A command's writes are one transaction, so its rows follow each other in the outbox.
    const cut = this.sql('SELECT 1 FROM sync_outbox WHERE mutation_id > ? AND group_id = ? LIMIT 1').get(last.mutation_id, last.group_id);
    if (!cut) return rows;
    if (rows[0]!.group_id === last.group_id) {
      return (
        this.sql(`${outboxRows} WHERE o.group_id = ? AND o.mutation_id >= ? ORDER BY o.mutation_id`).all(
          last.group_id,
          rows[0]!.mutation_id,
        ) as OutboxRow[]
      ).map(mutationOf);
    }
    return rows.filter((m) => m.group_id !== last.group_id);
  }

  pendingCount(): number {
    return (this.sql('SELECT count(*) AS n FROM sync_outbox').get() as { n: number }).n;
  }

  /** Removes acknowledged mutations (applied or refused) up to and including `mutationId`. */
  acknowledge(mutationIds: readonly number[]): void {
    const remove = this.sql('DELETE FROM sync_outbox WHERE mutation_id = ?');
    this.store.transaction(() => {
      for (const id of mutationIds) remove.run(id);
    });
  }

  // ------------------------------------------------------------------ attachment content (local replica)

  /** Lists attachments whose content is to be sent or fetched; one already listed stays as it is. */
  queueFiles(direction: FileDirection, attachmentIds: readonly string[]): void {
    const insert = this.sql('INSERT OR IGNORE INTO sync_file (direction, attachment_id, queued_at) VALUES (?, ?, ?)');
    const now = nowTimestamp();
    this.store.transaction(() => {
      for (const id of attachmentIds) insert.run(direction, id, now);
    });
  }

  /** The next files to move, those that failed least often first, so one that keeps failing does not hold up the rest. */
  queuedFiles(direction: FileDirection, limit: number): QueuedFile[] {
    return this.sql(
      'SELECT attachment_id, attempts, last_error FROM sync_file WHERE direction = ? ORDER BY attempts, queued_at, attachment_id LIMIT ?',
    ).all(direction, limit) as QueuedFile[];
  }

  fileMoved(direction: FileDirection, attachmentId: string): void {
    this.sql('DELETE FROM sync_file WHERE direction = ? AND attachment_id = ?').run(direction, attachmentId);
  }

  fileFailed(direction: FileDirection, attachmentId: string, error: string): void {
    this.sql('UPDATE sync_file SET attempts = attempts + 1, last_error = ? WHERE direction = ? AND attachment_id = ?').run(
      error,
      direction,
      attachmentId,
    );
  }

  queuedFileCount(direction: FileDirection): number {
    return (this.sql('SELECT count(*) AS n FROM sync_file WHERE direction = ?').get(direction) as { n: number }).n;
  }

  // ------------------------------------------------------------------ conflicts (local replica)

  /**
   * Keeps a refused mutation with its data. Each mutation of a refused action gets its own
   * row (nothing is dropped), marked with the action's group: the list shows the action once.
   */
  addConflict(mutation: Mutation, error: unknown, serverRecord: Record<string, unknown> | null): string {
    const id = uuidv7();
    this.sql(
      `INSERT INTO sync_conflict (id, mutation_id, resource, record_id, op, fields, hlc, error, server_record, created_at, group_id, group_description)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      mutation.mutation_id,
      mutation.resource,
      mutation.id,
      mutation.op,
      mutation.fields ? JSON.stringify(mutation.fields) : null,
      mutation.hlc,
      JSON.stringify(error),
      serverRecord ? JSON.stringify(serverRecord) : null,
      nowTimestamp(),
      mutation.group_id ?? null,
      mutation.group_description ?? null,
    );
    return id;
  }

  private itemOf(row: ConflictRow): ConflictItem {
    return {
      mutation: {
        mutation_id: row.mutation_id,
        resource: row.resource,
        id: row.record_id,
        op: row.op,
        fields: row.fields ? JSON.parse(row.fields) : null,
        hlc: row.hlc,
      },
      error: JSON.parse(row.error),
      server_record: row.server_record ? JSON.parse(row.server_record) : null,
    };
  }

  /** A conflict entry: one refused mutation, or a refused action shown by its first mutation's row. */
  private conflictOf(row: ConflictRow): Conflict {
    const conflict: Conflict = {
      id: row.id,
      ...this.itemOf(row),
      created_at: row.created_at,
      resolved_at: row.resolved_at,
      resolution: row.resolution,
    };
    if (row.group_id) {
      const rows = this.sql('SELECT * FROM sync_conflict WHERE group_id = ? ORDER BY mutation_id').all(row.group_id) as ConflictRow[];
      conflict.group = { id: row.group_id, description: row.group_description, items: rows.map((r) => this.itemOf(r)) };
    }
    return conflict;
  }

  /** Rows that start an entry: ungrouped rows, and the first row of each refused action. */
  private static readonly entryRows = `(group_id IS NULL OR NOT EXISTS (SELECT 1 FROM sync_conflict g WHERE g.group_id = sync_conflict.group_id AND g.mutation_id < sync_conflict.mutation_id))`;

  conflicts(options: { open: boolean; limit: number; offset: number }): { count: number; data: Conflict[] } {
    const where = `WHERE ${SyncBook.entryRows}${options.open ? ' AND resolved_at IS NULL' : ''}`;
    const count = (this.sql(`SELECT count(*) AS n FROM sync_conflict ${where}`).get() as { n: number }).n;
    const rows = this.sql(`SELECT * FROM sync_conflict ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`).all(
      options.limit,
      options.offset,
    ) as ConflictRow[];
    return { count, data: rows.map((r) => this.conflictOf(r)) };
  }

  /** The entry a conflict id belongs to: any mutation's id of a refused action names the whole action. */
  conflict(id: string): Conflict | undefined {
    const row = this.sql('SELECT * FROM sync_conflict WHERE id = ?').get(id) as ConflictRow | undefined;
    if (!row?.group_id) return row ? this.conflictOf(row) : undefined;
    return this.conflictOf(
      this.sql('SELECT * FROM sync_conflict WHERE group_id = ? ORDER BY mutation_id LIMIT 1').get(row.group_id) as ConflictRow,
    );
  }

  /** Resolves a conflict entry: every mutation of a refused action at once. */
  resolveConflict(id: string, resolution: 'retried' | 'discarded'): void {
    this.sql(
      'UPDATE sync_conflict SET resolved_at = ?, resolution = ? WHERE id = ? OR group_id = (SELECT group_id FROM sync_conflict WHERE id = ?)',
    ).run(nowTimestamp(), resolution, id, id);
  }

  openConflictCount(): number {
    return (this.sql(`SELECT count(*) AS n FROM sync_conflict WHERE ${SyncBook.entryRows} AND resolved_at IS NULL`).get() as { n: number })
      .n;
  }

  // ------------------------------------------------------------------ remote side

  /** A replica's push bookkeeping on this remote, or undefined before its first push. */
  replicaMark(clientId: string): ReplicaMark | undefined {
    const row = this.sql('SELECT owner, last_mutation_id, last_batch FROM sync_client WHERE client_id = ?').get(clientId) as
      { owner: string | null; last_mutation_id: number; last_batch: string | null } | undefined;
    if (!row) return undefined;
    return {
      owner: row.owner,
      last: row.last_mutation_id,
      batch: row.last_batch ? (JSON.parse(row.last_batch) as Record<string, BatchEntry>) : {},
    };
  }

  setReplicaMark(clientId: string, mark: ReplicaMark): void {
    this.sql(
      `INSERT INTO sync_client (client_id, owner, last_mutation_id, last_batch, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(client_id) DO UPDATE SET owner = excluded.owner, last_mutation_id = excluded.last_mutation_id,
           last_batch = excluded.last_batch, updated_at = excluded.updated_at`,
    ).run(clientId, mark.owner, mark.last, JSON.stringify(mark.batch), nowTimestamp());
  }

  /**
   * Records changed after `since`, each once at its latest change, in commit order, and the
   * cursor to continue from (the last change number this page covered).
   */
  changesSince(since: number, limit: number): { rows: { seq: number; resource: string; id: string }[]; cursor: number } {
    const rows = this.sql(
      `SELECT resource, record_id AS id, max(seq) AS seq FROM change_log WHERE seq > ?
         GROUP BY resource, record_id ORDER BY seq LIMIT ?`,
    ).all(since, limit) as { seq: number; resource: string; id: string }[];
    const cursor = rows.length < limit ? this.latestSeq() : rows[rows.length - 1]!.seq;
    return { rows: rows.filter((r) => this.synced.has(r.resource)), cursor: Math.max(cursor, since) };
  }

  /** The newest change number (0 when there is none). */
  latestSeq(): number {
    return (this.sql('SELECT coalesce(max(seq), 0) AS n FROM change_log').get() as { n: number }).n;
  }

  /** Change numbers before this one are gone: a cursor older than it must resync. */
  oldestKeptSeq(): number {
    const state = this.getState<number>('compacted_through') ?? 0;
    return state + 1;
  }

  /** Forgets all but the newest `keep` change-log entries (the remote's retention). */
  compact(keep: number): void {
    const latest = this.latestSeq();
    const through = latest - keep;
    if (through <= (this.getState<number>('compacted_through') ?? 0)) return;
    this.store.transaction(() => {
      this.sql('DELETE FROM change_log WHERE seq <= ?').run(through);
      this.setState('compacted_through', through);
    });
  }
}
