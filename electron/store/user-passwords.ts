/**
 * Password digests of an environment's users (migration environment/0007-oauth). The digest
 * string carries its own algorithm, parameters and salt (see api/oauth/passwords.ts), so the
 * cost can be raised later without a migration.
 */
import { nowTimestamp } from '../../shared/ids.js';
import type { EnvironmentStore } from './environment-store.js';

export function passwordHashOf(store: EnvironmentStore, userId: string): string | undefined {
  const row = store.db.prepare('SELECT hash FROM user_password WHERE user_id = ?').get(userId) as { hash: string } | undefined;
  return row?.hash;
}

export function setPasswordHash(store: EnvironmentStore, userId: string, hash: string): void {
  store.db
    .prepare(
      'INSERT INTO user_password (user_id, hash, updated_at) VALUES (?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at',
    )
    .run(userId, hash, nowTimestamp());
}
