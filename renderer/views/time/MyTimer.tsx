/**
 * My timer, in the top bar on every screen: the running entry's card (its display name) and
 * its ticking time with a Stop button, or a Start button that opens a card search (or an
 * activity with no card). One timer runs per user; starting another stops this one (the API
 * does that). Timers are the app's user's; a planner may start one for someone else.
 *
 * A timer left running past its user's limit (the API flags it `forgotten`, 10 hours unless
 * the user set another) is marked here; when the app starts with such a timer, it asks for its
 * real end at once (ForgottenTimerDialog).
 */
import { Play, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/client.js';
import { useT } from '../../i18n/index.js';
import { booksForOthers, useAppUser } from '../app-user/app-user-api.js';
import { ActivityPicker } from './ActivityPicker.js';
import { BookFor } from './BookFor.js';
import { CardPicker } from './CardPicker.js';
import { formatElapsed } from './duration.js';
import { entryName } from './entry-name.js';
import { ForgottenTimerDialog } from './ForgottenTimerDialog.js';
import { useRunningTimer, useStartTimer, useStopTimer } from './time-api.js';
import './time.css';
import { nowMs } from '../../../shared/clock.js';

export function MyTimer() {
  const t = useT();
  const running = useRunningTimer();
  const start = useStartTimer();
  const stop = useStopTimer();
  const appUser = useAppUser();
  const [picking, setPicking] = useState<'card' | 'activity' | null>(null);
  const [bookFor, setBookFor] = useState<string | null>(null);
  const [askingEnd, setAskingEnd] = useState(false);
  const [startedFor, setStartedFor] = useState<string | null>(null);
  const frameRef = useRef<HTMLDivElement>(null);
  const checkedAtStart = useRef(false);
  const entry = running.data ?? null;
  const ownId = appUser.data?.user_id ?? null;
  const forOthers = booksForOthers(appUser.data);

  // At the app's start only: a timer forgotten since the last session asks for its real end.
  useEffect(() => {
    if (checkedAtStart.current || !running.isSuccess) return;
    checkedAtStart.current = true;
    if (running.data?.forgotten) setAskingEnd(true);
  }, [running.isSuccess, running.data]);

  // A click outside the open card search closes it, as a menu would.
  useEffect(() => {
    if (!picking) return;
    const onPointerDown = (event: PointerEvent) => {
      if (frameRef.current && !frameRef.current.contains(event.target as Node)) setPicking(null);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [picking]);

  function begin(cardId: string | null, activityId: string | null) {
    const user = bookFor ?? ownId;
    start.mutate(
      { card_id: cardId, activity_id: activityId, ...(user ? { user_id: user } : {}) },
      {
        onSuccess: () => {
          setPicking(null);
          // Someone else's timer runs on their own top bar, not here: say it started.
          setStartedFor(user && user !== ownId ? user : null);
        },
      },
    );
  }

  const dialog = askingEnd && entry && <ForgottenTimerDialog entry={entry} onClose={() => setAskingEnd(false)} />;

  if (entry) {
    const label = entryName(entry, t);
    const activity = entry.card && entry.activity ? ` · ${entry.activity.description}` : '';
    return (
      <div
        className={entry.forgotten ? 'my-timer my-timer--running my-timer--forgotten' : 'my-timer my-timer--running'}
        role="group"
        aria-label={t('timer.label')}
      >
        <span className="my-timer__dot" aria-hidden="true" />
        <span className="my-timer__card" title={`${label}${activity}`}>
          {label}
        </span>
        <Elapsed since={entry.start} />
        {entry.forgotten && (
          <button type="button" className="button my-timer__forgotten" title={t('timer.forgottenTitle')} onClick={() => setAskingEnd(true)}>
            <TriangleAlert className="my-timer__icon" aria-hidden="true" size={14} />
            {t('timer.forgotten')}
          </button>
        )}
        <button type="button" className="button my-timer__stop" disabled={stop.isPending} onClick={() => stop.mutate({ id: entry.id })}>
          {t('timer.stop')}
        </button>
        {stop.isError && (
          <span className="my-timer__error" role="alert">
            {describeError(stop.error)}
          </span>
        )}
        {dialog}
      </div>
    );
  }

  return (
    <div className="my-timer" ref={frameRef} role="group" aria-label={t('timer.label')}>
      {startedFor && !picking && (
        <span className="muted my-timer__note" role="status">
          {t('timer.startedForOther')}
        </span>
      )}
      <button
        type="button"
        className="button my-timer__start"
        aria-expanded={picking !== null}
        onClick={() => {
          setStartedFor(null);
          setPicking(picking ? null : 'card');
        }}
        disabled={running.isPending}
      >
        <Play className="my-timer__icon" aria-hidden="true" size={14} />
        {t('timer.start')}
      </button>
      {picking && (
        <div className="my-timer__popover" role="dialog" aria-label={t('timer.pickTitle')}>
          {forOthers && <BookFor value={bookFor ?? ownId} ownId={ownId} onChange={setBookFor} className="my-timer__for" />}
          {picking === 'card' ? (
            <CardPicker
              label={t('timer.pickLabel')}
              busy={start.isPending}
              onCancel={() => setPicking(null)}
              onPick={(card, activity) => begin(card.id, activity?.id ?? null)}
            />
          ) : (
            <ActivityPicker
              label={t('timer.pickActivity')}
              onCancel={() => setPicking('card')}
              onPick={(activity) => begin(null, activity.id)}
            />
          )}
          {picking === 'card' && (
            <button type="button" className="button button--quiet my-timer__no-card" onClick={() => setPicking('activity')}>
              {t('timer.noCard')}
            </button>
          )}
          {start.isError && (
            <p className="form-error" role="alert">
              {describeError(start.error)}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/** The running time, redrawn every second. */
function Elapsed({ since }: { since: string }) {
  const t = useT();
  const [now, setNow] = useState(() => nowMs());
  useEffect(() => {
    const timer = setInterval(() => setNow(nowMs()), 1000);
    return () => clearInterval(timer);
  }, []);
  const text = formatElapsed(now - Date.parse(since));
  return (
    <span className="my-timer__elapsed" role="timer" aria-label={t('timer.elapsed')}>
      {text}
    </span>
  );
}
