/**
 * Environment migration 8 on PostgreSQL: the password hashes users sign in with through OAuth
 * (SQLite environment table `user_password`, electron/store/user-passwords.ts), the same
 * columns. Copied by `migrate-to-postgres`; read by the sign-in once the API runs on
 * PostgreSQL (docs/architecture.md "Team server on PostgreSQL"). Frozen history.
 */
import type { PostgresMigration } from './postgres-database.js';

export const userPasswordsMigration: PostgresMigration = {
  version: 8,
  name: 'user-passwords',
  async up(client) {
    await client.query(`
      CREATE TABLE user_password (
        user_id text PRIMARY KEY,
        hash text NOT NULL,
        updated_at text NOT NULL
      );
    `);
  },
};
