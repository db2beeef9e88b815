/** The shortcut list (`?`): every key the planboard answers, in one place. */
import { useEffect, useRef } from 'react';
import { useT } from '../../i18n/index.js';

/**
 * The shortcuts in the order listed. Each has two labels: its keys as the planner reads them
 * (`planboard.shortcut.<name>.keys`, words like "click" translated) and what it does.
 */
export const shortcuts = [
  'arrows',
  'open',
  'close',
  'moveDays',
  'moveStages',
  'delete',
  'select',
  'doubleClick',
  'drag',
  'newCollection',
  'print',
  'undo',
  'redo',
  'help',
] as const;

export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const t = useT();
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
          <h2 id="pb-help-title">{t('planboard.shortcuts.title')}</h2>
          <button ref={close} type="button" className="button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
        <dl className="pb-help__list">
          {shortcuts.map((name) => (
            <div key={name} className="pb-help__row">
              <dt>
                <kbd>{t(`planboard.shortcut.${name}.keys`)}</kbd>
              </dt>
              <dd>{t(`planboard.shortcut.${name}`)}</dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  );
}
