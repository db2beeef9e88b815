/**
 * A delete button that asks once more before it acts: "Delete “Frame”?" with Confirm delete
 * and Cancel. Escape cancels the question (and goes no further: it must not also close the
 * panel or dialog around it).
 */
import { useState } from 'react';
import { useT } from '../i18n/index.js';

interface ConfirmDeleteProps {
  /** What the planner calls the record: names the buttons ("Delete Frame") and the question. */
  name: string;
  /** The button's visible text; "Delete" unless given. */
  text?: string;
  /** The button's accessible name; "Delete <name>" unless given. */
  label?: string;
  pending?: boolean;
  onConfirm: () => void;
}

export function ConfirmDelete({ name, text, label, pending = false, onConfirm }: ConfirmDeleteProps) {
  const [confirming, setConfirming] = useState(false);
  const t = useT();
  if (!confirming) {
    return (
      <button
        type="button"
        className="button button--quiet"
        aria-label={label ?? t('common.deleteName', { name })}
        onClick={() => setConfirming(true)}
      >
        {text ?? t('common.delete')}
      </button>
    );
  }
  return (
    <span
      className="row-actions"
      role="group"
      aria-label={t('common.deleteGroup', { name })}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        setConfirming(false);
      }}
    >
      <span className="row-actions__question">{t('common.deleteQuestion', { name })}</span>
      <button
        type="button"
        className="button button--danger"
        autoFocus
        disabled={pending}
        onClick={() => {
          onConfirm();
          setConfirming(false);
        }}
      >
        {t('common.confirmDelete')}
      </button>
      <button type="button" className="button" onClick={() => setConfirming(false)}>
        {t('common.cancel')}
      </button>
    </span>
  );
}
