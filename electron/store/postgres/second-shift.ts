/**
 * PostgreSQL's environment migration 23, SQLite's environment migration 38
 * (migrations/environment/0038-second-shift.ts): a resource's second shift, hours per weekday
 * on top of its workdays; null for the resources there are (docs/decisions/shifts.md). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const secondShiftMigration: PostgresMigration = {
  version: 23,
  name: 'second-shift',
  async up(client) {
    await client.query(`ALTER TABLE "resource" ADD COLUMN "second_shift" text;`);
  },
};
