/**
 * Picks the board the planner works on. The choice goes to the UI store (`boardId`), where
 * the planboard and anything else board-specific read it through `usePickedBoard`.
 */
import { useId } from 'react';
import { useT } from '../../i18n/index.js';
import { useUiStore } from '../../state/ui.js';
import { usePickedBoard } from './picked-board.js';

export function BoardPicker() {
  const { board, boards } = usePickedBoard();
  const pickBoard = useUiStore((state) => state.pickBoard);
  const id = useId();
  const t = useT();
  const list = boards.data?.data ?? [];

  if (list.length === 0) return null;
  return (
    <div className="picker board-picker">
      <label htmlFor={id}>{t('boards.picker')}</label>
      <select id={id} value={board?.id ?? ''} onChange={(event) => pickBoard(event.target.value)}>
        {list.map((candidate) => (
          <option key={candidate.id} value={candidate.id}>
            {candidate.name}
          </option>
        ))}
      </select>
    </div>
  );
}
