/**
 * A value that follows another after it has stopped changing for `delay` ms: a search box
 * asks the API once the planner pauses, not once per key.
 */
import { useEffect, useState } from 'react';

/** How long a planner's pause in typing is before a search box asks the API. */
export const typingPause = 250;

export function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
