/**
 * Durations as a planner types and reads them. Typed: `1:30`, `:45`, `1.5` or `1,5` (hours),
 * `2` (hours), `90m`, `2h`, `1h30`, `1h 30m`; empty means nothing (0). Shown: `h:mm`, and a
 * running timer as `h:mm:ss`. Pure, so every form is tested (test/renderer/duration.test.ts).
 */

/** The most one cell of the week sheet (one day) can hold. */
export const maxDayMinutes = 24 * 60;

/** Whole minutes, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const value = text.trim().toLowerCase();
  if (value === '') return 0;
  let match = /^(\d{0,3}):([0-5]?\d)$/.exec(value);
  if (match) return Number(match[1] || 0) * 60 + Number(match[2]);
  match = /^(\d{1,3})(?:[.,](\d+))?\s*(?:h|u|uur|hours?)?$/.exec(value);
  if (match) return Math.round(Number(`${match[1]}.${match[2] ?? '0'}`) * 60);
  match = /^(\d{1,5})\s*(?:m|min|mins|minutes?)$/.exec(value);
  if (match) return Number(match[1]);
  match = /^(\d{1,3})\s*(?:h|u)\s*(\d{1,2})\s*(?:m|min)?$/.exec(value);
  if (match && Number(match[2]) < 60) return Number(match[1]) * 60 + Number(match[2]);
  return null;
}

/** `h:mm`; no minutes at all reads as an empty cell when `blankZero` is set. */
export function formatHours(minutes: number, blankZero = false): string {
  if (blankZero && minutes === 0) return '';
  const sign = minutes < 0 ? '-' : '';
  const whole = Math.abs(Math.round(minutes));
  return `${sign}${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** A running timer's elapsed time: `h:mm:ss`. */
export function formatElapsed(milliseconds: number): string {
  const seconds = Math.max(0, Math.floor(milliseconds / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
}

/** Minutes from one ISO instant to another, rounded as the API rounds `duration`. */
export function minutesBetween(start: string, end: string): number {
  return Math.round((Date.parse(end) - Date.parse(start)) / 60_000);
}
