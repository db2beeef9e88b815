/**
 * Replanning what is late as one command (docs/API.md "Finite-capacity planning"): each
 * collection is planned again, finite, onto the board, in priority order — the earliest due
 * date first, collections without one last, ties in the order given — so the most urgent get
 * the free capacity first. Each keeps the resources its cards had. The route opens the command,
 * so one undo puts every collection back as it was.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import type { StoredRecord } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import { planCollection } from '../planning/plan-collection.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

export interface Replan {
  board_id: string;
  collection_ids: string[];
  /** The first day of the new plans (default today). */
  start?: string;
}

/**
 * Re-plans the collections finite, in the command's transaction `tx` (either engine); answers
 * them in the order they were planned. Each collection is planned in a savepoint of its own, so
 * one that cannot be planned leaves the board as it was for the next, and all of their problems
 * come in one 422, which rolls the command back.
 */
export async function replanCollections(ctx: RequestContext, tx: RecordWrites, input: Replan): Promise<StoredRecord[]> {
  const problems: FieldProblem[] = [];
  const board = await tx.get(tables.board, input.board_id);
  if (!board) problems.push({ field: 'board_id', description: 'board_id names no board' });
  const found = new Map((await tx.getWhereIn(tables.collection, 'id', input.collection_ids)).map((c) => [c.id, c]));
  const given = input.collection_ids.flatMap((id, index) => {
    const collection = found.get(id);
    if (!collection) problems.push({ field: `collection_ids.${index}`, description: `collection_ids.${index} names no collection` });
    return collection ? [{ collection, index }] : [];
  });
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  const due = (c: { due_date: string | null }) => c.due_date ?? '9999-12-31';
  given.sort((a, b) => (due(a.collection) < due(b.collection) ? -1 : due(a.collection) > due(b.collection) ? 1 : a.index - b.index));

  const planned: StoredRecord[] = [];
  for (const { collection, index } of given) {
    const cards = (await tx.getWhereIn(tables.card, 'collection_id', [collection.id])).map((c) => c.id);
    const resources = [...new Set((await tx.getWhereIn(tables.card_resource, 'card_id', cards)).map((l) => l.resource_id))];
    const options = {
      reverse: false,
      force_stages: [],
      resources,
      capacity: 'finite' as const,
      ...(input.start ? { start: input.start } : {}),
    };
    try {
      const outcome = await tx.sync.savepoint(() => planCollection(tx, ctx, { collection, board: board! }, options));
      planned.push(outcome.collection);
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'unprocessable') throw error;
      for (const item of error.items)
        problems.push({ field: `collection_ids.${index}`, description: `collection_ids.${index}: ${item.description}` });
    }
  }
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  return planned;
}
