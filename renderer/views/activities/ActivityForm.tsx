/**
 * Creates an activity, or edits one picked in the list. Problems the API finds are shown
 * beside their input; in edit mode Escape and Cancel go back to creating.
 */
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useSave } from '../../api/hooks.js';
import { CheckboxField, Field } from '../../components/Field.js';
import { ResourceTypeSelect } from '../../components/ResourceTypeSelect.js';
import { useT } from '../../i18n/index.js';
import type { Activity } from '../../../shared/resources/activity.js';
import { activityBody, activityDraftFrom, activityFormInputs, newActivityDraft, type ActivityDraft } from './activity-draft.js';

interface ActivityFormProps {
  /** The activity being edited, or undefined to create one. */
  activity?: Activity | undefined;
  onDone: () => void;
}

export function ActivityForm({ activity, onDone }: ActivityFormProps) {
  const save = useSave('activity');
  const [draft, setDraft] = useState<ActivityDraft>(() => (activity ? activityDraftFrom(activity) : newActivityDraft()));
  const { byInput: errors, elsewhere } = placeFieldErrors(save.error, activityFormInputs);
  const isNew = activity === undefined;
  const titleId = useId();
  const nameInput = useRef<HTMLInputElement>(null);
  const t = useT();

  function change(patch: Partial<ActivityDraft>) {
    setDraft({ ...draft, ...patch });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    save.mutate(
      { id: activity?.id ?? null, body: activityBody(draft, isNew) },
      {
        onSuccess: () => {
          // Ready for the next one: planners often add several in a row.
          if (isNew) {
            setDraft(newActivityDraft());
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
        {isNew ? t('activities.new') : t('common.editName', { name: activity.description })}
      </h2>
      <Field label={t('activities.name')} error={errors.description} className="form-grid__wide">
        {(control) => (
          <input
            {...control}
            ref={nameInput}
            value={draft.description}
            maxLength={150}
            autoComplete="off"
            autoFocus={!isNew}
            onChange={(event) => change({ description: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('activities.code')} error={errors.code}>
        {(control) => (
          <input
            {...control}
            value={draft.code}
            maxLength={50}
            autoComplete="off"
            placeholder={t('common.optional')}
            onChange={(event) => change({ code: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('activities.resourceType')} error={errors.resource_type}>
        {(control) => (
          <ResourceTypeSelect {...control} value={draft.resource_type} onChange={(resource_type) => change({ resource_type })} />
        )}
      </Field>
      <Field label={t('activities.defaultDuration')} error={errors.default_duration}>
        {(control) => (
          <input
            {...control}
            type="number"
            min={0}
            step={1}
            value={draft.default_duration}
            onChange={(event) => change({ default_duration: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('activities.dayMaxDuration')} error={errors.day_max_duration}>
        {(control) => (
          <input
            {...control}
            type="number"
            min={0}
            step={1}
            value={draft.day_max_duration}
            onChange={(event) => change({ day_max_duration: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('activities.hourlyRate')} error={errors.hourly_rate}>
        {(control) => (
          <input
            {...control}
            type="number"
            min={0}
            step="any"
            value={draft.hourly_rate}
            onChange={(event) => change({ hourly_rate: event.target.value })}
          />
        )}
      </Field>
      <CheckboxField
        label={t('activities.billable')}
        checked={draft.billable}
        error={errors.billable}
        onChange={(billable) => change({ billable })}
      />
      <div className="form-actions form-grid__wide">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {t('activities.save')}
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
