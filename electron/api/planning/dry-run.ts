/**
 * A dry run (docs/API.md "Planning", "Finite-capacity planning"): a write made in full inside a
 * transaction that is then rolled back, so its answer is exactly what the write would do, and
 * no card, change-log row, outbox row, webhook, change event or command outlives it.
 */
import type { RecordWrites } from '../../store/record-store.js';
import { insideTransaction } from '../records.js';
import type { RequestContext } from '../resource.js';

/** Thrown to roll a dry run's transaction back, carrying its answer out. */
class RolledBack<T> {
  constructor(readonly answer: T) {}
}

/**
 * Runs `fn` in a transaction that is always rolled back, and answers what it returned. `fn`
 * gets the transaction to write in, and a context whose `records` reads inside it, so that it
 * can present what it wrote before it is gone.
 */
export async function dryRun<T>(ctx: RequestContext, fn: (tx: RecordWrites, inside: RequestContext) => Promise<T>): Promise<T> {
  try {
    await ctx.records.transaction(async (tx) => {
      throw new RolledBack(await fn(tx, insideTransaction(ctx, tx)));
    });
  } catch (error) {
    // RolledBack carries what fn returned, which is a T.
    if (error instanceof RolledBack) return error.answer as T;
    throw error;
  }
  throw new Error('unreachable: a dry run always rolls back');
}
