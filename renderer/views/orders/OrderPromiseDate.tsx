/**
 * When an order's collection can finish if it were planned now on a board, against the board's
 * free capacity (docs/API.md "Finite-capacity planning", promise dates): the answer a planner
 * gives a customer who asks "when can you deliver?", before anything is planned.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useList } from '../../api/hooks.js';
import { useApi } from '../../api/provider.js';
import { boardListQuery } from '../../api/queries.js';
import { formatDay } from '../../components/dates-format.js';
import { typingPause, useDebouncedValue } from '../../components/use-debounced-value.js';
import { useT } from '../../i18n/index.js';
import { useUiStore } from '../../state/ui.js';
import { fetchDraftPromiseDate, usePromiseDates, type DraftRow } from '../planboard/promise-dates.js';
import { collectionOnPlanboard } from './collection-on-planboard.js';
import { rowsToSend, type NewRowDraft } from './new-order-rows.js';

export function OrderPromiseDate({ collectionId, boardId, boardName }: { collectionId: string; boardId: string; boardName: string }) {
  const t = useT();
  const promise = usePromiseDates(boardId, [collectionId]);
  if (promise.isPending)
    return (
      <p className="muted" role="status">
        {t('plan.order.working')}
      </p>
    );
  // Without an answer (the call failed) the order screen simply says nothing about it.
  if (promise.isError) return null;
  const end = promise.data?.get(collectionId);
  return (
    <p className="order-collection__promise" data-testid="order-promise">
      {end
        ? t('plan.order.promise', { date: formatDay(end, t.locale), board: boardName })
        : t('plan.order.noCapacity', { board: boardName })}
    </p>
  );
}

/**
 * The same for an order that is not saved yet: from its rows (activity, quantity, unit), on the
 * board whose backlog its collection will land in, asked again once the planner pauses typing.
 */
export function NewOrderPromiseDate({ rows }: { rows: readonly NewRowDraft[] }) {
  const t = useT();
  const { transport } = useApi();
  const boards = useList('board', boardListQuery);
  const pickedBoardId = useUiStore((state) => state.boardId);
  const place = collectionOnPlanboard({ status: 'not_planned', board_id: null }, boards.data?.data ?? [], pickedBoardId);
  const boardId = place.kind === 'board' ? place.boardId : null;
  // Memoised: a new list each render would restart the pause for ever.
  const draftRows = useDebouncedValue(
    useMemo(() => draftRowsOf(rows), [rows]),
    typingPause,
  );
  const promise = useQuery({
    queryKey: ['card', 'promise-draft', boardId, draftRows],
    queryFn: () => fetchDraftPromiseDate(transport, boardId!, draftRows),
    enabled: boardId !== null && draftRows.length > 0,
    retry: false,
  });
  if (place.kind !== 'board' || draftRows.length === 0 || promise.isError) return null;
  if (promise.isPending)
    return (
      <p className="muted" role="status">
        {t('plan.order.working')}
      </p>
    );
  return (
    <p className="order-collection__promise" data-testid="order-promise">
      {promise.data
        ? t('plan.order.promise', { date: formatDay(promise.data.end, t.locale), board: place.boardName })
        : t('plan.order.noCapacity', { board: place.boardName })}
    </p>
  );
}

/** The rows that name an activity, as promise_dates takes a draft's rows. */
export function draftRowsOf(rows: readonly NewRowDraft[]): DraftRow[] {
  return rowsToSend(rows)
    .rows.filter((row) => typeof row.activity_id === 'string' && row.activity_id)
    .map((row) => ({
      activity_id: String(row.activity_id),
      ...(typeof row.quantity === 'number' ? { quantity: row.quantity } : {}),
      ...(typeof row.unit === 'string' && row.unit ? { unit: row.unit } : {}),
    }));
}
