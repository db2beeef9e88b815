/** The current time, refreshed every `every` ms: for running timers and "today". */
import { useEffect, useState } from 'react';
import { nowMs } from '../../../shared/clock.js';

export function useClock(every: number): number {
  const [now, setNow] = useState(() => nowMs());
  useEffect(() => {
    const timer = setInterval(() => setNow(nowMs()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}
