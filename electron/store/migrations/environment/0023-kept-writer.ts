import type { Migration } from '../../database.js';

/**
 * Who wrote each value kept for another version (docs/API.md "Versions and unknown data"):
 * `key:<key id>` or `user:<user id>` for what a replica pushed, null for what a remote passed on
 * (a replica's pulls) and for what was kept before this column. The version that declares the
 * field checks the value as that writer's write before it moves it into its table, and an
 * admin sees who wrote what (`GET /v1/sync/kept`).
 */
export const keptWriter: Migration = {
  version: 23,
  name: 'kept-writer',
  up(db) {
    db.exec(`ALTER TABLE sync_unknown ADD COLUMN writer TEXT;`);
  },
};
