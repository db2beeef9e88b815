import type { Migration } from '../../database.js';

/**
 * `card_visibility: linked` was stored but never limited what a user sees, and is no longer
 * offered (docs/API.md "Users"): users who had it get `all`, what they saw all along, so a
 * user read and written back whole is not refused for it.
 */
export const cardVisibilityAll: Migration = {
  version: 15,
  name: 'card-visibility-all',
  up(db) {
    db.exec(`UPDATE "user" SET "card_visibility" = 'all' WHERE "card_visibility" IS NOT 'all'`);
  },
};
