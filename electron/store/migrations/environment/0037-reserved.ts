import type { Migration } from '../../database.js';

/**
 * Version 37 is the skills' and crews' (another line of work, merged separately); the shifts'
 * migration is 38. Until the two meet this one holds the number and changes nothing; at the
 * merge the skills' migration takes its place.
 */
export const reservedForSkills: Migration = {
  version: 37,
  name: 'reserved-for-skills',
  up() {},
};
