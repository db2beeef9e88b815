import type { Migration } from '../../database.js';

/**
 * Passwords of the environment's users, for OAuth sign-in: scrypt digests with their salt and
 * cost parameters, kept apart from the `user` records so they never reach the change log,
 * sync or an API answer.
 */
export const oauth: Migration = {
  version: 7,
  name: 'oauth',
  up(db) {
    db.exec(`
      CREATE TABLE user_password (
        user_id TEXT PRIMARY KEY,
        hash TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `);
  },
};
