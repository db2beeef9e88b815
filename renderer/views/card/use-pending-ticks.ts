/**
 * Ticks that show the moment they are clicked and stay until the write behind them has landed.
 *
 * A controlled checkbox shows what React last rendered. React Query tells React about a new
 * mutation or a cache entry set by hand a task later (it notifies in a `setTimeout`), and in
 * between React puts the clicked box back the way it was: for that moment the tick reads as not
 * taken, and a read that started before the click can still land with the old value. A tick
 * kept here is React state set in the click itself, so the box never flicks back. It is let go
 * once its write has settled, which is after the reads that write refreshes have landed
 * (useCardEdit and usePanelWrite wait for them): from then on the stored value shows, the
 * server's, also when it refused the tick.
 */
import { useRef, useState } from 'react';

interface PendingTick {
  checked: boolean;
  /** Which write set it: a tick taken back while the first write runs outlives that write. */
  write: number;
}

export interface PendingTicks {
  /** What the box of `key` shows: the tick being written, else the stored value. */
  shown(key: string, stored: boolean): boolean;
  /** Whether a tick is being written. */
  writing: boolean;
  /** Shows the tick at once and runs its write; the stored value shows again once it settled. */
  tick(key: string, checked: boolean, write: () => Promise<unknown>): void;
}

export function usePendingTicks(): PendingTicks {
  const [ticks, setTicks] = useState<ReadonlyMap<string, PendingTick>>(() => new Map());
  const writes = useRef(0);

  function tick(key: string, checked: boolean, write: () => Promise<unknown>) {
    const id = ++writes.current;
    setTicks((current) => new Map(current).set(key, { checked, write: id }));
    const settle = () =>
      setTicks((current) => {
        if (current.get(key)?.write !== id) return current;
        const next = new Map(current);
        next.delete(key);
        return next;
      });
    // A refused write shows as its mutation's error; the box goes back to the stored value.
    write().then(settle, settle);
  }

  return { shown: (key, stored) => ticks.get(key)?.checked ?? stored, writing: ticks.size > 0, tick };
}
