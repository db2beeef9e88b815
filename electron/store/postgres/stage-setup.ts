/**
 * PostgreSQL's environment migration 16, SQLite's environment migration 29
 * (migrations/environment/0029-stage-setup.ts): a stage's setup time in minutes, 0 for the
 * stages there are (docs/API.md "Setup times"). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const stageSetupMigration: PostgresMigration = {
  version: 16,
  name: 'stage-setup',
  async up(client) {
    await client.query('ALTER TABLE "stage" ADD COLUMN "setup_minutes" bigint DEFAULT 0;');
  },
};
