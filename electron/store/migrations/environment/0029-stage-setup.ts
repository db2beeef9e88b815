import type { Migration } from '../../database.js';

/**
 * A stage's setup time (docs/API.md "Setup times"): minutes added once per card on the stage,
 * before the work. Existing stages get 0, so their load stays as it was.
 */
export const stageSetup: Migration = {
  version: 29,
  name: 'stage-setup',
  up(db) {
    db.exec(`ALTER TABLE "stage" ADD COLUMN "setup_minutes" INTEGER DEFAULT 0;`);
  },
};
