/** The status a new card gets on a board when none is named. */
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';

/** The first entry status of a board (by priority), else its first status. */
export function defaultStatus(ctx: RequestContext, boardId: string) {
  const statuses = ctx.store.getWhereIn(tables.status, 'board_id', [boardId]).sort((a, b) => a.priority - b.priority);
  return statuses.find((s) => s.entry) ?? statuses[0];
}
