/** What a new order created: the order with its rows, and the collection for the planboard. */
import { useId } from 'react';
import type { Order } from '../../../shared/resources/order.js';
import { OrderCollectionSummary } from './OrderCollectionSummary.js';
import { useOrderScreen } from './order-screen-state.js';

interface OrderCreatedProps {
  order: Order;
  rowCount: number;
  onAnother: () => void;
}

export function OrderCreated({ order, rowCount, onAnother }: OrderCreatedProps) {
  const openOrder = useOrderScreen((state) => state.openOrder);
  const backToList = useOrderScreen((state) => state.backToList);
  const titleId = useId();
  const collectionTitleId = useId();
  const name = order.code ? `Order ${order.code}` : 'The order';
  return (
    <section className="view view--wide" aria-labelledby={titleId}>
      <h1 id={titleId} className="view__title">
        {name} was created
      </h1>
      <p role="status">
        {name} was saved with {rowCount === 1 ? '1 row' : `${rowCount} rows`}, together with the collection below.
      </p>
      {order.collection_id ? (
        <OrderCollectionSummary collectionId={order.collection_id} titleId={collectionTitleId} />
      ) : (
        <p className="muted">No collection was created for it.</p>
      )}
      <div className="form-actions">
        <button type="button" className="button button--primary" autoFocus onClick={() => openOrder(order.id)}>
          Open the order
        </button>
        <button type="button" className="button" onClick={onAnother}>
          Create another order
        </button>
        <button type="button" className="button" onClick={backToList}>
          Back to orders
        </button>
      </div>
    </section>
  );
}
