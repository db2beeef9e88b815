/**
 * The card's own fields: name, description, stage, and its dates and times. Only what the
 * planner changed is sent; the API's 422 messages show beside their inputs. Saving is one
 * undoable edit. Escape with unsaved changes discards them (a second Escape closes the panel).
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { Field } from '../../components/Field.js';
import type { Stage } from '../../../shared/resources/stage.js';
import type { CardDetail } from './card-api.js';
import { cardChanges, cardDraft, cardFormFields, type CardDraft, type CardFormField } from './card-draft.js';
import { cardTitle, useCardEdit } from './use-card-edits.js';
import { byPriority } from '../boards/board-with-parts.js';

export function CardFieldsForm({ card, stages }: { card: CardDetail; stages: Stage[] }) {
  const edit = useCardEdit(card);
  const [edits, setEdits] = useState<Partial<CardDraft>>({});
  const values = { ...cardDraft(card), ...edits };
  const changes = cardChanges(card, edits);
  const changed = Object.keys(changes).length > 0;
  const placed = placeFieldErrors(edit.error, cardFormFields);
  const errors = placed.byInput;
  // The card's stage stays choosable even when the board's list has not loaded or lacks it.
  const stageChoices = byPriority(stages);
  if (card.stage && !stageChoices.some((stage) => stage.id === card.stage_id)) stageChoices.unshift(card.stage);

  function change(field: CardFormField, text: string) {
    setEdits((current) => ({ ...current, [field]: text }));
    if (edit.error) edit.reset();
  }

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!changed) return;
    edit.mutate({ description: `Edit ${cardTitle(card)}`, changes }, { onSuccess: () => setEdits({}) });
  }

  function discard() {
    setEdits({});
    edit.reset();
  }

  function discardOnEscape(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Escape' || !changed) return;
    event.preventDefault();
    discard();
  }

  const text = (field: CardFormField, label: string, type: 'text' | 'date' | 'time', className?: string) => (
    <Field label={label} error={errors[field]} className={className}>
      {(control) => <input {...control} type={type} value={values[field]} autoComplete="off" onChange={(event) => change(field, event.target.value)} />}
    </Field>
  );

  return (
    <form className="card-section card-fields" aria-label="Card fields" onSubmit={save} onKeyDown={discardOnEscape} noValidate>
      {text('name', 'Card name', 'text', 'card-fields__wide')}
      <Field label="Description" error={errors.description} className="card-fields__wide">
        {(control) => <textarea {...control} rows={3} value={values.description} onChange={(event) => change('description', event.target.value)} />}
      </Field>
      <Field label="Stage" error={errors.stage_id} className="card-fields__wide">
        {(control) => (
          <select {...control} value={values.stage_id} onChange={(event) => change('stage_id', event.target.value)}>
            {stageChoices.map((stage) => (
              <option key={stage.id} value={stage.id}>
                {stage.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      {text('start_date', 'Start date', 'date')}
      {text('end_date', 'End date', 'date')}
      {text('start_time', 'Start time', 'time')}
      {text('end_time', 'End time', 'time')}
      {placed.elsewhere.map((message) => (
        <p key={message} className="form-error card-fields__wide" role="alert">
          {message}
        </p>
      ))}
      <div className="form-actions card-fields__wide">
        <button type="submit" className="button button--primary" disabled={!changed || edit.isPending}>
          Save card
        </button>
        <button type="button" className="button" disabled={!changed || edit.isPending} onClick={discard}>
          Discard changes
        </button>
        {edit.isSuccess && !changed && (
          <span className="muted" role="status">
            Saved.
          </span>
        )}
      </div>
    </form>
  );
}
