/**
 * The statuses of a board in its setup form, in the order a card steps through them. New cards
 * get the first entry status; a card in an exit status is done. A board without an entry
 * status is allowed, but the form says what that means.
 */
import { useId } from 'react';
import { BoardColorSelect } from '../../components/BoardColorSelect.js';
import { CheckboxField, Field, Hidden } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { moveItem, newStatus, replaceAt, type StatusDraft } from './board-draft.js';
import { RowControls } from './RowControls.js';

interface StatusesEditorProps {
  statuses: StatusDraft[];
  onChange: (statuses: StatusDraft[]) => void;
  errors: Record<string, string>;
}

export function StatusesEditor({ statuses, onChange, errors }: StatusesEditorProps) {
  const titleId = useId();
  const hasEntry = statuses.some((status) => status.entry);
  return (
    <section className="form-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="form-section__title">
        Statuses
      </h2>
      <FieldError id={`${titleId}-error`} message={errors.statuses} />
      {statuses.length === 0 ? (
        <p className="muted">No statuses: cards on this board will have none.</p>
      ) : (
        !hasEntry && (
          <p className="notice notice--warning" role="status">
            No status is marked as entry, so new cards will start without a status.
          </p>
        )
      )}
      <ol className="row-list">
        {statuses.map((status, index) => {
          const place = `Status ${index + 1} `;
          const path = `statuses.${index}`;
          const change = (patch: Partial<StatusDraft>) => onChange(replaceAt(statuses, index, patch));
          return (
            <li key={status.key} className="row-card row-card--inline">
              <Field label={<><Hidden>{place}</Hidden>Name</>} error={errors[`${path}.name`]} className="field--grow">
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
              <Field label={<><Hidden>{place}</Hidden>Color</>} error={errors[`${path}.color`]}>
                {(control) => <BoardColorSelect {...control} value={status.color} onChange={(color) => change({ color })} />}
              </Field>
              <CheckboxField
                label={<><Hidden>{place}</Hidden>Entry</>}
                checked={status.entry}
                error={errors[`${path}.entry`]}
                onChange={(entry) => change({ entry })}
              />
              <CheckboxField
                label={<><Hidden>{place}</Hidden>Exit</>}
                checked={status.exit}
                error={errors[`${path}.exit`]}
                onChange={(exit) => change({ exit })}
              />
              <RowControls
                noun="status"
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
          Add status
        </button>
      </div>
    </section>
  );
}
