/**
 * Add, duplicate and delete above the order-rows grid. Duplicate and delete act on the row of
 * the active cell and say which ("Delete row 2"); delete asks once more, because a deleted row
 * also takes its minutes out of the order's collection.
 */
import { useState } from 'react';
import { useT } from '../../i18n/index.js';

interface OrderRowActionsProps {
  /** 1-based number of the row the active cell is in; null when there are no rows. */
  rowNumber: number | null;
  busy: boolean;
  onAdd: () => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

export function OrderRowActions({ rowNumber, busy, onAdd, onDuplicate, onDelete }: OrderRowActionsProps) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);

  if (confirming && rowNumber !== null) {
    return (
      <div
        className="row-actions"
        onKeyDown={(event) => {
          if (event.key === 'Escape') setConfirming(false);
        }}
      >
        <span className="row-actions__question">{t('orders.rows.deleteQuestion', { row: rowNumber })}</span>
        <button
          type="button"
          className="button button--danger"
          autoFocus
          disabled={busy}
          onClick={() => {
            setConfirming(false);
            onDelete();
          }}
        >
          {t('common.confirmDelete')}
        </button>
        <button type="button" className="button" onClick={() => setConfirming(false)}>
          {t('common.cancel')}
        </button>
      </div>
    );
  }

  return (
    <div className="row-actions">
      <button type="button" className="button" disabled={busy} onClick={onAdd}>
        {t('orders.rows.add')}
      </button>
      <button type="button" className="button" disabled={busy || rowNumber === null} onClick={onDuplicate}>
        {rowNumber === null ? t('orders.rows.duplicate') : t('orders.rows.duplicateRow', { row: rowNumber })}
      </button>
      <button type="button" className="button" disabled={busy || rowNumber === null} onClick={() => setConfirming(true)}>
        {rowNumber === null ? t('orders.rows.delete') : t('orders.rows.deleteRow', { row: rowNumber })}
      </button>
    </div>
  );
}
