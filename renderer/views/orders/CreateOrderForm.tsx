/**
 * A new order with its rows, saved as one POST (`order_rows` inline): the order, its rows and
 * its collection are created together or not at all. Afterwards the form gives way to the
 * collection that was created, so the planner sees at once what the order means in work.
 */
import { useId, useRef, useState } from 'react';
import { useFieldWording } from '../../api/field-labels.js';
import { useSave } from '../../api/hooks.js';
import { RecordForm } from '../../components/RecordForm.js';
import { useT } from '../../i18n/index.js';
import type { Order } from '../../../shared/resources/order.js';
import { newOrderHeader, orderDraft, type OrderDraft } from './order-draft.js';
import { useHeaderChoices, useRowChoices } from './order-lookups.js';
import { OrderCreated } from './OrderCreated.js';
import { OrderHeaderFields } from './OrderHeaderFields.js';
import { useOrderScreen } from './order-screen-state.js';
import { blankRow, placeOrderErrors, rowsToSend, type NewRowDraft } from './new-order-rows.js';
import { NewOrderRowsTable } from './NewOrderRowsTable.js';
import { NewOrderPromiseDate } from './OrderPromiseDate.js';

export function CreateOrderForm() {
  const t = useT();
  const save = useSave('order');
  const wording = useFieldWording('order');
  const backToList = useOrderScreen((state) => state.backToList);
  const headerChoices = useHeaderChoices();
  const rowChoices = useRowChoices();
  const titleId = useId();
  const nextKey = useRef(1);
  const [draft, setDraft] = useState<OrderDraft>(() => orderDraft());
  const [rows, setRows] = useState<NewRowDraft[]>(() => [blankRow(0)]);
  const [sentIndex, setSentIndex] = useState<number[]>([]);
  const [created, setCreated] = useState<{ order: Order; rowCount: number } | null>(null);

  if (created) {
    return (
      <OrderCreated
        order={created.order}
        rowCount={created.rowCount}
        onAnother={() => {
          setCreated(null);
          setDraft(orderDraft());
          setRows([blankRow(nextKey.current++)]);
          save.reset();
        }}
      />
    );
  }

  const errors = placeOrderErrors(save.error, sentIndex, wording);

  function changed() {
    if (save.error) save.reset();
  }

  function submit() {
    const sent = rowsToSend(rows);
    setSentIndex(sent.formIndex);
    save.mutate(
      { id: null, body: { ...newOrderHeader(draft), order_rows: sent.rows } },
      { onSuccess: (order) => setCreated({ order, rowCount: sent.rows.length }) },
    );
  }

  return (
    <section className="view view--wide" aria-labelledby={titleId}>
      <div className="view__header view__header--toolbar">
        <button type="button" className="button" onClick={backToList}>
          {t('orders.back')}
        </button>
        <h1 id={titleId} className="view__title">
          {t('orders.new')}
        </h1>
      </div>
      <RecordForm
        className="setup-form"
        onSubmit={submit}
        onCancel={backToList}
        escapeCancels={false}
        submitLabel={t('orders.create')}
        busy={save.isPending}
        errors={errors.elsewhere}
      >
        <div className="panel panel--stack">
          <OrderHeaderFields
            values={draft}
            errors={errors.header}
            choices={headerChoices}
            onChange={(field, text) => {
              setDraft((current) => ({ ...current, [field]: text }));
              changed();
            }}
          />
        </div>
        <div className="form-section">
          <h2 className="form-section__title">{t('orders.rowsTitle')}</h2>
          <NewOrderRowsTable
            rows={rows}
            errors={errors.rows}
            choices={rowChoices}
            onChange={(index, field, text) => {
              setRows((current) => current.map((row, at) => (at === index ? { ...row, values: { ...row.values, [field]: text } } : row)));
              changed();
            }}
            onRemove={(index) => {
              setRows((current) => current.filter((_row, at) => at !== index));
              changed();
            }}
          />
          <div>
            <button type="button" className="button" onClick={() => setRows((current) => [...current, blankRow(nextKey.current++)])}>
              {t('orders.rows.add')}
            </button>
          </div>
          <NewOrderPromiseDate rows={rows} promised={draft.promised_date} desired={draft.desired_date} />
        </div>
      </RecordForm>
    </section>
  );
}
