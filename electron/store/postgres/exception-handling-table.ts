import type { PostgresMigration } from './postgres-database.js';

/**
 * Environment migration 13: the exception inbox's handling (SQLite environment migration 26),
 * one record per user and exception key (docs/API.md "Exceptions").
 */
export const exceptionHandlingTableMigration: PostgresMigration = {
  version: 13,
  name: 'exception-handling',
  async up(client) {
    await client.query(`
        CREATE TABLE "exception_handling" ("id" text PRIMARY KEY, "user_id" text, "exception_key" text, "seen" boolean, "snoozed_until" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "exception_handling_unique_user_id_exception_key" ON "exception_handling" ("user_id", "exception_key") WHERE "user_id" IS NOT NULL AND "exception_key" IS NOT NULL;
    `);
  },
};
