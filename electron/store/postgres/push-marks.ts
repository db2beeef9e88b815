/**
 * The remote's push bookkeeping on PostgreSQL (docs/architecture.md "Push", "Team server on
 * PostgreSQL", "Push bookkeeping"; docs/API.md "Sync", "Replica ids"): a replica's mark moves in
 * the same transaction as the batch it answers, so a push is applied once even when the replica
 * resends it to another node while the first is still applying it.
 *
 * The SQLite remote reads a mark (`SyncBook.replicaMark`), applies the batch and writes the
 * mark (`setReplicaMark`) in one transaction, and that is safe there because SQLite has one
 * writer: nothing runs between the read and the write. Nodes on PostgreSQL run pushes at once,
 * so the read must lock the replica's row until the transaction ends, and the pair becomes one
 * call around the apply, `withReplicaMark`:
 *
 *  1. the row is made if the replica id is new (`ON CONFLICT DO NOTHING`) and locked
 *     (`SELECT … FOR UPDATE`): a second push of the same replica, on any node, waits here until
 *     the first commits or rolls back, then reads the mark as it left it (READ COMMITTED, the
 *     pool's level, reads the newest committed row after the wait);
 *  2. another credential's replica id is refused (`ReplicaOwnerError`), before anything is
 *     applied; a row without an owner is claimed;
 *  3. mutations at or below the mark are answered from the last batch when their content hash
 *     matches (the replica's own batch, resent after its answer was lost) and are `stale`
 *     otherwise; the ones above it go to the caller's `apply`, in the same transaction;
 *  4. the mark moves to the last mutation applied or refused on its merits, stopping before
 *     the first deferred one, and the last batch is this push's.
 *
 * A throw anywhere (the apply's, or the refusal) rolls the caller's transaction back, mark
 * and batch included. The result types mirror `api/sync/push.ts`: the caller turns them into
 * push answers, and applies groups all or nothing inside `apply` as it does there.
 */
import { mutationHash, type BatchEntry, type ReplicaMark } from '../sync-book.js';
import type { Mutation } from '../../../shared/sync.js';
import type { PostgresClient } from './postgres-database.js';

export type { BatchEntry, ReplicaMark };

/** A push under a replica id that another credential registered: the API answers 403. */
export class ReplicaOwnerError extends Error {
  constructor(
    readonly replicaId: string,
    /** The credential that pushed, not the one that owns the id (which is not told). */
    readonly owner: string,
  ) {
    super('This replica id belongs to another sign-in or API key. A replica pushes under an id of its own.');
    this.name = 'ReplicaOwnerError';
  }
}

/** What the caller's apply made of one mutation above the mark. */
export type ApplyOutcome = { status: 'applied' } | { status: 'rejected'; error: unknown } | { status: 'deferred' };

/** One mutation of a push, in the push's order. */
export type MarkedMutation<R extends ApplyOutcome> =
  /** At or below the mark, of the last batch with the same content: answered again, not applied. */
  | { kind: 'duplicate'; mutation: Mutation; entry: BatchEntry }
  /** At or below the mark and not the replica's own last batch: not applied (push it under a new id). */
  | { kind: 'stale'; mutation: Mutation }
  /** Above the mark: what the apply answered. */
  | { kind: 'fresh'; mutation: Mutation; outcome: R };

export interface MarkedPush<R extends ApplyOutcome> {
  mutations: MarkedMutation<R>[];
  /** The mark after the push (the mark before it when nothing moved it). */
  last: number;
}

interface MarkRow {
  owner: string | null;
  last: string;
  batch: Record<string, BatchEntry>;
}

/** A replica's mark, or undefined before its first push; reads without locking. */
export async function replicaMark(client: PostgresClient, replicaId: string): Promise<ReplicaMark | undefined> {
  const { rows } = await client.query<MarkRow>(
    'SELECT owner, last_mutation_id::text AS last, last_batch AS batch FROM replica_mark WHERE replica_id = $1',
    [replicaId],
  );
  const row = rows[0];
  // Mutation ids are safe integers (docs/API.md "Sync"), so the bigint fits a number.
  return row ? { owner: row.owner, last: Number(row.last), batch: row.batch } : undefined;
}

/**
 * Applies a push (mutation ids increasing) against the replica's mark, in the caller's
 * transaction on `client` (inside `withEnvironment`): `apply` gets the mutations above the
 * mark, in order, and answers one outcome each; once one is deferred, so is every one after
 * it. Throws `ReplicaOwnerError` when `owner` is not the replica id's owner.
 */
export async function withReplicaMark<R extends ApplyOutcome>(
  client: PostgresClient,
  replicaId: string,
  owner: string,
  mutations: readonly Mutation[],
  apply: (fresh: readonly Mutation[], mark: ReplicaMark) => Promise<readonly R[]>,
): Promise<MarkedPush<R>> {
  mutations.forEach((m, i) => {
    if (!Number.isSafeInteger(m.mutation_id) || m.mutation_id < 1 || (i > 0 && m.mutation_id <= mutations[i - 1]!.mutation_id))
      throw new Error('A push lists mutation ids increasing, each a whole number from 1.');
  });
  await client.query('INSERT INTO replica_mark (replica_id, owner) VALUES ($1, $2) ON CONFLICT DO NOTHING', [replicaId, owner]);
  const { rows } = await client.query<MarkRow>(
    'SELECT owner, last_mutation_id::text AS last, last_batch AS batch FROM replica_mark WHERE replica_id = $1 FOR UPDATE',
    [replicaId],
  );
  const row = rows[0]!;
  if (row.owner !== null && row.owner !== owner) throw new ReplicaOwnerError(replicaId, owner);
  const mark: ReplicaMark = { owner, last: Number(row.last), batch: row.batch };

  const marked: MarkedMutation<R>[] = [];
  const batch: Record<string, BatchEntry> = {};
  const fresh: Mutation[] = [];
  for (const mutation of mutations) {
    if (mutation.mutation_id > mark.last) {
      fresh.push(mutation);
      continue;
    }
    const before = mark.batch[mutation.mutation_id];
    if (before && before.hash === mutationHash(mutation)) {
      batch[mutation.mutation_id] = before;
      marked.push({ kind: 'duplicate', mutation, entry: before });
    } else {
      marked.push({ kind: 'stale', mutation });
    }
  }

  let last = mark.last;
  if (fresh.length > 0) {
    const outcomes = await apply(fresh, mark);
    if (outcomes.length !== fresh.length) throw new Error(`The apply answered ${outcomes.length} outcomes for ${fresh.length} mutations.`);
    let deferred = false;
    fresh.forEach((mutation, i) => {
      const outcome = outcomes[i]!;
      marked.push({ kind: 'fresh', mutation, outcome });
      if (outcome.status === 'deferred') deferred = true;
      else if (deferred) throw new Error(`Mutation ${mutation.mutation_id} was ${outcome.status} after a deferred one.`);
      else {
        const hash = mutationHash(mutation);
        batch[mutation.mutation_id] =
          outcome.status === 'applied' ? { hash, status: 'applied' } : { hash, status: 'rejected', error: outcome.error };
        last = mutation.mutation_id;
      }
    });
  }

  // An empty or wholly deferred push leaves the last batch as it was, for a resend of it.
  const kept = Object.keys(batch).length > 0 ? batch : mark.batch;
  await client.query(
    'UPDATE replica_mark SET owner = $2, last_mutation_id = $3, last_batch = $4, updated_at = now() WHERE replica_id = $1',
    [replicaId, owner, last, JSON.stringify(kept)],
  );
  return { mutations: marked, last };
}
