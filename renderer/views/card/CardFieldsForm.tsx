/**
 * The card's own fields: name, description, stage, and its dates and times. Only what the
 * planner changed is sent; the API's 422 messages show beside their inputs. Saving is one
 * undoable edit. Escape with unsaved changes discards them (a second Escape closes the panel).
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useFieldWording } from '../../api/field-labels.js';
import { Field } from '../../components/Field.js';
import { useT, type MessageKey } from '../../i18n/index.js';
import type { Stage } from '../../../shared/resources/stage.js';
import type { CardDetail } from './card-api.js';
import { cardChanges, cardDraft, cardFormFields, type CardDraft, type CardFormField } from './card-draft.js';
import { cardTitle, useCardEdit } from './use-card-edits.js';
import { byPriority } from '../boards/board-with-parts.js';

export function CardFieldsForm({ card, stages }: { card: CardDetail; stages: Stage[] }) {
  const t = useT();
  const edit = useCardEdit(card);
  const [edits, setEdits] = useState<Partial<CardDraft>>({});
  const values = { ...cardDraft(card), ...edits };
  const changes = cardChanges(card, edits);
  const changed = Object.keys(changes).length > 0;
  const placed = placeFieldErrors(edit.error, cardFormFields, useFieldWording('card'));
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
    edit.mutate({ description: t('card.history.edit', { card: cardTitle(card, t) }), changes }, { onSuccess: () => setEdits({}) });
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

  const text = (field: CardFormField, label: MessageKey, type: 'text' | 'date' | 'time', className?: string) => (
    <Field label={t(label)} error={errors[field]} className={className}>
      {(control) => (
        <input {...control} type={type} value={values[field]} autoComplete="off" onChange={(event) => change(field, event.target.value)} />
      )}
    </Field>
  );

  return (
    <form className="card-section card-fields" aria-label={t('card.fields')} onSubmit={save} onKeyDown={discardOnEscape} noValidate>
      {text('name', 'card.fields.name', 'text', 'card-fields__wide')}
      <Field label={t('card.fields.description')} error={errors.description} className="card-fields__wide">
        {(control) => (
          <textarea {...control} rows={3} value={values.description} onChange={(event) => change('description', event.target.value)} />
        )}
      </Field>
      <Field label={t('card.fields.stage')} error={errors.stage_id} className="card-fields__wide">
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
      {text('start_date', 'card.fields.startDate', 'date')}
      {text('end_date', 'card.fields.endDate', 'date')}
      {text('start_time', 'card.fields.startTime', 'time')}
      {text('end_time', 'card.fields.endTime', 'time')}
      {placed.elsewhere.map((message) => (
        <p key={message} className="form-error card-fields__wide" role="alert">
          {message}
        </p>
      ))}
      <div className="form-actions card-fields__wide">
        <button type="submit" className="button button--primary" disabled={!changed || edit.isPending}>
          {t('card.fields.save')}
        </button>
        <button type="button" className="button" disabled={!changed || edit.isPending} onClick={discard}>
          {t('card.discardChanges')}
        </button>
        {edit.isSuccess && !changed && (
          <span className="muted" role="status">
            {t('card.fields.saved')}
          </span>
        )}
      </div>
    </form>
  );
}
