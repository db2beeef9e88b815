/**
 * One order: its header (editable), the collection it created, and its rows as an editable
 * grid. Reached from the list with Enter or a double click; "Back to orders" returns to the
 * same place in the list.
 */
import { useId, useState } from 'react';
import { ApiRequestError } from '../../api/client.js';
import { useRecord, useRemove } from '../../api/hooks.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
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
  const t = useT();
  const order = useRecord<'order', OrderWithParts>('order', orderId, detailQuery);
  const backToList = useOrderScreen((state) => state.backToList);
  const titleId = useId();
  const collectionTitleId = useId();
  const record = order.data;

  const back = (
    <button type="button" className="button" onClick={backToList}>
      {t('orders.back')}
    </button>
  );

  if (!record) {
    const gone = order.error instanceof ApiRequestError && order.error.status === 404;
    return (
      <section className="view view--wide">
        <div className="view__header view__header--toolbar">{back}</div>
        {gone ? (
          <p className="empty-state">{t('orders.gone')}</p>
        ) : order.isError ? (
          <ErrorNotice error={order.error} onRetry={() => void order.refetch()} />
        ) : (
          <p className="loading" role="status">
            {t('orders.loadingOrder')}
          </p>
        )}
      </section>
    );
  }

  const currentNames = {
    relation_id: record.relation?.name,
    project_id: record.project?.name,
    warehouse_id: record.warehouse?.name,
    address_id: record.address ? addressLine(record.address, t) : undefined,
  };

  return (
    <section className="view view--wide orders-detail" aria-labelledby={titleId}>
      <div className="view__header view__header--toolbar">
        {back}
        <h1 id={titleId} className="view__title">
          {t('orders.title', { code: record.code ?? t('orders.noCode') })}
        </h1>
        <DeleteOrder order={record} onDeleted={backToList} />
      </div>
      <OrderHeaderForm key={record.id} order={record} currentNames={currentNames} />
      {record.collection_id ? (
        <OrderCollectionSummary collectionId={record.collection_id} titleId={collectionTitleId} />
      ) : (
        <p className="muted">{t('orders.noCollection')}</p>
      )}
      <OrderRowsGrid orderId={record.id} />
    </section>
  );
}

function DeleteOrder({ order, onDeleted }: { order: Order; onDeleted: () => void }) {
  const t = useT();
  const remove = useRemove('order');
  const [confirming, setConfirming] = useState(false);
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
          <span className="row-actions__question">
            {order.code ? t('orders.deleteQuestion', { code: order.code }) : t('orders.deleteQuestionNoCode')}
          </span>
          <button
            type="button"
            className="button button--danger"
            autoFocus
            disabled={remove.isPending}
            onClick={() => remove.mutate(order.id, { onSuccess: onDeleted })}
          >
            {t('common.confirmDelete')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" className="button button--quiet" onClick={() => setConfirming(true)}>
          {t('orders.delete')}
        </button>
      )}
      {remove.error && <ErrorNotice error={remove.error} />}
    </div>
  );
}
