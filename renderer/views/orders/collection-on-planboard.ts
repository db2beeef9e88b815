/**
 * Where the planboard can show an order's collection: on its own board once it has one
 * (planned: its cards; sent back: that board's backlog), else in the backlog of a board that
 * lists collections on no board (`own_backlog: false`) — the picked board when it does, or the
 * first such board. Pure (test/renderer/collection-on-planboard.test.ts).
 */
import type { Board } from '../../../shared/resources/board.js';
import type { Collection } from '../../../shared/resources/collection.js';

export type CollectionOnPlanboard =
  | { kind: 'board'; boardId: string; boardName: string; planned: boolean }
  /** Ignored collections are in no backlog. */
  | { kind: 'ignored' }
  /** It has a board, but that board was deleted. */
  | { kind: 'board-gone' }
  /** There are no boards at all. */
  | { kind: 'no-board' }
  /** Every board keeps its own backlog, so none lists collections without a board. */
  | { kind: 'no-shared-backlog' };

type BoardChoice = Pick<Board, 'id' | 'name' | 'own_backlog'>;

export function collectionOnPlanboard(
  collection: Pick<Collection, 'status' | 'board_id'>,
  boards: readonly BoardChoice[],
  pickedBoardId: string | null,
): CollectionOnPlanboard {
  if (collection.status === 'ignored') return { kind: 'ignored' };
  const show = (board: BoardChoice) =>
    ({ kind: 'board', boardId: board.id, boardName: board.name, planned: collection.status === 'planned' }) as const;
  if (collection.board_id) {
    const own = boards.find((board) => board.id === collection.board_id);
    return own ? show(own) : { kind: 'board-gone' };
  }
  if (boards.length === 0) return { kind: 'no-board' };
  const picked = boards.find((board) => board.id === pickedBoardId && !board.own_backlog);
  const shared = picked ?? boards.find((board) => !board.own_backlog);
  return shared ? show(shared) : { kind: 'no-shared-backlog' };
}
