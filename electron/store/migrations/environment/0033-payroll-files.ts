import type { Migration } from '../../database.js';

/**
 * Payroll files (docs/API.md "Payroll files"): a user's employee number in the payroll package
 * (`payroll_ref`), and the environment's one record of payroll settings, which syncs.
 */
export const payrollFiles: Migration = {
  version: 33,
  name: 'payroll-files',
  up(db) {
    db.exec(`
      ALTER TABLE "user" ADD COLUMN "payroll_ref" TEXT;
      CREATE TABLE "payroll_setting" (
        "id" TEXT PRIMARY KEY,
        "scope" TEXT NOT NULL DEFAULT 'environment',
        "vacation_hour_code" TEXT,
        "sick_hour_code" TEXT,
        "leave_hour_code" TEXT,
        "holiday_hour_code" TEXT,
        "nmbrs_debtor_number" TEXT,
        "nmbrs_company_number" TEXT,
        "datev_consultant_number" TEXT,
        "datev_client_number" TEXT,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX payroll_setting_scope ON "payroll_setting"("scope");
    `);
  },
};
