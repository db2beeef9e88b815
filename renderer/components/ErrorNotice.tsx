/** A failure the planner can read and act on: the API's own message and a way to try again. */
import { describeError } from '../api/client.js';
import { useT } from '../i18n/index.js';

export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const t = useT();
  return (
    <div className="notice notice--error" role="alert">
      <p>{describeError(error)}</p>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
