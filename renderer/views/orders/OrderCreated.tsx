/** What a new order created: the order with its rows, and the collection for the planboard. */
import { useId } from 'react';
import { useT } from '../../i18n/index.js';
import type { Order } from '../../../shared/resources/order.js';
import { OrderCollectionSummary } from './OrderCollectionSummary.js';
import { useOrderScreen } from './order-screen-state.js';

interface OrderCreatedProps {
  order: Order;
  rowCount: number;
  onAnother: () => void;
}

export function OrderCreated({ order, rowCount, onAnother }: OrderCreatedProps) {
  const t = useT();
  const openOrder = useOrderScreen((state) => state.openOrder);
  const backToList = useOrderScreen((state) => state.backToList);
  const titleId = useId();
  const collectionTitleId = useId();
  const name = order.code ? t('orders.created.order', { code: order.code }) : t('orders.created.theOrder');
  return (
    <section className="view view--wide" aria-labelledby={titleId}>
      <h1 id={titleId} className="view__title">
        {t('orders.created.title', { order: name })}
      </h1>
      <p role="status">{t.count('orders.created.saved', rowCount, { order: name })}</p>
      {order.collection_id ? (
        // Back on the Orders screen after following the collection's link, the order is open.
        <OrderCollectionSummary collectionId={order.collection_id} titleId={collectionTitleId} beforeLeaving={() => openOrder(order.id)} />
      ) : (
        <p className="muted">{t('orders.created.noCollection')}</p>
      )}
      <div className="form-actions">
        <button type="button" className="button button--primary" autoFocus onClick={() => openOrder(order.id)}>
          {t('orders.created.open')}
        </button>
        <button type="button" className="button" onClick={onAnother}>
          {t('orders.created.another')}
        </button>
        <button type="button" className="button" onClick={backToList}>
          {t('orders.back')}
        </button>
      </div>
    </section>
  );
}
