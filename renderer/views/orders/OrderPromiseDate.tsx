/**
 * When an order's collection can finish if it were planned now on a board, against the board's
 * free capacity (docs/API.md "Finite-capacity planning", promise dates): the answer a planner
 * gives a customer who asks "when can you deliver?", before anything is planned.
 */
import { formatDay } from '../../components/dates-format.js';
import { useT } from '../../i18n/index.js';
import { usePromiseDates } from '../planboard/promise-dates.js';

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
