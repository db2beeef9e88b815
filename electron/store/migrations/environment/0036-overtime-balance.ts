import type { Migration } from '../../database.js';

/**
 * The overtime balance (docs/API.md "Overtime balance"): whether overtime counts per week or
 * per day and the hour code of time for time (payroll settings), each user's balance frozen
 * on a closed period, and the corrections (payouts) of a balance, a record that syncs.
 */
export const overtimeBalance: Migration = {
  version: 36,
  name: 'overtime-balance',
  up(db) {
    db.exec(`
      ALTER TABLE "payroll_setting" ADD COLUMN "time_for_time_hour_code" TEXT;
      ALTER TABLE "payroll_setting" ADD COLUMN "overtime_per" TEXT NOT NULL DEFAULT 'week';
      ALTER TABLE "closed_period" ADD COLUMN "overtime_closing" TEXT;
      CREATE TABLE "overtime_correction" (
        "id" TEXT PRIMARY KEY,
        "user_id" TEXT NOT NULL,
        "date" TEXT NOT NULL,
        "minutes" INTEGER NOT NULL,
        "description" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX overtime_correction_user_date ON "overtime_correction"("user_id", "date");
    `);
  },
};
