/**
 * PostgreSQL's environment migration 19, SQLite's environment migration 33
 * (migrations/environment/0033-payroll-files.ts): a user's `payroll_ref` and the environment's
 * payroll settings (docs/API.md "Payroll files"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const payrollFilesMigration: PostgresMigration = {
  version: 19,
  name: 'payroll-files',
  async up(client) {
    await client.query(`
        ALTER TABLE "user" ADD COLUMN "payroll_ref" text;
        CREATE TABLE "payroll_setting" ("id" text PRIMARY KEY, "scope" text, "vacation_hour_code" text, "sick_hour_code" text, "leave_hour_code" text, "holiday_hour_code" text, "nmbrs_debtor_number" text, "nmbrs_company_number" text, "datev_consultant_number" text, "datev_client_number" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "payroll_setting_unique_scope" ON "payroll_setting" ("scope") WHERE "scope" IS NOT NULL;
    `);
  },
};
