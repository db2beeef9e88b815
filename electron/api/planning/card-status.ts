/** The status a new card gets on a board when none is named. */
import { getWhereIn } from '../store-steps.js';
import { tables } from '../tables.js';

/** The first entry status of a board (by priority), else its first status. */
export function* defaultStatus(boardId: string) {
  const statuses = (yield* getWhereIn(tables.status, 'board_id', [boardId])).sort((a, b) => a.priority - b.priority);
  return statuses.find((s) => s.entry) ?? statuses[0];
}
