import type { Migration } from '../../database.js';

/**
 * What the floor reports as scrapped on an order row (docs/API.md "The floor"): a quantity of
 * its own beside `quantity_delivered`, which counts what was made.
 */
export const orderRowScrapped: Migration = {
  version: 25,
  name: 'order-row-scrapped',
  up(db) {
    db.exec(`ALTER TABLE "order_row" ADD COLUMN "quantity_scrapped" REAL;`);
  },
};
