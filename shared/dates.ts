/**
 * Calendar arithmetic on `YYYY-MM-DD` strings, in UTC so that no local time zone or DST shift
 * can move a day. Weekdays are ISO: Monday = 1 … Sunday = 7, as in board and resource
 * `workdays`.
 */
import { nowDate } from './clock.js';

const dayMs = 86_400_000;

export function parseDate(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return formatDate(parseDate(date) + days * dayMs);
}

/** Whole days from `a` to `b` (positive when b is later). */
export function daysBetween(a: string, b: string): number {
  return Math.round((parseDate(b) - parseDate(a)) / dayMs);
}

export function isoWeekday(date: string): number {
  const day = new Date(parseDate(date)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** Every date from `start` to `end` inclusive. */
export function eachDate(start: string, end: string): string[] {
  const dates: string[] = [];
  for (let ms = parseDate(start), last = parseDate(end); ms <= last; ms += dayMs) dates.push(formatDate(ms));
  return dates;
}

const dayNames = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A day as the API's messages name it, in English: "Mon 14 Dec" (the app translates them). */
export function shortDay(date: string): string {
  const day = new Date(parseDate(date));
  return `${dayNames[day.getUTCDay()]} ${day.getUTCDate()} ${monthNames[day.getUTCMonth()]}`;
}

export function today(now: Date = nowDate()): string {
  return now.toISOString().slice(0, 10);
}

export type TimeFrame = 'day' | 'week' | 'month' | 'quarter' | 'year';
export const timeFrames: readonly TimeFrame[] = ['day', 'week', 'month', 'quarter', 'year'];

/** The first day of the bucket (ISO week from Monday, calendar month, quarter, year) holding `date`. */
export function bucketStart(date: string, frame: TimeFrame): string {
  switch (frame) {
    case 'day':
      return date;
    case 'week':
      return addDays(date, 1 - isoWeekday(date));
    case 'month':
      return `${date.slice(0, 7)}-01`;
    case 'quarter': {
      const month = Number(date.slice(5, 7));
      const first = Math.floor((month - 1) / 3) * 3 + 1;
      return `${date.slice(0, 4)}-${String(first).padStart(2, '0')}-01`;
    }
    case 'year':
      return `${date.slice(0, 4)}-01-01`;
  }
}

/** Splits `start`…`end` into buckets, each clipped to the range: [{start, end, dates}]. */
export function buckets(start: string, end: string, frame: TimeFrame): { start: string; end: string; dates: string[] }[] {
  const out: { start: string; end: string; dates: string[] }[] = [];
  for (const date of eachDate(start, end)) {
    const key = bucketStart(date, frame);
    const last = out[out.length - 1];
    if (last && bucketStart(last.start, frame) === key) {
      last.end = date;
      last.dates.push(date);
    } else {
      out.push({ start: date, end: date, dates: [date] });
    }
  }
  return out;
}
