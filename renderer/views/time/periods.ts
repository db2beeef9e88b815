/**
 * The periods a planner picks time by — today, this week, this month, last week, last month
 * or a custom range — as first and last local dates, and as the instants those days begin and
 * end in a time zone (what the API filters `start` on). Weeks are ISO weeks, Monday first.
 */
import { addDays, bucketStart, isoWeekday } from '../../../shared/dates.js';
import { endOfLocalDate, isoWeek, localDate, startOfLocalDate } from '../../../shared/zoned-time.js';
import { nowMs } from '../../../shared/clock.js';
import { isTimeZone } from '../../../shared/fields.js';

export const periodPresets = ['today', 'this_week', 'this_month', 'last_week', 'last_month', 'custom'] as const;
export type PeriodPreset = (typeof periodPresets)[number];

/** First and last day, both included (`YYYY-MM-DD`). */
export interface DateRange {
  start: string;
  end: string;
}

export function weekStart(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

function monthEnd(first: string): string {
  return addDays(bucketStart(addDays(first, 31), 'month'), -1);
}

/** The days of a preset around `today`; `custom` is the given range (or today alone). */
export function periodRange(preset: PeriodPreset, today: string, custom?: Partial<DateRange>): DateRange {
  switch (preset) {
    case 'today':
      return { start: today, end: today };
    case 'this_week':
      return { start: weekStart(today), end: addDays(weekStart(today), 6) };
    case 'last_week':
      return { start: addDays(weekStart(today), -7), end: addDays(weekStart(today), -1) };
    case 'this_month': {
      const first = bucketStart(today, 'month');
      return { start: first, end: monthEnd(first) };
    }
    case 'last_month': {
      const first = bucketStart(addDays(bucketStart(today, 'month'), -1), 'month');
      return { start: first, end: monthEnd(first) };
    }
    case 'custom': {
      const start = custom?.start || today;
      const end = custom?.end || start;
      return end < start ? { start: end, end: start } : { start, end };
    }
  }
}

/** The instants the range begins and ends in a zone, as the API's ISO UTC text. */
export function rangeInstants(range: DateRange, timeZone: string): { from: string; to: string } {
  return { from: isoInstant(startOfLocalDate(range.start, timeZone)), to: isoInstant(endOfLocalDate(range.end, timeZone)) };
}

export function isoInstant(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Today in a zone. */
export function localToday(timeZone: string, now: number = nowMs()): string {
  return localDate(now, timeZone);
}

/**
 * The instant a local wall time (`HH:MM`) falls on a date in a zone. On a daylight-saving day
 * the naive guess is an hour off; one correction settles it.
 */
export function localTimeInstant(date: string, time: string, timeZone: string): number {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  const wanted = hours * 60 + minutes;
  let guess = startOfLocalDate(date, timeZone) + wanted * 60_000;
  const shown = new Date(guess);
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).formatToParts(shown);
  const shownMinutes = Number(parts.find((p) => p.type === 'hour')?.value) * 60 + Number(parts.find((p) => p.type === 'minute')?.value);
  if (localDate(guess, timeZone) === date) guess += (wanted - shownMinutes) * 60_000;
  return guess;
}

export { isoWeek };

/**
 * The zone a person's days are cut in: their own (the user's `timezone`, as the API cuts their
 * days: docs/API.md "Time tracking"), else the computer's.
 */
export function personTimeZone(user: { timezone?: string | null } | null | undefined): string {
  const zone = user?.timezone;
  return zone && isTimeZone(zone) ? zone : systemTimeZone();
}

/** The system's time zone, as the OS has it. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
