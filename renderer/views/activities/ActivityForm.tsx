/**
 * Creates an activity, or edits one picked in the list. Problems the API finds are shown
 * beside their input; in edit mode Escape and Cancel go back to creating.
 */
import { CheckboxField, Field } from '../../components/Field.js';
import { RecordForm, RecordNameField } from '../../components/RecordForm.js';
import { ResourceTypeSelect } from '../../components/ResourceTypeSelect.js';
import { useRecordForm } from '../../components/use-record-form.js';
import { useT } from '../../i18n/index.js';
import type { Activity } from '../../../shared/resources/activity.js';
import { activityBody, activityDraftFrom, activityFormInputs, newActivityDraft } from './activity-draft.js';

interface ActivityFormProps {
  /** The activity being edited, or undefined to create one. */
  activity?: Activity | undefined;
  onDone: () => void;
}

export function ActivityForm({ activity, onDone }: ActivityFormProps) {
  const form = useRecordForm('activity', {
    record: activity,
    draftFrom: activityDraftFrom,
    blank: newActivityDraft,
    inputs: activityFormInputs,
    onDone,
  });
  const { draft, change, errors, isNew } = form;
  const t = useT();

  return (
    <RecordForm
      {...form.shell}
      title={activity ? t('common.editName', { name: activity.description }) : t('activities.new')}
      onSubmit={() => form.submit(activityBody(draft, isNew))}
      submitLabel={t('activities.save')}
      busy={form.busy}
    >
      <RecordNameField
        label={t('activities.name')}
        error={errors.description}
        value={draft.description}
        inputRef={form.nameInput}
        focus={!isNew}
        onChange={(description) => change({ description })}
      />
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
      <Field label={t('activities.hourCode')} error={errors.hour_code}>
        {(control) => (
          <input
            {...control}
            value={draft.hour_code}
            maxLength={50}
            autoComplete="off"
            placeholder={t('common.optional')}
            onChange={(event) => change({ hour_code: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('activities.skill')} error={errors.skill}>
        {(control) => (
          <input
            {...control}
            value={draft.skill}
            maxLength={50}
            autoComplete="off"
            placeholder={t('activities.skillAnyone')}
            onChange={(event) => change({ skill: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('activities.crew')} error={errors.crew}>
        {(control) => (
          <input
            {...control}
            type="number"
            min={1}
            max={50}
            step={1}
            value={draft.crew}
            onChange={(event) => change({ crew: event.target.value })}
          />
        )}
      </Field>
      <CheckboxField
        label={t('activities.billable')}
        checked={draft.billable}
        error={errors.billable}
        onChange={(billable) => change({ billable })}
      />
    </RecordForm>
  );
}
