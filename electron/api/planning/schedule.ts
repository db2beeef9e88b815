/**
 * A resource's schedule: the minutes it is available on each day (docs/API.md "Schedules and capacity").
 *
 *   scheduled = (workdays[weekday] + second_shift[weekday]) hours × 60, at most 1440, or 0
 *               outside start_date…end_date; a null day of a pattern is none of its hours
 *   deviation = scheduled for a whole-day absence (time null), else the sum of the
 *               absences' minutes, never more than scheduled
 *   overtime  = the sum of the day's overtime minutes, 0 outside start_date…end_date, never
 *               more than the day has left (1440 − scheduled)
 *   available = scheduled − deviation + overtime
 *
 * An absence is any deviation but `overtime`: absences take from the scheduled time, overtime
 * adds after, so overtime on a day off or a holiday is time worked all the same.
 */
import { eachDate, isoWeekday } from '../../../shared/dates.js';
import type { FieldSpec } from '../../../shared/fields.js';
import type { RecordReads } from '../../store/record-store.js';
import { derivedDeviations, readCompanyHolidays, type CompanyHolidays } from './company-holidays.js';
import { dayNumber, weekdayOfDay } from './workdays.js';
import { tables, type Stored } from '../tables.js';

/**
 * What changes a resource's days: a deviation of its own (an absence, or overtime that adds
 * time), or a company holiday it has (company-holidays.ts).
 */
export type DaysOff = Pick<Stored<'schedule_deviation'>, 'id' | 'type' | 'start_date' | 'end_date' | 'time'>;

/** Whether a deviation adds time (overtime) rather than taking it (every other type). */
export const isOvertime = (deviation: Pick<DaysOff, 'type'>): boolean => deviation.type === 'overtime';

/** Minutes in a day: scheduled time and overtime together never pass it. */
const minutesInDay = 1440;

export interface ResourceCalendar {
  resource: Stored<'resource'>;
  deviations: DaysOff[];
}

// A type, not an interface, so a row is a Record<string, unknown> for listComputed without a cast.
export type ScheduleDay = {
  resource_id: string;
  date: string;
  weekday: number;
  scheduled: number;
  deviation: number;
  overtime: number;
  available: number;
  deviations: string[];
};

/** Fields of a schedule row, for filtering and sorting computed lists. */
export const scheduleDayFields: Record<string, FieldSpec> = {
  resource_id: { type: 'uuid' },
  date: { type: 'date' },
  weekday: { type: 'integer' },
  scheduled: { type: 'integer' },
  deviation: { type: 'integer' },
  overtime: { type: 'integer' },
  available: { type: 'integer' },
  deviations: { type: 'json', shape: 'array' },
};

export function scheduleDay(calendar: ResourceCalendar, date: string, weekday: number = isoWeekday(date)): ScheduleDay {
  const { resource } = calendar;
  const inService =
    (resource.start_date === null || date >= resource.start_date) && (resource.end_date === null || date <= resource.end_date);
  const scheduled = inService ? weekdayMinutes(resource, weekday) : 0;
  const covering = calendar.deviations.filter((d) => d.start_date <= date && d.end_date >= date);
  const absences = covering.filter((d) => !isOvertime(d));
  const lost = lostMinutes(
    scheduled,
    absences.some((d) => d.time === null),
    absences.reduce((sum, d) => sum + (d.time ?? 0), 0),
  );
  const overtime = inService
    ? addedMinutes(
        scheduled,
        covering.filter(isOvertime).reduce((sum, d) => sum + (d.time ?? 0), 0),
      )
    : 0;
  return {
    resource_id: resource.id,
    date,
    weekday,
    scheduled,
    deviation: lost,
    overtime,
    available: scheduled - lost + overtime,
    deviations: covering.map((d) => d.id),
  };
}

/**
 * The available minutes of `length` consecutive days from day number `first` (workdays.ts),
 * by the same rules as scheduleDay. Over a long range (capacity asks a year for every
 * resource) this walks each deviation over its own days once, instead of testing every
 * deviation on every day and parsing each day's date.
 */
export function availableMinutes(calendar: ResourceCalendar, first: number, length: number): Float64Array {
  const { resource } = calendar;
  const byWeekday = [0, 1, 2, 3, 4, 5, 6, 7].map((weekday) => weekdayMinutes(resource, weekday));
  const from = resource.start_date === null ? 0 : dayNumber(resource.start_date) - first;
  const to = resource.end_date === null ? length - 1 : dayNumber(resource.end_date) - first;
  const wholeDay = new Uint8Array(length);
  // Summed in the order of the deviations, as scheduleDay does, so the figures are the same.
  const partial = new Float64Array(length);
  const overtime = new Float64Array(length);
  for (const deviation of calendar.deviations) {
    const last = Math.min(length - 1, dayNumber(deviation.end_date) - first);
    const added = isOvertime(deviation);
    for (let day = Math.max(0, dayNumber(deviation.start_date) - first); day <= last; day++) {
      if (added) overtime[day] = overtime[day]! + (deviation.time ?? 0);
      else if (deviation.time === null) wholeDay[day] = 1;
      else partial[day] = partial[day]! + deviation.time;
    }
  }
  const available = new Float64Array(length);
  for (let day = 0; day < length; day++) {
    const inService = day >= from && day <= to;
    const scheduled = inService ? byWeekday[weekdayOfDay(first + day)]! : 0;
    const added = inService ? addedMinutes(scheduled, overtime[day]!) : 0;
    available[day] = scheduled - lostMinutes(scheduled, wholeDay[day] === 1, partial[day]!) + added;
  }
  return available;
}

/**
 * Minutes the resource's `workdays` schedule on an ISO weekday (hours; null is a day off), and
 * its `second_shift` on top (docs/decisions/shifts.md): together never more than the day.
 */
function weekdayMinutes(resource: Stored<'resource'>, weekday: number): number {
  const first = patternMinutes(resource.workdays, weekday);
  // Read through `??`: a record kept from before second shifts may lack the field.
  const second = patternMinutes(resource.second_shift ?? null, weekday);
  return Math.min(minutesInDay, first + second);
}

/** A pattern's minutes on an ISO weekday: its hours × 60, 0 for null or no pattern. */
export function patternMinutes(pattern: Partial<Record<string, number | null>> | null, weekday: number): number {
  // Read by any number: 0 (the unused slot of availableMinutes) has no key, so it is a day off.
  const hours = pattern?.[String(weekday)] ?? null;
  return hours !== null ? Math.round(hours * 60) : 0;
}

/** What a day's deviations take: all of it for a whole-day one, else their minutes, capped. */
function lostMinutes(scheduled: number, wholeDay: boolean, partial: number): number {
  return wholeDay ? scheduled : Math.min(scheduled, partial);
}

/** What a day's overtime adds: its minutes, capped at what the day has left over the scheduled time. */
function addedMinutes(scheduled: number, overtime: number): number {
  return Math.max(0, Math.min(overtime, minutesInDay - scheduled));
}

/** The resources named, or every one not archived. */
const resourcesQuery = { match: { archived_at: null }, limit: 1_000_000, offset: 0 };

/** Resources with their days off. Archived resources only when asked for. */
export async function readCalendars(reads: RecordReads, resourceIds?: readonly string[]): Promise<ResourceCalendar[]> {
  const resources = resourceIds
    ? await reads.getWhereIn(tables.resource, 'id', resourceIds)
    : (await reads.list(tables.resource, resourcesQuery)).rows;
  return readCalendarsOf(reads, resources);
}

/**
 * Resources already loaded, with their days off: their deviations in one query, the company
 * holidays in one or two. `reads` is a request's records, or a planning transaction's.
 */
export async function readCalendarsOf(reads: RecordReads, resources: readonly Stored<'resource'>[]): Promise<ResourceCalendar[]> {
  if (resources.length === 0) return [];
  const deviations = await reads.getWhereIn(
    tables.schedule_deviation,
    'resource_id',
    resources.map((r) => r.id),
  );
  return calendarsFrom(resources, deviations, await readCompanyHolidays(reads));
}

/**
 * Resources with their days off as read: every resource gets its own deviations (those of
 * other resources are left out) and the company holidays it has (company-holidays.ts).
 */
export function calendarsFrom(
  resources: readonly Stored<'resource'>[],
  deviations: readonly Stored<'schedule_deviation'>[],
  company: CompanyHolidays,
): ResourceCalendar[] {
  const byResource = new Map<string, Stored<'schedule_deviation'>[]>(resources.map((r) => [r.id, []]));
  for (const deviation of deviations) byResource.get(deviation.resource_id)?.push(deviation);
  return resources.map((resource) => {
    const own = byResource.get(resource.id)!;
    return { resource, deviations: [...own, ...derivedDeviations(resource.id, own, company)] };
  });
}

export function scheduleDays(calendar: ResourceCalendar, start: string, end: string): ScheduleDay[] {
  return eachDate(start, end).map((date) => scheduleDay(calendar, date));
}
