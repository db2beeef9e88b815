/**
 * A picker of one record (relation, project, item, …) or none. A value that is not in the
 * list — a record past the first page, or deleted since — is still shown under its own name,
 * so opening an order never silently changes what it points at.
 */
import type { SelectHTMLAttributes } from 'react';
import { useT } from '../../i18n/index.js';
import type { ChoiceList } from './order-lookups.js';

interface ChoiceSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  value: string;
  list: ChoiceList;
  /** What "no record" is called: "No relation". */
  noneLabel: string;
  /** The name of the current record when the list may not hold it. */
  currentName?: string | undefined;
  onChange: (id: string) => void;
}

export function ChoiceSelect({ value, list, noneLabel, currentName, onChange, ...select }: ChoiceSelectProps) {
  const t = useT();
  const missing = value !== '' && !list.choices.some((choice) => choice.id === value);
  return (
    <select {...select} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{noneLabel}</option>
      {missing && <option value={value}>{currentName ?? t('orders.notInList')}</option>}
      {list.choices.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.name}
        </option>
      ))}
    </select>
  );
}
