/**
 * One order: its header (editable), the collection it created, and its rows as an editable
 * grid. Reached from the list with Enter or a double click; "Back to orders" returns to the
 * same place in the list.
 */
import { useId, useState } from 'react';
import { ApiRequestError } from '../../api/client.js';
import { useRecord, useRemove } from '../../api/hooks.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import type { Address } from '../../../shared/resources/address.js';
import type { Order } from '../../../shared/resources/order.js';
import type { Project } from '../../../shared/resources/project.js';
import type { RelationRecord } from '../../../shared/resources/relation.js';
import type { Warehouse } from '../../../shared/resources/warehouse.js';
import { addressLine } from './order-lookups.js';
import { OrderCollectionSummary } from './OrderCollectionSummary.js';
import { OrderHeaderForm } from './OrderHeaderForm.js';
import { OrderRowsGrid } from './OrderRowsGrid.js';
import { useOrderScreen } from './order-screen-state.js';

type OrderWithParts = Order & {
  relation?: RelationRecord | null;
  project?: Project | null;
  warehouse?: Warehouse | null;
  address?: Address | null;
};

// The records it points at come along, so their names show even beyond the pickers' lists.
const detailQuery = { with: 'relation,project,warehouse,address' };

export function OrderDetail({ orderId }: { orderId: string }) {
  const order = useRecord<'order', OrderWithParts>('order', orderId, detailQuery);
  const backToList = useOrderScreen((state) => state.backToList);
  const titleId = useId();
  const collectionTitleId = useId();
  const record = order.data;

  const back = (
    <button type="button" className="button" onClick={backToList}>
      Back to orders
    </button>
  );

  if (!record) {
    const gone = order.error instanceof ApiRequestError && order.error.status === 404;
    return (
      <section className="view view--wide">
        <div className="view__header view__header--toolbar">{back}</div>
        {gone ? (
          <p className="empty-state">This order no longer exists.</p>
        ) : order.isError ? (
          <ErrorNotice error={order.error} onRetry={() => void order.refetch()} />
        ) : (
          <p className="loading" role="status">
            Loading the order…
          </p>
        )}
      </section>
    );
  }

  const currentNames = {
    relation_id: record.relation?.name,
    project_id: record.project?.name,
    warehouse_id: record.warehouse?.name,
    address_id: record.address ? addressLine(record.address) : undefined,
  };

  return (
    <section className="view view--wide orders-detail" aria-labelledby={titleId}>
      <div className="view__header view__header--toolbar">
        {back}
        <h1 id={titleId} className="view__title">
          Order {record.code ?? '(no code)'}
        </h1>
        <DeleteOrder order={record} onDeleted={backToList} />
      </div>
      <OrderHeaderForm key={record.id} order={record} currentNames={currentNames} />
      {record.collection_id ? (
        <OrderCollectionSummary collectionId={record.collection_id} titleId={collectionTitleId} />
      ) : (
        <p className="muted">This order has no collection.</p>
      )}
      <OrderRowsGrid orderId={record.id} />
    </section>
  );
}

function DeleteOrder({ order, onDeleted }: { order: Order; onDeleted: () => void }) {
  const remove = useRemove('order');
  const [confirming, setConfirming] = useState(false);
  const name = order.code ?? 'this order';
  return (
    <div className="orders-detail__delete">
      {confirming ? (
        <div
          className="row-actions"
          onKeyDown={(event) => {
            if (event.key === 'Escape') setConfirming(false);
          }}
        >
          {/* The collection stays: it may already be planned (docs/API.md). */}
          <span className="row-actions__question">Delete {name} and its rows? Its collection stays.</span>
          <button
            type="button"
            className="button button--danger"
            autoFocus
            disabled={remove.isPending}
            onClick={() => remove.mutate(order.id, { onSuccess: onDeleted })}
          >
            Confirm delete
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <button type="button" className="button button--quiet" onClick={() => setConfirming(true)}>
          Delete order
        </button>
      )}
      {remove.error && <ErrorNotice error={remove.error} />}
    </div>
  );
}
