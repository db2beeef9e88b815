/**
 * PostgreSQL's environment migration 18, SQLite's environment migration 31
 * (migrations/environment/0031-notified-exceptions.ts): the kinds of exception a user is
 * notified about, none for the users there are (docs/API.md "Notifications"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const notifiedExceptionsMigration: PostgresMigration = {
  version: 18,
  name: 'notified-exceptions',
  async up(client) {
    await client.query(`ALTER TABLE "user" ADD COLUMN "notify_exceptions" text NOT NULL DEFAULT '[]';`);
  },
};
