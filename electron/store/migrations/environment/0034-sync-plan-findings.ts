import type { Migration } from '../../database.js';

/**
 * What a sync's merge made of the plan, kept on a local replica (docs/API.md "Sync", "Plan
 * check"): a stage-day or person-day over capacity, stages out of order, a collection past its
 * due or promised date, a person on two cards at once, that the local plan did not have before
 * the pull. `record`, `details` and `changes` (the pulled changes that made it, with the
 * computer that wrote each) are JSON. One open finding per `key`; `status` is `open` until the
 * planner accepts it (`accepted`).
 */
export const syncPlanFindings: Migration = {
  version: 34,
  name: 'sync-plan-findings',
  up(db) {
    db.exec(`
      CREATE TABLE sync_plan_finding (
        id TEXT PRIMARY KEY,
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        board_id TEXT,
        date TEXT,
        record TEXT NOT NULL,
        text TEXT NOT NULL,
        details TEXT NOT NULL,
        changes TEXT NOT NULL,
        noticed_at TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'open',
        resolved_at TEXT
      );
      CREATE UNIQUE INDEX sync_plan_finding_open ON sync_plan_finding (key) WHERE status = 'open';
    `);
  },
};
