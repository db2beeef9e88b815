import type { PostgresMigration } from './postgres-database.js';

/**
 * Environment migration 17: closed payroll periods (SQLite environment migration 30), the days
 * in which no time entry is written any more (docs/API.md "Closed periods").
 */
export const closedPeriodTableMigration: PostgresMigration = {
  version: 17,
  name: 'closed-periods',
  async up(client) {
    await client.query(`
        CREATE TABLE "closed_period" ("id" text PRIMARY KEY, "start" text, "end" text, "closed_by" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE INDEX "closed_period_end" ON "closed_period" ("end");
    `);
  },
};
