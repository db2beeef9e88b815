/**
 * Schedule routes. Where the public record has only names (docs/API.md), we chose:
 *
 *   GET /v1/resource/{id}/schedule            one resource, a row per day
 *   GET /v1/schedule                          every resource, a row per resource and day
 *   GET /v1/schedule/{year}                   per resource: the year's total and its months
 *   GET /v1/schedule/{year}/{month}           per resource: the month's total and its days
 *   GET /v1/schedule/{year}/{month}/{day}     per resource: that day
 *
 * The day lists take the list conventions; `filter` on `date` picks the days (default: today
 * and the 27 days after it; at most 3,660 days).
 */
import type { FastifyInstance } from 'fastify';
import { addDays, daysBetween, today } from '../../../shared/dates.js';
import { isValidDate, type FieldSpec } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import { filterRange } from '../../../shared/filter-eval.js';
import { listComputed } from '../conventions/computed-list.js';
import type { ListOptions, QueryString } from '../conventions/list-query.js';
import { listOptionsOf } from '../conventions/query-filters.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { readCalendars, scheduleDayFields, scheduleDays, type ResourceCalendar } from './schedule.js';

const maxDays = 3660;

/** Fields of a period summary row, for filtering and sorting. */
const summaryFields: Record<string, FieldSpec> = {
  resource_id: { type: 'uuid' },
  start: { type: 'date' },
  end: { type: 'date' },
  scheduled: { type: 'integer' },
  deviation: { type: 'integer' },
  overtime: { type: 'integer' },
  available: { type: 'integer' },
};

function dateRange(options: ListOptions): { start: string; end: string } {
  const { from, to } = filterRange(options.filter, 'date');
  for (const bound of [from, to]) {
    if (bound !== undefined && !isValidDate(bound)) throw ApiError.badRequest(`'${bound}' is not a date (YYYY-MM-DD)`);
  }
  const start = from ?? (to ? addDays(to, -27) : today());
  const end = to ?? addDays(start, 27);
  if (daysBetween(start, end) >= maxDays) throw ApiError.badRequest(`a schedule covers at most ${maxDays} days`);
  return { start, end };
}

function totals(days: { scheduled: number; deviation: number; overtime: number; available: number }[]) {
  return {
    scheduled: days.reduce((s, d) => s + d.scheduled, 0),
    deviation: days.reduce((s, d) => s + d.deviation, 0),
    overtime: days.reduce((s, d) => s + d.overtime, 0),
    available: days.reduce((s, d) => s + d.available, 0),
  };
}

function periodParams(params: { year?: string; month?: string; day?: string }): { start: string; end: string } {
  const year = params.year ?? '';
  if (!/^\d{4}$/.test(year)) throw ApiError.notFound('The year must be four digits.');
  if (params.month === undefined) return { start: `${year}-01-01`, end: `${year}-12-31` };
  const month = params.month.padStart(2, '0');
  if (!/^(0[1-9]|1[0-2])$/.test(month)) throw ApiError.notFound('The month must be 1-12.');
  if (params.day === undefined) {
    const next = month === '12' ? `${Number(year) + 1}-01-01` : `${year}-${String(Number(month) + 1).padStart(2, '0')}-01`;
    return { start: `${year}-${month}-01`, end: addDays(next, -1) };
  }
  const date = `${year}-${month}-${params.day.padStart(2, '0')}`;
  if (!isValidDate(date)) throw ApiError.notFound('No such day.');
  return { start: date, end: date };
}

function periodSummary(calendars: ResourceCalendar[], start: string, end: string, part: 'month' | 'day' | null) {
  return calendars.map((calendar) => {
    const days = scheduleDays(calendar, start, end);
    const summary: Record<string, unknown> = { resource_id: calendar.resource.id, start, end, ...totals(days) };
    if (part === 'day') summary.days = days;
    if (part === 'month') {
      const months = new Map<string, typeof days>();
      for (const day of days) months.set(day.date.slice(0, 7), [...(months.get(day.date.slice(0, 7)) ?? []), day]);
      summary.months = [...months].map(([month, list]) => ({ month, ...totals(list) }));
    }
    if (part === null) Object.assign(summary, { date: start, deviations: days[0]?.deviations ?? [] });
    return summary;
  });
}

export function registerScheduleRoutes(app: FastifyInstance): void {
  const doc = (summary: string) => ({ doc: { summary, tag: 'Schedule' } });

  app.get<{ Params: { id: string }; Querystring: QueryString }>(
    '/resource/:id/schedule',
    { config: doc('Available minutes of one resource per day') },
    async (request) => {
      const options = listOptionsOf(request.query, scheduleDayFields);
      const { start, end } = dateRange(options);
      // Like every list under a missing parent, an unknown resource's schedule is empty, not 404
      // (docs/API.md "Compatibility"): the resource's calendar is looked for, and there is none.
      const [calendar] = isUuid(request.params.id) ? await readCalendars(request.ctx.records, [request.params.id.toLowerCase()]) : [];
      const rows = end < start || !calendar ? [] : scheduleDays(calendar, start, end);
      return listComputed(rows, options, scheduleDayFields);
    },
  );

  app.get<{ Querystring: QueryString }>('/schedule', { config: doc('Available minutes of every resource per day') }, async (request) => {
    const options = listOptionsOf(request.query, scheduleDayFields);
    const { start, end } = dateRange(options);
    const rows = end < start ? [] : (await readCalendars(request.ctx.records)).flatMap((c) => scheduleDays(c, start, end));
    return listComputed(rows, options, scheduleDayFields);
  });

  const summaryList = async (
    request: { ctx: RequestContext; params: Record<string, string>; query: QueryString },
    part: 'month' | 'day' | null,
  ) => {
    const { start, end } = periodParams(request.params);
    const options = listOptionsOf(request.query, summaryFields);
    const rows = periodSummary(await readCalendars(request.ctx.records), start, end, part);
    return listComputed(rows, options, summaryFields);
  };
  app.get<{ Params: Record<string, string>; Querystring: QueryString }>(
    '/schedule/:year',
    { config: doc("Each resource's available minutes in a year, per month") },
    (r) => summaryList(r, 'month'),
  );
  app.get<{ Params: Record<string, string>; Querystring: QueryString }>(
    '/schedule/:year/:month',
    { config: doc("Each resource's available minutes in a month, per day") },
    (r) => summaryList(r, 'day'),
  );
  app.get<{ Params: Record<string, string>; Querystring: QueryString }>(
    '/schedule/:year/:month/:day',
    { config: doc("Each resource's available minutes on one day") },
    (r) => summaryList(r, null),
  );
}
