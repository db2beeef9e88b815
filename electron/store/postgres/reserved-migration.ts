/**
 * PostgreSQL's environment migration 14 is the payroll hour codes' (another line of work,
 * merged separately; SQLite's 27 likewise). Until the two meet this one holds the number and
 * changes nothing; at the merge the hour codes' migration takes its place.
 */
import type { PostgresMigration } from './postgres-database.js';

export const reservedForHourCodesMigration: PostgresMigration = {
  version: 14,
  name: 'reserved-for-hour-codes',
  async up() {},
};
