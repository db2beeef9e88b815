/**
 * The rows of a new order, typed before anything is saved. Every input is named by its row
 * and column ("Row 2 quantity"); the API's message for it appears under it.
 */
import { useId } from 'react';
import { useT } from '../../i18n/index.js';
import { ChoiceSelect } from './ChoiceSelect.js';
import type { RowChoices } from './order-lookups.js';
import { cellLabel, columnOfField, columnTitle } from './order-row-columns.js';
import { newRowFields, type NewRowDraft, type NewRowField } from './new-order-rows.js';
import { UnitHint, UnitSelect } from './UnitSelect.js';

interface NewOrderRowsTableProps {
  rows: readonly NewRowDraft[];
  errors: Record<number, Partial<Record<NewRowField, string>>>;
  choices: RowChoices;
  onChange: (index: number, field: NewRowField, text: string) => void;
  onRemove: (index: number) => void;
}

export function NewOrderRowsTable({ rows, errors, choices, onChange, onRemove }: NewOrderRowsTableProps) {
  const t = useT();
  const id = useId();
  return (
    <>
      <table className="new-rows" aria-label={t('orders.newRows')}>
        <thead>
          <tr>
            <th scope="col" className="rows-grid__number">
              <span className="visually-hidden">{t('orders.rows.row')}</span>
            </th>
            {newRowFields.map((field) => (
              <th key={field} scope="col">
                {columnTitle(columnOfField(field)!, t)}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">{t('orders.rows.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.key}>
              <th scope="row" className="rows-grid__number">
                {index + 1}
              </th>
              {newRowFields.map((field) => {
                const label = cellLabel(index, columnOfField(field)!, t);
                const error = errors[index]?.[field];
                const errorId = `${id}-${row.key}-${field}-error`;
                const control = {
                  'aria-label': label,
                  'aria-invalid': error ? true : undefined,
                  'aria-describedby': error ? errorId : undefined,
                };
                return (
                  <td key={field} className={`new-rows__cell new-rows__cell--${field}`}>
                    {field === 'item_id' || field === 'activity_id' ? (
                      <ChoiceSelect
                        {...control}
                        value={row.values[field]}
                        list={choices[field]}
                        noneLabel={t(`orders.none.${field}`)}
                        onChange={(value) => onChange(index, field, value)}
                      />
                    ) : field === 'unit' ? (
                      <>
                        <UnitSelect {...control} value={row.values.unit} onChange={(unit) => onChange(index, field, unit)} />
                        <UnitHint unit={row.values.unit} />
                      </>
                    ) : (
                      <input
                        {...control}
                        value={row.values[field]}
                        autoComplete="off"
                        inputMode={field === 'quantity' ? 'decimal' : undefined}
                        onChange={(event) => onChange(index, field, event.target.value)}
                      />
                    )}
                    {error && (
                      <span id={errorId} className="field-error">
                        {error}
                      </span>
                    )}
                  </td>
                );
              })}
              <td>
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={t('orders.rows.removeRow', { row: index + 1 })}
                  onClick={() => onRemove(index)}
                >
                  {t('orders.rows.remove')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
