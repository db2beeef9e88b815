import type { Migration } from '../../database.js';

/**
 * Payroll hour codes (docs/API.md "Surcharge rules"): an activity's `hour_code`, and surcharge
 * rules, base data that syncs like any other record.
 */
export const hourCodes: Migration = {
  version: 27,
  name: 'hour-codes',
  up(db) {
    db.exec(`
      ALTER TABLE "activity" ADD COLUMN "hour_code" TEXT;
      CREATE TABLE "surcharge_rule" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "weekdays" TEXT NOT NULL DEFAULT '[]',
        "public_holiday" INTEGER NOT NULL DEFAULT 0,
        "from_time" TEXT,
        "to_time" TEXT,
        "percentage" REAL NOT NULL,
        "hour_code" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX surcharge_rule_external_ref ON "surcharge_rule"("external_ref") WHERE "external_ref" IS NOT NULL;
    `);
  },
};
