/**
 * A delete button that asks once more before it acts: "Delete “Frame”?" with Confirm delete
 * and Cancel. Escape cancels the question (and goes no further: it must not also close the
 * panel or dialog around it).
 */
import { useState } from 'react';

interface ConfirmDeleteProps {
  /** What the planner calls the record: names the buttons ("Delete Frame") and the question. */
  name: string;
  /** The button's visible text. */
  text?: string;
  /** The button's accessible name; "Delete <name>" unless given. */
  label?: string;
  pending?: boolean;
  onConfirm: () => void;
}

export function ConfirmDelete({ name, text = 'Delete', label, pending = false, onConfirm }: ConfirmDeleteProps) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="button button--quiet" aria-label={label ?? `Delete ${name}`} onClick={() => setConfirming(true)}>
        {text}
      </button>
    );
  }
  return (
    <span
      className="row-actions"
      role="group"
      aria-label={`Delete ${name}?`}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        setConfirming(false);
      }}
    >
      <span className="row-actions__question">Delete “{name}”?</span>
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
        Confirm delete
      </button>
      <button type="button" className="button" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </span>
  );
}
