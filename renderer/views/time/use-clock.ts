/** The current time, refreshed every `every` ms: for running timers and "today". */
import { useEffect, useState } from 'react';

export function useClock(every: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), every);
    return () => clearInterval(timer);
  }, [every]);
  return now;
}
