/**
 * The team server's system tables on PostgreSQL, a server migration in the `planner` schema:
 * environments, their API keys (keyed digests, or a scrypt hash for keys from before digests)
 * and the pepper of the digests — system migrations 1 and 3 of the SQLite system database in
 * one (postgres/system-store.ts uses them). Frozen history, like every migration.
 */
import { randomBytes } from 'node:crypto';
import { serverSchema, type PostgresMigration } from './postgres-database.js';

export const systemTablesMigration: PostgresMigration = {
  version: 4,
  name: 'environments-and-api-keys',
  async up(client) {
    await client.query(`
        CREATE TABLE ${serverSchema}.environment (
          id text PRIMARY KEY,
          name text NOT NULL UNIQUE,
          created_at text NOT NULL
        );
        CREATE TABLE ${serverSchema}.api_key (
          id text PRIMARY KEY,
          environment_id text NOT NULL REFERENCES ${serverSchema}.environment (id) ON DELETE CASCADE,
          digest text,
          salt text,
          hash text,
          label text,
          created_at text NOT NULL,
          revoked_at text,
          CHECK (digest IS NOT NULL OR (salt IS NOT NULL AND hash IS NOT NULL))
        );
        CREATE INDEX api_key_environment ON ${serverSchema}.api_key (environment_id);
        CREATE INDEX api_key_digest ON ${serverSchema}.api_key (digest);
        CREATE TABLE ${serverSchema}.api_key_pepper (
          id integer PRIMARY KEY CHECK (id = 1),
          secret text NOT NULL
        );
      `);
    await client.query(`INSERT INTO ${serverSchema}.api_key_pepper (id, secret) VALUES (1, $1)`, [randomBytes(32).toString('hex')]);
  },
};
