/**
 * Commands in an environment's schema on PostgreSQL (docs/API.md "Commands and undo",
 * docs/architecture.md "Team server on PostgreSQL"), as SQLite's environment/0019-commands.
 * Frozen history like every migration.
 *
 *  - `change_log.command_id`: the command a write belonged to (null for a write of no command,
 *    such as a change synced in from elsewhere, and for rows written before this migration);
 *  - `change_log.before`: the previous values of the fields the write changed (null for a
 *    create), from which undo writes the inverse; jsonb like `fields`;
 *  - `command`: one row per command, with its description and the command it undoes. `seq`
 *    orders the command list as SQLite's rowid does: a client may name a command with an id of
 *    its own, which need not sort by time. A command is undone at most once (undo refuses a
 *    command undone already): on SQLite its one connection makes the check and the write one
 *    step, here two nodes could both pass the check, so a unique index refuses the second.
 */
import type { PostgresMigration } from './postgres-database.js';

export const commandTablesMigration: PostgresMigration = {
  version: 7,
  name: 'commands',
  async up(client) {
    await client.query(`
      ALTER TABLE change_log ADD COLUMN command_id text, ADD COLUMN before jsonb;
      CREATE INDEX change_log_command ON change_log (command_id, position) WHERE command_id IS NOT NULL;
      CREATE TABLE command (
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        description text NOT NULL,
        undoes text,
        actor text,
        created_at text NOT NULL
      );
      CREATE UNIQUE INDEX command_undoes ON command (undoes) WHERE undoes IS NOT NULL;
    `);
  },
};
