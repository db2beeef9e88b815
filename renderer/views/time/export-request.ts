/**
 * The export dialog's choices as the query of `GET /v1/time_tracking/export` (docs/API.md
 * "Time reports"). Pure (test/renderer/export-request.test.ts).
 */
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

/** The name a saved report gets when the API names none. */
export function exportFileName(range: DateRange, format: ReportFormat): string {
  return `time-report-${range.start}-${range.end}.${format}`;
}

/** How many entries a report holds (an entry over midnight has a line per day). */
export function reportEntryCount(report: Pick<TimeReport, 'lines'>): number {
  return new Set(report.lines.map((line) => line.entry_id)).size;
}
