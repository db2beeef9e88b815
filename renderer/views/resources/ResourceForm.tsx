/**
 * Creates a resource, or edits one picked in the list: its name, type and colour, its hours
 * per weekday and those of a second shift, when it is available, and the stages it works on. In edit mode Escape and
 * Cancel go back to creating.
 */
import { useId } from 'react';
import { Field, Hidden } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { RecordForm, RecordNameField } from '../../components/RecordForm.js';
import { ResourceTypeSelect } from '../../components/ResourceTypeSelect.js';
import { useRecordForm } from '../../components/use-record-form.js';
import { weekdays } from '../../components/weekdays.js';
import { useT } from '../../i18n/index.js';
import type { Resource } from '../../../shared/resources/resource.js';
import { ResourceStagesFields } from './ResourceStagesFields.js';
import { SecondShiftFields } from './SecondShiftFields.js';
import {
  dayHoursFit,
  newResourceDraft,
  resourceBody,
  resourceDraftFrom,
  resourceFormInputs,
  type BoardWithStages,
} from './resource-draft.js';

interface ResourceFormProps {
  /** The resource being edited, or undefined to create one. */
  resource?: Resource | undefined;
  /** Boards with their stages; undefined while loading (saving waits for them). */
  boards: readonly BoardWithStages[] | undefined;
  onDone: () => void;
}

export function ResourceForm({ resource, boards, onDone }: ResourceFormProps) {
  const form = useRecordForm('resource', {
    record: resource,
    draftFrom: resourceDraftFrom,
    blank: newResourceDraft,
    inputs: resourceFormInputs,
    onDone,
  });
  const { draft, change, errors, isNew } = form;
  const t = useT();
  const weekHoursErrorId = useId();

  return (
    <RecordForm
      {...form.shell}
      title={resource ? t('common.editName', { name: resource.name }) : t('resources.new')}
      onSubmit={() => {
        // Saving waits for the boards: the body names the stages of each.
        if (boards) form.submit(resourceBody(draft, boards, isNew));
      }}
      submitLabel={t('resources.save')}
      busy={form.busy || !boards}
    >
      <RecordNameField
        label={t('resources.name')}
        error={errors.name}
        value={draft.name}
        inputRef={form.nameInput}
        focus={!isNew}
        onChange={(name) => change({ name })}
      />
      <Field label={t('resources.type')} error={errors.type}>
        {(control) => <ResourceTypeSelect {...control} value={draft.type} onChange={(type) => change({ type })} />}
      </Field>
      <Field label={t('resources.color')} error={errors.color_hex}>
        {(control) => <input {...control} type="color" value={draft.color} onChange={(event) => change({ color: event.target.value })} />}
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
      <Field label={t('resources.skills')} error={errors.skills}>
        {(control) => (
          <input
            {...control}
            value={draft.skills}
            autoComplete="off"
            placeholder={t('resources.skillsHint')}
            onChange={(event) => change({ skills: event.target.value })}
          />
        )}
      </Field>
      <fieldset className="week-hours form-grid__wide">
        <legend>{t('resources.weekHours')}</legend>
        {weekdays.map(({ key, nameKey }) => {
          // The API names the week's hours as one field; the day it is about is the one whose
          // hours are out of range, and that input says why.
          const wrong = errors.workdays !== undefined && !dayHoursFit(draft.hours[key]);
          return (
            <Field
              key={key}
              label={
                <>
                  {t(nameKey)}
                  <Hidden> {t('resources.dayHours')}</Hidden>
                </>
              }
            >
              {(control) => (
                <input
                  {...control}
                  {...(wrong ? { 'aria-invalid': true, 'aria-describedby': weekHoursErrorId } : {})}
                  type="number"
                  min={0}
                  max={24}
                  step="any"
                  value={draft.hours[key]}
                  onChange={(event) => change({ hours: { ...draft.hours, [key]: event.target.value } })}
                />
              )}
            </Field>
          );
        })}
        <FieldError id={weekHoursErrorId} message={errors.workdays} />
      </fieldset>
      <SecondShiftFields hours={draft.secondShift} error={errors.second_shift} onChange={(secondShift) => change({ secondShift })} />
      <ResourceStagesFields
        boards={boards ?? []}
        assignments={draft.stages}
        error={errors.boards}
        onChange={(stages) => change({ stages })}
      />
    </RecordForm>
  );
}
