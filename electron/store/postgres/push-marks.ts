/**
 * A replica's mark as the remote on PostgreSQL keeps it (docs/architecture.md "Races between
 * nodes", docs/decisions/push-idempotence.md; docs/API.md "Sync", "Replica ids"). The push holds the mark from its read to
 * its commit (`SyncWrites.replicaMark` in postgres/record-store.ts reads it with `lock`), so a
 * batch resent to another node while the first still applies it waits there, then is answered
 * from the mark; the copy from SQLite and its checks read it without.
 */
import type { ReplicaMark } from '../sync-book.js';
import type { PostgresClient } from './postgres-database.js';

export type { ReplicaMark };

interface MarkRow {
  owner: string | null;
  last: string;
  batch: ReplicaMark['batch'];
}

/**
 * A replica's mark, or undefined before its first push. With `lock`, its row is held until the
 * caller's transaction ends (`FOR UPDATE`: the push, SyncWrites.replicaMark).
 */
export async function replicaMark(
  client: PostgresClient,
  replicaId: string,
  options: { lock?: boolean } = {},
): Promise<ReplicaMark | undefined> {
  const { rows } = await client.query<MarkRow>(
    `SELECT owner, last_mutation_id::text AS last, last_batch AS batch FROM replica_mark WHERE replica_id = $1${options.lock ? ' FOR UPDATE' : ''}`,
    [replicaId],
  );
  const row = rows[0];
  // Mutation ids are safe integers (docs/API.md "Sync"), so the bigint fits a number.
  return row ? { owner: row.owner, last: Number(row.last), batch: row.batch } : undefined;
}
