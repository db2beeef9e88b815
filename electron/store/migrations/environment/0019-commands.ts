import type { Migration } from '../../database.js';

/**
 * Commands (docs/API.md "Commands and undo"): a planner's action is one command, one undo step.
 *  - `change_log.command_id`: the command a write belonged to (null for writes before this
 *    migration and for writes that are no command, such as changes synced in from elsewhere);
 *  - `change_log.before`: the previous values of the fields the write changed, as JSON (null
 *    for a create, and for rows written before this migration), from which undo writes the
 *    inverse;
 *  - `command`: one row per command, with its description and the command it undoes.
 */
export const commands: Migration = {
  version: 19,
  name: 'commands',
  up(db) {
    db.exec(`
      ALTER TABLE change_log ADD COLUMN command_id TEXT;
      ALTER TABLE change_log ADD COLUMN before TEXT;
      CREATE INDEX change_log_command ON change_log(command_id) WHERE command_id IS NOT NULL;
      CREATE TABLE command (
        id TEXT PRIMARY KEY,
        description TEXT NOT NULL,
        undoes TEXT,
        actor TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX command_created ON command(created_at);
      CREATE INDEX command_undoes ON command(undoes) WHERE undoes IS NOT NULL;
    `);
  },
};
