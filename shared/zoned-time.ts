/**
 * Wall-clock arithmetic in an IANA time zone, on the runtime's own time-zone data (Intl), so
 * a report cuts days where the planner's day ends — including on the two days a year whose
 * length is 23 or 25 hours.
 */
import { addDays, isoWeekday, parseDate } from './dates.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallTime(instant: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** How far the zone's wall clock is ahead of UTC at this instant, in milliseconds. */
export function offsetAt(instant: number, timeZone: string): number {
  const w = wallTime(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local date (YYYY-MM-DD) of an instant. */
export function localDate(instant: number, timeZone: string): string {
  const w = wallTime(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** The local date and time (YYYY-MM-DD HH:MM) of an instant. */
export function localDateTime(instant: number, timeZone: string): string {
  const w = wallTime(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
}

/** The instant a local date begins (its midnight, or the first moment after a skipped one). */
export function startOfLocalDate(date: string, timeZone: string): number {
  const naive = parseDate(date);
  // Two rounds settle the offset, which may differ on either side of a DST change.
  let guess = naive - offsetAt(naive, timeZone);
  guess = naive - offsetAt(guess, timeZone);
  // A zone whose midnight does not exist that day starts the day at the first valid minute.
  while (localDate(guess, timeZone) < date) guess += 60_000;
  return guess;
}

/** The instant the day after `date` begins. */
export function endOfLocalDate(date: string, timeZone: string): number {
  return startOfLocalDate(addDays(date, 1), timeZone);
}

/** ISO 8601 week of a date: `2026-W48` (weeks start on Monday; week 1 holds January 4th). */
export function isoWeek(date: string): string {
  const thursday = addDays(date, 4 - isoWeekday(date));
  const year = Number(thursday.slice(0, 4));
  const week = Math.floor((parseDate(thursday) - parseDate(`${year}-01-01`)) / 86_400_000 / 7) + 1;
  return `${year}-W${pad(week)}`;
}
