/**
 * The last sync runs of a local replica (migration 17, docs/API.md "Sync", "History"): what
 * each sent, received, had overruled and had refused, and how long it took. Bounded to the
 * newest `keepRuns`. An idle run (nothing moved, no problem) is not kept: the client pulls
 * every second, and those would push every run worth seeing out of the list. Failed runs in a
 * row with the same problem (a remote that stays down) are one entry that counts them.
 */
import { onePerStore, SideTable } from './side-table.js';

export const keepRuns = 50;

export interface SyncRun {
  id: number;
  started_at: string;
  /** When the run ended; for folded failures, when the last of them ended. */
  ended_at: string;
  duration_ms: number;
  sent: number;
  received: number;
  overruled: number;
  refused: number;
  files_sent: number;
  files_fetched: number;
  resynced: boolean;
  error: string | null;
  /** Failed runs in a row with this same problem, folded into this entry. */
  runs: number;
}

export type SyncRunRecord = Omit<SyncRun, 'id' | 'runs'>;

/** The sync history of an environment database (one per open store). */
export const syncHistoryOf = onePerStore((store) => new SyncHistory(store));

function isIdle(run: SyncRunRecord): boolean {
  return (
    run.error === null && !run.resynced && run.sent + run.received + run.overruled + run.refused + run.files_sent + run.files_fetched === 0
  );
}

export class SyncHistory extends SideTable {
  /** Keeps a run (see the file's head for which are kept); returns whether it did. */
  record(run: SyncRunRecord): boolean {
    if (isIdle(run)) return false;
    return this.store.transaction(() => {
      // The row shape of this SQL text (SQLite gives untyped rows).
      const newest = this.sql(
        'SELECT id, error, sent, received, overruled, refused, files_sent, files_fetched FROM sync_history ORDER BY id DESC LIMIT 1',
      ).get() as Pick<SyncRun, 'id' | 'error' | 'sent' | 'received' | 'overruled' | 'refused' | 'files_sent' | 'files_fetched'> | undefined;
      const movedNothing = (r: Pick<SyncRun, 'sent' | 'received' | 'overruled' | 'refused' | 'files_sent' | 'files_fetched'>) =>
        r.sent + r.received + r.overruled + r.refused + r.files_sent + r.files_fetched === 0;
      if (run.error !== null && newest && newest.error === run.error && movedNothing(newest) && movedNothing(run)) {
        this.sql('UPDATE sync_history SET ended_at = ?, duration_ms = ?, runs = runs + 1 WHERE id = ?').run(
          run.ended_at,
          run.duration_ms,
          newest.id,
        );
        return true;
      }
      const { lastInsertRowid } = this.sql(
        `INSERT INTO sync_history (started_at, ended_at, duration_ms, sent, received, overruled, refused, files_sent, files_fetched, resynced, error)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        run.started_at,
        run.ended_at,
        run.duration_ms,
        run.sent,
        run.received,
        run.overruled,
        run.refused,
        run.files_sent,
        run.files_fetched,
        run.resynced ? 1 : 0,
        run.error,
      );
      this.sql('DELETE FROM sync_history WHERE id <= ?').run(Number(lastInsertRowid) - keepRuns);
      return true;
    });
  }

  /** Newest first. */
  list(limit: number): SyncRun[] {
    const { rows } = this.page<Omit<SyncRun, 'resynced'> & { resynced: number }>('FROM sync_history', [], 'id DESC', limit, 0);
    return rows.map((row) => ({ ...row, resynced: row.resynced === 1 }));
  }
}
