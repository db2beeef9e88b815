/**
 * An environment's change log on PostgreSQL, read with a cursor that never goes backwards and
 * never skips a committed change, across nodes and concurrent transactions
 * (docs/architecture.md "Team server on PostgreSQL", "The change-log cursor").
 *
 * A `position` from an identity column is handed out at insert, not at commit: a transaction
 * that took position 5 and commits after the one that took 6 would be skipped by a reader that
 * had already read 6. So each change also keeps its transaction's id (`xid`, xid8), and a
 * reader returns only changes whose transaction is older than the xmin of the reading
 * statement's own snapshot. Every transaction below that xmin has ended, committed (so visible
 * to that snapshot) or aborted (its rows never will be); a transaction still running, or one
 * that has yet to write, has an xid at or above it. The changes below xmin are therefore final,
 * and ordering them by (xid, position) with the cursor on that pair puts every change that can
 * still appear after the cursor.
 *
 * All functions take a client inside `withEnvironment`, so the table is the environment's own.
 */
import type { PostgresClient, PostgresMigration } from './postgres-database.js';
import { mergeClocksSql, type Clocks } from './field-clocks.js';

/** Where a reader is: after the change of transaction `xid` at `position` (both decimal text). */
export interface ChangeCursor {
  xid: string;
  position: string;
}

/** Before every change. */
export const changeLogStart: ChangeCursor = { xid: '0', position: '0' };

export type ChangeOp = 'create' | 'update' | 'delete';

export interface NewChange {
  resource: string;
  recordId: string;
  op: ChangeOp;
  fields?: Record<string, unknown> | null;
  /** The command the write belongs to (docs/API.md "Commands and undo"); none outside one. */
  commandId?: string | null;
  /** The previous values of the fields written, for undo; none for a create. */
  before?: Record<string, unknown> | null;
}

export interface LoggedChange extends NewChange {
  cursor: ChangeCursor;
  at: Date;
}

/**
 * Appends a change in the caller's transaction; it is there, and readable, when that
 * transaction commits. Answers where it went. With `clocks`, the record's field clocks are
 * merged with them in the same round trip (field-clocks.ts, mergeClocks): every write of a
 * synced resource on a team server does both.
 */
export async function appendChange(client: PostgresClient, change: NewChange, clocks?: Clocks): Promise<ChangeCursor> {
  const values = [
    change.resource,
    change.recordId,
    change.op,
    change.fields == null ? null : JSON.stringify(change.fields),
    change.commandId ?? null,
    change.before == null ? null : JSON.stringify(change.before),
  ];
  const insert =
    'INSERT INTO change_log (resource, record_id, op, fields, command_id, before) VALUES ($1, $2, $3, $4, $5, $6) RETURNING xid::text AS xid, position::text AS position';
  if (!clocks) return (await client.query<ChangeCursor>(insert, values)).rows[0]!;
  // A data-modifying CTE runs whether or not the statement reads it: one round trip for both.
  const { rows } = await client.query<ChangeCursor>(`WITH stamped AS (${mergeClocksSql(7)}) ${insert}`, [
    ...values,
    change.resource,
    change.recordId,
    JSON.stringify(clocks),
  ]);
  return rows[0]!;
}

/**
 * Up to `limit` changes after `after`, in cursor order, and the cursor after the last of them
 * (`after` itself when there are none). One statement, so the xmin it compares with is that of
 * the snapshot its rows are read from.
 */
export async function readChanges(
  client: PostgresClient,
  after: ChangeCursor,
  limit = 500,
): Promise<{ changes: LoggedChange[]; cursor: ChangeCursor }> {
  const { rows } = await client.query<{
    xid: string;
    position: string;
    resource: string;
    record_id: string;
    op: ChangeOp;
    fields: Record<string, unknown> | null;
    at: Date;
  }>(
    // Ordered by the table's columns (`c.`), not the text the SELECT turns them into: as text,
    // position 10 sorts before 8.
    `SELECT c.xid::text AS xid, c.position::text AS position, c.resource, c.record_id, c.op, c.fields, c.at
       FROM change_log c
      WHERE c.xid < pg_snapshot_xmin(pg_current_snapshot())
        AND (c.xid, c.position) > ($1::xid8, $2::bigint)
      ORDER BY c.xid, c.position
      LIMIT $3`,
    [after.xid, after.position, limit],
  );
  const changes = rows.map((r) => ({
    cursor: { xid: r.xid, position: r.position },
    resource: r.resource,
    recordId: r.record_id,
    op: r.op,
    fields: r.fields,
    at: r.at,
  }));
  return { changes, cursor: changes.at(-1)?.cursor ?? after };
}

/** Negative, zero or positive as `a` is before, at or after `b`. */
export function compareCursors(a: ChangeCursor, b: ChangeCursor): number {
  const byXid = BigInt(a.xid) - BigInt(b.xid);
  if (byXid !== 0n) return byXid < 0n ? -1 : 1;
  const byPosition = BigInt(a.position) - BigInt(b.position);
  return byPosition === 0n ? 0 : byPosition < 0n ? -1 : 1;
}

/**
 * Environment migration 9: where the change log was compacted through (one row, none before
 * the first compaction): the latest (xid, position) among the changes `compactChanges` removed.
 */
export const changeLogCompactionMigration: PostgresMigration = {
  version: 9,
  name: 'change-log-compaction',
  async up(client) {
    await client.query(`
      CREATE TABLE change_log_compacted (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        xid xid8 NOT NULL,
        position bigint NOT NULL
      );
    `);
  },
};

/**
 * Forgets all but the newest `keep` changes (a remote's retention, as SQLite's SyncBook.compact),
 * of transactions that have ended only, and records the latest change it removed. Several
 * nodes may compact at once: each removes what it finds, and the record only moves forward.
 */
export async function compactChanges(client: PostgresClient, keep: number): Promise<void> {
  await client.query(
    `WITH bound AS (SELECT max(position) - $1::bigint AS through FROM change_log),
     gone AS (
       DELETE FROM change_log c USING bound
        WHERE c.position <= bound.through AND c.xid < pg_snapshot_xmin(pg_current_snapshot())
        RETURNING c.xid, c.position
     )
     INSERT INTO change_log_compacted AS k (one, xid, position)
       SELECT true, g.xid, g.position FROM gone g ORDER BY g.xid DESC, g.position DESC LIMIT 1
     ON CONFLICT (one) DO UPDATE SET xid = excluded.xid, position = excluded.position
       WHERE (excluded.xid, excluded.position) > (k.xid, k.position)`,
    [keep],
  );
}

/** Whether changes after `since` may have been removed: a reader there must start again from a snapshot. */
export async function isCompactedPast(client: PostgresClient, since: ChangeCursor): Promise<boolean> {
  const { rows } = await client.query<{ past: boolean }>(
    'SELECT (xid, position) > ($1::xid8, $2::bigint) AS past FROM change_log_compacted',
    [since.xid, since.position],
  );
  return rows[0]?.past ?? false;
}
