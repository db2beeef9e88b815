/**
 * PostgreSQL's environment migration 22, SQLite's environment migration 37
 * (migrations/environment/0037-skills-and-crews.ts): a resource's skills, an activity's skill
 * and crew; no skills, no skill and a crew of 1 for the records there are (docs/API.md "Skills
 * and crews"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const skillsAndCrewsMigration: PostgresMigration = {
  version: 22,
  name: 'skills-and-crews',
  async up(client) {
    await client.query(`
      ALTER TABLE "resource" ADD COLUMN "skills" text DEFAULT '[]';
      ALTER TABLE "activity" ADD COLUMN "skill" text;
      ALTER TABLE "activity" ADD COLUMN "crew" bigint DEFAULT 1;
    `);
  },
};
