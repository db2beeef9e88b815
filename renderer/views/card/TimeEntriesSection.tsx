/**
 * Time tracked on the card: its entries, newest first, with their durations (h:mm), the total,
 * and a timer. "Start timer" starts one now (and stops the planner's timer on any other card:
 * one runs at a time); while it runs its time counts up every second, and "Stop timer" ends it.
 */
import { useId } from 'react';
import type { TimeTracking } from '../../../shared/resources/time-tracking.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Timestamp } from '../../components/Timestamp.js';
import { useT } from '../../i18n/index.js';
import type { CardDetail } from './card-api.js';
import { cardPanelKeys, usePanelWrite, useTimeEntries } from './card-queries.js';
import { elapsedSeconds, formatClock, formatMinutes } from './durations.js';
import { useNow } from './use-now.js';

export function TimeEntriesSection({ card }: { card: CardDetail }) {
  const t = useT();
  const titleId = useId();
  const entries = useTimeEntries(card.id);
  const list = entries.data ?? [];
  const running = list.find((entry) => entry.running || entry.end === null);
  // The timer shows on the planboard's card and changes the card's total: both are card reads.
  const refresh = [cardPanelKeys.timeEntries(card.id), ['card']] as const;
  const start = usePanelWrite((api) => api.startTimer(card.id), refresh);
  const stop = usePanelWrite((api, entryId: string) => api.stopTimer(entryId), refresh);
  const busy = start.isPending || stop.isPending;
  const error = start.error ?? stop.error;
  const total = card.time_tracking_total ?? list.reduce((sum, entry) => sum + (entry.duration ?? 0), 0);

  return (
    <section className="card-section card-time" aria-labelledby={titleId}>
      <h3 id={titleId} className="card-section__title">
        {t('card.time')}
      </h3>
      <div className="card-time__timer">
        {running ? (
          <>
            <RunningClock start={running.start} />
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => {
                start.reset();
                stop.mutate(running.id);
              }}
            >
              {t('card.time.stop')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button button--primary"
            disabled={busy || !entries.data}
            onClick={() => {
              stop.reset();
              start.mutate(undefined);
            }}
          >
            {t('card.time.start')}
          </button>
        )}
        <span className="card-time__total">
          {t('card.time.total')} <strong>{formatMinutes(total)}</strong>
        </span>
      </div>
      {error && <ErrorNotice error={error} />}
      {entries.isError && <ErrorNotice error={entries.error} onRetry={() => void entries.refetch()} />}
      {entries.data && list.length === 0 && <p className="muted">{t('card.time.none')}</p>}
      {list.length > 0 && (
        <table className="card-time__entries" aria-label={t('card.time.entries')}>
          <thead>
            <tr>
              <th scope="col">{t('card.time.started')}</th>
              <th scope="col">{t('card.time.duration')}</th>
              <th scope="col">{t('card.time.status')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((entry) => (
              <TimeEntryRow key={entry.id} entry={entry} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function TimeEntryRow({ entry }: { entry: TimeTracking }) {
  const t = useT();
  const running = entry.running || entry.end === null;
  return (
    <tr>
      <td>
        <Timestamp value={entry.start} />
      </td>
      <td>{running ? <RunningClock start={entry.start} quiet /> : formatMinutes(entry.duration)}</td>
      <td>{running ? t('card.time.running') : t(`status.${entry.status}`)}</td>
    </tr>
  );
}

/**
 * The time since `start`, counting up every second. The one beside the timer button is a
 * timer (read out on request, not every second); `quiet` ones are plain text.
 */
function RunningClock({ start, quiet = false }: { start: string; quiet?: boolean }) {
  const t = useT();
  const now = useNow(1000);
  const text = formatClock(elapsedSeconds(start, now));
  if (quiet) return <span>{text}</span>;
  return (
    <span className="card-time__clock" role="timer" aria-label={t('card.time.clock')}>
      {text}
    </span>
  );
}
