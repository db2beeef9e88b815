/**
 * The floor view's jobs (docs/API.md "The floor"): "My jobs today" with Start, Pause and Finish,
 * and the quantities form after Finish or whenever the operator reports pieces; for a signed-in
 * operator and for an operator on a kiosk alike.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { nowDate } from '../../shared/clock.js';
import { uuidv7 } from '../../shared/ids.js';
import type { FloorJob, FloorJobs } from '../../shared/operations/floor.js';
import { send } from '../api/client.js';
import { ApiRequestError, describeError } from '../api/request-error.js';
import type { Transport } from '../api/transport-types.js';
import { useT } from '../i18n/index.js';
import { openAttachment, type SessionHolder } from './floor-transport.js';
import { type FloorActionKind, type Outbox } from './outbox.js';
import { floorPhoto, PhotoTooLarge, type FloorPhoto } from './photo.js';
import { keepJobs, keptJobs, userOf } from './session.js';
import { formatTime } from '../components/dates-format.js';

export const jobsKey = ['floor', 'jobs'] as const;

/** The device's time of the tap, as the floor's actions send it (`at`). */
function tapTime(): string {
  return nowDate().toISOString();
}

/** The device's own time zone, in which it shows times. */
function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function hours(minutes: number): string {
  return (Math.round((minutes / 60) * 10) / 10).toString();
}

/** What waits in the outbox for `user` is sent when the page opens, when the device is online again, and every 10 s. */
export function useOutboxSending(outbox: Outbox, transport: Transport, user: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!user) return;
    const sendWaiting = () =>
      void outbox
        .send(transport, user)
        .then(() => queryClient.invalidateQueries({ queryKey: jobsKey }))
        .catch(() => undefined);
    sendWaiting();
    window.addEventListener('online', sendWaiting);
    const timer = setInterval(sendWaiting, 10_000);
    return () => {
      window.removeEventListener('online', sendWaiting);
      clearInterval(timer);
    };
  }, [user, outbox, transport, queryClient]);
}

/**
 * The operator's jobs. `remember`: the list read last is kept in this tab for a reload without a
 * connection; not on a kiosk, where the next operator must not see it.
 */
export function Jobs({
  transport,
  holder,
  outbox,
  remember = true,
}: {
  transport: Transport;
  holder: SessionHolder;
  outbox: Outbox;
  remember?: boolean;
}) {
  const t = useT();
  // The list read last (this tab's sign-in kept it) shows at once, and stays without a connection.
  const [kept] = useState(() => (remember ? keptJobs() : undefined));
  const jobs = useQuery({
    queryKey: jobsKey,
    queryFn: async () => {
      const read = await send<FloorJobs>(transport, { method: 'GET', path: '/v1/floor/jobs' });
      if (remember) keepJobs(read);
      return read;
    },
    ...(kept ? { initialData: kept.jobs, initialDataUpdatedAt: kept.at } : {}),
  });
  if (jobs.isPending) return <p role="status">{t('floor.jobs.loading')}</p>;
  // Without a connection the last list read stays on the screen, saying since when.
  if (jobs.isError && !jobs.data) {
    const notLinked = jobs.error instanceof ApiRequestError && jobs.error.status === 403;
    return (
      <p role="alert" className="floor-error">
        {notLinked ? t('floor.notLinked') : describeError(jobs.error)}
      </p>
    );
  }
  const today = jobs.data.data.filter((job) => job.day === jobs.data.date);
  const tomorrow = jobs.data.data.filter((job) => job.day !== jobs.data.date);
  return (
    <main>
      {jobs.isError && (
        <p role="status" className="floor-stale">
          {t('floor.jobs.stale', { time: formatTime(new Date(jobs.dataUpdatedAt).toISOString(), t.locale, timeZone()) })}
        </p>
      )}
      <h2 id="floor-today">{t('floor.jobs.title')}</h2>
      {today.length === 0 && <p>{t('floor.jobs.none')}</p>}
      <ul className="floor-jobs" aria-labelledby="floor-today">
        {today.map((job) => (
          <JobItem key={job.card_id} job={job} transport={transport} holder={holder} outbox={outbox} />
        ))}
      </ul>
      {tomorrow.length > 0 && (
        <>
          <h2 id="floor-tomorrow">{t('floor.jobs.tomorrow')}</h2>
          <ul className="floor-jobs" aria-labelledby="floor-tomorrow">
            {tomorrow.map((job) => (
              <JobItem key={job.card_id} job={job} transport={transport} holder={holder} outbox={outbox} />
            ))}
          </ul>
        </>
      )}
    </main>
  );
}

function JobItem({ job, transport, holder, outbox }: { job: FloorJob; transport: Transport; holder: SessionHolder; outbox: Outbox }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const finished = job.status?.exit === true;

  /** Keeps the tap in the outbox (sent at once when the server is there) and reads the jobs again. */
  const submit = async (kind: FloorActionKind, body: Record<string, unknown>) => {
    const at = tapTime();
    const session = holder.current();
    if (!session) return;
    await outbox.add(
      { kind, user: userOf(session), job: job.display_name, body: { card_id: job.card_id, at, command_id: uuidv7(), ...body } },
      transport,
    );
  };

  const act = async (kind: 'start' | 'pause' | 'finish') => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await submit(kind, {});
      if (kind === 'finish' && job.order_rows.length > 0) setAsking(true);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: jobsKey });
    }
  };

  const report = async (counts: Record<string, { made: number; scrapped: number }>, note: string, photo: FloorPhoto | null) => {
    setBusy(true);
    setError(null);
    try {
      // The photo goes once, with the first row reported (or alone, with the first row).
      let photoLeft = photo;
      for (const row of job.order_rows) {
        const count = counts[row.id] ?? { made: 0, scrapped: 0 };
        if (count.made === 0 && count.scrapped === 0 && !note && !photoLeft) continue;
        await submit('quantities', {
          order_row_id: row.id,
          made: count.made,
          scrapped: count.scrapped,
          ...(note ? { note } : {}),
          ...(photoLeft ? { photo: photoLeft } : {}),
        });
        photoLeft = null;
      }
      setAsking(false);
      setNotice(outbox.waiting > 0 ? t('floor.quantities.kept') : t('floor.quantities.reported'));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: jobsKey });
    }
  };

  const titleId = `job-${job.card_id}`;
  return (
    <li className={`floor-job${job.running ? ' is-running' : ''}${finished ? ' is-finished' : ''}`} aria-labelledby={titleId}>
      <h3 id={titleId}>{job.display_name}</h3>
      <dl className="floor-facts">
        <dt>{t('floor.job.order')}</dt>
        <dd>
          {job.order.name ?? '—'}
          {job.order.description ? ` · ${job.order.description}` : ''}
        </dd>
        <dt>{t('floor.job.activity')}</dt>
        <dd>{job.activity?.description ?? '—'}</dd>
        <dt>{t('floor.job.planned')}</dt>
        <dd>{t('floor.job.hours', { hours: hours(job.planned_minutes) })}</dd>
        <dt>{t('floor.job.booked')}</dt>
        <dd data-testid="booked">{t('floor.job.hours', { hours: hours(job.booked_minutes) })}</dd>
        {job.status && (
          <>
            <dt>{t('floor.job.status')}</dt>
            <dd>{job.status.name}</dd>
          </>
        )}
      </dl>
      {job.running && <p className="floor-running">{t('floor.job.running')}</p>}
      {job.order_rows.length > 0 && (
        <section aria-label={t('floor.job.rows')}>
          <h4>{t('floor.job.rows')}</h4>
          <ul>
            {job.order_rows.map((row) => (
              <li key={row.id}>
                {t('floor.job.row', {
                  code: row.code ?? '',
                  description: row.description ?? '',
                  delivered: String(row.quantity_delivered ?? 0),
                  quantity: String(row.quantity ?? 0),
                  unit: row.unit ?? '',
                  scrapped: String(row.quantity_scrapped ?? 0),
                })}
              </li>
            ))}
          </ul>
        </section>
      )}
      {job.attachments.length > 0 && (
        <section aria-label={t('floor.job.attachments')}>
          <h4>{t('floor.job.attachments')}</h4>
          <ul>
            {job.attachments.map((attachment) => (
              <li key={attachment.id}>
                <button
                  type="button"
                  className="floor-link"
                  onClick={() => void openAttachment(holder, attachment).catch((caught: unknown) => setError(describeError(caught)))}
                >
                  {attachment.filename}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="floor-actions">
        <button
          type="button"
          className="floor-big floor-start"
          disabled={busy || job.running || finished}
          onClick={() => void act('start')}
        >
          {t('floor.start')}
        </button>
        <button type="button" className="floor-big floor-pause" disabled={busy || !job.running} onClick={() => void act('pause')}>
          {t('floor.pause')}
        </button>
        <button type="button" className="floor-big floor-finish" disabled={busy || finished} onClick={() => void act('finish')}>
          {t('floor.finish')}
        </button>
      </div>
      {job.order_rows.length > 0 && !asking && (
        // Pieces are counted as they come, not only at the end (docs/API.md "The floor").
        <button type="button" className="floor-link" disabled={busy} onClick={() => setAsking(true)}>
          {t('floor.quantities.report')}
        </button>
      )}
      {error && (
        <p role="alert" className="floor-error">
          {error}
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
      {asking && (
        <Quantities
          job={job}
          busy={busy}
          onSend={(counts, note, photo) => void report(counts, note, photo)}
          onSkip={() => setAsking(false)}
        />
      )}
    </li>
  );
}

function Quantities({
  job,
  busy,
  onSend,
  onSkip,
}: {
  job: FloorJob;
  busy: boolean;
  onSend: (counts: Record<string, { made: number; scrapped: number }>, note: string, photo: FloorPhoto | null) => void;
  onSkip: () => void;
}) {
  const t = useT();
  const [values, setValues] = useState<Record<string, { made: string; scrapped: string }>>({});
  const [note, setNote] = useState('');
  const [photo, setPhoto] = useState<FloorPhoto | null>(null);
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const takePhoto = async (file: File | undefined) => {
    setPhoto(null);
    setPhotoProblem(null);
    if (!file) return;
    setReading(true);
    try {
      setPhoto(await floorPhoto(file));
    } catch (caught) {
      setPhotoProblem(caught instanceof PhotoTooLarge ? t('floor.quantities.photoTooLarge') : t('floor.quantities.photoUnreadable'));
    } finally {
      setReading(false);
    }
  };
  const valueOf = (rowId: string, field: 'made' | 'scrapped') => values[rowId]?.[field] ?? '';
  const change = (rowId: string, field: 'made' | 'scrapped', value: string) =>
    setValues((current) => ({ ...current, [rowId]: { made: '', scrapped: '', ...current[rowId], [field]: value } }));
  const whole = (text: string) => {
    const n = Number(text);
    return Number.isInteger(n) && n > 0 ? n : 0;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const counts: Record<string, { made: number; scrapped: number }> = {};
    for (const row of job.order_rows)
      counts[row.id] = { made: whole(valueOf(row.id, 'made')), scrapped: whole(valueOf(row.id, 'scrapped')) };
    onSend(counts, note.trim(), photo);
  };
  return (
    <form className="floor-quantities" onSubmit={submit} aria-label={t('floor.quantities.title')}>
      <h4>{t('floor.quantities.title')}</h4>
      {job.order_rows.map((row) => (
        <fieldset key={row.id}>
          <legend>{[row.code, row.description].filter(Boolean).join(' ')}</legend>
          {(['made', 'scrapped'] as const).map((field) => (
            <label key={field}>
              {t(`floor.quantities.${field}`)}
              <input
                inputMode="numeric"
                pattern="[0-9]*"
                value={valueOf(row.id, field)}
                onChange={(e) => change(row.id, field, e.target.value)}
              />
            </label>
          ))}
        </fieldset>
      ))}
      <label>
        {t('floor.quantities.note')}
        <textarea value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} />
      </label>
      <label>
        {t('floor.quantities.photo')}
        <input type="file" accept="image/*" capture="environment" onChange={(e) => void takePhoto(e.target.files?.[0])} />
      </label>
      {photo && <p>{t('floor.quantities.photoReady', { name: photo.filename })}</p>}
      {photoProblem && <p role="alert">{photoProblem}</p>}
      <div className="floor-actions">
        <button type="submit" className="floor-big" disabled={busy || reading}>
          {t('floor.quantities.send')}
        </button>
        <button type="button" className="floor-big floor-secondary" disabled={busy} onClick={onSkip}>
          {t('floor.quantities.skip')}
        </button>
      </div>
    </form>
  );
}
