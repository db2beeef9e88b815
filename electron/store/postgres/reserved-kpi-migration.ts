/**
 * PostgreSQL's environment migration 15 is the KPIs' (another line of work, merged separately;
 * SQLite's 28 likewise). Until the two meet this one holds the number and changes nothing; at
 * the merge the KPIs' migration takes its place.
 */
import type { PostgresMigration } from './postgres-database.js';

export const reservedForKpisMigration: PostgresMigration = {
  version: 15,
  name: 'reserved-for-kpis',
  async up() {},
};
