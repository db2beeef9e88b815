/**
 * What a report file says about itself: its period as local dates, the filters and the
 * grouping in words, and the file name it is downloaded under.
 *
 * `period.start` and `period.end` are read in one of two ways:
 *  - plain dates (`2026-11-01`, `2026-11-30`): the first and the last day, both included;
 *  - instants (`2026-11-01T00:00:00+01:00`): start included, end excluded, as the API's
 *    overlap filter reads them; the last day is the local day just before `end`.
 */
import type { TimeReport } from '../../../../shared/time-report.js';
import { formatLocalDate, formatLocalDateTime, formatLocalTime, localDate, ZoneClock } from './zone-clock.js';
import { nowMs } from '../../../../shared/clock.js';

const datePattern = /^\d{4}-\d{2}-\d{2}$/;

export interface PeriodDays {
  /** First local day (YYYY-MM-DD). */
  first: string;
  /** Last local day, included (YYYY-MM-DD). */
  last: string;
  /** For people: `2026-11-01 – 2026-11-30`, or with times when the period does not run midnight to midnight. */
  text: string;
}

export function periodDays(report: TimeReport, clock: ZoneClock = new ZoneClock(report.period.timezone)): PeriodDays {
  const { start, end } = report.period;
  const startLocal = datePattern.test(start) ? localDate(start) : clock.local(start);
  const endIsDate = datePattern.test(end);
  const endLocal = endIsDate ? localDate(end) : clock.local(end);
  const first = formatLocalDate(startLocal);
  const last = formatLocalDate(endIsDate ? endLocal : Math.max(startLocal, endLocal - 1));
  const wholeDays = formatLocalTime(startLocal) === '00:00' && (endIsDate || formatLocalTime(endLocal) === '00:00');
  const text = wholeDays
    ? first === last
      ? first
      : `${first} – ${last}`
    : `${formatLocalDateTime(startLocal)} – ${formatLocalDateTime(endLocal)}`;
  return { first, last, text };
}

/** When the report was computed, or now when `generated_at` is not a readable instant. */
export function generatedAt(report: TimeReport): Date {
  const at = Date.parse(report.generated_at);
  return new Date(Number.isNaN(at) ? nowMs() : at);
}

/**
 * The filters in words with the names of what they name (`user: Alice Andersen; status:
 * approved`, report-names.ts), else as sent (`filter: user_id:eq:7f…`), or `none`.
 */
export function filtersText(report: TimeReport): string {
  if (report.filter_text) return report.filter_text;
  const entries = Object.entries(report.filters);
  return entries.length ? entries.map(([name, value]) => `${name}: ${value}`).join('; ') : 'none';
}

/** `users, days`, or `none`. */
export function groupingText(report: TimeReport): string {
  return report.group_by.length ? report.group_by.join(', ') : 'none';
}

/**
 * `time-report-2026-11-01-2026-11-30.csv`, or with the one user the report is filtered on
 * (`time-report-alice-andersen-2026-11-01-2026-11-30.csv`): ASCII letters, digits, dots and
 * dashes only, so it can go into `Content-Disposition: attachment; filename="…"` as it is.
 * Accents are dropped from the user's name (Zoë → zoe).
 */
export function reportFilename(period: PeriodDays, extension: string, options: { kind?: string; user?: string } = {}): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9.-]+/g, '-');
  const user = options.user
    ? safe(
        options.user
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, '')
          .toLowerCase(),
      ).replace(/^-+|-+$/g, '')
    : '';
  return `${options.kind ?? 'time-report'}-${user ? `${user}-` : ''}${safe(period.first)}-${safe(period.last)}.${safe(extension)}`;
}
