/**
 * "Replan late orders…": the board's planned collections that end after their due date, to
 * tick and plan again against free capacity in priority order. Before anything is written the
 * dialog shows each ticked collection's new end (a dry run of the same command), and a
 * collection the replan would make later than it is now is left out unless the planner ticks
 * it: a replan never makes an order later without saying so. The server does it as one
 * command (`replan_collections`, docs/API.md "Finite-capacity planning"), so it is one step on
 * the undo history ("Replan 3 late orders"), undone by the server like any other command.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
import { lateCollections, previewReplan, replanCollections } from './promise-dates.js';

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
  /**
   * Unticked ones. Null until the first preview: then everything late is ticked except what the
   * replan would make later, until the planner says otherwise.
   */
  const [skipped, setSkipped] = useState<ReadonlySet<string> | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = late.filter((collection) => !skipped?.has(collection.id)).map((collection) => collection.id);
  const day = (date: string) => formatDay(date, t.locale);
  const preview = useQuery({
    // Under `card`: another change of the board's cards works the preview out again.
    queryKey: ['card', 'replan-preview', boardId, chosen],
    queryFn: () => previewReplan(transport, boardId, chosen),
    enabled: planned.isSuccess && chosen.length > 0,
    retry: false,
  });
  /** The first preview, of everything late: what an unticked collection would do if ticked. */
  const [firstEnds, setFirstEnds] = useState<ReadonlyMap<string, string | null> | null>(null);
  const endOf = (id: string) => (chosen.includes(id) ? preview.data?.get(id) : undefined) ?? firstEnds?.get(id);
  useEffect(() => {
    if (skipped !== null || !preview.data) return;
    const ends = preview.data;
    const later = late.filter((c) => {
      const end = ends.get(c.id);
      return typeof end === 'string' && c.end !== null && end > c.end;
    });
    setFirstEnds(ends);
    setSkipped(new Set(later.map((c) => c.id)));
  });
  const previewed = skipped !== null && (chosen.length === 0 || (preview.isSuccess && !preview.isFetching));

  function toggle(id: string, ticked: boolean) {
    setSkipped((current) => {
      const next = new Set(current ?? []);
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
                    checked={!skipped?.has(collection.id)}
                    onChange={(event) => toggle(collection.id, event.target.checked)}
                  />
                  <span>{collection.name || t('backlog.untitled')}</span>{' '}
                  <span className="muted">{t('plan.replan.row', { due: day(collection.due_date!), end: day(collection.end!) })}</span>{' '}
                  <NewEnd collection={collection} end={endOf(collection.id)} />
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
      {chosen.length > 0 && preview.isFetching && (
        <p role="status" className="muted">
          {t('plan.replan.working')}
        </p>
      )}
      {preview.isError && <p role="alert">{t('plan.replan.previewFailed', { problem: describeError(preview.error) })}</p>}
      {problem && <p role="alert">{problem}</p>}
      <div className="pb-plan-dialog__buttons">
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={busy || chosen.length === 0 || !previewed}
          onClick={() => void replan()}
        >
          {t.count('plan.replan.submit', chosen.length)}
        </button>
      </div>
    </Modal>
  );
}

/** What the replan would do to one collection's end, in days; nothing while it is not asked. */
function NewEnd({ collection, end }: { collection: PlannedCollection; end: string | null | undefined }) {
  const t = useT();
  if (typeof end !== 'string' || !collection.end) return null;
  const day = formatDay(end, t.locale);
  const days = Math.round((Date.parse(end) - Date.parse(collection.end)) / 86_400_000);
  if (days > 0)
    return (
      <strong className="pb-replan-dialog__later" data-testid="replan-later">
        {t('plan.replan.later', { end: day, days })}
      </strong>
    );
  return <span>{days < 0 ? t('plan.replan.sooner', { end: day, days: -days }) : t('plan.replan.same', { end: day })}</span>;
}
