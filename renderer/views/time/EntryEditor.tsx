/**
 * Editing one time entry in a dialog: its day, start and end time (local), activity, note and
 * status (only the changes the approval rules allow). The API's 422 problems show beside the
 * fields they are about.
 */
import { useState, type FormEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { timeTransitions, type TimeStatus } from '../../../shared/resources/time-tracking.js';
import { localDate } from '../../../shared/zoned-time.js';
import { cardLabel } from './card-label.js';
import { formatTime } from '../../components/dates-format.js';
import { isoInstant, localTimeInstant } from './periods.js';
import { isPlanner, useMe, type EntryRow } from './time-api.js';
import { useActivityChoices } from './time-lookups.js';
import { useEntryWrite } from './use-entry-writes.js';

interface EntryEditorProps {
  entry: EntryRow;
  timeZone: string;
  onClose(): void;
}

const inputs = ['start', 'end', 'activity_id', 'note', 'status'] as const;

export function EntryEditor({ entry, timeZone, onClose }: EntryEditorProps) {
  const t = useT();
  const me = useMe();
  const activities = useActivityChoices();
  const write = useEntryWrite();
  const [date, setDate] = useState(() => localDate(Date.parse(entry.start), timeZone));
  const [startTime, setStartTime] = useState(() => formatTime(entry.start, 'en-GB', timeZone));
  const [endTime, setEndTime] = useState(() => (entry.end ? formatTime(entry.end, 'en-GB', timeZone) : ''));
  const [activityId, setActivityId] = useState(entry.activity_id ?? '');
  const [note, setNote] = useState(entry.note ?? '');
  const [status, setStatus] = useState<TimeStatus>(entry.status);
  const [localProblem, setLocalProblem] = useState<string | null>(null);
  const planner = isPlanner(me.data);
  const statuses = [entry.status, ...timeTransitions[entry.status].filter((step) => planner || !step.planner).map((step) => step.to)];
  const placed = placeFieldErrors(write.error, inputs);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    const start = localTimeInstant(date, startTime, timeZone);
    let end: number | null = null;
    if (endTime) {
      end = localTimeInstant(date, endTime, timeZone);
      // An end before the start is the next morning: a night shift.
      if (end <= start) end = localTimeInstant(localDate(end + 86_400_000, timeZone), endTime, timeZone);
    } else if (!entry.running) {
      setLocalProblem(t('editor.endRequired'));
      return;
    }
    write.mutate(
      {
        kind: 'update',
        id: entry.id,
        changes: {
          start: isoInstant(start),
          ...(end !== null ? { end: isoInstant(end) } : {}),
          activity_id: activityId || null,
          note: note || null,
          ...(status !== entry.status ? { status } : {}),
        },
      },
      { onSuccess: onClose },
    );
  }

  return (
    <Modal title={t('editor.title', { card: cardLabel(entry.card, t) })} closeLabel={t('common.close')} onClose={onClose}>
      <form className="entry-editor" onSubmit={submit}>
        <Field label={t('editor.date')}>{(control) => <input {...control} type="date" required value={date} onChange={(event) => setDate(event.target.value)} />}</Field>
        <Field label={t('editor.start')} error={placed.byInput.start}>
          {(control) => <input {...control} type="time" required value={startTime} onChange={(event) => setStartTime(event.target.value)} />}
        </Field>
        <Field label={t('editor.end')} error={placed.byInput.end}>
          {(control) => <input {...control} type="time" value={endTime} disabled={entry.running} onChange={(event) => setEndTime(event.target.value)} />}
        </Field>
        <Field label={t('filters.activity')} error={placed.byInput.activity_id}>
          {(control) => (
            <select {...control} value={activityId} onChange={(event) => setActivityId(event.target.value)}>
              <option value="">{t('editor.noActivity')}</option>
              {activities.map((activity) => (
                <option key={activity.id} value={activity.id}>
                  {activity.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('filters.status')} error={placed.byInput.status}>
          {(control) => (
            <select {...control} value={status} onChange={(event) => setStatus(event.target.value as TimeStatus)}>
              {statuses.map((value) => (
                <option key={value} value={value}>
                  {t(`status.${value}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('editor.note')} error={placed.byInput.note} className="entry-editor__wide">
          {(control) => <input {...control} value={note} onChange={(event) => setNote(event.target.value)} />}
        </Field>
        {[...(localProblem ? [localProblem] : []), ...placed.elsewhere].map((message) => (
          <p key={message} className="form-error" role="alert">
            {message}
          </p>
        ))}
        <div className="entry-editor__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={write.isPending}>
            {t('editor.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
