/**
 * The last sync runs of a local replica (migration 17, docs/API.md "Sync", "History"): what
 * each sent, received, had overruled and had refused, and how long it took. Bounded to the
 * newest `keepRuns`. An idle run (nothing moved, no problem) is not kept: the client pulls
 * every second, and those would push every run worth seeing out of the list. Failed runs in a
 * row with the same problem (a remote that stays down) are one entry that counts them.
 */
import type { SqliteStatement } from './database.js';
import type { EnvironmentStore } from './environment-store.js';

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

const histories = new WeakMap<EnvironmentStore, SyncHistory>();

export function syncHistoryOf(store: EnvironmentStore): SyncHistory {
  let history = histories.get(store);
  if (!history) {
    history = new SyncHistory(store);
    histories.set(store, history);
  }
  return history;
}

function isIdle(run: SyncRunRecord): boolean {
  return run.error === null && !run.resynced && run.sent + run.received + run.overruled + run.refused + run.files_sent + run.files_fetched === 0;
}

export class SyncHistory {
  private readonly statements = new Map<string, SqliteStatement>();

  constructor(private readonly store: EnvironmentStore) {}

  private sql(text: string): SqliteStatement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.store.db.prepare<unknown[], unknown>(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Keeps a run (see the file's head for which are kept); returns whether it did. */
  record(run: SyncRunRecord): boolean {
    if (isIdle(run)) return false;
    return this.store.transaction(() => {
      const newest = this.sql('SELECT id, error, sent, received, overruled, refused, files_sent, files_fetched FROM sync_history ORDER BY id DESC LIMIT 1').get() as
        | (Pick<SyncRun, 'id' | 'error' | 'sent' | 'received' | 'overruled' | 'refused' | 'files_sent' | 'files_fetched'>)
        | undefined;
      const movedNothing = (r: Pick<SyncRun, 'sent' | 'received' | 'overruled' | 'refused' | 'files_sent' | 'files_fetched'>) =>
        r.sent + r.received + r.overruled + r.refused + r.files_sent + r.files_fetched === 0;
      if (run.error !== null && newest && newest.error === run.error && movedNothing(newest) && movedNothing(run)) {
        this.sql('UPDATE sync_history SET ended_at = ?, duration_ms = ?, runs = runs + 1 WHERE id = ?').run(run.ended_at, run.duration_ms, newest.id);
        return true;
      }
      const { lastInsertRowid } = this.sql(
        `INSERT INTO sync_history (started_at, ended_at, duration_ms, sent, received, overruled, refused, files_sent, files_fetched, resynced, error)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(run.started_at, run.ended_at, run.duration_ms, run.sent, run.received, run.overruled, run.refused, run.files_sent, run.files_fetched, run.resynced ? 1 : 0, run.error);
      this.sql('DELETE FROM sync_history WHERE id <= ?').run(Number(lastInsertRowid) - keepRuns);
      return true;
    });
  }

  /** Newest first. */
  list(limit: number): SyncRun[] {
    const rows = this.sql('SELECT * FROM sync_history ORDER BY id DESC LIMIT ?').all(limit) as (Omit<SyncRun, 'resynced'> & { resynced: number })[];
    return rows.map((row) => ({ ...row, resynced: row.resynced === 1 }));
  }
}
