/**
 * Computing a payroll package's import file (shared/payroll-file.ts, docs/API.md "Payroll
 * files") for one payroll month.
 *
 * Worked hours: the time report's segments of the period (report.ts), each under its hour code
 * (the surcharge rule's, else the activity's). Absences: the schedule of each user's resource
 * (planning/schedule.ts), day by day, under the hour codes of the payroll settings by type. A
 * day's absent minutes are what its schedule loses (the day's scheduled minutes for a
 * whole-day absence, else the deviations' `time`, never more than scheduled); where several
 * absences share a day they are given out in the order public holiday, sick, vacation, time
 * for time, leave, so a sick day on a public holiday is paid as the holiday.
 *
 * Nothing is guessed: hours without an hour code, an absence type without its code, a user
 * with hours but no `payroll_ref`, or a number the package cannot read make a 422 listing every
 * such problem, and no file is written.
 */
import { eachDate } from '../../../shared/dates.js';
import type { FieldProblem } from '../../../shared/errors.js';
import type { PayrollEmployee, PayrollFile, PayrollPackage } from '../../../shared/payroll-file.js';
import { payrollHours } from '../../../shared/payroll-file.js';
import { ApiError } from '../errors.js';
import { isOvertime, readCalendarsOf, scheduleDay, type DaysOff, type ResourceCalendar } from '../planning/schedule.js';
import type { RequestContext } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import { buildReport, type ReportRequest } from './report.js';
import { filteredUser, userName } from './report-names.js';

/** What an absence is paid as: the payroll setting that holds its hour code. */
export type AbsenceClass = 'holiday_hour_code' | 'sick_hour_code' | 'vacation_hour_code' | 'time_for_time_hour_code' | 'leave_hour_code';

/**
 * The order absences sharing a day take its minutes. Time for time comes after vacation and
 * before leave: a day off from the overtime balance on a public holiday or a sick day takes
 * nothing from the balance (docs/API.md "Overtime balance").
 */
const absenceOrder: readonly AbsenceClass[] = [
  'holiday_hour_code',
  'sick_hour_code',
  'vacation_hour_code',
  'time_for_time_hour_code',
  'leave_hour_code',
];

/** An absence type's class: holiday, sick, vacation and time for time their own, every other type leave. */
export function absenceClass(type: string): AbsenceClass {
  if (type === 'holiday') return 'holiday_hour_code';
  if (type === 'sick') return 'sick_hour_code';
  if (type === 'vacation') return 'vacation_hour_code';
  if (type === 'time_for_time') return 'time_for_time_hour_code';
  return 'leave_hour_code';
}

/**
 * A day's absent minutes by class: `lost` (what scheduleDay says the day loses) given out in
 * `absenceOrder`, a whole-day absence taking all that is left, a part-day one its `time`.
 */
export function absenceMinutes(lost: number, covering: readonly Pick<DaysOff, 'type' | 'time'>[]): Map<AbsenceClass, number> {
  const out = new Map<AbsenceClass, number>();
  let left = lost;
  for (const kind of absenceOrder) {
    for (const deviation of covering) {
      if (left <= 0 || isOvertime(deviation) || absenceClass(deviation.type) !== kind) continue;
      const taken = deviation.time === null ? left : Math.min(deviation.time, left);
      out.set(kind, (out.get(kind) ?? 0) + taken);
      left -= taken;
    }
  }
  return out;
}

export interface PayrollFileRequest extends Pick<ReportRequest, 'start' | 'end' | 'timezone' | 'filter' | 'filters'> {
  package: PayrollPackage;
}

/** Sorts payroll numbers as the package lists them: numbers by value, then as text. */
function byPayrollRef(a: PayrollEmployee, b: PayrollEmployee): number {
  const numeric = /^\d+$/;
  if (numeric.test(a.payroll_ref) && numeric.test(b.payroll_ref) && a.payroll_ref !== b.payroll_ref)
    return Number(a.payroll_ref) - Number(b.payroll_ref) || a.payroll_ref.localeCompare(b.payroll_ref);
  return a.payroll_ref.localeCompare(b.payroll_ref) || a.name.localeCompare(b.name);
}

export async function buildPayrollFile(ctx: RequestContext, request: PayrollFileRequest): Promise<PayrollFile> {
  const { start, end } = request;
  if (start.slice(0, 7) !== end.slice(0, 7))
    throw ApiError.rule('end', `a payroll file covers one payroll month: start (${start}) and end (${end}) must be in the same month`);
  const settings = (
    await ctx.records.list(tables.payroll_setting, { limit: 1, offset: 0, sort: [{ field: 'created_at', direction: 'asc' }] })
  ).rows[0];
  const report = await buildReport(ctx, {
    start,
    end,
    timezone: request.timezone,
    groupBy: [],
    durationFormat: 'decimal',
    ...(request.filter ? { filter: request.filter } : {}),
    filters: request.filters,
    title: 'Payroll file',
    currency: 'EUR',
  });
  const problems: FieldProblem[] = [];
  const minutes = new Map<string, Map<string, number>>();
  const add = (userId: string, code: string, more: number) => {
    let codes = minutes.get(userId);
    if (!codes) minutes.set(userId, (codes = new Map()));
    codes.set(code, (codes.get(code) ?? 0) + more);
  };
  // Worked hours; those without a code are named per user and activity, once.
  const uncoded = new Map<string, { userId: string; activity: string; minutes: number }>();
  for (const line of report.lines) {
    // Time booked for no one is nobody's pay: the payroll summary shows it as "No user".
    if (line.user_id === null) continue;
    for (const segment of line.segments) {
      if (segment.hour_code !== null) add(line.user_id, segment.hour_code, segment.minutes);
      else {
        const key = `${line.user_id}\u0000${line.activity}`;
        const found = uncoded.get(key);
        if (found) found.minutes += segment.minutes;
        else uncoded.set(key, { userId: line.user_id, activity: line.activity, minutes: segment.minutes });
      }
    }
  }

  // Whose absences count: the one user a filter names, else every user linked to a resource.
  const pinned = await filteredUser(ctx, request.filter);
  const linked = pinned
    ? [pinned]
    : (await ctx.records.list(tables.user, { match: { archived_at: null }, limit: 1_000_000, offset: 0 })).rows;
  const withResource = linked.filter((u) => typeof u.resource_id === 'string');
  const resources = await ctx.records.getWhereIn(
    tables.resource,
    'id',
    withResource.map((u) => u.resource_id).filter((id) => typeof id === 'string'),
  );
  const calendars = new Map<string, ResourceCalendar>((await readCalendarsOf(ctx.records, resources)).map((c) => [c.resource.id, c]));
  const missingCodes = new Map<AbsenceClass, number>();
  const dates = eachDate(start, end);
  for (const user of withResource) {
    const calendar = calendars.get(user.resource_id ?? '');
    if (!calendar) continue;
    for (const date of dates) {
      const day = scheduleDay(calendar, date);
      if (day.deviation === 0) continue;
      const covering = calendar.deviations.filter((d) => d.start_date <= date && d.end_date >= date);
      for (const [kind, taken] of absenceMinutes(day.deviation, covering)) {
        const code = settings?.[kind] ?? null;
        if (code === null) missingCodes.set(kind, (missingCodes.get(kind) ?? 0) + taken);
        else add(user.id, code, taken);
      }
    }
  }

  const users = new Map<string, Stored<'user'>>(
    (await ctx.records.getWhereIn(tables.user, 'id', [...new Set([...minutes.keys(), ...[...uncoded.values()].map((u) => u.userId)])])).map(
      (u) => [u.id, u],
    ),
  );
  const nameOf = (id: string) => userName(users.get(id)) || id;
  for (const { userId, activity, minutes: m } of uncoded.values())
    problems.push({
      field: 'hour_code',
      description: `${payrollHours(m, '.')} hours of ${nameOf(userId)} on ${activity ? `activity ${activity}` : 'no activity'} have no hour code: give the activity an hour_code (or the surcharge rule that holds one)`,
    });
  for (const [kind, m] of missingCodes)
    problems.push({
      field: `payroll_setting.${kind}`,
      description: `${payrollHours(m, '.')} hours of ${kind.replace('_hour_code', '')} absence have no hour code: set ${kind} in the payroll settings (/v1/payroll_setting)`,
    });

  const employees: PayrollEmployee[] = [];
  for (const [userId, codes] of minutes) {
    const hours = [...codes]
      .filter(([, m]) => m !== 0)
      .map(([hour_code, m]) => ({ hour_code, minutes: m }))
      .sort((a, b) => a.hour_code.localeCompare(b.hour_code));
    if (hours.length === 0) continue;
    const user = users.get(userId);
    const ref = user?.payroll_ref ?? null;
    if (ref === null) {
      problems.push({
        field: 'payroll_ref',
        description: `${nameOf(userId)} has hours in the period but no payroll_ref (their employee number in the package)`,
      });
      continue;
    }
    employees.push({ user_id: userId, name: nameOf(userId), payroll_ref: ref, hours });
  }
  employees.sort(byPayrollRef);

  const nmbrs = { debtor: settings?.nmbrs_debtor_number ?? '', company: settings?.nmbrs_company_number ?? '' };
  const datev = { consultant: settings?.datev_consultant_number ?? '', client: settings?.datev_client_number ?? '' };
  problems.push(...packageProblems(request.package, employees, nmbrs, datev));
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  return { start, end, month: start.slice(0, 7), nmbrs, datev, employees };
}

/** What one package needs beyond hours with codes and numbers: the employer's numbers, numbers it can read. */
function packageProblems(
  pkg: PayrollPackage,
  employees: readonly PayrollEmployee[],
  nmbrs: PayrollFile['nmbrs'],
  datev: PayrollFile['datev'],
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (pkg === 'nmbrs') {
    if (!nmbrs.debtor)
      problems.push({
        field: 'payroll_setting.nmbrs_debtor_number',
        description: 'an Nmbrs file names the debtor number: set nmbrs_debtor_number in the payroll settings',
      });
    if (!nmbrs.company)
      problems.push({
        field: 'payroll_setting.nmbrs_company_number',
        description: 'an Nmbrs file names the company number: set nmbrs_company_number in the payroll settings',
      });
  }
  if (pkg === 'datev') {
    if (!datev.consultant)
      problems.push({
        field: 'payroll_setting.datev_consultant_number',
        description: 'a DATEV file names the consultant number (Beraternummer): set datev_consultant_number in the payroll settings',
      });
    if (!datev.client)
      problems.push({
        field: 'payroll_setting.datev_client_number',
        description: 'a DATEV file names the client number (Mandantennummer): set datev_client_number in the payroll settings',
      });
    for (const employee of employees) {
      if (!/^\d{1,5}$/.test(employee.payroll_ref))
        problems.push({
          field: 'payroll_ref',
          description: `DATEV reads personnel numbers of 1 to 5 digits; ${employee.name} has ${employee.payroll_ref}`,
        });
      for (const { hour_code } of employee.hours)
        if (!/^\d{1,4}$/.test(hour_code))
          problems.push({
            field: 'hour_code',
            description: `DATEV reads wage types (Lohnarten) of 1 to 4 digits; ${employee.name} has hours under ${hour_code}`,
          });
    }
  }
  return problems;
}
