/**
 * Computing a payroll summary (shared/payroll-summary.ts) for a period.
 *
 * Worked minutes come from the time report of the same period, time zone and filter
 * (report.ts), so they are cut at local midnight and add up exactly as the report's lines do.
 * Scheduled and absent minutes come from the schedule of the user's resource
 * (planning/schedule.ts), day by day on the period's calendar dates.
 *
 * Who is in it: every user with time in the report; without a filter also every user linked to
 * a resource who booked nothing (their difference is all the hours they were expected); time
 * booked for no user is a row "No user" of its own. Users by name, "No user" last.
 */
import { buckets as periodBuckets, eachDate } from '../../../shared/dates.js';
import { isoWeek } from '../../../shared/zoned-time.js';
import {
  addFigures,
  emptyFigures,
  type PayrollBucket,
  type PayrollBucketKind,
  type PayrollSummary,
  type PayrollUser,
} from '../../../shared/payroll-summary.js';
import { readCalendarsOf, scheduleDay, type ResourceCalendar } from '../planning/schedule.js';
import type { RequestContext } from '../resource.js';
import { buildReport, type ReportRequest } from './report.js';
import { userName } from './report-names.js';
import { tables } from '../tables.js';
import { hourCodeTotals, type ReportLine } from '../../../shared/time-report.js';
import { overtimeBalances } from './overtime.js';

export interface PayrollRequest extends Omit<ReportRequest, 'groupBy' | 'currency'> {
  per: PayrollBucketKind;
}

export async function buildPayroll(ctx: RequestContext, request: PayrollRequest): Promise<PayrollSummary> {
  const report = await buildReport(ctx, { ...request, groupBy: [] });
  // Worked minutes by user and local date.
  const worked = new Map<string | null, Map<string, number>>();
  for (const line of report.lines) {
    let days = worked.get(line.user_id);
    if (!days) worked.set(line.user_id, (days = new Map()));
    days.set(line.date, (days.get(line.date) ?? 0) + line.minutes);
  }
  const userIds = new Set([...worked.keys()].filter((id): id is string => id !== null));
  if (!request.filter) {
    for (const user of (await ctx.records.list(tables.user, { match: { archived_at: null }, limit: 1_000_000, offset: 0 })).rows) {
      if (user.resource_id) userIds.add(user.id);
    }
  }
  const users = await ctx.records.getWhereIn(tables.user, 'id', [...userIds]);
  const resources = await ctx.records.getWhereIn(
    tables.resource,
    'id',
    users.map((u) => u.resource_id).filter((id) => typeof id === 'string'),
  );
  const calendars = new Map<string, ResourceCalendar>((await readCalendarsOf(ctx.records, resources)).map((c) => [c.resource.id, c]));
  const spans =
    request.per === 'day'
      ? eachDate(request.start, request.end).map((d) => ({ start: d, end: d, dates: [d] }))
      : periodBuckets(request.start, request.end, 'week');

  // Per user the lines' minutes per hour code, and the overtime balance over the period (in
  // the user's own time zone, as closed periods cut days: docs/API.md "Overtime balance").
  const linesOf = new Map<string | null, ReportLine[]>();
  for (const line of report.lines) {
    let lines = linesOf.get(line.user_id);
    if (!lines) linesOf.set(line.user_id, (lines = []));
    lines.push(line);
  }
  const overtime = await overtimeBalances(ctx.records, users, request.start, request.end);

  const rowOf = (user: (typeof users)[number] | null): PayrollUser => {
    const calendar = user?.resource_id ? calendars.get(user.resource_id) : undefined;
    const days = worked.get(user?.id ?? null);
    const figures = emptyFigures();
    const buckets: PayrollBucket[] = spans.map((span) => {
      const bucket: PayrollBucket = {
        key: request.per === 'day' ? span.start : isoWeek(span.start),
        start: span.start,
        end: span.end,
        ...emptyFigures(),
      };
      for (const date of span.dates) {
        const day = calendar ? scheduleDay(calendar, date) : undefined;
        addFigures(bucket, {
          worked_minutes: days?.get(date) ?? 0,
          scheduled_minutes: day?.scheduled ?? 0,
          absence_minutes: day?.deviation ?? 0,
          expected_minutes: 0,
          difference_minutes: 0,
        });
      }
      addFigures(figures, bucket);
      return bucket;
    });
    return {
      user_id: user?.id ?? null,
      user: user ? userName(user) : 'No user',
      resource_id: calendar?.resource.id ?? null,
      // A stored resource's name is required text.
      resource: (calendar?.resource.name as string | undefined) ?? '',
      ...figures,
      hour_codes: hourCodeTotals(linesOf.get(user?.id ?? null) ?? []),
      overtime: (user && overtime.get(user.id)) ?? null,
      buckets,
    };
  };
  const rows = users.map(rowOf).sort((a, b) => a.user.localeCompare(b.user));
  if (worked.has(null)) rows.push(rowOf(null));
  const totals = emptyFigures();
  for (const row of rows) addFigures(totals, row);
  return {
    title: request.title,
    period: report.period,
    per: request.per,
    filters: report.filters,
    filter_text: report.filter_text,
    exported_by: report.exported_by,
    duration_format: request.durationFormat,
    generated_at: report.generated_at,
    users: rows,
    totals,
  };
}
