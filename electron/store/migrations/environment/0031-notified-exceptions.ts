import type { Migration } from '../../database.js';

/**
 * The kinds of exception a user is notified about (docs/API.md "Notifications"): a list on the
 * user's record, none for the users there are, so nobody gets notifications they did not ask for.
 */
export const notifiedExceptions: Migration = {
  version: 31,
  name: 'notified-exceptions',
  up(db) {
    db.exec(`ALTER TABLE "user" ADD COLUMN "notify_exceptions" TEXT NOT NULL DEFAULT '[]';`);
  },
};
