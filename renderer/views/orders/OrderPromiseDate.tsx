/**
 * When an order's collection can finish if it were planned now on a board, against the board's
 * free capacity (docs/API.md "Finite-capacity planning", promise dates): the answer a planner
 * gives a customer who asks "when can you deliver?", before anything is planned. A date after
 * the one promised to the customer is a warning, in words and colour.
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
import { endsLate, fetchDraftPromiseDate, usePromiseDates, type DraftRow } from '../planboard/promise-dates.js';
import { collectionOnPlanboard } from './collection-on-planboard.js';
import { rowsToSend, type NewRowDraft } from './new-order-rows.js';

/** The date the promise is held against, and what the planner knows it as. */
export interface PromiseDue {
  date: string | null;
  /** The collection's due date, or, on a new order's form, the field it will come from. */
  kind: 'due' | 'promised' | 'desired';
}

/** "Can finish by Mon 14 Dec if planned now on Workshop", warning when that is after the due date. */
function PromiseLine({ end, boardName, due }: { end: string | null | undefined; boardName: string; due: PromiseDue }) {
  const t = useT();
  const late = endsLate(end, due.date);
  return (
    <p
      className={late ? 'order-collection__promise order-collection__promise--late' : 'order-collection__promise'}
      data-testid="order-promise"
    >
      {late && <span aria-hidden="true">⚠ </span>}
      {!end
        ? t('plan.order.noCapacity', { board: boardName })
        : late
          ? t(`plan.order.promiseAfter.${due.kind}`, {
              date: formatDay(end, t.locale),
              board: boardName,
              due: formatDay(due.date!, t.locale),
            })
          : t('plan.order.promise', { date: formatDay(end, t.locale), board: boardName })}
    </p>
  );
}

export function OrderPromiseDate({
  collectionId,
  boardId,
  boardName,
  dueDate,
}: {
  collectionId: string;
  boardId: string;
  boardName: string;
  dueDate: string | null;
}) {
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
  return <PromiseLine end={promise.data?.get(collectionId)} boardName={boardName} due={{ date: dueDate, kind: 'due' }} />;
}

/**
 * The same for an order that is not saved yet: from its rows (activity, quantity, unit), on the
 * board whose backlog its collection will land in, asked again once the planner pauses typing.
 * Held against the date its collection's due date will come from: promised, else desired
 * (docs/API.md "Orders and their collection").
 */
export function NewOrderPromiseDate({ rows, promised, desired }: { rows: readonly NewRowDraft[]; promised: string; desired: string }) {
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
  const due: PromiseDue = promised.trim() ? { date: promised.trim(), kind: 'promised' } : { date: desired.trim() || null, kind: 'desired' };
  return <PromiseLine end={promise.data?.end ?? null} boardName={place.boardName} due={due} />;
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
