import type { Migration } from '../../database.js';

/**
 * KPIs with history (docs/API.md "KPIs"): the figures of closed periods, kept per board, time
 * frame and period; and the date first promised on an order, set by the server once. Orders that
 * were promised before this version count their promise as of now as the first one.
 */
export const kpiSnapshots: Migration = {
  version: 28,
  name: 'kpi-snapshots',
  up(db) {
    db.exec(`
      CREATE TABLE "kpi_snapshot" (
        "id" TEXT PRIMARY KEY,
        "board_id" TEXT NOT NULL,
        "time_frame" TEXT NOT NULL,
        "period_start" TEXT NOT NULL,
        "period_end" TEXT NOT NULL,
        "figures" TEXT NOT NULL,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE UNIQUE INDEX kpi_snapshot_period ON "kpi_snapshot"("board_id", "time_frame", "period_start");
      ALTER TABLE "order" ADD COLUMN "first_promised_date" TEXT;
      UPDATE "order" SET "first_promised_date" = "promised_date" WHERE "promised_date" IS NOT NULL;
    `);
  },
};
