/**
 * The company holiday operations (docs/API.md "Absences and holidays"): one holiday, or the
 * holidays of an .ics file, for everyone, a group or some resources, declared once for the
 * server's checks, the OpenAPI document and the renderer's client (shared/operation.ts).
 * Checks that need the store (a group or resource that exists) stay with the server.
 */
import { defineOperation, shape } from '../operation.js';
import { maxHolidayDays, type CompanyHoliday } from '../resources/company-holiday.js';
import type { ScheduleDeviation } from '../resources/resource.js';

export { maxHolidayDays };

/** Deviations one request may write (holidays × resources), so one request stays one short transaction. */
export const maxHolidayRows = 20_000;
/** Largest .ics text read, in UTF-8 bytes: more is 413, like a body over the limit. */
export const maxIcsBytes = 1024 * 1024;

/**
 * What adding or importing holidays answers: the deviations the resources got (for a company
 * holiday, the read-only ones derived from it), the company holidays written, and for how many
 * holidays and resources.
 */
export interface HolidaysAdded {
  data: ScheduleDeviation[];
  company_holidays: CompanyHoliday[];
  holidays: number;
  resources: number;
}

/** Who gets the holidays: neither field is every resource not archived; not both. */
const target = {
  group_id: shape.optional(shape.uuid("The group's members have it, whoever joins later; not with resource_ids.")),
  // Each resource gets at least one deviation, so more resources than rows could never be written.
  resource_ids: shape.optional(
    shape.list(shape.uuid(), { min: 1, max: maxHolidayRows }, 'These resources get it, each as a deviation of its own.'),
  ),
};
const shapeQuery = { show: 'Fields to show.', hide: 'Fields to hide.', with: 'Relations to include.' } as const;

export const addHolidayOperation = defineOperation<HolidaysAdded>()({
  method: 'POST',
  path: '/schedule_deviation/holidays',
  summary: 'Add a company holiday',
  tag: 'ScheduleDeviation',
  body: shape.object({
    description: shape.text(255, { min: 1, description: 'Names the holiday (trimmed).' }),
    start_date: shape.date('Its first day.'),
    end_date: shape.optional(shape.date(`Its last day (default start_date; at most ${maxHolidayDays} days in all).`)),
    time: shape.optional(shape.nullable(shape.integer(1, 1440, 'Minutes off per day; null or left out: whole days.'))),
    ...target,
  }),
  answer: 'The deviations written',
  status: 201,
  query: shapeQuery,
});

export const importHolidaysOperation = defineOperation<HolidaysAdded>()({
  method: 'POST',
  path: '/schedule_deviation/holidays/ics',
  summary: 'Import company holidays from an iCalendar file',
  tag: 'ScheduleDeviation',
  body: shape.object({
    ics: shape.text(maxIcsBytes, { min: 1, description: 'The text of the .ics file (at most 1 MB in UTF-8: more is 413).' }),
    from: shape.optional(shape.date('First day of the two-year window (default today).')),
    ...target,
  }),
  answer: 'The deviations written',
  status: 201,
  query: shapeQuery,
});
