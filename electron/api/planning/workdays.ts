/**
 * Walking a board's calendar: which days are workdays (board `workdays`, Monday = "1"), and
 * moving by workdays. Every walk is bounded, so a board with no workday at all is an error,
 * never an endless loop.
 *
 * Walks over long ranges (capacity: a year for every resource) count days as day numbers,
 * days since 1970-01-01: an integer step and a weekday by arithmetic instead of parsing and
 * formatting a date string for every day.
 */
import { addDays, daysBetween, isoWeekday } from '../../../shared/dates.js';

export const maxPlanDays = 3660;

export class CalendarError extends Error {}

export interface BoardCalendar {
  isWorkday(date: string): boolean;
}

export function boardCalendar(workdays: Record<string, boolean>): BoardCalendar {
  if (!Object.values(workdays).some(Boolean)) throw new CalendarError('the board has no workdays');
  return { isWorkday: (date) => workdays[String(isoWeekday(date))] === true };
}

const epoch = '1970-01-01';

export function dayNumber(date: string): number {
  return daysBetween(epoch, date);
}

function dateOfDay(day: number): string {
  return addDays(epoch, day);
}

/** ISO weekday (Monday = 1) of a day number: day 0, 1970-01-01, was a Thursday. */
export function weekdayOfDay(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/**
 * Whether the calendar works each ISO weekday, indexed 1 … 7, for loops over day numbers. A
 * board's workdays depend on the weekday alone, so one week tells them all.
 */
export function workdaysByWeekday(calendar: BoardCalendar): boolean[] {
  const byWeekday = new Array<boolean>(8).fill(false);
  for (let day = 0; day < 7; day++) byWeekday[weekdayOfDay(day)] = calendar.isWorkday(dateOfDay(day));
  return byWeekday;
}

/** The first workday on or after `date` (direction 1) or on or before it (direction -1). */
export function workdayFrom(calendar: BoardCalendar, date: string, direction: 1 | -1 = 1): string {
  let day = date;
  for (let i = 0; i < 7; i++, day = addDays(day, direction)) if (calendar.isWorkday(day)) return day;
  throw new CalendarError('the board has no workdays');
}

/** Moves `count` workdays forward (or back, for a negative count) from a workday. */
export function shiftWorkdays(calendar: BoardCalendar, date: string, count: number): string {
  const step = count < 0 ? -1 : 1;
  let day = date;
  for (let moved = 0; moved < Math.abs(count);) {
    day = addDays(day, step);
    if (calendar.isWorkday(day)) moved++;
  }
  return day;
}

/** Workdays from `start` to `end`, both included (0 when end is before start). */
export function countWorkdays(calendar: BoardCalendar, start: string, end: string): number {
  let count = 0;
  for (let day = start, i = 0; day <= end && i < maxPlanDays; day = addDays(day, 1), i++) if (calendar.isWorkday(day)) count++;
  return count;
}

/** Signed workday distance from `a` to `b` (b later → positive). */
export function workdayDelta(calendar: BoardCalendar, a: string, b: string): number {
  if (a === b) return 0;
  return b > a ? countWorkdays(calendar, addDays(a, 1), b) : -countWorkdays(calendar, addDays(b, 1), a);
}
