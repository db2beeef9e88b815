/**
 * The board the planner works on. The picker stores a board id in the UI store; this turns it
 * into a board of the current list, falling back to the first board (by name) when none is
 * picked yet or the picked one was deleted elsewhere, so a screen always has a board to show
 * once one exists.
 */
import { useList } from '../../api/hooks.js';
import { boardListQuery } from '../../api/queries.js';
import { useUiStore } from '../../state/ui.js';

export function usePickedBoard() {
  const boards = useList('board', boardListQuery);
  const pickedId = useUiStore((state) => state.boardId);
  const list = boards.data?.data;
  const board = list?.find((candidate) => candidate.id === pickedId) ?? list?.[0] ?? null;
  return { board, boards };
}
