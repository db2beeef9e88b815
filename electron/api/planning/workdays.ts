/**
 * Walking a board's calendar: which days are workdays (board `workdays`, Monday = "1"), and
 * moving by workdays. Every walk is bounded, so a board with no workday at all is an error,
 * never an endless loop.
 */
import { addDays, isoWeekday } from '../../../shared/dates.js';

export const maxPlanDays = 3660;

export class CalendarError extends Error {}

export interface BoardCalendar {
  isWorkday(date: string): boolean;
}

export function boardCalendar(workdays: Record<string, boolean>): BoardCalendar {
  if (!Object.values(workdays).some(Boolean)) throw new CalendarError('the board has no workdays');
  return { isWorkday: (date) => workdays[String(isoWeekday(date))] === true };
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
  for (let moved = 0; moved < Math.abs(count); ) {
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
