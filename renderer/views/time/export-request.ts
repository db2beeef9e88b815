/**
 * The export dialog's choices as the query of `GET /v1/time_tracking/export` (docs/API.md
 * "Time reports"), or of `GET /v1/time_tracking/payroll_file` for a payroll package ("Payroll
 * files"). Pure (test/renderer/export-request.test.ts).
 */
import type { ExportFormat } from '../../../shared/ipc.js';
import { payrollPackages, type PayrollPackage } from '../../../shared/payroll-file.js';
import type { DurationFormat, ReportFormat, ReportGrouping, TimeReport } from '../../../shared/time-report.js';
import type { DateRange } from './periods.js';

export const maxGroupings = 3;

export interface ExportChoices {
  range: DateRange;
  /** In order; empty places are left out. */
  groupBy: readonly (ReportGrouping | '')[];
  durationFormat: DurationFormat;
  timeZone: string;
  filter: string;
}

/** The groupings in order, each once, at most three. */
export function cleanGroupings(groupBy: readonly (ReportGrouping | '')[]): ReportGrouping[] {
  const out: ReportGrouping[] = [];
  for (const grouping of groupBy) if (grouping && !out.includes(grouping) && out.length < maxGroupings) out.push(grouping);
  return out;
}

export function exportQuery(choices: ExportChoices, format: ReportFormat): Record<string, string> {
  const groupings = cleanGroupings(choices.groupBy);
  return {
    start: choices.range.start,
    end: choices.range.end,
    format,
    duration_format: choices.durationFormat,
    timezone: choices.timeZone,
    ...(groupings.length > 0 ? { group_by: groupings.join(',') } : {}),
    ...(choices.filter ? { filter: choices.filter } : {}),
  };
}

/** What the dialog saves: a time report file, or a payroll package's import file. */
export type DialogFormat = Exclude<ReportFormat, 'json'> | PayrollPackage;

export function isPayrollPackage(format: DialogFormat): format is PayrollPackage {
  return payrollPackages.some((name) => name === format);
}

/** A payroll file's query: the package, the period (one month), the zone and the filter; no grouping. */
export function payrollFileQuery(choices: ExportChoices, pkg: PayrollPackage): Record<string, string> {
  return {
    format: pkg,
    start: choices.range.start,
    end: choices.range.end,
    timezone: choices.timeZone,
    ...(choices.filter ? { filter: choices.filter } : {}),
  };
}

/** A payroll file covers one payroll month: both days in the same calendar month. */
export function withinOneMonth(range: DateRange): boolean {
  return range.start.slice(0, 7) === range.end.slice(0, 7);
}

/** How a payroll package's file is saved: DATEV's as text, the others as CSV. */
export function payrollSaveFormat(pkg: PayrollPackage): ExportFormat {
  return pkg === 'datev' ? 'txt' : 'csv';
}

/** The name a saved payroll file gets when the API names none (it names the same). */
export function payrollFileName(range: DateRange, pkg: PayrollPackage): string {
  const month = range.start.slice(0, 7);
  return pkg === 'datev' ? `datev-lodas-${month}.txt` : `${pkg}-hours-${month}.csv`;
}

/** The name a saved report gets when the API names none. */
export function exportFileName(range: DateRange, format: ReportFormat): string {
  return `time-report-${range.start}-${range.end}.${format}`;
}

/** How many entries a report holds (an entry over midnight has a line per day). */
export function reportEntryCount(report: Pick<TimeReport, 'lines'>): number {
  return new Set(report.lines.map((line) => line.entry_id)).size;
}
