import type { Migration } from '../../database.js';

/**
 * Sync bookkeeping (docs/architecture.md "Sync"):
 *  - sync_clock: per record, the hybrid logical clock of each field's last write, for
 *    last-writer-wins merges;
 *  - sync_outbox: on a local replica, the mutations not yet acknowledged by the remote, written
 *    in the same transaction as the change they describe;
 *  - sync_client: on a remote, the last mutation applied per client, so a retried push is
 *    acknowledged but not applied twice;
 *  - sync_conflict: on a local replica, mutations the remote refused, with their data;
 *  - sync_state: small settings of the replica (its node id, its pull cursor, …).
 */
export const sync: Migration = {
  version: 6,
  name: 'sync',
  up(db) {
    db.exec(`
      CREATE TABLE sync_clock (
        resource TEXT NOT NULL,
        record_id TEXT NOT NULL,
        clocks TEXT NOT NULL,
        PRIMARY KEY (resource, record_id)
      ) WITHOUT ROWID;
      CREATE TABLE sync_outbox (
        mutation_id INTEGER PRIMARY KEY AUTOINCREMENT,
        resource TEXT NOT NULL,
        record_id TEXT NOT NULL,
        op TEXT NOT NULL,
        fields TEXT,
        hlc TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE sync_client (
        client_id TEXT PRIMARY KEY,
        last_mutation_id INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE sync_conflict (
        id TEXT PRIMARY KEY,
        mutation_id INTEGER NOT NULL,
        resource TEXT NOT NULL,
        record_id TEXT NOT NULL,
        op TEXT NOT NULL,
        fields TEXT,
        hlc TEXT NOT NULL,
        error TEXT NOT NULL,
        server_record TEXT,
        created_at TEXT NOT NULL,
        resolved_at TEXT,
        resolution TEXT
      );
      CREATE TABLE sync_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );
    `);
  },
};
