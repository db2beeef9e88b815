import type { Migration } from '../../database.js';

/**
 * Keys of relations `with` loads from the other side (docs/API.md "Relations"):
 *  - board view `user_id`, whose own view it is: the public API lists a user's views with
 *    `GET /v1/user?with=board_views`. Views made before this have none: they stay shared by
 *    everyone on their board;
 *  - an index on time entries' `activity_id`, for `GET /v1/activity?with=time_tracking`.
 */
export const relationKeys: Migration = {
  version: 13,
  name: 'relation-keys',
  up(db) {
    db.exec(`
      ALTER TABLE "board_view" ADD COLUMN "user_id" TEXT;
      CREATE INDEX board_view_user ON "board_view"("user_id");
      CREATE INDEX time_tracking_activity ON "time_tracking"("activity_id");
    `);
  },
};
