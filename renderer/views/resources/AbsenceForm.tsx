/**
 * Adds an absence to a resource, or edits one picked in its list: its type, first and last
 * day, whole days or hours off per day, and a note. Overtime is entered here too, with the
 * hours it adds per day (required). The API checks it; its problems show beside their inputs.
 */
import { useId, useState } from 'react';
import type { ScheduleDeviation } from '../../../shared/resources/resource.js';
import { placeFieldErrors } from '../../api/client.js';
import { ruleMessage, useFieldWording, type FieldWording } from '../../api/field-labels.js';
import { Field } from '../../components/Field.js';
import { RecordForm } from '../../components/RecordForm.js';
import { useT } from '../../i18n/index.js';
import { useSaveAbsence, type AbsenceBody, type AbsenceType } from './absences-api.js';
import { absenceTypeName, absenceTypes, addsTime } from './absence-words.js';

interface AbsenceDraft {
  type: AbsenceType;
  start_date: string;
  end_date: string;
  /** Hours off per day as typed, empty for whole days; for overtime the hours added per day. */
  hours: string;
  note: string;
}

const inputs = ['type', 'start_date', 'end_date', 'time', 'description'] as const;

const blank = (): AbsenceDraft => ({ type: 'vacation', start_date: '', end_date: '', hours: '', note: '' });

function draftFrom(absence: ScheduleDeviation): AbsenceDraft {
  return {
    type: absence.type,
    start_date: absence.start_date,
    end_date: absence.end_date,
    hours: absence.time === null ? '' : String(absence.time / 60),
    note: absence.description ?? '',
  };
}

function bodyOf(draft: AbsenceDraft): AbsenceBody {
  const hours = draft.hours.trim() === '' ? null : Number(draft.hours.replace(',', '.'));
  return {
    type: draft.type,
    start_date: draft.start_date || null,
    // One day when only the first is given.
    end_date: draft.end_date || draft.start_date || null,
    // Minutes; what is no number goes as it is, so the API names the problem beside the input.
    time: hours === null ? null : Number.isFinite(hours) ? Math.round(hours * 60) : (draft.hours as unknown as number),
    description: draft.note.trim() === '' ? null : draft.note.trim(),
  };
}

interface AbsenceFormProps {
  resourceId: string;
  /** The absence being edited, or undefined to add one. */
  absence?: ScheduleDeviation | undefined;
  onDone: () => void;
}

export function AbsenceForm({ resourceId, absence, onDone }: AbsenceFormProps) {
  const save = useSaveAbsence(resourceId);
  const [draft, setDraft] = useState<AbsenceDraft>(() => (absence ? draftFrom(absence) : blank()));
  const t = useT();
  const wording = useFieldWording('schedule_deviation');
  const overtime = addsTime(draft.type);
  const hoursLabel = overtime ? t('absences.hoursAdded') : t('absences.hoursOff');
  // The hours field's problems in the words of its label, which differs for overtime.
  const worded: FieldWording = (item) => (overtime && item.field === 'time' ? ruleMessage(t, hoursLabel, item, true) : wording(item));
  const { byInput: errors, elsewhere } = placeFieldErrors(save.error, inputs, worded);
  const titleId = useId();
  const change = (patch: Partial<AbsenceDraft>) => setDraft({ ...draft, ...patch });

  return (
    <RecordForm
      className="record-form absence-form"
      wide
      title={absence ? t('absences.edit') : t('absences.new')}
      titleId={titleId}
      errors={elsewhere}
      onCancel={absence ? onDone : undefined}
      onSubmit={() =>
        save.mutate(
          { id: absence?.id ?? null, body: bodyOf(draft) },
          {
            onSuccess: () => {
              if (!absence) setDraft(blank());
              onDone();
            },
          },
        )
      }
      submitLabel={t('absences.save')}
      busy={save.isPending}
    >
      <Field label={t('absences.type')} error={errors.type}>
        {(control) => (
          <select {...control} value={draft.type} onChange={(event) => change({ type: event.target.value as AbsenceType })}>
            {[...absenceTypes, ...(absenceTypes.includes(draft.type) ? [] : [draft.type])].map((type) => (
              <option key={type} value={type}>
                {absenceTypeName(type, t)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('absences.from')} error={errors.start_date}>
        {(control) => <input {...control} type="date" value={draft.start_date} onChange={(e) => change({ start_date: e.target.value })} />}
      </Field>
      <Field label={t('absences.until')} error={errors.end_date}>
        {(control) => <input {...control} type="date" value={draft.end_date} onChange={(e) => change({ end_date: e.target.value })} />}
      </Field>
      <Field label={hoursLabel} error={errors.time}>
        {(control) => (
          <input
            {...control}
            type="text"
            inputMode="decimal"
            placeholder={overtime ? t('absences.hoursAddedHint') : t('absences.hoursOffHint')}
            value={draft.hours}
            onChange={(e) => change({ hours: e.target.value })}
          />
        )}
      </Field>
      <Field label={t('absences.note')} error={errors.description} className="form-grid__wide">
        {(control) => (
          <input {...control} type="text" maxLength={255} value={draft.note} onChange={(e) => change({ note: e.target.value })} />
        )}
      </Field>
    </RecordForm>
  );
}
