/**
 * PostgreSQL's environment migration 14, SQLite's environment migration 27
 * (migrations/environment/0027-hour-codes.ts): an activity's payroll `hour_code` and the
 * surcharge rules (docs/API.md "Surcharge rules"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const hourCodesMigration: PostgresMigration = {
  version: 14,
  name: 'hour-codes',
  async up(client) {
    await client.query(`
        ALTER TABLE "activity" ADD COLUMN "hour_code" text;
        CREATE TABLE "surcharge_rule" ("id" text PRIMARY KEY, "name" text, "weekdays" text, "public_holiday" boolean, "from_time" text, "to_time" text, "percentage" double precision, "hour_code" text, "external_ref" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "surcharge_rule_unique_external_ref" ON "surcharge_rule" ("external_ref") WHERE "external_ref" IS NOT NULL;
    `);
  },
};
