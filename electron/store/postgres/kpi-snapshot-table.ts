/**
 * PostgreSQL's environment migration 15, SQLite's environment migration 28
 * (migrations/environment/0028-kpi-snapshots.ts): the figures of closed KPI periods, and the
 * date first promised on an order (docs/API.md "KPIs"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const kpiSnapshotTableMigration: PostgresMigration = {
  version: 15,
  name: 'kpi-snapshots',
  async up(client) {
    await client.query(`
        CREATE TABLE "kpi_snapshot" ("id" text PRIMARY KEY, "board_id" text, "time_frame" text, "period_start" text, "period_end" text, "figures" text, "created_at" text NOT NULL, "updated_at" text NOT NULL, "deleted_at" text);
        CREATE UNIQUE INDEX "kpi_snapshot_unique_board_id_time_frame_period_start" ON "kpi_snapshot" ("board_id", "time_frame", "period_start") WHERE "board_id" IS NOT NULL AND "time_frame" IS NOT NULL AND "period_start" IS NOT NULL;
        ALTER TABLE "order" ADD COLUMN "first_promised_date" text;
        UPDATE "order" SET "first_promised_date" = "promised_date" WHERE "promised_date" IS NOT NULL;
    `);
  },
};
