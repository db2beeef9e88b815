import type { Migration } from '../../database.js';

/**
 * Plan scenarios (docs/API.md "Scenarios", docs/decisions/scenarios.md): a copy of the
 * environment's file in which a planner tries a what-if. This table lists them in the
 * environment's own file; `base` is the change-log position the copy was made at, from which
 * a promote reads what the scenario and the live plan changed since. Local to the data folder:
 * it never syncs.
 */
export const scenarios: Migration = {
  version: 32,
  name: 'scenarios',
  up(db) {
    db.exec(`
      CREATE TABLE "scenario" (
        "id" TEXT PRIMARY KEY,
        "name" TEXT NOT NULL,
        "description" TEXT,
        "base" INTEGER NOT NULL,
        "created_at" TEXT NOT NULL
      );
    `);
  },
};
