import type { Migration } from '../../database.js';

/**
 * Time data for payroll and billing (issue 17, docs/API.md "Time tracking"):
 *  - a time entry may have an activity and no card (a meeting, cleaning, training), as the
 *    public API allows: `card_id` loses its NOT NULL. SQLite cannot change a column's
 *    constraint, so the table is rebuilt with the same columns, rows and indexes;
 *  - an index on (user_id, start), for the checks that look at one user's entries around a
 *    time: overlapping entries and the 24 hours a day a user can work at most;
 *  - a user's `forgotten_timer_hours`: after how long a running timer of theirs is flagged
 *    `forgotten` (10 hours unless they choose otherwise).
 */
export const timeEntriesWithoutCard: Migration = {
  version: 18,
  name: 'time-entries-without-card',
  up(db) {
    const columns =
      '"id", "card_id", "activity_id", "user_id", "start", "end", "duration", "status", "locked", "running", "note", "synchronized_at", "external_ref", "external_note", "external_failed", "created_at", "updated_at", "deleted_at"';
    db.exec(`
      CREATE TABLE "time_tracking_rebuilt" (
        "id" TEXT PRIMARY KEY,
        "card_id" TEXT,
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
      INSERT INTO "time_tracking_rebuilt" (${columns}) SELECT ${columns} FROM "time_tracking";
      DROP TABLE "time_tracking";
      ALTER TABLE "time_tracking_rebuilt" RENAME TO "time_tracking";
      CREATE INDEX time_tracking_card ON "time_tracking"("card_id");
      CREATE INDEX time_tracking_user_running ON "time_tracking"("user_id", "running");
      CREATE INDEX time_tracking_start ON "time_tracking"("start");
      CREATE INDEX time_tracking_external_ref ON "time_tracking"("external_ref") WHERE "external_ref" IS NOT NULL;
      CREATE INDEX time_tracking_activity ON "time_tracking"("activity_id");
      CREATE INDEX time_tracking_user_start ON "time_tracking"("user_id", "start");
      ALTER TABLE "user" ADD COLUMN "forgotten_timer_hours" INTEGER NOT NULL DEFAULT 10;
    `);
  },
};
