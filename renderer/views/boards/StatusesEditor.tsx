/**
 * The statuses of a board in its setup form, in the order a card steps through them. New cards
 * get the first entry status; a card in an exit status is done. A board without an entry
 * status is allowed, but the form says what that means.
 */
import { useId } from 'react';
import { BoardColorSelect } from '../../components/BoardColorSelect.js';
import { CheckboxField, Field, Hidden } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { useT } from '../../i18n/index.js';
import { moveItem, newStatus, replaceAt, type StatusDraft } from './board-draft.js';
import { RowControls } from './RowControls.js';

interface StatusesEditorProps {
  statuses: StatusDraft[];
  onChange: (statuses: StatusDraft[]) => void;
  errors: Record<string, string>;
}

export function StatusesEditor({ statuses, onChange, errors }: StatusesEditorProps) {
  const titleId = useId();
  const t = useT();
  const hasEntry = statuses.some((status) => status.entry);
  return (
    <section className="form-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="form-section__title">
        {t('boards.statuses')}
      </h2>
      <FieldError id={`${titleId}-error`} message={errors.statuses} />
      {statuses.length === 0 ? (
        <p className="muted">{t('boards.statuses.none')}</p>
      ) : (
        !hasEntry && (
          <p className="notice notice--warning" role="status">
            {t('boards.statuses.noEntry')}
          </p>
        )
      )}
      <ol className="row-list">
        {statuses.map((status, index) => {
          const place = `${t('boards.status.place', { number: index + 1 })} `;
          const path = `statuses.${index}`;
          const change = (patch: Partial<StatusDraft>) => onChange(replaceAt(statuses, index, patch));
          return (
            <li key={status.key} className="row-card row-card--inline">
              <Field
                label={
                  <>
                    <Hidden>{place}</Hidden>
                    {t('boards.row.name')}
                  </>
                }
                error={errors[`${path}.name`]}
                className="field--grow"
              >
                {(control) => (
                  <input
                    {...control}
                    value={status.name}
                    maxLength={100}
                    autoComplete="off"
                    autoFocus={status.id === null}
                    onChange={(event) => change({ name: event.target.value })}
                  />
                )}
              </Field>
              <Field
                label={
                  <>
                    <Hidden>{place}</Hidden>
                    {t('boards.row.color')}
                  </>
                }
                error={errors[`${path}.color`]}
              >
                {(control) => <BoardColorSelect {...control} value={status.color} onChange={(color) => change({ color })} />}
              </Field>
              <CheckboxField
                label={
                  <>
                    <Hidden>{place}</Hidden>
                    {t('boards.status.entry')}
                  </>
                }
                checked={status.entry}
                error={errors[`${path}.entry`]}
                onChange={(entry) => change({ entry })}
              />
              <CheckboxField
                label={
                  <>
                    <Hidden>{place}</Hidden>
                    {t('boards.status.exit')}
                  </>
                }
                checked={status.exit}
                error={errors[`${path}.exit`]}
                onChange={(exit) => change({ exit })}
              />
              <RowControls
                row={t('boards.status.row', { number: index + 1 })}
                index={index}
                count={statuses.length}
                onMove={(to) => onChange(moveItem(statuses, index, to))}
                onRemove={() => onChange(statuses.filter((_, i) => i !== index))}
              />
            </li>
          );
        })}
      </ol>
      <div>
        <button type="button" className="button" onClick={() => onChange([...statuses, newStatus()])}>
          {t('boards.statuses.add')}
        </button>
      </div>
    </section>
  );
}
