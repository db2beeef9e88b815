import type { Migration } from '../../database.js';

/**
 * Versions 35 and 36 belong to other branches' migrations, merged beside this one; these
 * placeholders change nothing, so that the overtime balance keeps version 37 on every branch.
 * Merging those branches replaces them.
 */
export const reservedForKiosk: Migration = { version: 35, name: 'reserved', up() {} };
export const reservedForWorkshop: Migration = { version: 36, name: 'reserved', up() {} };

/**
 * The overtime balance (docs/API.md "Overtime balance"): whether overtime counts per week or
 * per day and the hour code of time for time (payroll settings), each user's balance frozen
 * on a closed period, and the corrections (payouts) of a balance, a record that syncs.
 */
export const overtimeBalance: Migration = {
  version: 37,
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
