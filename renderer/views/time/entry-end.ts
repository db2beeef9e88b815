/**
 * The end of an entry typed as a local time of day: on the entry's day, or — only when the
 * planner ticks "Ends next day" — on the day after (a night shift). An end at or before the
 * start on the same day is refused, never read as the next morning: that silent guess booked
 * 23 hours for a typo (issue 17). Pure (test/renderer/entry-end.test.ts).
 */
import { addDays } from '../../../shared/dates.js';
import { localTimeInstant } from './periods.js';

export type EntryEnd = { kind: 'end'; end: number } | { kind: 'before-start' };

export function entryEnd(start: number, date: string, endTime: string, nextDay: boolean, timeZone: string): EntryEnd {
  const end = localTimeInstant(nextDay ? addDays(date, 1) : date, endTime, timeZone);
  return end <= start ? { kind: 'before-start' } : { kind: 'end', end };
}
