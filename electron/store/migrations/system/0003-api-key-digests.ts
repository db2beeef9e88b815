import { randomBytes } from 'node:crypto';
import type { Migration } from '../../database.js';

/**
 * API keys are found by a keyed digest instead of being tried one by one with scrypt
 * (docs/API.md "Authentication"): every key gets a `digest` column (HMAC-SHA256 under the
 * data folder's `api_key_pepper`), indexed. `salt` and `hash` become optional: they stay only
 * on keys stored before this migration, until each is used once and gets its digest (the key
 * itself is needed to make one, so they cannot be converted here). SQLite cannot drop NOT NULL
 * from a column, so the table is rebuilt.
 */
export const apiKeyDigests: Migration = {
  version: 3,
  name: 'api-key-digests',
  up(db) {
    db.exec(`
      CREATE TABLE api_key_rebuilt (
        id TEXT PRIMARY KEY,
        environment_id TEXT NOT NULL REFERENCES environment(id) ON DELETE CASCADE,
        digest TEXT,
        salt TEXT,
        hash TEXT,
        label TEXT,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        CHECK (digest IS NOT NULL OR (salt IS NOT NULL AND hash IS NOT NULL))
      );
      INSERT INTO api_key_rebuilt (id, environment_id, salt, hash, label, created_at, revoked_at)
        SELECT id, environment_id, salt, hash, label, created_at, revoked_at FROM api_key;
      DROP TABLE api_key;
      ALTER TABLE api_key_rebuilt RENAME TO api_key;
      CREATE INDEX api_key_environment ON api_key(environment_id);
      CREATE INDEX api_key_digest ON api_key(digest);
      CREATE TABLE api_key_pepper (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        secret TEXT NOT NULL
      );
    `);
    db.prepare('INSERT INTO api_key_pepper (id, secret) VALUES (1, ?)').run(randomBytes(32).toString('hex'));
  },
};
