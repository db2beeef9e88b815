/** The process's clock (shared/clock.ts), read again every `every` ms so that running time counts up on screen. */
import { useEffect, useState } from 'react';
import { nowMs } from '../../../shared/clock.js';

export function useNow(every: number): number {
  const [now, setNow] = useState(() => nowMs());
  useEffect(() => {
    const timer = setInterval(() => setNow(nowMs()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}
