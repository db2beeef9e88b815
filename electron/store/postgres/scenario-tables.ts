/**
 * PostgreSQL's environment migration 25, as SQLite's environment migration 32
 * (migrations/environment/0032-scenarios.ts): the environment's plan scenarios, each a schema
 * of its own holding a copy of the environment's tables (postgres/scenario-book.ts,
 * docs/decisions/scenarios-on-postgres.md). `base` is the change log's position the copy was
 * made at; `version` the environment schema's migration version then, from which the copy is
 * migrated with its environment (environment-schemas.ts). Never synced. Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const scenarioTableMigration: PostgresMigration = {
  version: 25,
  name: 'scenarios',
  async up(client) {
    await client.query(`
      CREATE TABLE "scenario" (
        "id" text PRIMARY KEY,
        "name" text NOT NULL,
        "description" text,
        "base" bigint NOT NULL,
        "version" integer NOT NULL,
        "created_at" text NOT NULL
      );
    `);
  },
};
