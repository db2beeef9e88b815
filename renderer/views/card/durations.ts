/**
 * How tracked time reads: stored durations are whole minutes (docs/API.md "Time tracking"),
 * shown as h:mm; a running timer counts seconds from its start, shown as h:mm:ss.
 */

/** 0 → "0:00", 75 → "1:15", 1500 → "25:00". Negative or missing minutes read as 0. */
export function formatMinutes(minutes: number | null | undefined): string {
  const total = Math.max(0, Math.round(minutes ?? 0));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Whole seconds from an ISO start to `now`; never negative (a clock a little behind the server's). */
export function elapsedSeconds(start: string, now: number): number {
  const started = Date.parse(start);
  return Number.isNaN(started) ? 0 : Math.max(0, Math.floor((now - started) / 1000));
}

/** 0 → "0:00:00", 3725 → "1:02:05". */
export function formatClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}
