/**
 * The list of orders as a windowed grid: only the rows in view (plus an overscan) are in the
 * DOM, placed in a spacer as tall as all rows together, and their pages of 500 are fetched as
 * the planner scrolls — so 10,000 orders scroll as smoothly as 10.
 *
 * The grid itself holds focus and points at the selected row with aria-activedescendant:
 * arrows, Page Up/Down, Home and End move the selection, Enter (or a double click) opens it.
 */
import { ChevronDown, ChevronUp } from 'lucide-react';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { CalendarDate } from '../../components/CalendarDate.js';
import { formatDay } from '../../components/dates-format.js';
import { endsLate } from '../planboard/promise-dates.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT, type MessageKey, type Translate } from '../../i18n/index.js';
import { typingPause, useDebouncedValue } from '../../components/use-debounced-value.js';
import { useWindowedList } from '../../components/use-windowed-list.js';
import { rowsPerViewport, scrollTopToShow, pagesCovering } from '../../components/windowing.js';
import { orderFilterText, orderPageSize, orderSortText, type OrderSortField } from './order-list-query.js';
import { useOrderScreen } from './order-screen-state.js';
import { useOrderPages, type OrderListRow } from './use-order-pages.js';

/** Fixed, so a row's place follows from its index; the stylesheet does not set it. */
const rowHeight = 34;
const overscan = 12;

interface ListColumn {
  title: MessageKey;
  /** Null: the API sorts only on the order's own fields, and the relation is another record. */
  sort: OrderSortField | null;
  cell: (order: OrderListRow, t: Translate) => ReactNode;
  numeric?: boolean;
}

const columns: readonly ListColumn[] = [
  { title: 'orders.field.code', sort: 'code', cell: (order) => order.code },
  { title: 'orders.field.description', sort: 'description', cell: (order) => order.description },
  { title: 'orders.field.type', sort: 'type', cell: (order, t) => order.type && t(`orders.type.${order.type}`) },
  { title: 'orders.field.status', sort: 'status', cell: (order) => order.status },
  { title: 'orders.field.relation_id', sort: null, cell: (order) => order.relation?.name },
  { title: 'orders.field.date', sort: 'date', cell: (order) => <CalendarDate value={order.date} /> },
  { title: 'orders.field.promised_date', sort: 'promised_date', cell: (order) => <CalendarDate value={order.promised_date} /> },
  { title: 'orders.field.planned_end', sort: 'collection.end', cell: (order, t) => <PlannedEnd order={order} t={t} /> },
  { title: 'orders.field.quantity', sort: 'quantity', cell: (order) => order.quantity, numeric: true },
];

/**
 * When the order's collection is planned to end; marked when that is after its due date (the
 * date the customer was promised), as the backlog and "Replan late…" count lateness.
 */
function PlannedEnd({ order, t }: { order: OrderListRow; t: Translate }) {
  const end = order.collection?.end;
  const due = order.collection?.due_date;
  return (
    <>
      <CalendarDate value={end} />
      {endsLate(end, due) && (
        <span className="order-list__late" title={t('orders.lateTitle', { due: formatDay(due!, t.locale) })}>
          {t('orders.late')}
        </span>
      )}
    </>
  );
}

export function OrderList() {
  const t = useT();
  const filters = useOrderScreen((state) => state.filters);
  const sort = useOrderScreen((state) => state.sort);
  const sortBy = useOrderScreen((state) => state.sortBy);
  const selectedIndex = useOrderScreen((state) => state.selectedIndex);
  const select = useOrderScreen((state) => state.select);
  const openOrder = useOrderScreen((state) => state.openOrder);

  // Typed filters wait for a pause; picked ones apply at once.
  const search = useDebouncedValue(filters.search, typingPause);
  const status = useDebouncedValue(filters.status, typingPause);
  const filter = orderFilterText({ ...filters, search, status });
  const sortText = orderSortText(sort);

  const gridRef = useRef<HTMLDivElement>(null);
  const gridId = useId();

  // Another filter or sort is another list, shown from its top.
  const list = useWindowedList({ rowHeight, overscan, listKey: `${filter}\n${sortText}` });
  const { viewportRef, viewportHeight, inView, shown, knownCount } = list;
  const pages = useOrderPages(filter, sortText, pagesCovering(inView, orderPageSize));
  const count = pages.count;
  list.learnCount(count);

  // Back from an order: the selected row is in view and the grid has focus again.
  useEffect(() => {
    const viewport = viewportRef.current;
    const index = useOrderScreen.getState().selectedIndex;
    if (!viewport || index === null) return;
    viewport.scrollTop = Math.max(0, index * rowHeight - viewport.clientHeight / 2);
    gridRef.current?.focus();
  }, []);

  function moveSelection(index: number) {
    if (count === undefined || count === 0) return;
    const next = Math.min(count - 1, Math.max(0, index));
    select(next);
    const viewport = viewportRef.current;
    if (viewport) viewport.scrollTop = scrollTopToShow(next, viewport.scrollTop, viewport.clientHeight, rowHeight);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Keys on the header's sort buttons are theirs.
    if (event.target !== event.currentTarget) return;
    const current = selectedIndex ?? -1;
    const page = rowsPerViewport(viewportHeight, rowHeight);
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: selectedIndex === null ? 0 : current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 0,
      End: (count ?? 0) - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      moveSelection(moves[event.key]!);
    } else if (event.key === 'Enter' && selectedOrder) {
      event.preventDefault();
      openOrder(selectedOrder.id);
    }
  }

  const selectedOrder = selectedIndex === null ? undefined : pages.rowAt(selectedIndex);
  const rowId = (index: number) => `${gridId}-row-${index}`;
  const activeShown = selectedIndex !== null && selectedIndex >= inView.start && selectedIndex < inView.end;

  return (
    <div className="order-list-frame">
      <div className="order-list__bar">
        <p className="muted" role="status">
          {count === undefined ? t('orders.loading') : t.count('orders.count', count)}
        </p>
        <button type="button" className="button" disabled={!selectedOrder} onClick={() => selectedOrder && openOrder(selectedOrder.id)}>
          {t('orders.openSelected')}
        </button>
      </div>
      {pages.error && <ErrorNotice error={pages.error} onRetry={pages.retry} />}
      <div
        ref={gridRef}
        role="grid"
        aria-label={t('orders.list')}
        aria-rowcount={(count ?? 0) + 1}
        aria-colcount={columns.length}
        aria-activedescendant={activeShown ? rowId(selectedIndex) : undefined}
        tabIndex={0}
        className="order-list"
        onKeyDown={onKeyDown}
      >
        <div role="rowgroup" className="order-list__head">
          <div role="row" aria-rowindex={1} className="order-list__row">
            {columns.map((column) => {
              const sorted = column.sort !== null && sort.field === column.sort;
              return (
                <div
                  key={column.title}
                  role="columnheader"
                  className={column.numeric ? 'order-list__cell order-list__cell--numeric' : 'order-list__cell'}
                  aria-sort={sorted ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined}
                >
                  {column.sort === null ? (
                    <span title={t('orders.notSortable')}>{t(column.title)}</span>
                  ) : (
                    <button type="button" className="order-list__sort" onClick={() => sortBy(column.sort!)}>
                      {t(column.title)}
                      {sorted &&
                        (sort.direction === 'asc' ? (
                          <ChevronUp aria-hidden="true" size={12} />
                        ) : (
                          <ChevronDown aria-hidden="true" size={12} />
                        ))}
                    </button>
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div ref={viewportRef} role="rowgroup" className="order-list__viewport" onScroll={list.onScroll}>
          <div className="order-list__spacer" style={{ height: knownCount * rowHeight }}>
            {shown.map((index) => {
              const order = pages.rowAt(index);
              return (
                <div
                  key={index}
                  id={rowId(index)}
                  role="row"
                  aria-rowindex={index + 2}
                  aria-selected={index === selectedIndex}
                  className="order-list__row order-list__row--body"
                  style={{ top: index * rowHeight, height: rowHeight }}
                  onClick={() => {
                    select(index);
                    gridRef.current?.focus();
                  }}
                  onDoubleClick={() => order && openOrder(order.id)}
                >
                  {columns.map((column) => (
                    <div
                      key={column.title}
                      role="gridcell"
                      className={column.numeric ? 'order-list__cell order-list__cell--numeric' : 'order-list__cell'}
                    >
                      {order ? column.cell(order, t) : <span className="muted">…</span>}
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
          {count === 0 && <p className="empty-state">{t('orders.noneMatch')}</p>}
        </div>
      </div>
    </div>
  );
}
