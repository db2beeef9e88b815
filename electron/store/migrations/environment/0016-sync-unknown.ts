import type { Migration } from '../../database.js';

/**
 * Data another app version syncs that this one does not declare (docs/API.md "Sync",
 * "Versions and unknown data"): a field of a known resource, or every field of a record of an
 * unknown resource, one row per field with its value (JSON) and the hybrid clock of its last
 * write. It is kept, merged last-writer-wins like any field, passed on to the replicas that
 * read the record, and moved into the record's table once a migration declares it.
 */
export const syncUnknown: Migration = {
  version: 16,
  name: 'sync-unknown',
  up(db) {
    db.exec(`
      CREATE TABLE sync_unknown (
        resource TEXT NOT NULL,
        record_id TEXT NOT NULL,
        field TEXT NOT NULL,
        value TEXT NOT NULL,
        clock TEXT NOT NULL,
        PRIMARY KEY (resource, record_id, field)
      ) WITHOUT ROWID;
    `);
  },
};
