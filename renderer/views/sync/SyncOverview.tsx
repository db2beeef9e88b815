/**
 * Where sync stands, in plain words: online or not, when it last synced, how many changes
 * wait, how many were refused and how many overruled, the last problem and what it means.
 * "Sync now" runs one push and pull at once and says what it did.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import { describeError } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { formatDateTime } from '../../components/dates-format.js';
import { useSyncNow, type ReplicaStatus } from './sync-api.js';
import { plainSyncProblem } from './sync-words.js';

export function SyncOverview({ status }: { status: UseQueryResult<ReplicaStatus | null> }) {
  const t = useT();
  const run = useSyncNow();
  const current = status.data;
  if (status.isError) return <ErrorNotice error={status.error} onRetry={() => void status.refetch()} />;
  if (!current) {
    return (
      <p className="loading" role="status">
        {t('common.loading')}
      </p>
    );
  }
  const lastSync = [current.last_pull_at, current.last_push_at]
    .filter((value): value is string => Boolean(value))
    .sort()
    .pop();
  const state = !current.configured ? 'notSetUp' : current.syncing ? 'syncing' : current.online ? 'online' : 'offline';
  const summary = run.data;

  return (
    <section className="panel panel--stack" aria-labelledby="sync-overview-title">
      <div className="panel__header">
        <h2 id="sync-overview-title" className="panel__title">
          {t('sync.overview')}
        </h2>
        <button
          type="button"
          className="button button--primary"
          disabled={!current.configured || run.isPending}
          onClick={() => run.mutate()}
        >
          {run.isPending ? t('sync.syncing') : t('sync.syncNow')}
        </button>
      </div>
      <dl className="sync-facts">
        <div className={`sync-facts__item sync-facts__item--${state}`}>
          <dt>{t('sync.state')}</dt>
          <dd data-testid="sync-state">{t(`sync.state.${state}`)}</dd>
        </div>
        <div className="sync-facts__item">
          <dt>{t('sync.lastSync')}</dt>
          <dd>{lastSync ? formatDateTime(lastSync, t.locale) : t('sync.never')}</dd>
        </div>
        <div className="sync-facts__item">
          <dt>{t('sync.pending')}</dt>
          <dd data-testid="sync-pending">{current.pending}</dd>
        </div>
        <div className={current.conflicts > 0 ? 'sync-facts__item sync-facts__item--warning' : 'sync-facts__item'}>
          <dt>{t('sync.conflicts')}</dt>
          <dd data-testid="sync-conflicts">{current.conflicts}</dd>
        </div>
        <div className={current.overruled > 0 ? 'sync-facts__item sync-facts__item--warning' : 'sync-facts__item'}>
          <dt>{t('sync.overruled')}</dt>
          <dd data-testid="sync-overruled">{current.overruled ?? 0}</dd>
        </div>
      </dl>
      {current.configured && current.last_error && (
        <div className="notice notice--warning" role="status">
          <p>
            {plainSyncProblem(current.last_error, t)} <span className="muted">({current.last_error})</span>
          </p>
        </div>
      )}
      {run.isError && (
        <p className="form-error" role="alert">
          {describeError(run.error)}
        </p>
      )}
      {summary && (
        <p className="muted" role="status">
          {summary.error
            ? t('sync.runFailed', { problem: plainSyncProblem(summary.error, t) })
            : summary.overruled > 0
              ? t('sync.runDoneOverruled', {
                  sent: summary.pushed,
                  refused: summary.rejected,
                  received: summary.pulled,
                  overruled: summary.overruled,
                })
              : t('sync.runDone', { sent: summary.pushed, refused: summary.rejected, received: summary.pulled })}
        </p>
      )}
    </section>
  );
}
