/**
 * A timer left running: when did the planner really stop? Asked when the app starts with a
 * forgotten timer (and from its mark in the top bar). The end is a local day and time, after
 * the start and not in the future; the API stops the timer there (`POST …/{id}/stop` with
 * `end`), and refuses a day over 24 hours as it does for every entry.
 */
import { useMemo, useState, type FormEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { formatDateTime } from '../../components/dates-format.js';
import { Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { localDate } from '../../../shared/zoned-time.js';
import { entryName } from './entry-name.js';
import { isoInstant, localTimeInstant, systemTimeZone } from './periods.js';
import { useStopTimer, type EntryRow } from './time-api.js';
import { nowMs } from '../../../shared/clock.js';

export function ForgottenTimerDialog({ entry, onClose }: { entry: EntryRow; onClose(): void }) {
  const t = useT();
  const timeZone = useMemo(systemTimeZone, []);
  const stop = useStopTimer();
  const [date, setDate] = useState(() => localDate(Date.parse(entry.start), timeZone));
  const [time, setTime] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const hours = Math.floor((nowMs() - Date.parse(entry.start)) / 3_600_000);
  const placed = placeFieldErrors(stop.error, ['end']);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    const end = localTimeInstant(date, time, timeZone);
    if (end <= Date.parse(entry.start)) return setProblem(t('forgotten.beforeStart'));
    if (end > nowMs()) return setProblem(t('forgotten.inFuture'));
    stop.mutate({ id: entry.id, end: isoInstant(end) }, { onSuccess: onClose });
  }

  return (
    <Modal title={t('forgotten.title')} closeLabel={t('common.close')} onClose={onClose}>
      <form className="entry-editor" onSubmit={submit}>
        <p className="entry-editor__wide">
          {t('forgotten.question', { card: entryName(entry, t), start: formatDateTime(entry.start, t.locale, timeZone), hours })}
        </p>
        <Field label={t('forgotten.endDate')}>
          {(control) => <input {...control} type="date" required value={date} onChange={(event) => setDate(event.target.value)} />}
        </Field>
        <Field label={t('forgotten.endTime')} error={placed.byInput.end}>
          {(control) => <input {...control} type="time" required value={time} onChange={(event) => setTime(event.target.value)} />}
        </Field>
        {[...(problem ? [problem] : []), ...placed.elsewhere].map((message) => (
          <p key={message} className="form-error entry-editor__wide" role="alert">
            {message}
          </p>
        ))}
        <div className="entry-editor__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('forgotten.stillRunning')}
          </button>
          <button type="submit" className="button button--primary" disabled={stop.isPending}>
            {t('forgotten.stop')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
