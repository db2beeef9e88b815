import type { Migration } from '../../database.js';

/**
 * Skills and crews (docs/API.md "Skills and crews"): a resource's skills (JSON text, a list of
 * names), an activity's skill (who may do it) and crew (how many people at once). Existing
 * resources get no skills and existing activities no skill and a crew of 1, so every plan stays
 * as it was.
 */
export const skillsAndCrews: Migration = {
  version: 37,
  name: 'skills-and-crews',
  up(db) {
    db.exec(`
      ALTER TABLE "resource" ADD COLUMN "skills" TEXT DEFAULT '[]';
      ALTER TABLE "activity" ADD COLUMN "skill" TEXT;
      ALTER TABLE "activity" ADD COLUMN "crew" INTEGER DEFAULT 1;
    `);
  },
};
