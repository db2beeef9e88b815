import type { Migration } from '../../database.js';

/**
 * The plan check's findings listed newest first (docs/API.md "Sync", "Plan check"): `GET
 * /v1/sync/plan_check` pages them by `noticed_at DESC, id DESC`. A busy replica keeps tens of
 * thousands, and without an index each page sorted all of them with their changes (160–200 ms
 * of CPU for 57,000, measured); with it a page reads its rows in order and stops (under 1 ms).
 * Only here: the team server keeps no findings (a replica's books).
 */
export const planFindingsByNotice: Migration = {
  version: 40,
  name: 'plan-findings-by-notice',
  up(db) {
    db.exec(`CREATE INDEX sync_plan_finding_noticed ON sync_plan_finding (noticed_at, id);`);
  },
};
