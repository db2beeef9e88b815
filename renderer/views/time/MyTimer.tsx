/**
 * My timer, in the top bar on every screen: the running entry's card and its ticking time
 * with a Stop button, or a Start button that opens a card search. One timer runs per user;
 * starting another stops this one (the API does that).
 */
import { useEffect, useRef, useState } from 'react';
import { describeError } from '../../api/client.js';
import { useT } from '../../i18n/index.js';
import { CardPicker } from './CardPicker.js';
import { cardLabel } from './card-label.js';
import { formatElapsed } from './duration.js';
import { useRunningTimer, useStartTimer, useStopTimer } from './time-api.js';
import './time.css';

export function MyTimer() {
  const t = useT();
  const running = useRunningTimer();
  const start = useStartTimer();
  const stop = useStopTimer();
  const [picking, setPicking] = useState(false);
  const frameRef = useRef<HTMLDivElement>(null);
  const entry = running.data ?? null;

  // A click outside the open card search closes it, as a menu would.
  useEffect(() => {
    if (!picking) return;
    const onPointerDown = (event: PointerEvent) => {
      if (frameRef.current && !frameRef.current.contains(event.target as Node)) setPicking(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [picking]);

  if (entry) {
    const label = cardLabel(entry.card, t);
    return (
      <div className="my-timer my-timer--running" role="group" aria-label={t('timer.label')}>
        <span className="my-timer__dot" aria-hidden="true" />
        <span className="my-timer__card" title={label}>
          {label}
        </span>
        <Elapsed since={entry.start} />
        <button
          type="button"
          className="button my-timer__stop"
          disabled={stop.isPending}
          onClick={() => stop.mutate(entry.id)}
        >
          {t('timer.stop')}
        </button>
        {stop.isError && (
          <span className="my-timer__error" role="alert">
            {describeError(stop.error)}
          </span>
        )}
      </div>
    );
  }

  return (
    <div className="my-timer" ref={frameRef} role="group" aria-label={t('timer.label')}>
      <button type="button" className="button my-timer__start" aria-expanded={picking} onClick={() => setPicking(!picking)} disabled={running.isPending}>
        <span aria-hidden="true">▶ </span>
        {t('timer.start')}
      </button>
      {picking && (
        <div className="my-timer__popover" role="dialog" aria-label={t('timer.pickTitle')}>
          <CardPicker
            label={t('timer.pickLabel')}
            busy={start.isPending}
            onCancel={() => setPicking(false)}
            onPick={(card) => start.mutate({ card_id: card.id }, { onSuccess: () => setPicking(false) })}
          />
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
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const text = formatElapsed(now - Date.parse(since));
  return (
    <span className="my-timer__elapsed" role="timer" aria-label={t('timer.elapsed')}>
      {text}
    </span>
  );
}
