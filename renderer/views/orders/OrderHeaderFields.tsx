/**
 * The header of an order — what it is, for whom, and when — as labelled inputs with the API's
 * message under each. Used by the new-order form and by the order detail.
 */
import { Field } from '../../components/Field.js';
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

const textFields: readonly { field: OrderHeaderField; label: string; maxLength: number }[] = [
  { field: 'code', label: 'Code', maxLength: 100 },
  { field: 'description', label: 'Description', maxLength: 150 },
  { field: 'status', label: 'Status', maxLength: 10 },
];

const pickers: readonly { field: 'relation_id' | 'project_id' | 'warehouse_id' | 'address_id'; label: string; none: string }[] = [
  { field: 'relation_id', label: 'Relation', none: 'No relation' },
  { field: 'project_id', label: 'Project', none: 'No project' },
  { field: 'warehouse_id', label: 'Warehouse', none: 'No warehouse' },
  { field: 'address_id', label: 'Address', none: 'No address' },
];

const dateFields: readonly { field: OrderHeaderField; label: string }[] = [
  { field: 'date', label: 'Order date' },
  { field: 'promised_date', label: 'Promised date' },
  { field: 'desired_date', label: 'Desired date' },
  { field: 'delivered_date', label: 'Delivered date' },
];

export function OrderHeaderFields({ values, onChange, errors, choices, currentNames = {} }: OrderHeaderFieldsProps) {
  return (
    <div className="form-grid">
      {textFields.map(({ field, label, maxLength }) => (
        <Field key={field} label={label} error={errors[field]}>
          {(control) => (
            <input {...control} value={values[field]} maxLength={maxLength} autoComplete="off" onChange={(event) => onChange(field, event.target.value)} />
          )}
        </Field>
      ))}
      <Field label="Type" error={errors.type}>
        {(control) => (
          <select {...control} value={values.type} onChange={(event) => onChange('type', event.target.value)}>
            <option value="">No type</option>
            {orderTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        )}
      </Field>
      {pickers.map(({ field, label, none }) => (
        <Field key={field} label={label} error={errors[field]}>
          {(control) => (
            <ChoiceSelect
              {...control}
              value={values[field]}
              list={choices[field]}
              noneLabel={none}
              currentName={currentNames[field]}
              onChange={(id) => onChange(field, id)}
            />
          )}
        </Field>
      ))}
      {dateFields.map(({ field, label }) => (
        <Field key={field} label={label} error={errors[field]}>
          {(control) => <input {...control} type="date" value={values[field]} onChange={(event) => onChange(field, event.target.value)} />}
        </Field>
      ))}
    </div>
  );
}
