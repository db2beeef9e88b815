/**
 * "Replan late orders…": the board's planned collections that end after their due date, to
 * tick and plan again against free capacity in priority order. The server does it as one
 * command (`replan_collections`, docs/API.md "Finite-capacity planning"), so it is one step on
 * the undo history ("Replan 3 late orders"), undone by the server like any other command.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { maxLimit } from '../../../shared/list.js';
import type { Collection } from '../../../shared/resources/collection.js';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { resourcePath } from '../../api/resources.js';
import { formatDay } from '../../components/dates-format.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { undoManager } from '../../state/undo.js';
import { refreshAfterWrite } from './planboard-cache.js';
import { lateCollections, replanCollections } from './promise-dates.js';

type PlannedCollection = Pick<Collection, 'id' | 'name' | 'due_date' | 'end'>;

export function ReplanLateDialog({ boardId, onClose }: { boardId: string; onClose(): void }) {
  const t = useT();
  const { client, transport } = useApi();
  const queryClient = useQueryClient();
  const notify = useNotices((state) => state.notify);
  const planned = useQuery({
    queryKey: ['collection', 'late', boardId],
    queryFn: () =>
      client.list<PlannedCollection>(resourcePath('collection'), {
        filter: `board_id:eq:'${boardId}',and,status:eq:'planned'`,
        show: 'id,name,due_date,end',
        sort: 'due_date:asc',
        limit: maxLimit,
      }),
  });
  const late = lateCollections(planned.data?.data ?? []);
  /** Unticked ones; everything late is ticked until the planner says otherwise. */
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = late.filter((collection) => !skipped.has(collection.id)).map((collection) => collection.id);
  const day = (date: string) => formatDay(date, t.locale);

  function toggle(id: string, ticked: boolean) {
    setSkipped((current) => {
      const next = new Set(current);
      if (ticked) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function replan() {
    if (chosen.length === 0) return;
    const description = t.count('plan.replan.action', chosen.length);
    setBusy(true);
    setProblem(null);
    try {
      await undoManager.performCommand(async () => {
        try {
          return await replanCollections(transport, boardId, chosen, description);
        } finally {
          void refreshAfterWrite(queryClient, boardId);
        }
      }, description);
      notify(t('plan.replan.done', { action: description }));
      onClose();
    } catch (error) {
      setProblem(t('plan.replan.failed', { problem: describeError(error) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={t('plan.replan.title')} closeLabel={t('common.close')} onClose={onClose} className="pb-replan-dialog">
      <p className="muted">{t('plan.replan.intro')}</p>
      {planned.isError && <ErrorNotice error={planned.error} onRetry={() => void planned.refetch()} />}
      {planned.isPending && (
        <p role="status" className="loading">
          {t('plan.replan.loading')}
        </p>
      )}
      {planned.isSuccess && late.length === 0 && <p className="empty-state">{t('plan.replan.none')}</p>}
      {late.length > 0 && (
        <>
          <label className="pb-replan-dialog__all">
            <input
              type="checkbox"
              checked={chosen.length === late.length}
              onChange={(event) => setSkipped(event.target.checked ? new Set() : new Set(late.map((collection) => collection.id)))}
            />
            {t('plan.replan.selectAll')}
          </label>
          <ul className="pb-replan-dialog__list" aria-label={t('plan.replan.list')}>
            {late.map((collection) => (
              <li key={collection.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={!skipped.has(collection.id)}
                    onChange={(event) => toggle(collection.id, event.target.checked)}
                  />
                  <span>{collection.name || t('backlog.untitled')}</span>{' '}
                  <span className="muted">{t('plan.replan.row', { due: day(collection.due_date!), end: day(collection.end!) })}</span>
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
      {problem && <p role="alert">{problem}</p>}
      <div className="pb-plan-dialog__buttons">
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button--primary" disabled={busy || chosen.length === 0} onClick={() => void replan()}>
          {t.count('plan.replan.submit', chosen.length)}
        </button>
      </div>
    </Modal>
  );
}
