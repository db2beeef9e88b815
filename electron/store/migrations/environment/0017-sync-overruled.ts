import type { Migration } from '../../database.js';

/**
 * What sync did, kept on a local replica so the planner can see it (docs/API.md "Sync",
 * "Overruled edits" and "History"):
 *  - sync_overruled: a field this replica changed that lost, by last-writer-wins, to a later
 *    change made elsewhere: both values (as JSON), both clocks, whose clock won and when it was
 *    written there. One open entry per field of a record (a second loss updates it); `status`
 *    is `open` until the planner keeps their value (`kept`) or accepts the other (`accepted`);
 *  - sync_history: the last sync runs with what each moved and how long it took. Runs that
 *    moved nothing are not kept, and failed runs in a row with the same problem are one entry
 *    (`runs` counts them), so the list shows what happened rather than the idle pulls.
 */
export const syncOverruled: Migration = {
  version: 17,
  name: 'sync-overruled',
  up(db) {
    db.exec(`
      CREATE TABLE sync_overruled (
        id TEXT PRIMARY KEY,
        resource TEXT NOT NULL,
        record_id TEXT NOT NULL,
        field TEXT NOT NULL,
        mine TEXT NOT NULL,
        mine_clock TEXT NOT NULL,
        theirs TEXT NOT NULL,
        their_clock TEXT NOT NULL,
        changed_by TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        noticed_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        resolved_at TEXT
      );
      CREATE UNIQUE INDEX sync_overruled_open ON sync_overruled (resource, record_id, field) WHERE status = 'open';
      CREATE TABLE sync_history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        started_at TEXT NOT NULL,
        ended_at TEXT NOT NULL,
        duration_ms INTEGER NOT NULL,
        sent INTEGER NOT NULL,
        received INTEGER NOT NULL,
        overruled INTEGER NOT NULL,
        refused INTEGER NOT NULL,
        files_sent INTEGER NOT NULL,
        files_fetched INTEGER NOT NULL,
        resynced INTEGER NOT NULL,
        error TEXT,
        runs INTEGER NOT NULL DEFAULT 1
      );
    `);
  },
};
