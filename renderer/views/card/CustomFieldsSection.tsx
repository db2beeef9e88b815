/**
 * The card's custom fields, each with the input its type calls for: text, number, date,
 * checkbox, email, link, phone, a choice (select), several choices (list), long text. The
 * board defines them (`scope: card`); the card holds the values. Saving sends the whole list
 * (see custom-field-values.ts) as one undoable edit.
 */
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { BoardCustomField } from '../../../shared/resources/board.js';
import { placeFieldErrors } from '../../api/client.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import type { CardDetail } from './card-api.js';
import {
  cardCustomFields,
  choiceKey,
  choicesOf,
  isEditableType,
  toInputValue,
  toStoredValue,
  withCustomFieldValue,
  type CardCustomField,
  type CustomFieldValue,
  type InputValue,
} from './custom-field-values.js';
import { cardTitle, useCardEdit } from './use-card-edits.js';

const inputTypes: Record<string, string> = { text: 'text', number: 'number', date: 'date', email: 'email', link: 'url', phone: 'tel' };

export function CustomFieldsSection({ card, definitions }: { card: CardDetail; definitions: BoardCustomField[] }) {
  const t = useT();
  const titleId = useId();
  const edit = useCardEdit(card);
  const [edits, setEdits] = useState<Record<string, InputValue>>({});
  const values = (Array.isArray(card.custom_fields) ? card.custom_fields : []) as CustomFieldValue[];
  const fields = cardCustomFields(definitions, values);
  const changed = Object.keys(edits).length > 0;
  const placed = placeFieldErrors(edit.error, ['custom_fields']);

  if (fields.length === 0) return null;

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!changed) return;
    let next = values;
    for (const field of fields) {
      const input = edits[field.definition.name];
      if (input !== undefined && !field.orphan) next = withCustomFieldValue(next, field.definition, toStoredValue(field.definition, input));
    }
    edit.mutate(
      { description: t('card.history.editCustomFields', { card: cardTitle(card, t) }), changes: { custom_fields: next } },
      { onSuccess: () => setEdits({}) },
    );
  }

  function discardOnEscape(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Escape' || !changed) return;
    event.preventDefault();
    setEdits({});
    edit.reset();
  }

  return (
    <form className="card-section card-custom-fields" aria-labelledby={titleId} onSubmit={save} onKeyDown={discardOnEscape} noValidate>
      <h3 id={titleId} className="card-section__title">
        {t('card.customFields')}
      </h3>
      {fields.map((field) => (
        <CustomFieldInput
          key={field.definition.name}
          field={field}
          input={edits[field.definition.name] ?? toInputValue(field.definition, field.value)}
          onChange={(input) => {
            setEdits((current) => ({ ...current, [field.definition.name]: input }));
            if (edit.error) edit.reset();
          }}
        />
      ))}
      {[placed.byInput.custom_fields, ...placed.elsewhere].filter(Boolean).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={!changed || edit.isPending}>
          {t('card.customFields.save')}
        </button>
        {changed && (
          <button
            type="button"
            className="button"
            onClick={() => {
              setEdits({});
              edit.reset();
            }}
          >
            {t('card.discardChanges')}
          </button>
        )}
      </div>
    </form>
  );
}

function CustomFieldInput({
  field,
  input,
  onChange,
}: {
  field: CardCustomField;
  input: InputValue;
  onChange: (input: InputValue) => void;
}) {
  const { definition } = field;
  const groupId = useId();
  if (field.orphan || !isEditableType(definition.type)) {
    const text = toInputValue({ type: 'text' }, field.value);
    return (
      <div className="field card-custom-field--readonly">
        <span className="card-custom-field__name">{definition.name}</span>
        <span>{text || <span className="muted">—</span>}</span>
      </div>
    );
  }
  switch (definition.type) {
    case 'checkbox':
      return (
        <label className="card-pick">
          <input type="checkbox" checked={input === true} onChange={(event) => onChange(event.target.checked)} />
          {definition.name}
        </label>
      );
    case 'list': {
      const ticked = new Set(Array.isArray(input) ? input : []);
      return (
        <fieldset className="card-picks" aria-labelledby={groupId}>
          <legend id={groupId}>{definition.name}</legend>
          {choicesOf(definition).map((choice) => {
            const key = choiceKey(choice.value);
            return (
              <label key={key} className="card-pick">
                <input
                  type="checkbox"
                  checked={ticked.has(key)}
                  onChange={(event) => onChange(event.target.checked ? [...ticked, key] : [...ticked].filter((k) => k !== key))}
                />
                {choice.name}
              </label>
            );
          })}
        </fieldset>
      );
    }
    case 'select':
      return (
        <Field label={definition.name}>
          {(control) => (
            <select {...control} value={typeof input === 'string' ? input : ''} onChange={(event) => onChange(event.target.value)}>
              <option value="">—</option>
              {choicesOf(definition).map((choice) => (
                <option key={choiceKey(choice.value)} value={choiceKey(choice.value)}>
                  {choice.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      );
    case 'textarea':
      return (
        <Field label={definition.name}>
          {(control) => (
            <textarea
              {...control}
              rows={3}
              value={typeof input === 'string' ? input : ''}
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </Field>
      );
    default:
      return (
        <Field label={definition.name}>
          {(control) => (
            <input
              {...control}
              type={inputTypes[definition.type] ?? 'text'}
              value={typeof input === 'string' ? input : ''}
              step={definition.type === 'number' ? 'any' : undefined}
              autoComplete="off"
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </Field>
      );
  }
}
