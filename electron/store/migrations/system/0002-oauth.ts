import type { Migration } from '../../database.js';

/**
 * OAuth bookkeeping of the instance (docs/API.md "OAuth"):
 *  - signing_key: the keys access tokens (JWT) are signed with, by key id (`kid`);
 *  - oauth_client: registered applications, the secret stored as a SHA-256 digest;
 *  - oauth_code: authorization codes (digests), single-use and short-lived;
 *  - oauth_token_family: one sign-in; every refresh token it leads to belongs to it, so a
 *    reused refresh token revokes them all (and the access tokens, which name it in `sid`);
 *  - oauth_refresh_token: digests of refresh tokens, each usable once.
 * Users and their passwords stay in each environment's own database.
 */
export const oauth: Migration = {
  version: 2,
  name: 'oauth',
  up(db) {
    db.exec(`
      CREATE TABLE signing_key (
        id TEXT PRIMARY KEY,
        algorithm TEXT NOT NULL,
        secret TEXT NOT NULL,
        created_at TEXT NOT NULL,
        retired_at TEXT
      );
      CREATE TABLE oauth_client (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        redirect_uris TEXT NOT NULL,
        confidential INTEGER NOT NULL,
        secret_hash TEXT,
        environment_id TEXT REFERENCES environment(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT
      );
      CREATE INDEX oauth_client_environment ON oauth_client(environment_id);
      CREATE TABLE oauth_token_family (
        id TEXT PRIMARY KEY,
        client_id TEXT NOT NULL,
        environment_id TEXT NOT NULL REFERENCES environment(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        revoked_reason TEXT
      );
      CREATE TABLE oauth_code (
        code_hash TEXT PRIMARY KEY,
        client_id TEXT NOT NULL,
        environment_id TEXT NOT NULL REFERENCES environment(id) ON DELETE CASCADE,
        user_id TEXT NOT NULL,
        redirect_uri TEXT NOT NULL,
        code_challenge TEXT,
        expires_at INTEGER NOT NULL,
        used_at TEXT,
        family_id TEXT
      );
      CREATE TABLE oauth_refresh_token (
        token_hash TEXT PRIMARY KEY,
        family_id TEXT NOT NULL REFERENCES oauth_token_family(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at TEXT
      );
      CREATE INDEX oauth_refresh_token_family ON oauth_refresh_token(family_id);
    `);
  },
};
