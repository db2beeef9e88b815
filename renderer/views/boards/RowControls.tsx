/**
 * Move up, move down and remove for one row of an ordered list (ListEditor.tsx: stages, statuses, labels).
 * The buttons name the row by its place ("Move stage 2 up"), as the row's inputs do.
 */
import { useT } from '../../i18n/index.js';

interface RowControlsProps {
  /** The row as a sentence names it: "stage 2" (`boards.stage.row`). */
  row: string;
  index: number;
  count: number;
  onMove: (to: number) => void;
  onRemove: () => void;
}

export function RowControls({ row, index, count, onMove, onRemove }: RowControlsProps) {
  const t = useT();
  return (
    <div className="row-actions">
      <button
        type="button"
        className="button button--quiet"
        aria-label={t('boards.row.moveUp', { row })}
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      >
        {t('boards.row.up')}
      </button>
      <button
        type="button"
        className="button button--quiet"
        aria-label={t('boards.row.moveDown', { row })}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      >
        {t('boards.row.down')}
      </button>
      <button type="button" className="button button--quiet" aria-label={t('boards.row.removeRow', { row })} onClick={onRemove}>
        {t('boards.row.remove')}
      </button>
    </div>
  );
}
