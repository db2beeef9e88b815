/**
 * The Orders screen: the list of orders (filters, sort, a windowed grid), one order with its
 * rows, or the form for a new order — whichever the screen's store says is open.
 */
import { useT } from '../../i18n/index.js';
import { CreateOrderForm } from './CreateOrderForm.js';
import { OrderDetail } from './OrderDetail.js';
import { OrderFilters } from './OrderFilters.js';
import { OrderList } from './OrderList.js';
import { useOrderScreen } from './order-screen-state.js';
import './orders.css';

export function OrdersView() {
  const screen = useOrderScreen((state) => state.screen);
  if (screen.kind === 'order') return <OrderDetail key={screen.id} orderId={screen.id} />;
  if (screen.kind === 'new') return <CreateOrderForm />;
  return <OrderListScreen />;
}

function OrderListScreen() {
  const t = useT();
  const newOrder = useOrderScreen((state) => state.newOrder);
  return (
    <section className="view view--wide orders-view" aria-labelledby="orders-title">
      <div className="view__header view__header--toolbar">
        <h1 id="orders-title" className="view__title">
          {t('nav.orders')}
        </h1>
        <button type="button" className="button button--primary" onClick={newOrder}>
          {t('orders.new')}
        </button>
      </div>
      <OrderFilters />
      <OrderList />
    </section>
  );
}
