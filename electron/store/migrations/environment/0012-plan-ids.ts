import type { Migration } from '../../database.js';

/**
 * Which plan a card belongs to, and a collection's current plan (`plan_id`), so the remote can
 * tell a second plan of a collection made on another replica from a card added by hand
 * (electron/api/planning/one-plan.ts). Cards planned before this have none: they count as cards
 * added by hand.
 */
export const planIds: Migration = {
  version: 12,
  name: 'plan-ids',
  up(db) {
    db.exec(`
      ALTER TABLE "card" ADD COLUMN "plan_id" TEXT;
      ALTER TABLE "collection" ADD COLUMN "plan_id" TEXT;
    `);
  },
};
