/**
 * The sync indicator in the top bar, always visible: online or offline (or local only),
 * changes waiting, syncing, conflicts. Read every few seconds and after every change, so a
 * planner sees their edit become pending and then sent.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { describeError } from '../api/client.js';
import { useApi } from '../api/provider.js';
import { useT } from '../i18n/index.js';
import '../styles/status.css';
import { summarizeSync, type SyncReading, type SyncStatus as Status } from './sync-status.js';

const syncStatusKey = ['sync_status'] as const;
const pollEvery = 3_000;

export function SyncStatus() {
  const { client, transport } = useApi();
  const queryClient = useQueryClient();
  const t = useT();
  const status = useQuery({
    queryKey: syncStatusKey,
    // `get` of a path without an id: the client builds `/v1/sync/status`.
    queryFn: async (): Promise<SyncReading> => ({ kind: 'status', status: await client.get<Status>('/v1/sync', 'status') }),
    refetchInterval: pollEvery,
    retry: false,
  });

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = transport.onChange(() => {
      // A burst of changes (a plan makes several cards) needs one read, not one each.
      timer ??= setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: syncStatusKey });
      }, 250);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [transport, queryClient]);

  const reading: SyncReading | undefined = status.isError ? { kind: 'failed', message: describeError(status.error) } : status.data;
  if (!reading) {
    return (
      <div className="sync-status" role="status" aria-label={t('topBar.syncStatus')}>
        <span className="sync-status__dot" aria-hidden="true" />
        <span className="muted">{t('topBar.syncReading')}</span>
      </div>
    );
  }
  const summary = summarizeSync(reading, t);
  return (
    <div
      className={`sync-status sync-status--${summary.tone}`}
      role="status"
      aria-label={t('topBar.syncStatus')}
      title={summary.description}
    >
      <span className="sync-status__dot" aria-hidden="true" />
      <span className="sync-status__state">{summary.state}</span>
      {summary.details.map((detail) => (
        <span key={detail} className="sync-status__detail">
          {detail}
        </span>
      ))}
      <span className="visually-hidden">{summary.description}</span>
    </div>
  );
}
