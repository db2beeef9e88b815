/**
 * Creates a resource, or edits one picked in the list: its name, type and colour, its hours
 * per weekday, when it is available, and the stages it works on. In edit mode Escape and
 * Cancel go back to creating.
 */
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useSave } from '../../api/hooks.js';
import { Field, Hidden } from '../../components/Field.js';
import { ResourceTypeSelect } from '../../components/ResourceTypeSelect.js';
import { weekdays } from '../../components/weekdays.js';
import { useT } from '../../i18n/index.js';
import type { Resource } from '../../../shared/resources/resource.js';
import { ResourceStagesFields } from './ResourceStagesFields.js';
import {
  newResourceDraft,
  resourceBody,
  resourceDraftFrom,
  resourceFormInputs,
  type BoardWithStages,
  type ResourceDraft,
} from './resource-draft.js';

interface ResourceFormProps {
  /** The resource being edited, or undefined to create one. */
  resource?: Resource | undefined;
  /** Boards with their stages; undefined while loading (saving waits for them). */
  boards: readonly BoardWithStages[] | undefined;
  onDone: () => void;
}

export function ResourceForm({ resource, boards, onDone }: ResourceFormProps) {
  const save = useSave('resource');
  const [draft, setDraft] = useState<ResourceDraft>(() => (resource ? resourceDraftFrom(resource) : newResourceDraft()));
  const { byInput: errors, elsewhere } = placeFieldErrors(save.error, resourceFormInputs);
  const isNew = resource === undefined;
  const titleId = useId();
  const nameInput = useRef<HTMLInputElement>(null);
  const t = useT();

  function change(patch: Partial<ResourceDraft>) {
    setDraft({ ...draft, ...patch });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!boards) return;
    save.mutate(
      { id: resource?.id ?? null, body: resourceBody(draft, boards, isNew) },
      {
        onSuccess: () => {
          // Ready for the next one: planners often add several in a row.
          if (isNew) {
            setDraft(newResourceDraft());
            nameInput.current?.focus();
          }
          onDone();
        },
      },
    );
  }

  function cancelOnEscape(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Escape' || isNew) return;
    event.stopPropagation();
    onDone();
  }

  return (
    <form
      className="record-form"
      aria-labelledby={titleId}
      onSubmit={submit}
      onKeyDown={cancelOnEscape}
      noValidate
    >
      <h2 id={titleId} className="record-form__title">
        {isNew ? t('resources.new') : t('common.editName', { name: resource.name })}
      </h2>
      <Field label={t('resources.name')} error={errors.name} className="form-grid__wide">
        {(control) => (
          <input
            {...control}
            ref={nameInput}
            value={draft.name}
            maxLength={150}
            autoComplete="off"
            autoFocus={!isNew}
            onChange={(event) => change({ name: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('resources.type')} error={errors.type}>
        {(control) => <ResourceTypeSelect {...control} value={draft.type} onChange={(type) => change({ type })} />}
      </Field>
      <Field label={t('resources.color')} error={errors.color_hex}>
        {(control) => (
          <input {...control} type="color" value={draft.color} onChange={(event) => change({ color: event.target.value })} />
        )}
      </Field>
      <Field label={t('resources.startDate')} error={errors.start_date}>
        {(control) => (
          <input {...control} type="date" value={draft.start_date} onChange={(event) => change({ start_date: event.target.value })} />
        )}
      </Field>
      <Field label={t('resources.endDate')} error={errors.end_date}>
        {(control) => (
          <input {...control} type="date" value={draft.end_date} onChange={(event) => change({ end_date: event.target.value })} />
        )}
      </Field>
      <fieldset className="week-hours form-grid__wide">
        <legend>{t('resources.weekHours')}</legend>
        {weekdays.map(({ key, nameKey }) => (
          <Field key={key} label={<>{t(nameKey)}<Hidden> {t('resources.dayHours')}</Hidden></>}>
            {(control) => (
              <input
                {...control}
                type="number"
                min={0}
                max={24}
                step="any"
                value={draft.hours[key]}
                onChange={(event) => change({ hours: { ...draft.hours, [key]: event.target.value } })}
              />
            )}
          </Field>
        ))}
        {errors.workdays && <p className="field-error">{errors.workdays}</p>}
      </fieldset>
      <ResourceStagesFields
        boards={boards ?? []}
        assignments={draft.stages}
        error={errors.boards}
        onChange={(stages) => change({ stages })}
      />
      <div className="form-actions form-grid__wide">
        <button type="submit" className="button button--primary" disabled={save.isPending || !boards}>
          {t('resources.save')}
        </button>
        {!isNew && (
          <button type="button" className="button" onClick={onDone}>
            {t('common.cancel')}
          </button>
        )}
      </div>
      {elsewhere.map((message) => (
        <p key={message} className="form-error form-grid__wide" role="alert">
          {message}
        </p>
      ))}
    </form>
  );
}
