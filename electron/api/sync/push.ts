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
 *
 * A group (mutations of one `group_id`: one planner action, docs/API.md "Sync", "Actions
 * sync whole") is applied in one savepoint, all or nothing, and the rules of the action as a
 * whole are checked on what it left (action-checks.ts). If one of its mutations is
 * refused on its merits, the group is rolled back and every mutation of it is answered
 * refused, naming the group; if one is deferred, all of them are. The mark and the last
 * batch record each mutation as for a single one, so a resent group is answered again whole.
 */
import type { ApiErrorBody } from '../../../shared/errors.js';
import type { Mutation } from '../../../shared/operations/sync.js';
import type { RecordWrites } from '../../store/record-store.js';
import { mutationHash, type BatchEntry, type ReplicaMark } from '../../store/sync-book.js';
import { ApiError } from '../errors.js';
import { forSync } from '../permissions.js';
import { moduleNamedOrNone } from '../registry.js';
import type { Caller, RequestContext } from '../resource.js';
import { ActionChecks } from './action-checks.js';
import { applyMutation, refusalFor, refusedWith, type MutationResult } from './apply-mutation.js';
import type { KeptBudget } from './kept-data.js';

/** What a push answers for one mutation. */
export type PushAnswer =
  | (MutationResult & { duplicate?: true; hash?: string; group_id?: string })
  | { mutation_id: number; status: 'stale' | 'deferred'; error: ApiErrorBody; group_id?: string };

/** Consecutive mutations of one group, or a mutation of none on its own. */
export function groupsOf(mutations: readonly Mutation[]): Mutation[][] {
  const groups: Mutation[][] = [];
  for (const mutation of mutations) {
    const current = groups[groups.length - 1];
    if (mutation.group_id && current?.[0]!.group_id === mutation.group_id) current.push(mutation);
    else groups.push([mutation]);
  }
  return groups;
}

/** Thrown inside a group's savepoint to roll it back: the mutation that was not applied. */
class GroupNotApplied extends Error {
  constructor(
    readonly result: Exclude<MutationResult, { status: 'applied' }>,
    readonly mutation: Mutation,
  ) {
    super('group not applied');
  }
}

/** Applies a group in one savepoint: every result applied, or the first that was not (and nothing applied). */
async function applyGroup(
  ctx: RequestContext,
  tx: RecordWrites,
  budget: KeptBudget,
  group: readonly Mutation[],
): Promise<MutationResult[] | GroupNotApplied> {
  try {
    return await tx.sync.savepoint(async () => {
      const results: MutationResult[] = [];
      const checks = new ActionChecks();
      for (const mutation of group) {
        const result = await applyMutation(ctx, tx, mutation, budget, checks);
        if (result.status !== 'applied') throw new GroupNotApplied(result, mutation);
        results.push(result);
      }
      // Rules of the action as a whole, on what it left (sync/action-checks.ts).
      const refused = await checks.run(tx, group);
      if (refused) throw new GroupNotApplied(await refusalFor(ctx, tx, refused.mutation, refused.error), refused.mutation);
      return results;
    });
  } catch (error) {
    if (error instanceof GroupNotApplied) return error;
    throw error;
  }
}

/** The reason a group's other mutations give: the action syncs whole, and this part was refused. */
function groupRefusal(group: readonly Mutation[], refused: Mutation, reason: ApiErrorBody): ApiErrorBody {
  const action = group.find((m) => m.group_description)?.group_description ?? 'This action';
  const description = `Not applied: "${action}" (group ${refused.group_id}) is applied all or nothing, and its change to ${refused.resource} ${refused.id} was refused.`;
  const body = ApiError.conflict(description).body();
  return { reference: reason.reference, errors: [...body.errors, ...reason.errors] };
}

/** The credential a replica's bookkeeping belongs to: an API key, or a user through one OAuth client. */
export function replicaOwner(caller: Caller): string {
  return caller.kind === 'api-key' ? `key:${caller.keyId}` : `user:${caller.userId}:${caller.clientId ?? ''}`;
}

/** The answer to a mutation of the last batch, sent again. */
async function answerAgain(ctx: RequestContext, tx: RecordWrites, mutation: Mutation, entry: BatchEntry): Promise<PushAnswer> {
  if (entry.status === 'applied') return { mutation_id: mutation.mutation_id, status: 'applied', duplicate: true, hash: entry.hash };
  const module = moduleNamedOrNone(mutation.resource);
  const record = module ? forSync(module.table, ctx.caller, (await tx.sync.getForSync(module.table, mutation.id)) ?? null) : null;
  const clocks = await tx.sync.clocksOf(mutation.resource, mutation.id);
  return {
    mutation_id: mutation.mutation_id,
    status: 'rejected',
    duplicate: true,
    hash: entry.hash,
    // A kept refusal's error is the error body the API wrote when it refused (errors.ts).
    error: entry.error as ApiErrorBody,
    record,
    clocks: module ? forSync(module.table, ctx.caller, clocks) : clocks,
  };
}

/**
 * Applies a batch (mutation ids increasing) against a replica's mark, and hands the new mark
 * to `save` in the same transaction.
 */
export async function pushBatch(
  ctx: RequestContext,
  tx: RecordWrites,
  mutations: readonly Mutation[],
  mark: ReplicaMark,
  save: (mark: Omit<ReplicaMark, 'owner'>) => Promise<void>,
  /** What the push may keep of other versions' data. */
  budget: KeptBudget,
): Promise<{ results: PushAnswer[]; last: number }> {
  let last = mark.last;
  const batch: Record<string, BatchEntry> = {};
  const results: PushAnswer[] = [];
  let deferred: ApiErrorBody | null = null;
  for (const group of groupsOf(mutations)) {
    const groupId = group[0]!.group_id;
    // A group is applied whole; one at or below the mark was answered before (a resend), or is
    // stale, and goes mutation by mutation below, as every mutation of an older replica does.
    if (!deferred && groupId && group[0]!.mutation_id > last) {
      const applied = await applyGroup(ctx, tx, budget, group);
      if (!(applied instanceof GroupNotApplied)) {
        group.forEach((mutation, i) => {
          batch[mutation.mutation_id] = { hash: mutationHash(mutation), status: 'applied' };
          results.push({ ...applied[i]!, group_id: groupId });
        });
        last = group[group.length - 1]!.mutation_id;
        continue;
      }
      if (applied.result.status === 'deferred') {
        deferred = applied.result.error;
      } else {
        // Rolled back: every mutation is refused, with the remote's version as it now is.
        const reason = applied.result.error;
        for (const mutation of group) {
          const error = mutation === applied.mutation ? reason : groupRefusal(group, applied.mutation, reason);
          batch[mutation.mutation_id] = { hash: mutationHash(mutation), status: 'rejected', error };
          results.push({ ...(await refusedWith(ctx, tx, mutation, error)), group_id: groupId });
        }
        last = group[group.length - 1]!.mutation_id;
        continue;
      }
    }
    for (const mutation of group) {
      if (deferred) {
        results.push({ mutation_id: mutation.mutation_id, status: 'deferred', error: deferred });
        continue;
      }
      const hash = mutationHash(mutation);
      if (mutation.mutation_id <= last) {
        const before = mark.batch[mutation.mutation_id];
        if (before?.hash === hash) {
          batch[mutation.mutation_id] = before;
          results.push(await answerAgain(ctx, tx, mutation, before));
        } else {
          const error = new ApiError('conflict', [
            {
              field: 'mutation_id',
              description: `Mutation ${mutation.mutation_id} is at or below this replica id's mark (${last}) and is not part of its last batch; it was not applied. Push it again under a new replica id.`,
            },
          ]);
          results.push({ mutation_id: mutation.mutation_id, status: 'stale', error: error.body() });
        }
        continue;
      }
      const result = await applyMutation(ctx, tx, mutation, budget);
      if (result.status === 'deferred') {
        deferred = result.error;
        results.push(result);
        continue;
      }
      last = mutation.mutation_id;
      batch[mutation.mutation_id] =
        result.status === 'applied' ? { hash, status: 'applied' } : { hash, status: 'rejected', error: result.error };
      results.push(result);
    }
  }
  // An empty or wholly deferred push leaves the last batch as it was, for a resend of it.
  await save({ last, batch: Object.keys(batch).length > 0 ? batch : mark.batch });
  return { results, last };
}
