/**
 * The days specs plan on: ISO dates (`YYYY-MM-DD`), counted from the run's fixed day
 * (test/helpers/test-clock.ts), never from the machine's; the next Monday as the first workday
 * a new board shows; and a day as the planboard reads it out in English.
 */
import { testNow, testToday } from '../helpers/test-clock.js';

export { testNow, testToday };

/** The Monday after the run's today (a week away when today is a Monday). */
export function nextMonday(): string {
  const weekday = new Date(`${testToday}T12:00:00Z`).getUTCDay();
  return addDays(testToday, (8 - weekday) % 7 || 7);
}

/** A Date's day in the test process's time zone (the planners', playwright.config.ts). */
export function isoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'UTC' });
const month = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });

/**
 * "Mon 30 Nov 2026", as a card reads its dates out in English. Each word is asked of Intl on
 * its own, in en-GB, as the app's date-geometry.ts does, so none can drift from the app's
 * ("Sept", not "Sep").
 */
export function longDate(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  return `${weekday.format(day)} ${Number(date.slice(8, 10))} ${month.format(day)} ${date.slice(0, 4)}`;
}

/** "Wed 3 Mar": a day as the backlog, the plan dialog and the order screen write it in English. */
export function shortDate(date: string): string {
  return longDate(date).replace(/ \d{4}$/, '');
}
