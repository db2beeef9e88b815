import type { Migration } from '../../database.js';

/** Time tracked on cards, with timers, approval and export bookkeeping. */
export const timeTracking: Migration = {
  version: 9,
  name: 'time-tracking',
  up(db) {
    db.exec(`
      CREATE TABLE "time_tracking" (
        "id" TEXT PRIMARY KEY,
        "card_id" TEXT NOT NULL,
        "activity_id" TEXT,
        "user_id" TEXT,
        "start" TEXT NOT NULL,
        "end" TEXT,
        "duration" INTEGER,
        "status" TEXT,
        "locked" INTEGER,
        "running" INTEGER,
        "note" TEXT,
        "synchronized_at" TEXT,
        "external_ref" TEXT,
        "external_note" TEXT,
        "external_failed" INTEGER,
        "created_at" TEXT NOT NULL,
        "updated_at" TEXT NOT NULL,
        "deleted_at" TEXT
      );
      CREATE INDEX time_tracking_card ON "time_tracking"("card_id");
      CREATE INDEX time_tracking_user_running ON "time_tracking"("user_id", "running");
      CREATE INDEX time_tracking_start ON "time_tracking"("start");
      CREATE INDEX time_tracking_external_ref ON "time_tracking"("external_ref") WHERE "external_ref" IS NOT NULL;
    `);
  },
};
