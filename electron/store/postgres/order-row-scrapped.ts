/**
 * PostgreSQL's environment migration 12, SQLite's environment migration 25
 * (migrations/environment/0025-order-row-scrapped.ts): what the floor reports as scrapped on an
 * order row (docs/API.md "The floor"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const orderRowScrappedMigration: PostgresMigration = {
  version: 12,
  name: 'order-row-scrapped',
  async up(client) {
    await client.query('ALTER TABLE "order_row" ADD COLUMN "quantity_scrapped" double precision;');
  },
};
