import type { Migration } from '../../database.js';

/**
 * The change log: one row per write, committed in the same transaction as the write. It feeds
 * change events to the renderer, the sync outbox and webhook delivery (docs/architecture.md "Data flow of a write").
 */
export const changeLog: Migration = {
  version: 1,
  name: 'change-log',
  up(db) {
    db.exec(`
      CREATE TABLE change_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        resource TEXT NOT NULL,
        record_id TEXT NOT NULL,
        op TEXT NOT NULL CHECK (op IN ('create', 'update', 'delete')),
        fields TEXT,
        at TEXT NOT NULL
      );
      CREATE INDEX change_log_record ON change_log(resource, record_id);
    `);
  },
};
