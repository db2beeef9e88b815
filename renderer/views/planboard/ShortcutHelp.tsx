/** The shortcut list (`?`): every key the planboard answers, in one place. */
import { useEffect, useRef } from 'react';

export const shortcuts: readonly { keys: string; what: string }[] = [
  { keys: '← → ↑ ↓', what: 'Move the selection a cell; from a card, to the cell beside it' },
  { keys: 'Enter', what: 'Open the selected card' },
  { keys: 'Esc', what: 'Close the card, then clear the selection' },
  { keys: 'Alt + ← / →', what: 'Move the selected cards a day earlier / later' },
  { keys: 'Alt + ↑ / ↓', what: 'Move the selected cards a stage up / down' },
  { keys: 'Delete', what: 'Delete the selected cards' },
  { keys: 'Shift + click, Ctrl + click', what: 'Add a card to the selection / add or remove it' },
  { keys: 'Double-click', what: 'Open a card' },
  { keys: 'Drag a card, drag its edges', what: 'Move it to another day or stage, change its dates' },
  { keys: 'Ctrl + Z', what: 'Undo' },
  { keys: 'Ctrl + Shift + Z, Ctrl + Y', what: 'Redo' },
  { keys: '?', what: 'Show or hide this list' },
];

export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  // Focus goes to the list while it shows, and back where it was (the grid) after.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    close.current?.focus();
    return () => before?.focus({ preventScroll: true });
  }, []);
  return (
    <div className="pb-help-backdrop" onClick={onClose}>
      <div
        className="pb-help"
        role="dialog"
        aria-modal="true"
        aria-labelledby="pb-help-title"
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key === 'Escape' || event.key === '?') {
            event.preventDefault();
            event.stopPropagation();
            onClose();
          }
        }}
      >
        <div className="pb-help__header">
          <h2 id="pb-help-title">Keyboard shortcuts</h2>
          <button ref={close} type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
        <dl className="pb-help__list">
          {shortcuts.map((shortcut) => (
            <div key={shortcut.keys} className="pb-help__row">
              <dt>
                <kbd>{shortcut.keys}</kbd>
              </dt>
              <dd>{shortcut.what}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
