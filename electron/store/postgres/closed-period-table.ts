import type { PostgresMigration } from './postgres-database.js';

/**
 * Environment migrations 14 to 16 belong to work on other branches (surcharge rules and hour
 * codes in the time reports); until they are merged, these stand in for them and change
 * nothing, so that closed periods keep version 17 on every branch. Merging replaces them.
 */
export const reservedForOtherBranches: readonly PostgresMigration[] = [14, 15, 16].map((version) => ({
  version,
  name: `reserved-${version}`,
  async up() {},
}));

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
