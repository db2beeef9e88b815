/** The count of exceptions in the top bar, on every screen: one click opens the Exceptions screen. Nothing while there are none. */
import { useT } from '../../i18n/index.js';
import { useUiStore } from '../../state/ui.js';
import { useExceptions } from './exceptions-api.js';
import './exceptions.css';

export function ExceptionCount() {
  const t = useT();
  const list = useExceptions();
  const showView = useUiStore((state) => state.showView);
  const count = list.data?.count ?? 0;
  if (count === 0) return null;
  return (
    <button
      type="button"
      className="button top-bar__exceptions"
      data-testid="exception-count"
      title={t.count('exceptions.count', count)}
      onClick={() => showView('exceptions')}
    >
      {t('exceptions.topBar', { count })}
    </button>
  );
}
