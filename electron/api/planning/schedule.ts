/**
 * A resource's schedule: the minutes it is available on each day.
 *
 *   scheduled = workdays[weekday] hours × 60, or 0 outside start_date…end_date or when null
 *   deviation = scheduled for a whole-day deviation (time null), else the sum of the
 *               deviations' minutes, never more than scheduled
 *   available = scheduled − deviation
 */
import { eachDate, isoWeekday } from '../../../shared/dates.js';
import type { FieldSpec } from '../../../shared/fields.js';
import type { StoredRecord } from '../../store/environment-store.js';
import type { RequestContext } from '../resource.js';
import { resourceModule, scheduleDeviationModule } from '../resources/resource.js';

export interface ResourceCalendar {
  resource: StoredRecord;
  deviations: StoredRecord[];
}

export interface ScheduleDay {
  resource_id: string;
  date: string;
  weekday: number;
  scheduled: number;
  deviation: number;
  available: number;
  deviations: string[];
}

/** Fields of a schedule row, for filtering and sorting computed lists. */
export const scheduleDayFields: Record<string, FieldSpec> = {
  resource_id: { type: 'uuid' },
  date: { type: 'date' },
  weekday: { type: 'integer' },
  scheduled: { type: 'integer' },
  deviation: { type: 'integer' },
  available: { type: 'integer' },
  deviations: { type: 'json', shape: 'array' },
};

export function scheduleDay(calendar: ResourceCalendar, date: string, weekday: number = isoWeekday(date)): ScheduleDay {
  const { resource } = calendar;
  const inService =
    (resource.start_date === null || date >= (resource.start_date as string)) &&
    (resource.end_date === null || date <= (resource.end_date as string));
  const hours = (resource.workdays as Record<string, number | null>)[String(weekday)] ?? null;
  const scheduled = inService && hours !== null ? Math.round(hours * 60) : 0;
  const covering = calendar.deviations.filter((d) => (d.start_date as string) <= date && (d.end_date as string) >= date);
  const wholeDay = covering.some((d) => d.time === null);
  const lost = wholeDay ? scheduled : Math.min(scheduled, covering.reduce((sum, d) => sum + (d.time as number), 0));
  return {
    resource_id: resource.id,
    date,
    weekday,
    scheduled,
    deviation: lost,
    available: scheduled - lost,
    deviations: covering.map((d) => d.id),
  };
}

/** Resources with their deviations in two queries. Archived resources only when asked for. */
export function loadCalendars(ctx: RequestContext, resourceIds?: readonly string[]): ResourceCalendar[] {
  const resources = resourceIds
    ? ctx.store.getWhereIn(resourceModule.table, 'id', resourceIds)
    : ctx.store.list(resourceModule.table, { match: { archived_at: null }, limit: 1_000_000, offset: 0 }).rows;
  const deviations = ctx.store.getWhereIn(scheduleDeviationModule.table, 'resource_id', resources.map((r) => r.id));
  return resources.map((resource) => ({ resource, deviations: deviations.filter((d) => d.resource_id === resource.id) }));
}

export function scheduleDays(calendar: ResourceCalendar, start: string, end: string): ScheduleDay[] {
  return eachDate(start, end).map((date) => scheduleDay(calendar, date));
}
