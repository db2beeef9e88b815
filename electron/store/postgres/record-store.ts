/**
 * The record store on PostgreSQL (record-store.ts has the interface and the SQLite engine;
 * docs/architecture.md "Team server on PostgreSQL").
 *
 * Every call runs inside `withEnvironment`, as the environment's role in its own schema. A
 * read outside a transaction is a transaction of its own on any free connection of the pool,
 * so it sees only what is committed. Queries are the SQLite store's (record-sql.ts) with
 * PostgreSQL's `SqlDialect`; each write appends its change to the environment's change log
 * (change-log.ts) in the same transaction.
 *
 * Uniqueness: checked before the write, with the same DuplicateError as SQLite; two nodes
 * writing the same key at once are caught by the unique index (migration 2), whose error
 * becomes the same DuplicateError.
 */
import { floorBook, type FloorBook } from '../floor-book.js';
import { own, type ResourceSpec, type StoredOf, type StoredRecord } from '../../../shared/fields.js';
import { nowTimestamp, uuidv7 } from '../../../shared/ids.js';
import type { ChangeEvent } from '../../../shared/ipc.js';
import type { WherePage } from '../environment-store.js';
import type { TableDef } from '../table-def.js';
import { quoteIdentifier, type SqlDialect } from '../filter-sql.js';
import { DuplicateError, QueryError } from '../query-error.js';
import { listSelection, listWhere, valuesSelection, type ListQuery } from '../record-sql.js';
import { guarded, type RecordStore, type RecordWrites, type TransactionOptions, type WriteHook } from '../record-store.js';
import {
  plannedCardsSql,
  withResourceTypes,
  type PlannedActivityRow,
  type PlannedCards,
  type PlannedResourceRow,
} from '../planned-cards.js';
import { cardLoadsSql, type CardLoadRow } from '../card-load.js';
import type { AttachmentBlobStore } from '../attachment-files.js';
import { PostgresAttachmentContent } from './attachment-content.js';
import { appendChange } from './change-log.js';
import { fromColumn, fromRow, syncRowOf } from './record-rows.js';
import { notifyChange, type ChangeNotices } from './change-notices.js';
import type { SyncFeed } from '../sync-feed.js';
import { postgresSyncFeed } from './sync-feed.js';
import { clocksOf, clocksOfWrite, type ClockedWrite } from './field-clocks.js';
import { bytes as keptBytes, fieldNames as keptFieldNames, forgetRecord as forgetKept, keep } from './kept-data.js';
import { replicaMark } from './push-marks.js';
import type { SyncWrites } from '../sync-writes.js';
import type { DeliveryQueueWrites } from '../webhook-queue.js';
import { WebhookQueueWrites } from './webhook-queue.js';
import type { HybridClock } from '../../../shared/hlc.js';
import { postgresCommandBook, recentCommands, recordCommand, type CommandRecord } from './command-book.js';
import type { CommandBookReads } from '../command-book.js';
import { withEnvironment } from './environment-schemas.js';
import type { ScenarioBook } from '../scenario-book.js';
import { postgresScenarioBook } from './scenario-book.js';
import { bigintsAsNumbers, isTransactionConflict, type PostgresClient, type PostgresPool } from './postgres-database.js';

/** How many times a transaction is run when PostgreSQL keeps stopping it for another's sake. */
const attemptsOnConflict = 3;

/**
 * PostgreSQL: ILIKE ignores case in every script; booleans are booleans, JSON is its text. A
 * text match on a column that holds no text (`own_backlog:starts_with:…`, `priority:contains:1`)
 * compares its text, as SQLite's LIKE does, rather than fail the query: a boolean reads `true`
 * or `false` there, where SQLite stores 1 and 0.
 */
export const postgresDialect: SqlDialect = {
  like: (column) => `CAST(${column} AS text) ILIKE ? ESCAPE '\\'`,
  jsonListHas: (column) => `EXISTS (SELECT 1 FROM jsonb_array_elements((${column})::jsonb) j WHERE j #>> '{}' = ? OR j ->> 'id' = ?)`,
  toColumn: (field, value) => {
    if (value === null || value === undefined) return null;
    if (field?.type === 'boolean') return Boolean(value);
    if (field?.type === 'json') return JSON.stringify(value);
    return value;
  },
  // PostgreSQL counts NULL as larger than any value unless told: a descending list would start with the missing ones.
  order: (direction) => (direction === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'),
};

/** `?` placeholders numbered as PostgreSQL wants them: the shared SQL has no other `?`. */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** The declared fields of `values` as their columns store them, and `deleted_at`. */
function toRow(table: TableDef, values: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = own(table.fields, name);
    if (field || name === 'deleted_at') row[name] = postgresDialect.toColumn(field, value);
  }
  return row;
}

const uniqueViolation = '23505';

/** The values the written fields had (null where none), as the SQLite store logs them for undo. */
function previousValues(current: Record<string, unknown>, written: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(written).map((name) => [name, current[name] ?? null]));
}

/**
 * What a team-server node stamps on the writes of the resources that sync (docs/API.md "Sync"):
 * each field written gets a clock, so replicas pulling from any node merge it field by field.
 */
export interface PostgresSyncStamps {
  /** This node's clock, with a node id of its own: two nodes never make equal clocks. */
  clock: HybridClock;
  /** The resources that sync (webhooks and OAuth clients stay where they are). */
  synced: ReadonlySet<string>;
  /**
   * The node's listener for every node's change notices; with it, a transaction that wrote
   * synced records raises one (notifyChange), and onSyncedChange hears every node's.
   */
  notices?: ChangeNotices;
}

/** The reads and writes of one transaction, on its client. */
class PostgresRecords implements RecordWrites {
  /** Whose change the writes are: this node's, or (applying a push) a replica's, with its clocks. */
  origin: ClockedWrite['origin'] = { kind: 'local' };

  constructor(
    private readonly client: PostgresClient,
    /** Change events of this transaction, sent after its commit. */
    private readonly events: ChangeEvent[],
    /** The command this transaction is, whose id its change-log rows carry (command-book.ts). */
    private readonly commandId: string | null = null,
    private readonly stamps: PostgresSyncStamps | undefined = undefined,
    private readonly hook: WriteHook | undefined = undefined,
  ) {
    this.deliveries = new WebhookQueueWrites(client);
    this.commands = postgresCommandBook(client);
    this.files = new PostgresAttachmentContent(client);
    this.floor = floorBook((sql, params) => this.rows(sql, params));
  }

  readonly floor: FloorBook;

  /** Writes so far by table: every write of this transaction, its hooks' too, logs its change (RecordWrites.writesTo). */
  private readonly counts = new Map<string, number>();

  writesTo(table: TableDef): number {
    return this.counts.get(table.table) ?? 0;
  }

  readonly files: AttachmentBlobStore;
  readonly deliveries: DeliveryQueueWrites;
  readonly commands: CommandBookReads;

  async rows(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
    const result = await this.client.query({ text: numbered(sql), values: [...params], types: bigintsAsNumbers });
    return result.rows as Record<string, unknown>[];
  }

  async get<S extends ResourceSpec>(
    table: TableDef<S>,
    id: string,
    options: { includeDeleted?: boolean } = {},
  ): Promise<StoredOf<S> | undefined> {
    const [row] = await this.rows(
      `SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" = ?${options.includeDeleted ? '' : ' AND "deleted_at" IS NULL'}`,
      [id],
    );
    return row ? fromRow(table, row) : undefined;
  }

  async list<S extends ResourceSpec>(table: TableDef<S>, query: ListQuery): Promise<{ count: number; rows: StoredOf<S>[] }> {
    const { from, order, params } = listSelection(table, query, postgresDialect);
    const [counted] = await this.rows(`SELECT count(*) AS n ${from}`, params);
    const count = counted!.n as number;
    if (query.limit === 0 || query.offset >= count) return { count, rows: [] };
    const rows = await this.rows(`SELECT t.* ${from} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, query.limit, query.offset]);
    return { count, rows: rows.map((row) => fromRow(table, row)) };
  }

  async max(table: TableDef, field: string, match: Record<string, unknown>): Promise<unknown> {
    if (!own(table.fields, field)) throw new QueryError(`Unknown field: ${field}`);
    const where = listWhere(table, { match, limit: 0, offset: 0 }, postgresDialect);
    const [row] = await this.rows(
      `SELECT max(t.${quoteIdentifier(field)}) AS m FROM ${quoteIdentifier(table.table)} t WHERE ${where.sql}`,
      where.params,
    );
    return row?.m ?? null;
  }

  async getWhereIn<S extends ResourceSpec>(
    table: TableDef<S>,
    field: string & keyof StoredOf<S>,
    values: readonly unknown[],
    page?: WherePage,
  ): Promise<StoredOf<S>[]> {
    if (values.length === 0) return [];
    const spec = own(table.fields, field);
    if (!spec) throw new QueryError(`Unknown field: ${field}`);
    // One array parameter, however many values: PostgreSQL has no limit on its length.
    const rows = await this.rows(
      `SELECT * FROM ${quoteIdentifier(table.table)} WHERE ${quoteIdentifier(field)} = ANY(?) AND "deleted_at" IS NULL${page?.after === undefined ? '' : ' AND "id" > ?'} ORDER BY "id"${page ? ' LIMIT ?' : ''}`,
      [
        [...new Set(values)].map((value) => postgresDialect.toColumn(spec, value)),
        ...(page?.after === undefined ? [] : [page.after]),
        ...(page ? [page.limit] : []),
      ],
    );
    return rows.map((row) => fromRow(table, row));
  }

  async eachValues(table: TableDef, query: ListQuery, fields: readonly string[], visit: (values: unknown[]) => void): Promise<void> {
    const { sql, params, columns } = valuesSelection(table, query, fields, postgresDialect);
    // Rows as arrays, as the SQLite engine gives them; booleans come as booleans, JSON as text.
    const result = await this.client.query<unknown[]>({ text: numbered(sql), values: params, types: bigintsAsNumbers, rowMode: 'array' });
    const decoded = columns.flatMap((field, i) => (field.type === 'json' ? [i] : []));
    for (const values of result.rows) {
      for (const i of decoded) values[i] = fromColumn(columns[i]!, values[i]);
      visit(values);
    }
  }

  async cardLoads(boardId: string, start: string, end: string, resources: boolean): Promise<CardLoadRow[]> {
    // The query names its columns as CardLoadRow's fields; minutes come as a float.
    return (await this.rows(cardLoadsSql(resources, 'postgres'), [boardId, end, start])) as unknown as CardLoadRow[];
  }

  async plannedCards(boardId: string, start: string, end: string): Promise<PlannedCards> {
    const params = [boardId, end, start];
    // The queries name their columns as the rows' fields; time is an integer column, read as a number.
    const activities = (await this.rows(plannedCardsSql.activities, params)) as unknown as PlannedActivityRow[];
    if (activities.length === 0) return { activities, resources: [] };
    // Two columns, named as the type says.
    const types = (await this.rows(plannedCardsSql.activityTypes, [])) as { id: string; resource_type: string | null }[];
    return {
      activities: withResourceTypes(activities, types),
      // The query's two columns, as named.
      resources: (await this.rows(plannedCardsSql.resources, params)) as unknown as PlannedResourceRow[],
    };
  }

  private async checkUnique(table: TableDef, values: Record<string, unknown>, id: string | null): Promise<void> {
    for (const key of table.unique) {
      const keyValues = key.map((column) => values[column]);
      if (keyValues.some((v) => v === null || v === undefined)) continue;
      // Soft-deleted and archived records still count, as in the public API.
      const found = await this.rows(
        `SELECT 1 FROM ${quoteIdentifier(table.table)} WHERE ${key.map((c) => `${quoteIdentifier(c)} = ?`).join(' AND ')} AND "id" IS DISTINCT FROM ? LIMIT 1`,
        [...key.map((column, i) => postgresDialect.toColumn(own(table.fields, column), keyValues[i])), id],
      );
      if (found.length > 0) throw new DuplicateError(key[0]!);
    }
  }

  /** A write whose unique index answers for a key taken meanwhile by another node. */
  private async write(table: TableDef, sql: string, params: unknown[]): Promise<number> {
    try {
      const result = await this.client.query({ text: numbered(sql), values: params });
      return result.rowCount ?? 0;
    } catch (error) {
      const { code, constraint } = error as { code?: unknown; constraint?: unknown };
      if (code !== uniqueViolation) throw error;
      const key = table.unique.find((columns) => constraint === `${table.table}_unique_${columns.join('_')}`);
      throw new DuplicateError(key?.[0] ?? 'id');
    }
  }

  /** `before`: the previous values of the fields written (null for a new record), for undo. */
  private async logChange(
    table: TableDef,
    id: string,
    op: ChangeEvent['op'],
    fields: Record<string, unknown> | null,
    before: Record<string, unknown> | null = null,
  ): Promise<void> {
    this.counts.set(table.table, (this.counts.get(table.table) ?? 0) + 1);
    // With the change, in the same transaction as the write: a record's clocks never say more or less than it.
    const clocks = this.stamps?.synced.has(table.resource)
      ? clocksOfWrite(this.stamps.clock, { resource: table.resource, id, fields, origin: this.origin })
      : undefined;
    await appendChange(this.client, { resource: table.resource, recordId: id, op, fields, commandId: this.commandId, before }, clocks);
    this.events.push({ resource: table.resource, id, op });
    const { commandId } = this;
    await this.hook?.({ resource: table.resource, id, op, fields, at: nowTimestamp(), ...(commandId ? { commandId } : {}) }, this);
  }

  async insert<S extends ResourceSpec>(table: TableDef<S>, values: Partial<StoredOf<S>>): Promise<StoredOf<S>> {
    const now = nowTimestamp();
    const given: Partial<StoredRecord> = values;
    const id = given.id ?? uuidv7();
    const record: Record<string, unknown> = { ...values, id, created_at: given.created_at ?? now, updated_at: given.updated_at ?? now };
    await this.checkUnique(table, record, null);
    const row = toRow(table, record);
    const columns = Object.keys(row);
    await this.write(
      table,
      `INSERT INTO ${quoteIdentifier(table.table)} (${columns.map(quoteIdentifier).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      Object.values(row),
    );
    await this.logChange(table, id, 'create', record);
    return (await this.get(table, id))!;
  }

  async update<S extends ResourceSpec>(table: TableDef<S>, id: string, values: Partial<StoredOf<S>>): Promise<StoredOf<S> | undefined> {
    // Locked from this read to the end of the transaction: another node's update of the record
    // waits, so `before` is what this write replaced, and the record's changes are logged in
    // the order they commit (command-book.ts, changesAfter).
    const [locked] = await this.rows(`SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" = ? AND "deleted_at" IS NULL FOR UPDATE`, [
      id,
    ]);
    if (!locked) return undefined;
    const current: Record<string, unknown> = fromRow(table, locked);
    const changes: Record<string, unknown> = { ...values, updated_at: nowTimestamp() };
    delete changes.id;
    delete changes.created_at;
    await this.checkUnique(table, { ...current, ...changes }, id);
    const row = toRow(table, changes);
    const columns = Object.keys(row);
    await this.write(
      table,
      `UPDATE ${quoteIdentifier(table.table)} SET ${columns.map((c) => `${quoteIdentifier(c)} = ?`).join(', ')} WHERE "id" = ?`,
      [...Object.values(row), id],
    );
    await this.logChange(table, id, 'update', changes, previousValues(current, changes));
    return (await this.get(table, id))!;
  }

  async restore(table: TableDef, id: string): Promise<boolean> {
    const now = nowTimestamp();
    // Locked, as an update locks: `before` is the deletion this restore undid.
    const [deleted] = await this.rows(
      `SELECT "deleted_at" FROM ${quoteIdentifier(table.table)} WHERE "id" = ? AND "deleted_at" IS NOT NULL FOR UPDATE`,
      [id],
    );
    if (!deleted) return false;
    await this.write(table, `UPDATE ${quoteIdentifier(table.table)} SET "deleted_at" = NULL, "updated_at" = ? WHERE "id" = ?`, [now, id]);
    await this.logChange(table, id, 'update', { deleted_at: null }, { deleted_at: deleted.deleted_at });
    return true;
  }

  async setPasswordHash(userId: string, hash: string): Promise<void> {
    await this.client.query(
      'INSERT INTO user_password (user_id, hash, updated_at) VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at',
      [userId, hash, nowTimestamp()],
    );
  }

  #sync: SyncWrites | undefined;

  get sync(): SyncWrites {
    return (this.#sync ??= this.syncWrites());
  }

  private syncWrites(): SyncWrites {
    const { client } = this;
    let savepoints = 0;
    return {
      getForSync: async (table, id, options) => {
        const lock = options?.lock ? ' FOR UPDATE' : '';
        const [row] = await this.rows(`SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" = ?${lock}`, [id]);
        return row ? syncRowOf(table, row) : undefined;
      },
      clocksOf: (resource, id) => clocksOf(client, resource, id),
      asReplica: async (clocks, fn) => {
        const previous = this.origin;
        this.origin = { kind: 'sync', clocks };
        try {
          return await fn();
        } finally {
          this.origin = previous;
        }
      },
      writeForSync: (table, id, values) => this.writeForSync(table, id, values),
      savepoint: async (fn) => {
        const name = `sync_${++savepoints}`;
        const mark = this.events.length;
        await client.query(`SAVEPOINT ${name}`);
        try {
          const result = await fn();
          await client.query(`RELEASE SAVEPOINT ${name}`);
          return result;
        } catch (error) {
          // Also what a failed statement needs: the transaction takes no other statement until then.
          await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
          await client.query(`RELEASE SAVEPOINT ${name}`);
          this.events.length = mark;
          throw error;
        }
      },
      replicaMark: async (replicaId) => {
        // Made if new, then locked: a second push of this replica, on any node, waits here.
        await client.query('INSERT INTO replica_mark (replica_id) VALUES ($1) ON CONFLICT DO NOTHING', [replicaId]);
        return replicaMark(client, replicaId, { lock: true });
      },
      setReplicaMark: async (replicaId, mark) => {
        await client.query(
          'UPDATE replica_mark SET owner = $2, last_mutation_id = $3, last_batch = $4, updated_at = now() WHERE replica_id = $1',
          [replicaId, mark.owner, mark.last, JSON.stringify(mark.batch)],
        );
      },
      keep: async (resource, id, fields, clockOf, writer) => {
        const changed = await keep(client, resource, id, fields, clockOf, writer);
        if (changed.length > 0) this.events.push({ resource, id, op: 'update', kept: true });
      },
      keptFieldNames: (resource, id) => keptFieldNames(client, resource, id),
      keptBytes: () => keptBytes(client),
      forgetKept: (resource, id, fields) => forgetKept(client, resource, id, fields),
      receiveClock: (hlc) => this.stamps?.clock.receive(hlc),
    };
  }

  /** As EnvironmentStore.writeForSync: the record is locked from the read to the commit, as an update locks it. */
  private async writeForSync(table: TableDef, id: string, values: Record<string, unknown>): Promise<void> {
    const [existing] = await this.rows(`SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" = ? FOR UPDATE`, [id]);
    const row = toRow(table, values);
    if (!existing) {
      const now = nowTimestamp();
      const record: Record<string, unknown> = { ...row, id, created_at: row.created_at ?? now, updated_at: row.updated_at ?? now };
      await this.checkUnique(table, values, null);
      const columns = Object.keys(record);
      await this.write(
        table,
        `INSERT INTO ${quoteIdentifier(table.table)} (${columns.map(quoteIdentifier).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        Object.values(record),
      );
      await this.logChange(table, id, record.deleted_at ? 'delete' : 'create', values);
      return;
    }
    const columns = Object.keys(row).filter((c) => c !== 'id');
    if (columns.length === 0) return;
    const current: Record<string, unknown> = syncRowOf(table, existing);
    await this.checkUnique(table, { ...current, ...values }, id);
    await this.write(
      table,
      `UPDATE ${quoteIdentifier(table.table)} SET ${columns.map((c) => `${quoteIdentifier(c)} = ?`).join(', ')} WHERE "id" = ?`,
      [...columns.map((c) => row[c]), id],
    );
    const deleting = !current.deleted_at && typeof values.deleted_at === 'string';
    await this.logChange(table, id, deleting ? 'delete' : 'update', values, previousValues(current, values));
  }

  async softDelete(table: TableDef, id: string, at?: string): Promise<boolean> {
    const now = at ?? nowTimestamp();
    const changed = await this.write(
      table,
      `UPDATE ${quoteIdentifier(table.table)} SET "deleted_at" = ?, "updated_at" = ? WHERE "id" = ? AND "deleted_at" IS NULL`,
      [now, now, id],
    );
    if (changed === 0) return false;
    await this.logChange(table, id, 'delete', { deleted_at: now, updated_at: now }, { deleted_at: null });
    return true;
  }
}

export class PostgresRecordStore implements RecordStore {
  readonly engine = 'postgres';
  private readonly listeners = new Set<(events: ChangeEvent[]) => void>();

  readonly files: AttachmentBlobStore;
  readonly feed: SyncFeed;
  readonly scenarios: ScenarioBook<RecordStore>;

  constructor(
    private readonly pool: PostgresPool,
    readonly environmentId: string,
    /** Without them no write gets field clocks: a store for tests of the store alone. */
    private readonly stamps?: PostgresSyncStamps,
    /** Makes each transaction's write hook (the webhook events, api/webhooks/events.ts). */
    private readonly writeHook?: () => WriteHook,
    /**
     * A plan scenario's copy of the environment (scenario-book.ts): its schema, and the live
     * plan's scenario book (the scenario routes act on the live plan). Made without stamps
     * and hook: nothing written there syncs, notifies or calls a webhook.
     */
    scenario?: { schema: string; book: ScenarioBook<RecordStore> },
  ) {
    this.schema = scenario?.schema;
    this.files = new PostgresAttachmentContent(pool, environmentId);
    this.feed = postgresSyncFeed(pool, environmentId, this.schema);
    this.scenarios =
      scenario?.book ??
      postgresScenarioBook<RecordStore>(
        pool,
        environmentId,
        (schema) => new PostgresRecordStore(pool, environmentId, undefined, undefined, { schema, book: this.scenarios }),
      );
  }

  /** The schema of a scenario's store; the environment's own when undefined. */
  private readonly schema: string | undefined;

  /** `fn` in a transaction of its own, in the store's schema as the environment's role. */
  private inSchema<T>(fn: (client: PostgresClient) => Promise<T>): Promise<T> {
    return withEnvironment(this.pool, this.environmentId, fn, this.schema);
  }

  /** A read in a transaction of its own. */
  private read<T>(fn: (records: PostgresRecords) => Promise<T>): Promise<T> {
    return this.inSchema((client) => fn(new PostgresRecords(client, [])));
  }

  get<S extends ResourceSpec>(table: TableDef<S>, id: string, options?: { includeDeleted?: boolean }): Promise<StoredOf<S> | undefined> {
    return this.read((records) => records.get(table, id, options));
  }

  list<S extends ResourceSpec>(table: TableDef<S>, query: ListQuery): Promise<{ count: number; rows: StoredOf<S>[] }> {
    return this.read((records) => records.list(table, query));
  }

  getWhereIn<S extends ResourceSpec>(
    table: TableDef<S>,
    field: string & keyof StoredOf<S>,
    values: readonly unknown[],
    page?: WherePage,
  ): Promise<StoredOf<S>[]> {
    return this.read((records) => records.getWhereIn(table, field, values, page));
  }

  eachValues(table: TableDef, query: ListQuery, fields: readonly string[], visit: (values: unknown[]) => void): Promise<void> {
    return this.read((records) => records.eachValues(table, query, fields, visit));
  }

  max(table: TableDef, field: string, match: Record<string, unknown>): Promise<unknown> {
    return this.read((records) => records.max(table, field, match));
  }

  plannedCards(boardId: string, start: string, end: string): Promise<PlannedCards> {
    return this.read((records) => records.plannedCards(boardId, start, end));
  }

  cardLoads(boardId: string, start: string, end: string, resources: boolean): Promise<CardLoadRow[]> {
    return this.read((records) => records.cardLoads(boardId, start, end, resources));
  }

  listDeleted(table: TableDef, limit: number, offset: number): Promise<{ count: number; rows: (StoredRecord & { deleted_at: string })[] }> {
    return this.read(async (records) => {
      const from = `FROM ${quoteIdentifier(table.table)} WHERE "deleted_at" IS NOT NULL`;
      const [counted] = await records.rows(`SELECT count(*) AS n ${from}`, []);
      const rows = await records.rows(`SELECT * ${from} ORDER BY "deleted_at" DESC, "id" LIMIT ? OFFSET ?`, [limit, offset]);
      // The WHERE above keeps deleted rows only: deleted_at holds their datetime.
      return { count: counted!.n as number, rows: rows.map((row) => ({ ...fromRow(table, row), deleted_at: row.deleted_at as string })) };
    });
  }

  passwordHashOf(userId: string): Promise<string | undefined> {
    return this.read(async (records) => {
      const [row] = await records.rows('SELECT hash FROM user_password WHERE user_id = ?', [userId]);
      return typeof row?.hash === 'string' ? row.hash : undefined;
    });
  }

  recentCommands(limit: number): Promise<CommandRecord[]> {
    return this.inSchema((client) => recentCommands(client, limit));
  }

  /**
   * With `options.command`, the transaction is that command (as EnvironmentStore.command): its
   * row is written first, once, and every change-log row of the transaction carries its id.
   */
  /**
   * One transaction, run again (up to attemptsOnConflict in all) when PostgreSQL stopped it for
   * another's sake (a deadlock between two nodes' writes): nothing of an attempt outlives it,
   * and `fn` reads afresh each time.
   */
  async transaction<T>(fn: (tx: RecordWrites) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(fn, options);
      } catch (error) {
        if (attempt >= attemptsOnConflict || !isTransactionConflict(error)) throw error;
      }
    }
  }

  private async attempt<T>(fn: (tx: RecordWrites) => Promise<T>, options: TransactionOptions): Promise<T> {
    const events: ChangeEvent[] = [];
    const { command } = options;
    const result = await this.inSchema(async (client) => {
      if (command) await recordCommand(client, command);
      let open = true;
      let result: T;
      try {
        result = await fn(guarded(new PostgresRecords(client, events, command?.id ?? null, this.stamps, this.writeHook?.()), () => open));
      } finally {
        open = false;
      }
      // Last, once: listeners on every node hear it at the commit, and nobody if it rolls back.
      const { stamps } = this;
      if (stamps?.notices && events.some((e) => stamps.synced.has(e.resource) || e.kept)) await notifyChange(client, this.environmentId);
      return result;
    });
    // withEnvironment has committed.
    if (events.length > 0) for (const listener of this.listeners) listener(events);
    return result;
  }

  onChange(listener: (events: ChangeEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onSyncedChange(synced: ReadonlySet<string>, listener: () => void): () => void {
    // Every node's commits, this one's included, come as notices (raised only for synced resources and kept data).
    const notices = this.stamps?.notices;
    if (notices) return notices.subscribe(this.environmentId, () => listener());
    return this.onChange((events) => {
      if (events.some((e) => synced.has(e.resource) || e.kept)) listener();
    });
  }
}
