/**
 * The overruled list of a local replica (migration 17, docs/API.md "Sync", "Overruled
 * edits"): fields this replica changed that lost, by last-writer-wins, to a later change made
 * elsewhere. The sync client notices them (electron/sync/overruled.ts); the planner keeps
 * their value (a new edit, which syncs like any other) or accepts the other one.
 */
import { parseHlc } from '../../shared/hlc.js';
import { nowTimestamp, uuidv7 } from '../../shared/ids.js';
import { onePerStore, SideTable } from './side-table.js';

export type OverruledStatus = 'open' | 'kept' | 'accepted';

export interface OverruledEdit {
  id: string;
  resource: string;
  record_id: string;
  field: string;
  /** This replica's value, and the clock of its write. */
  mine: unknown;
  mine_clock: string;
  /** The value that won, and its clock. */
  theirs: unknown;
  their_clock: string;
  /** Who wrote the winning value: the node id in its clock (a replica, or the remote itself). */
  changed_by: string;
  /** When the winning value was written, by the clock of the computer that wrote it. */
  changed_at: string;
  /** When this replica learnt of it. */
  noticed_at: string;
  status: OverruledStatus;
  resolved_at: string | null;
}

/** A loss as the sync client sees it; who and when come from the winning clock. */
export interface OverruledNotice {
  resource: string;
  record_id: string;
  field: string;
  mine: unknown;
  mine_clock: string;
  theirs: unknown;
  their_clock: string;
}

interface Row extends Omit<OverruledEdit, 'mine' | 'theirs'> {
  mine: string;
  theirs: string;
}

/** The overruled list of an environment database (one per open store). */
export const overruledEditsOf = onePerStore((store) => new OverruledEdits(store));

export class OverruledEdits extends SideTable {
  /**
   * Records a loss. A field already on the open list gets the newer loss (the planner decides
   * once per field, on the latest values); its first notice time stays.
   */
  notice(notice: OverruledNotice): void {
    const parts = parseHlc(notice.their_clock);
    const changedBy = parts?.node ?? '';
    const changedAt = parts ? new Date(parts.millis).toISOString() : nowTimestamp();
    this.sql(
      `INSERT INTO sync_overruled (id, resource, record_id, field, mine, mine_clock, theirs, their_clock, changed_by, changed_at, noticed_at, status)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open')
       ON CONFLICT (resource, record_id, field) WHERE status = 'open' DO UPDATE SET
         mine = excluded.mine, mine_clock = excluded.mine_clock, theirs = excluded.theirs, their_clock = excluded.their_clock,
         changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
    ).run(
      uuidv7(),
      notice.resource,
      notice.record_id,
      notice.field,
      JSON.stringify(notice.mine ?? null),
      notice.mine_clock,
      JSON.stringify(notice.theirs ?? null),
      notice.their_clock,
      changedBy,
      changedAt,
      nowTimestamp(),
    );
  }

  private entryOf(row: Row): OverruledEdit {
    // JSON.parse gives `any`; as `unknown` the values stay checked wherever they are read.
    return { ...row, mine: JSON.parse(row.mine) as unknown, theirs: JSON.parse(row.theirs) as unknown };
  }

  /** Newest first; only open ones unless `all`; optionally those of one record. */
  list(options: { all: boolean; limit: number; offset: number; resource?: string; recordId?: string }): {
    count: number;
    data: OverruledEdit[];
  } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (!options.all) where.push("status = 'open'");
    if (options.resource !== undefined) {
      where.push('resource = ?');
      params.push(options.resource);
    }
    if (options.recordId !== undefined) {
      where.push('record_id = ?');
      params.push(options.recordId);
    }
    // At most eight texts: each combination of the three conditions.
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const { count, rows } = this.page<Row>(
      `FROM sync_overruled ${clause}`,
      params,
      'noticed_at DESC, id DESC',
      options.limit,
      options.offset,
    );
    return { count, data: rows.map((row) => this.entryOf(row)) };
  }

  get(id: string): OverruledEdit | undefined {
    const row = this.sql<Row>('SELECT * FROM sync_overruled WHERE id = ?').get(id);
    return row ? this.entryOf(row) : undefined;
  }

  resolve(id: string, status: Exclude<OverruledStatus, 'open'>): void {
    this.sql("UPDATE sync_overruled SET status = ?, resolved_at = ? WHERE id = ? AND status = 'open'").run(status, nowTimestamp(), id);
  }

  /**
   * Whether this replica's write with clock `hlc` to a record is still in its outbox: sent to
   * the remote at most in the push being answered now, so not yet known to have won there.
   * Asked only for a field about to lose, which is rare: the outbox has no index for it.
   */
  stillToConfirm(resource: string, recordId: string, hlc: string): boolean {
    return (
      this.sql('SELECT 1 FROM sync_outbox WHERE resource = ? AND record_id = ? AND hlc = ? LIMIT 1').get(resource, recordId, hlc) !==
      undefined
    );
  }

  openCount(): number {
    return this.sql<{ n: number }>("SELECT count(*) AS n FROM sync_overruled WHERE status = 'open'").get()!.n;
  }
}
