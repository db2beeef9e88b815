/**
 * The pull side of a remote on PostgreSQL (sync-feed.ts has the interface and the SQLite
 * engine; docs/API.md "Pull cursors"). The cursor is the change log's (transaction, position)
 * pair as text, `<xid>-<position>`: it never goes backwards and never skips a change that
 * commits after a reader passed (postgres/change-log.ts). Each read is a transaction of its
 * own in the environment's schema.
 *
 * Compaction (a remote's retention) removes the oldest changes and records the latest it
 * removed; a cursor before that has expired (410), as on SQLite. So has a change number, a
 * SQLite remote's cursor, which a replica of a remote moved here still sends once.
 */
import { quoteIdentifier } from '../filter-sql.js';
import { compactClocksFrom, isSyncCursor } from '../../../shared/sync.js';
import type { ChangedRecord, SyncCursor, SyncFeed, SyncRecordRow } from '../sync-feed.js';
import { syncRowOf } from './record-rows.js';
import { changeLogStart, compactChanges, isCompactedPast, readChanges, type ChangeCursor } from './change-log.js';
import { clocksOfMany } from './field-clocks.js';
import { bytes as keptBytes, fieldsOfMany, isEmpty, list as keptList, record as keptRecord, recordsPage } from './kept-data.js';
import { withEnvironment } from './environment-schemas.js';
import { bigintsAsNumbers, type PostgresClient, type PostgresPool } from './postgres-database.js';

function cursorText(cursor: ChangeCursor): string {
  return `${cursor.xid}-${cursor.position}`;
}

/** A text cursor as the change log's pair; `0` (an integration's first pull) is the start. */
function changeCursor(cursor: SyncCursor): ChangeCursor {
  if (cursor === 0 || cursor === '0') return changeLogStart;
  const [xid, position] = String(cursor).split('-');
  return { xid: xid!, position: position! };
}

/** The largest value a bigint column (position) or an xid8 can hold: 2^64 - 1. */
const maxUnsigned64 = 2n ** 64n - 1n;

/** `schema`: a plan scenario's (scenario-book.ts), whose feed nobody pulls but which reads its own copy. */
export function postgresSyncFeed(pool: PostgresPool, environmentId: string, schema?: string): SyncFeed {
  const read = <T>(fn: (client: PostgresClient) => Promise<T>) => withEnvironment(pool, environmentId, fn, schema);
  const rows = async (client: PostgresClient, sql: string, values: unknown[]) =>
    (await client.query<Record<string, unknown>>({ text: sql, values, types: bigintsAsNumbers })).rows;
  return {
    readCursor(text) {
      // A change number is a SQLite remote's cursor: a replica of a remote moved here
      // (migrate-to-postgres) still has one, and is told to start again from a snapshot (expired).
      if (/^\d{1,15}$/.test(text)) return Number(text);
      // The shape every remote's text cursor has (shared/sync.ts), each part within its column.
      return isSyncCursor(text) && text.split('-').every((part) => BigInt(part) <= maxUnsigned64) ? text : undefined;
    },
    latest: () =>
      read(async (client) => {
        // The last change that is final: every transaction below the snapshot's xmin has ended.
        const [last] = await rows(
          client,
          // Ordered by the table's columns (`c.`), not the text the SELECT makes of them: as text, 999 sorts after 3000.
          `SELECT c.xid::text AS xid, c.position::text AS position FROM change_log c
            WHERE c.xid < pg_snapshot_xmin(pg_current_snapshot()) ORDER BY c.xid DESC, c.position DESC LIMIT 1`,
          [],
        );
        return cursorText(last ? { xid: last.xid as string, position: last.position as string } : changeLogStart);
      }),
    expired: (since) =>
      typeof since === 'number' && since !== 0 ? Promise.resolve(true) : read((client) => isCompactedPast(client, changeCursor(since))),
    changedSince: (since, limit) =>
      read(async (client) => {
        const { changes, cursor } = await readChanges(client, changeCursor(since), limit);
        // Each record once, at its latest change in the page, in the order of those changes.
        const latest = new Map<string, ChangedRecord>();
        for (const change of changes) {
          const key = `${change.resource}\u0000${change.recordId}`;
          // Deleted and set again: a Map keeps the order keys were set in.
          latest.delete(key);
          latest.set(key, { resource: change.resource, id: change.recordId, seq: cursorText(change.cursor) });
        }
        return {
          records: [...latest.values()],
          cursor: cursorText(cursor),
          more: changes.length === limit,
        };
      }),
    recordsForSync: (table, ids) =>
      read(async (client) => {
        const out = new Map<string, SyncRecordRow>();
        if (ids.length === 0) return out;
        const found = await rows(client, `SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" = ANY($1::text[])`, [[...ids]]);
        for (const row of found) out.set(row.id as string, syncRowOf(table, row));
        return out;
      }),
    clocksOfMany: (resource, ids) => read((client) => clocksOfMany(client, resource, ids)),
    scanForSync: (table, afterId, limit) =>
      read(async (client) => {
        // The comparison and the order use one collation, so a page's last id is where the next starts.
        const found = await rows(client, `SELECT * FROM ${quoteIdentifier(table.table)} WHERE "id" > $1 ORDER BY "id" LIMIT $2`, [
          afterId,
          limit,
        ]);
        return found.map((row) => syncRowOf(table, row));
      }),
    snapshotRows: (table, hidden, afterId, limit, compact = false) =>
      read(async (client) => {
        // As the SQLite engine's (SyncBook.snapshotRows): each row's JSON is put together as text by
        // the database, its values in `fields` order and its clocks last, hidden fields' taken out.
        const shown = (name: string) => name !== 'id' && name !== 'deleted_at' && !hidden.includes(name);
        const fields = ['id', 'deleted_at', ...Object.keys(table.fields).filter(shown)];
        const values = fields.map((name) => {
          const column = `t.${quoteIdentifier(name)}`;
          // Stored as JSON text (postgresDialect.toColumn); anything else becomes JSON here.
          return table.fields[name]?.type === 'json' ? `coalesce(${column}, 'null')` : `coalesce(to_json(${column})::text, 'null')`;
        });
        // With `compact`: [h, the clocks with 0 for h], as the SQLite engine's
        // (docs/decisions/compact-field-clocks.md).
        const shared = compact ? compactClocksFrom(fields) : undefined;
        const cell = shared
          ? "CASE WHEN q.h IS NULL THEN q.k::text ELSE '[' || to_json(q.h)::text || ',' || replace(q.k::text, to_json(q.h)::text, '0') || ']' END"
          : 'q.k::text';
        const sql =
          `SELECT count(*)::integer AS n, max(p.id) AS last, coalesce('[' || string_agg(p.r, ',' ORDER BY p.id) || ']', '[]') AS rows FROM (` +
          `SELECT q.id, '[' || q.v || ',' || ${cell} || ']' AS r FROM (` +
          `SELECT t."id" AS id, ${values.join(" || ',' || ")} AS v, ` +
          `coalesce(c.clocks, '{}'::jsonb) - $4::text[] AS k, (c.clocks ->> ${shared ? `'${shared}'` : 'NULL'}) AS h ` +
          `FROM ${quoteIdentifier(table.table)} t LEFT JOIN field_clock c ON c.resource = $1 AND c.record_id = t."id" ` +
          'WHERE t."id" > $2 ORDER BY t."id" LIMIT $3) q) p';
        const [row] = await rows(client, sql, [table.resource, afterId, limit, [...hidden]]);
        return { fields, count: row!.n as number, last: (row!.last as string | null) ?? null, rows: row!.rows as string };
      }),
    keepsData: () => read(async (client) => !(await isEmpty(client))),
    keptFieldsOfMany: (resource, ids) => read((client) => fieldsOfMany(client, resource, ids)),
    keptRecordsPage: (declared, after, limit) => read((client) => recordsPage(client, declared, after, limit)),
    keptList: (resource, limit, offset) => read((client) => keptList(client, resource, limit, offset)),
    keptRecord: (resource, id) => read((client) => keptRecord(client, resource, id)),
    keptBytes: () => read((client) => keptBytes(client)),
    compact: (keep) => read((client) => compactChanges(client, keep)),
  };
}
