/**
 * The header of an order — what it is, for whom, and when — as labelled inputs with the API's
 * message under each. Used by the new-order form and by the order detail.
 */
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { orderTypes } from '../../../shared/resources/order.js';
import { ChoiceSelect } from './ChoiceSelect.js';
import type { OrderDraft, OrderHeaderField } from './order-draft.js';
import type { HeaderChoices } from './order-lookups.js';

interface OrderHeaderFieldsProps {
  values: OrderDraft;
  onChange: (field: OrderHeaderField, text: string) => void;
  errors: Partial<Record<string, string>>;
  choices: HeaderChoices;
  /** Names of the records the order points at now, for pickers whose list lacks them. */
  currentNames?: Partial<Record<OrderHeaderField, string>>;
}

const textFields: readonly { field: OrderHeaderField; maxLength: number }[] = [
  { field: 'code', maxLength: 100 },
  { field: 'description', maxLength: 150 },
  { field: 'status', maxLength: 10 },
];

const pickers = ['relation_id', 'project_id', 'warehouse_id', 'address_id'] as const;

const dateFields = ['date', 'promised_date', 'desired_date', 'delivered_date'] as const;

export function OrderHeaderFields({ values, onChange, errors, choices, currentNames = {} }: OrderHeaderFieldsProps) {
  const t = useT();
  return (
    <div className="form-grid">
      {textFields.map(({ field, maxLength }) => (
        <Field key={field} label={t(`orders.field.${field}`)} error={errors[field]}>
          {(control) => (
            <input
              {...control}
              value={values[field]}
              maxLength={maxLength}
              autoComplete="off"
              onChange={(event) => onChange(field, event.target.value)}
            />
          )}
        </Field>
      ))}
      <Field label={t('orders.field.type')} error={errors.type}>
        {(control) => (
          <select {...control} value={values.type} onChange={(event) => onChange('type', event.target.value)}>
            <option value="">{t('orders.none.type')}</option>
            {orderTypes.map((type) => (
              <option key={type} value={type}>
                {t(`orders.type.${type}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {pickers.map((field) => (
        <Field key={field} label={t(`orders.field.${field}`)} error={errors[field]}>
          {(control) => (
            <ChoiceSelect
              {...control}
              value={values[field]}
              list={choices[field]}
              noneLabel={t(`orders.none.${field}`)}
              currentName={currentNames[field]}
              onChange={(id) => onChange(field, id)}
            />
          )}
        </Field>
      ))}
      {dateFields.map((field) => (
        <Field key={field} label={t(`orders.field.${field}`)} error={errors[field]}>
          {(control) => <input {...control} type="date" value={values[field]} onChange={(event) => onChange(field, event.target.value)} />}
        </Field>
      ))}
    </div>
  );
}
