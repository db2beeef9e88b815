import type { Migration } from '../../database.js';

/**
 * The exception inbox's handling (docs/API.md "Exceptions"): one record per user and exception
 * key, seen or snoozed until a day, which syncs like any other record.
 */
export const exceptionHandling: Migration = {
  version: 26,
  name: 'exception-handling',
  up(db) {
    db.exec(`
      CREATE TABLE "exception_handling" (
        "id" TEXT PRIMARY KEY,
        "user_id" TEXT NOT NULL,
        "exception_key" TEXT NOT NULL,
        "seen" INTEGER NOT NULL DEFAULT 0,
        "snoozed_until" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX exception_handling_user_key ON "exception_handling"("user_id", "exception_key");
    `);
  },
};
