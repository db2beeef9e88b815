/**
 * The remote's bookkeeping of one replica's push (docs/API.md "Sync", "Replica ids").
 *
 * A replica id is bound to the credential that first pushed under it, and its mark (the
 * highest mutation id the remote applied or refused on its merits) moves only for such
 * mutations. A mutation at or below the mark is answered again from the replica's last
 * batch only when its content hash matches: that is the replica's own batch, resent after
 * its answer was lost. Anything else at or below the mark is `stale`: it was not applied, and
 * the replica keeps it and pushes it again under a fresh replica id.
 *
 * A mutation whose clock runs ahead of the remote's by more than the allowed skew is
 * `deferred`: neither applied nor refused, so the mark stops before it and it (with every
 * later mutation of the batch) stays in the replica's outbox until the clocks agree.
 */
import type { ApiErrorBody } from '../../../shared/errors.js';
import type { Mutation } from '../../../shared/sync.js';
import { mutationHash, type BatchEntry, type ReplicaMark, type SyncBook } from '../../store/sync-book.js';
import { ApiError } from '../errors.js';
import { forSync } from '../permissions.js';
import { moduleNamedOrNone } from '../registry.js';
import type { Caller, RequestContext } from '../resource.js';
import { applyMutation, type MutationResult } from './apply-mutation.js';

/** What a push answers for one mutation. */
export type PushAnswer =
  | (MutationResult & { duplicate?: true; hash?: string })
  | { mutation_id: number; status: 'stale' | 'deferred'; error: ApiErrorBody };

/** The credential a replica's bookkeeping belongs to: an API key, or a user through one OAuth client. */
export function replicaOwner(caller: Caller): string {
  return caller.kind === 'api-key' ? `key:${caller.keyId}` : `user:${caller.userId}:${caller.clientId ?? ''}`;
}

/** The answer to a mutation of the last batch, sent again. */
function answerAgain(ctx: RequestContext, book: SyncBook, mutation: Mutation, entry: BatchEntry): PushAnswer {
  if (entry.status === 'applied') return { mutation_id: mutation.mutation_id, status: 'applied', duplicate: true, hash: entry.hash };
  const module = moduleNamedOrNone(mutation.resource);
  const record = module ? forSync(module.table, ctx.caller, ctx.store.getForSync(module.table, mutation.id) ?? null) : null;
  const clocks = book.clocksOf(mutation.resource, mutation.id);
  return {
    mutation_id: mutation.mutation_id,
    status: 'rejected',
    duplicate: true,
    hash: entry.hash,
    error: entry.error as ApiErrorBody,
    record,
    clocks: module ? forSync(module.table, ctx.caller, clocks) : clocks,
  };
}

/**
 * Applies a batch (mutation ids increasing) against a replica's mark, and hands the new mark
 * to `save` in the same transaction.
 */
export function pushBatch(
  ctx: RequestContext,
  book: SyncBook,
  mutations: readonly Mutation[],
  mark: ReplicaMark,
  save: (mark: Omit<ReplicaMark, 'owner'>) => void,
): { results: PushAnswer[]; last: number } {
  let last = mark.last;
  const batch: Record<string, BatchEntry> = {};
  const results: PushAnswer[] = [];
  let deferred: ApiErrorBody | null = null;
  for (const mutation of mutations) {
    if (deferred) {
      results.push({ mutation_id: mutation.mutation_id, status: 'deferred', error: deferred });
      continue;
    }
    const hash = mutationHash(mutation);
    if (mutation.mutation_id <= last) {
      const before = mark.batch[mutation.mutation_id];
      if (before?.hash === hash) {
        batch[mutation.mutation_id] = before;
        results.push(answerAgain(ctx, book, mutation, before));
      } else {
        const error = new ApiError('conflict', [{ field: 'mutation_id', description: `Mutation ${mutation.mutation_id} is at or below this replica id's mark (${last}) and is not part of its last batch; it was not applied. Push it again under a new replica id.` }]);
        results.push({ mutation_id: mutation.mutation_id, status: 'stale', error: error.body() });
      }
      continue;
    }
    const result = applyMutation(ctx, book, mutation);
    if (result.status === 'deferred') {
      deferred = result.error;
      results.push(result);
      continue;
    }
    last = mutation.mutation_id;
    batch[mutation.mutation_id] = result.status === 'applied' ? { hash, status: 'applied' } : { hash, status: 'rejected', error: result.error };
    results.push(result);
  }
  // An empty or wholly deferred push leaves the last batch as it was, for a resend of it.
  save({ last, batch: Object.keys(batch).length > 0 ? batch : mark.batch });
  return { results, last };
}
