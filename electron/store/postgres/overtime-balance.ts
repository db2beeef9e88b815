/**
 * PostgreSQL's environment migration 21, SQLite's environment migration 36
 * (migrations/environment/0036-overtime-balance.ts): the overtime balance's settings, each
 * user's balance frozen on a closed period, and the balance's corrections (docs/API.md
 * "Overtime balance"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const overtimeBalanceMigration: PostgresMigration = {
  version: 21,
  name: 'overtime-balance',
  async up(client) {
    await client.query(`
        ALTER TABLE "payroll_setting" ADD COLUMN "time_for_time_hour_code" text;
        ALTER TABLE "payroll_setting" ADD COLUMN "overtime_per" text DEFAULT 'week';
        ALTER TABLE "closed_period" ADD COLUMN "overtime_closing" text;
        CREATE TABLE "overtime_correction" ("id" text PRIMARY KEY, "user_id" text, "date" text, "minutes" bigint, "description" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE INDEX "overtime_correction_user_date" ON "overtime_correction" ("user_id", "date");
    `);
  },
};
