import type { Migration } from '../../database.js';

/**
 * Company holidays (docs/API.md "Absences and holidays"): a holiday of the company, or of a
 * group, kept once instead of copied onto each resource, so a resource added later has it too.
 * Holidays copied onto resources before stay their schedule deviations and keep counting.
 */
export const companyHolidays: Migration = {
  version: 24,
  name: 'company-holidays',
  up(db) {
    db.exec(`
      CREATE TABLE "company_holiday" (
        "id" TEXT PRIMARY KEY,
        "description" TEXT NOT NULL,
        "start_date" TEXT NOT NULL,
        "end_date" TEXT NOT NULL,
        "time" INTEGER,
        "group_id" TEXT,
        "external_ref" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX company_holiday_group ON "company_holiday"("group_id");
      CREATE INDEX company_holiday_external_ref ON "company_holiday"("external_ref") WHERE "external_ref" IS NOT NULL;
    `);
  },
};
