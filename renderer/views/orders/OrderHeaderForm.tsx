/**
 * The order's header, editable. Only the fields the planner changed are sent (and shown as
 * changed until saved), so a field someone else changed meanwhile is not overwritten with what
 * this screen loaded earlier. The API's 422 messages appear under their fields.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { fieldErrors, formErrors } from '../../api/client.js';
import { useFieldWording } from '../../api/field-labels.js';
import { useSave } from '../../api/hooks.js';
import { useT } from '../../i18n/index.js';
import type { Order } from '../../../shared/resources/order.js';
import { headerChanges, orderDraft, orderHeaderFields, type OrderDraft, type OrderHeaderField } from './order-draft.js';
import { OrderHeaderFields } from './OrderHeaderFields.js';
import { useHeaderChoices } from './order-lookups.js';

interface OrderHeaderFormProps {
  order: Order;
  currentNames: Partial<Record<OrderHeaderField, string>>;
}

export function OrderHeaderForm({ order, currentNames }: OrderHeaderFormProps) {
  const t = useT();
  const update = useSave('order');
  const wording = useFieldWording('order');
  const queryClient = useQueryClient();
  const choices = useHeaderChoices();
  const [edits, setEdits] = useState<Partial<OrderDraft>>({});
  const values = { ...orderDraft(order), ...edits };
  const changed = Object.keys(edits).length > 0;

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!changed) return;
    update.mutate(
      { id: order.id, body: headerChanges(edits) },
      {
        onSuccess: () => {
          setEdits({});
          // The collection's name, due date and meta follow the order.
          void queryClient.invalidateQueries({ queryKey: ['collection'] });
        },
      },
    );
  }

  return (
    <form className="panel panel--stack" aria-label={t('orders.header')} onSubmit={save} noValidate>
      <OrderHeaderFields
        values={values}
        errors={fieldErrors(update.error, wording)}
        choices={choices}
        currentNames={currentNames}
        onChange={(field, text) => {
          setEdits((current) => ({ ...current, [field]: text }));
          if (update.error) update.reset();
        }}
      />
      {formErrors(update.error, orderHeaderFields).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={!changed || update.isPending}>
          {t('orders.save')}
        </button>
        <button
          type="button"
          className="button"
          disabled={!changed || update.isPending}
          onClick={() => {
            setEdits({});
            update.reset();
          }}
        >
          {t('orders.discard')}
        </button>
        {update.isSuccess && !changed && (
          <span className="muted" role="status">
            {t('orders.saved')}
          </span>
        )}
      </div>
    </form>
  );
}
