/**
 * PostgreSQL's environment migration 22 is the skills' and crews' (another line of work, merged
 * separately; SQLite's 37 likewise). Until the two meet this one holds the number and changes
 * nothing; at the merge the skills' migration takes its place.
 */
import type { PostgresMigration } from './postgres-database.js';

export const reservedForSkillsMigration: PostgresMigration = {
  version: 22,
  name: 'reserved-for-skills',
  async up() {},
};
