/**
 * Reads holidays from an iCalendar (.ics) file with ical.js (docs/API.md "Absences and
 * holidays"). Rules:
 *
 *  - every VEVENT must be an all-day event (DTSTART;VALUE=DATE); DTEND is exclusive, no DTEND
 *    is one day. A timed event is refused by name: a part-day holiday is entered by hand, with
 *    its minutes off per day, rather than guessed from a meeting's clock times;
 *  - SUMMARY names the holiday ("Holiday" when it has none);
 *  - recurrences (RRULE, RDATE, EXDATE) are expanded within the window: the occurrences that
 *    start on or after `from` and before `from` + 2 years, at most 500 in all;
 *  - anything ical.js cannot read, a file with no VCALENDAR, or a calendar with no event in the
 *    window is a 422 on `ics` that says why, so nothing is written.
 */
import ICAL from 'ical.js';
import { addDays, daysBetween } from '../../../shared/dates.js';
import { isValidDate } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import { maxHolidayDays, maxIcsBytes } from '../../../shared/operations/holidays.js';
import type { Holiday } from './holidays.js';

/** Occurrences one file may give. */
export const maxIcsHolidays = 500;
/** Steps through one recurrence before its window is reached, so a daily rule from 1900 stays bounded. */
const maxRecurrenceSteps = 50_000;

const refuse = (description: string) => ApiError.rule('ics', description);

/** `YYYY-MM-DD` of an ical.js date. */
function dateOf(time: ICAL.Time): string {
  const date = `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
  if (!isValidDate(date)) throw refuse(`${date} is not a date`);
  return date;
}

function calendarOf(text: string): ICAL.Component {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (error) {
    // ical.js throws Error objects (its ParserError is one).
    throw refuse(`not an iCalendar file: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed) || parsed[0] !== 'vcalendar') {
    throw refuse('not an iCalendar file: it must hold one BEGIN:VCALENDAR … END:VCALENDAR');
  }
  // Checked above to be an array; ical.js reads a jCal array of any items.
  return new ICAL.Component(parsed as unknown[]);
}

/** A 413 for an .ics text over the size limit, which the route answers before it reads the rest of the body. */
export function refuseOversizedIcs(text: unknown): void {
  // A UTF-16 unit is at most 3 bytes of UTF-8, so a text that short needs no count.
  if (typeof text === 'string' && text.length > maxIcsBytes / 3 && Buffer.byteLength(text, 'utf8') > maxIcsBytes) {
    throw new ApiError('payloadTooLarge', [{ field: 'ics', description: `an .ics file may be at most ${maxIcsBytes / 1024 / 1024} MB` }]);
  }
}

/**
 * The holidays of an .ics text (at most 1 MB, checked by the route) whose occurrences start in
 * [from, from + 2 years). Throws a 413 over the size limit and a 422 for anything else it
 * cannot use.
 */
export function readIcsHolidays(text: string, from: string): Holiday[] {
  refuseOversizedIcs(text);
  // Two years on; from 29 February that is 1 March.
  const later = `${Number(from.slice(0, 4)) + 2}${from.slice(4)}`;
  const until = isValidDate(later) ? later : `${later.slice(0, 4)}-03-01`;
  const holidays: Holiday[] = [];
  const events = calendarOf(text).getAllSubcomponents('vevent');
  for (const [index, component] of events.entries()) {
    try {
      readEvent(component, index, from, until, holidays);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // ical.js throws Error objects, as above.
      throw refuse(`event ${index + 1} cannot be read: ${(error as Error).message}`);
    }
  }
  if (holidays.length === 0) throw refuse(`the file holds no all-day event from ${from} to ${addDays(until, -1)}`);
  return holidays;
}

function readEvent(component: ICAL.Component, index: number, from: string, until: string, into: Holiday[]): void {
  const event = new ICAL.Event(component);
  const description = (event.summary ?? '').trim().slice(0, 255) || 'Holiday';
  const name = `event ${index + 1} ("${description}")`;
  if (!component.hasProperty('dtstart')) throw refuse(`${name} has no DTSTART`);
  const start = event.startDate;
  if (!start.isDate) throw refuse(`${name} has a time of day; only all-day events (DTSTART;VALUE=DATE) are holidays`);
  const first = dateOf(start);
  const end = component.hasProperty('dtend') || component.hasProperty('duration') ? dateOf(event.endDate) : addDays(first, 1);
  // DTEND is exclusive; an end on or before the start is read as the one day.
  const days = Math.max(1, daysBetween(first, end));
  if (days > maxHolidayDays) throw refuse(`${name} lasts ${days} days; a holiday lasts at most ${maxHolidayDays}`);
  const add = (date: string) => {
    if (date < from || date >= until) return;
    if (into.length >= maxIcsHolidays) throw refuse(`the file gives more than ${maxIcsHolidays} holidays from ${from} on`);
    into.push({ description, start_date: date, end_date: addDays(date, days - 1), time: null });
  };
  if (!event.isRecurring()) return add(first);
  const occurrences = event.iterator();
  for (let step = 0; step < maxRecurrenceSteps; step++) {
    const next = occurrences.next();
    if (!next) return;
    const date = dateOf(next);
    if (date >= until) return;
    add(date);
  }
  throw refuse(`${name} repeats more than ${maxRecurrenceSteps} times before ${until}`);
}
