import type { Migration } from '../../database.js';

/**
 * Sync groups (docs/API.md "Sync", "Actions sync whole"): a planner's action is one command,
 * and it syncs as one group that the remote applies all or nothing.
 *  - `sync_outbox.group_id`: the command a queued mutation belongs to (null for a write of no
 *    command, which is a group of its own, and for rows queued before this migration);
 *  - `sync_conflict.group_id` and `group_description`: the action a refused mutation belonged
 *    to and what the planner did ("Move 5 cards"), so the conflict list shows one entry per
 *    refused action, not one per record. Old rows keep null: each is its own entry, as before.
 */
export const syncGroups: Migration = {
  version: 20,
  name: 'sync-groups',
  up(db) {
    db.exec(`
      ALTER TABLE sync_outbox ADD COLUMN group_id TEXT;
      ALTER TABLE sync_conflict ADD COLUMN group_id TEXT;
      ALTER TABLE sync_conflict ADD COLUMN group_description TEXT;
      CREATE INDEX sync_conflict_group ON sync_conflict(group_id) WHERE group_id IS NOT NULL;
    `);
  },
};
