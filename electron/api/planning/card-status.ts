/** The status a new card gets on a board when none is named. */
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

/** The first entry status of a board (by priority), else its first status. */
export async function defaultStatus(tx: RecordWrites, boardId: string) {
  const statuses = (await tx.getWhereIn(tables.status, 'board_id', [boardId])).sort((a, b) => a.priority - b.priority);
  return statuses.find((s) => s.entry) ?? statuses[0];
}
