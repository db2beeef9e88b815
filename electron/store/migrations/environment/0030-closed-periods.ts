import type { Migration } from '../../database.js';

/**
 * Closed payroll periods (docs/API.md "Closed periods"): the days from `start` to `end` in
 * which no time entry is written any more. A record like any other, so it syncs.
 */
export const closedPeriods: Migration = {
  version: 30,
  name: 'closed-periods',
  up(db) {
    db.exec(`
      CREATE TABLE "closed_period" (
        "id" TEXT PRIMARY KEY,
        "start" TEXT NOT NULL,
        "end" TEXT NOT NULL,
        "closed_by" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX closed_period_end ON "closed_period"("end");
    `);
  },
};
