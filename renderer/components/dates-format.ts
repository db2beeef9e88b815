/** Dates and times in the planner's language (pass `t.locale`), cached per format. */
import { parseDate } from '../../shared/dates.js';

const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    cache.set(key, format);
  }
  return format;
}

/** A calendar date (`YYYY-MM-DD`): formatted as a UTC date so no zone moves it a day. */
export function formatDay(
  date: string,
  locale: string,
  options: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' },
): string {
  return formatter(locale, { ...options, timeZone: 'UTC' }).format(parseDate(date));
}

/** `16 Nov – 22 Nov 2026` */
export function formatDayRange(start: string, end: string, locale: string): string {
  const first = formatDay(start, locale, { day: 'numeric', month: 'short' });
  const last = formatDay(end, locale, { day: 'numeric', month: 'short', year: 'numeric' });
  return start === end ? last : `${first} – ${last}`;
}

/** An instant's local time of day in a zone: `09:00`. */
export function formatTime(instant: string, locale: string, timeZone: string): string {
  return formatter(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(new Date(instant));
}

/** An instant as local date and time in a zone. */
export function formatDateTime(instant: string, locale: string, timeZone?: string): string {
  return formatter(locale, { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }).format(new Date(instant));
}
