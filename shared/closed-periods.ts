/**
 * Closed payroll periods (docs/API.md "Closed periods"): which days a time entry touches, the
 * closed period it falls in, and where a running timer stops when a period closes. Plain
 * functions over the values they get, for the API's rules and the week sheet alike.
 */
import { addDays } from './dates.js';
import { nowTimestamp } from './ids.js';
import { localDate, startOfLocalDate } from './zoned-time.js';

/** A closed period's days, both included (YYYY-MM-DD). */
export interface PeriodDays {
  start: string;
  end: string;
}

/**
 * The local days of the user's time zone that an entry's time lies on, as the reports and the
 * week sheet cut it: from its start's day to the day of its last minute (an entry ending at
 * midnight ends the day before). A running timer lies on its start's day until it stops.
 */
export function entryDays(start: string, end: string | null | undefined, timeZone: string): PeriodDays {
  const from = Date.parse(start);
  const to = end ? Date.parse(end) : from;
  return { start: localDate(from, timeZone), end: localDate(Math.max(from, to - 1), timeZone) };
}

/** Whether a date (YYYY-MM-DD) lies in the period. */
export function inPeriod(date: string, period: PeriodDays): boolean {
  return period.start <= date && date <= period.end;
}

/** The first closed period (by start) that shares a day with `days`, if any. */
export function closedPeriodOver<P extends PeriodDays>(periods: readonly P[], days: PeriodDays): P | undefined {
  return [...periods]
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
    .find((period) => period.start <= days.end && period.end >= days.start);
}

/** The 409's words for an entry in a closed period: they name the period. */
export function closedPeriodMessage(period: PeriodDays): string {
  return `The period ${period.start} – ${period.end} is closed for payroll; its time entries cannot be created, changed or deleted (an admin can reopen it).`;
}

/**
 * Where a running timer that started at `start` stops when `period` closes, or undefined when
 * it runs on: a timer started before the period's end (the end of its last day in the timer
 * user's time zone) stops at the later of its start and the period's start.
 */
export function timerStopAt(start: string, period: PeriodDays, timeZone: string): string | undefined {
  const began = Date.parse(start);
  const periodStart = startOfLocalDate(period.start, timeZone);
  const periodEnd = startOfLocalDate(addDays(period.end, 1), timeZone);
  if (began >= periodEnd) return undefined;
  return began >= periodStart ? start : nowTimestamp(new Date(periodStart));
}
