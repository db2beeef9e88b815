import type { Migration } from '../../database.js';

/** Environments (tenants) and the API keys that open them (stored as scrypt hashes until migration 3). */
export const environments: Migration = {
  version: 1,
  name: 'environments',
  up(db) {
    db.exec(`
      CREATE TABLE environment (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
      CREATE TABLE api_key (
        id TEXT PRIMARY KEY,
        environment_id TEXT NOT NULL REFERENCES environment(id) ON DELETE CASCADE,
        salt TEXT NOT NULL,
        hash TEXT NOT NULL,
        label TEXT,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX api_key_environment ON api_key(environment_id);
    `);
  },
};
