/**
 * Editing one time entry in a dialog: its day, start and end time (local), whose it is (a
 * planner may book it for someone else), activity, note and status (only the changes the
 * approval rules allow). The API's 422 problems show beside the fields they are about.
 *
 * An end at or before the start is refused here unless the planner ticks "Ends next day" (a
 * night shift): a typo must not book 23 hours (issue 17). The API refuses it too. Approving an
 * entry that overlaps other time of the same person asks once more, as the entries list does.
 */
import { useState, type FormEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useFieldWording } from '../../api/field-labels.js';
import { CheckboxField, Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { timeTransitions, type TimeStatus } from '../../../shared/resources/time-tracking.js';
import { localDate } from '../../../shared/zoned-time.js';
import { formatTime } from '../../components/dates-format.js';
import { booksForOthers, useAppUser, userName } from '../app-user/app-user-api.js';
import { BookFor } from './BookFor.js';
import { entryEnd } from './entry-end.js';
import { entryName } from './entry-name.js';
import { isoInstant, localTimeInstant } from './periods.js';
import type { EntryRow } from './time-api.js';
import { useActivityChoices } from './time-lookups.js';
import { useEntryWrite } from './use-entry-writes.js';

interface EntryEditorProps {
  entry: EntryRow;
  timeZone: string;
  onClose(): void;
}

const inputs = ['start', 'end', 'user_id', 'activity_id', 'note', 'status'] as const;

export function EntryEditor({ entry, timeZone, onClose }: EntryEditorProps) {
  const t = useT();
  const appUser = useAppUser();
  const activities = useActivityChoices();
  const write = useEntryWrite();
  const [date, setDate] = useState(() => localDate(Date.parse(entry.start), timeZone));
  const [startTime, setStartTime] = useState(() => formatTime(entry.start, 'en-GB', timeZone));
  const [endTime, setEndTime] = useState(() => (entry.end ? formatTime(entry.end, 'en-GB', timeZone) : ''));
  // An entry that already ends on a later day than it starts is a night shift: keep it one.
  const [nextDay, setNextDay] = useState(
    () => entry.end !== null && localDate(Date.parse(entry.end), timeZone) > localDate(Date.parse(entry.start), timeZone),
  );
  const [userId, setUserId] = useState(entry.user_id);
  const [activityId, setActivityId] = useState(entry.activity_id ?? '');
  const [note, setNote] = useState(entry.note ?? '');
  const [status, setStatus] = useState<TimeStatus>(entry.status);
  const [localProblem, setLocalProblem] = useState<{ field: 'end' | 'form'; message: string } | null>(null);
  const planner = booksForOthers(appUser.data);
  const statuses = [entry.status, ...timeTransitions[entry.status].filter((step) => planner || !step.planner).map((step) => step.to)];
  const placed = placeFieldErrors(write.error, inputs, useFieldWording('time_tracking'));
  const overlaps = entry.overlaps ?? [];
  const [approveAsked, setApproveAsked] = useState(false);
  const asksToApprove = status === 'approved' && entry.status !== 'approved' && overlaps.length > 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    if (asksToApprove && !approveAsked) return setApproveAsked(true);
    const start = localTimeInstant(date, startTime, timeZone);
    let end: number | null = null;
    if (endTime) {
      const ends = entryEnd(start, date, endTime, nextDay, timeZone);
      if (ends.kind === 'before-start') return setLocalProblem({ field: 'end', message: t('editor.endBeforeStart') });
      end = ends.end;
    } else if (!entry.running) {
      return setLocalProblem({ field: 'form', message: t('editor.endRequired') });
    }
    write.mutate(
      {
        kind: 'update',
        id: entry.id,
        changes: {
          start: isoInstant(start),
          ...(end !== null ? { end: isoInstant(end) } : {}),
          ...(userId !== entry.user_id ? { user_id: userId } : {}),
          activity_id: activityId || null,
          note: note || null,
          ...(status !== entry.status ? { status } : {}),
        },
      },
      { onSuccess: onClose },
    );
  }

  return (
    <Modal title={t('editor.title', { card: entryName(entry, t) })} closeLabel={t('common.close')} onClose={onClose}>
      <form className="entry-editor" onSubmit={submit}>
        {overlaps.length > 0 && (
          <p className="notice notice--warning entry-editor__wide" role="status">
            {t.count('editor.overlaps', overlaps.length)}
          </p>
        )}
        <Field label={t('editor.date')}>
          {(control) => <input {...control} type="date" required value={date} onChange={(event) => setDate(event.target.value)} />}
        </Field>
        <Field label={t('editor.start')} error={placed.byInput.start}>
          {(control) => (
            <input {...control} type="time" required value={startTime} onChange={(event) => setStartTime(event.target.value)} />
          )}
        </Field>
        <Field label={t('editor.end')} error={localProblem?.field === 'end' ? localProblem.message : placed.byInput.end}>
          {(control) => (
            <input {...control} type="time" value={endTime} disabled={entry.running} onChange={(event) => setEndTime(event.target.value)} />
          )}
        </Field>
        <div className="entry-editor__next-day">
          <CheckboxField label={t('editor.nextDay')} checked={nextDay} onChange={setNextDay} />
        </div>
        {planner ? (
          <BookFor value={userId} ownId={appUser.data?.user_id ?? null} onChange={setUserId} />
        ) : (
          <Field label={t('bookFor.label')}>
            {(control) => <input {...control} readOnly value={entry.user ? userName(entry.user) : t('filters.noUser')} />}
          </Field>
        )}
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
            <select
              {...control}
              value={status}
              onChange={(event) => {
                setApproveAsked(false);
                setStatus(event.target.value as TimeStatus);
              }}
            >
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
        {[
          ...(localProblem?.field === 'form' ? [localProblem.message] : []),
          ...(placed.byInput.user_id ? [placed.byInput.user_id] : []),
          ...placed.elsewhere,
        ].map((message) => (
          <p key={message} className="form-error" role="alert">
            {message}
          </p>
        ))}
        {asksToApprove && approveAsked && (
          <p className="notice notice--warning entry-editor__wide" role="alert">
            {t('editor.approveOverlapping')}
          </p>
        )}
        <div className="entry-editor__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={write.isPending}>
            {asksToApprove && approveAsked ? t('entries.approveAnyway') : t('editor.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
