/**
 * The last sync runs (docs/API.md "Sync", "History"): when, how long, what was sent and
 * received, how many of this planner's changes were overruled and how many refused, and the
 * problem of a run that failed. Idle runs are not listed; failures in a row are one line.
 */
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { formatDateTime } from '../../components/dates-format.js';
import { useT } from '../../i18n/index.js';
import { useSyncHistory, type SyncRun } from './overruled-api.js';
import { plainSyncProblem } from './sync-words.js';

export function SyncHistory() {
  const t = useT();
  const history = useSyncHistory();
  const page = history.data;
  if (history.isError) return <ErrorNotice error={history.error} onRetry={() => void history.refetch()} />;
  if (!page) return null;

  return (
    <section className="panel panel--stack" aria-labelledby="history-title">
      <div className="panel__header">
        <h2 id="history-title" className="panel__title">
          {t('history.title')}
        </h2>
        <span className="muted">{t('history.explain')}</span>
      </div>
      {page.data.length === 0 ? (
        <p className="muted">{t('history.none')}</p>
      ) : (
        <table className="data-table sync-table sync-history" aria-label={t('history.title')}>
          <thead>
            <tr>
              <th scope="col">{t('history.when')}</th>
              <th scope="col">{t('history.took')}</th>
              <th scope="col">{t('history.sent')}</th>
              <th scope="col">{t('history.received')}</th>
              <th scope="col">{t('history.overruled')}</th>
              <th scope="col">{t('history.refused')}</th>
              <th scope="col">{t('history.outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((run) => (
              <tr key={run.id} className={run.error ? 'sync-history__run--failed' : undefined}>
                <td>{formatDateTime(run.started_at, t.locale)}</td>
                <td className="sync-history__number">
                  {t('history.seconds', {
                    seconds: new Intl.NumberFormat(t.locale, { maximumFractionDigits: 1 }).format(run.duration_ms / 1000),
                  })}
                </td>
                <td className="sync-history__number">{run.sent}</td>
                <td className="sync-history__number">{run.received}</td>
                <td className="sync-history__number">{run.overruled}</td>
                <td className="sync-history__number">{run.refused}</td>
                <td>{outcome(run, t)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function outcome(run: SyncRun, t: ReturnType<typeof useT>): string {
  if (!run.error) return run.resynced ? t('history.resynced') : t('history.ok');
  const problem = plainSyncProblem(run.error, t);
  return run.runs > 1 ? t('history.failedTimes', { problem, runs: run.runs }) : problem;
}
