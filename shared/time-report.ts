/**
 * A time report: tracked time over a period, grouped and totalled, as `GET
 * /v1/time_tracking/export` computes it. The JSON format is this model; CSV, XLSX and PDF are
 * written from it, so every format shows the same figures.
 *
 * Entries are clipped to the period and split at midnight in the report's time zone, so a
 * line never spans two days and day totals add up to the grand total to the minute.
 *
 * Money (issue 17): each line is worth its activity's hourly rate × its hours, rounded to the
 * cent (`amount`); groups and the grand total add up their lines' amounts, so they agree to the
 * cent, and split them into billable and non-billable (the activity's `billable` flag).
 *
 * Hour codes (docs/API.md "Surcharge rules"): each line is split by the clock of its user's
 * time zone into `segments` of one local date, percentage and payroll hour code
 * (shared/surcharges.ts), which add up to the line's minutes; `hour_codes` adds them up over
 * the report.
 */
import type { HourSegment } from './surcharges.js';

export type { HourSegment } from './surcharges.js';

export const reportGroupings = ['days', 'weeks', 'activities', 'collections', 'boards', 'statuses', 'users', 'billable'] as const;
export type ReportGrouping = (typeof reportGroupings)[number];

export const reportFormats = ['json', 'csv', 'xlsx', 'pdf'] as const;
export type ReportFormat = (typeof reportFormats)[number];

export type DurationFormat = 'decimal' | 'hh:mm';

/** One line of the report: a time entry's piece within one local day of the period. */
export interface ReportLine {
  entry_id: string;
  /** Local date (YYYY-MM-DD) in the report's time zone. */
  date: string;
  /** ISO week of `date`, e.g. `2026-W48`. */
  week: string;
  /** Start and end of the piece, ISO 8601 UTC. */
  start: string;
  end: string;
  minutes: number;
  user_id: string | null;
  user: string;
  card_id: string | null;
  card: string;
  collection_id: string | null;
  collection: string;
  board_id: string | null;
  board: string;
  activity_id: string | null;
  activity: string;
  /** The activity's hourly rate (0 without an activity) and whether it is billed. */
  hourly_rate: number;
  billable: boolean;
  /** hourly_rate × minutes / 60, rounded to the cent. */
  amount: number;
  /** The entry overlaps another entry of the same user (docs/API.md "Time tracking"). */
  overlaps: boolean;
  status: string;
  note: string;
  /** The activity's payroll hour code (null without one). */
  hour_code: string | null;
  /** The line's minutes by local date (the user's zone), percentage and hour code; they add up to `minutes`. */
  segments: HourSegment[];
}

/** Minutes of the whole report at one percentage under one hour code. */
export interface HourCodeTotal {
  hour_code: string | null;
  percentage: number;
  minutes: number;
}

/** Minutes and money of a group or of the whole report, split by the activities' billable flag. */
export interface ReportMoney {
  amount: number;
  billable_minutes: number;
  billable_amount: number;
  non_billable_minutes: number;
  non_billable_amount: number;
}

export interface ReportGroup extends ReportMoney {
  grouping: ReportGrouping;
  /** The value grouped on (an id, a date or a week); null for "none". */
  key: string | null;
  label: string;
  minutes: number;
  /** Groups of the next grouping, when there is one. */
  groups?: ReportGroup[];
  /** Indexes into `lines`, for the last grouping level. */
  lines?: number[];
}

export interface TimeReport {
  title: string;
  period: { start: string; end: string; timezone: string };
  filters: Record<string, string>;
  /** The filters in words, with the names of the users, cards and activities they name. */
  filter_text: string;
  /** Who asked for the report: the signed-in user's name, or the API key. */
  exported_by: string;
  /** ISO 4217 code the amounts are in (the request's `currency`; rates carry none). */
  currency: string;
  group_by: ReportGrouping[];
  duration_format: DurationFormat;
  generated_at: string;
  total_minutes: number;
  /** The grand total's money: amount, billable and non-billable. */
  totals: ReportMoney;
  groups: ReportGroup[];
  lines: ReportLine[];
  /** The segments of all lines added up per hour code and percentage, by code (no code last), then percentage. */
  hour_codes: HourCodeTotal[];
}

/** The segments of `lines` added up per hour code and percentage, in the order `hour_codes` promises. */
export function hourCodeTotals(lines: readonly ReportLine[]): HourCodeTotal[] {
  const totals = new Map<string, HourCodeTotal>();
  for (const line of lines) {
    for (const segment of line.segments) {
      const key = `${segment.hour_code ?? ''}\u0000${segment.hour_code === null ? 1 : 0}\u0000${segment.percentage}`;
      const total = totals.get(key);
      if (total) total.minutes += segment.minutes;
      else totals.set(key, { hour_code: segment.hour_code, percentage: segment.percentage, minutes: segment.minutes });
    }
  }
  return [...totals.values()].sort(
    (a, b) =>
      Number(a.hour_code === null) - Number(b.hour_code === null) ||
      (a.hour_code ?? '').localeCompare(b.hour_code ?? '') ||
      a.percentage - b.percentage,
  );
}

/** Cents as an amount, exact to the cent (amounts are added up in whole cents). */
export function centsToAmount(cents: number): number {
  return Math.round(cents) / 100;
}

/** An amount with two decimals, as the files write it: `1234.50`. */
export function formatAmount(amount: number): string {
  return amount.toFixed(2);
}

/** Minutes as decimal hours (2 places) or `h:mm`. */
export function formatMinutes(minutes: number, format: DurationFormat): string {
  if (format === 'decimal') return (minutes / 60).toFixed(2);
  const sign = minutes < 0 ? '-' : '';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** A line of the JSON answer: its `minutes` also written in the report's `duration_format`. */
export interface FormattedReportLine extends ReportLine {
  duration: string;
}

export interface FormattedReportGroup extends Omit<ReportGroup, 'groups'> {
  duration: string;
  groups?: FormattedReportGroup[];
}

/**
 * The JSON answer of `GET /v1/time_tracking/export`: the report with every figure also
 * formatted as the files write it (formatMinutes): `duration` next to `minutes` on lines and
 * groups, `total_duration` next to `total_minutes`.
 */
export interface FormattedTimeReport extends Omit<TimeReport, 'groups' | 'lines'> {
  total_duration: string;
  groups: FormattedReportGroup[];
  lines: FormattedReportLine[];
}

/** Adds the formatted figures to `report`, its lines in place (see below). */
export function withDurations(report: TimeReport): FormattedTimeReport {
  const format = report.duration_format;
  // Lines share their minutes: each text is made once.
  const texts = new Map<number, string>();
  const duration = (minutes: number) => {
    let text = texts.get(minutes);
    if (text === undefined) texts.set(minutes, (text = formatMinutes(minutes, format)));
    return text;
  };
  const group = ({ groups, ...g }: ReportGroup): FormattedReportGroup => ({
    ...g,
    duration: duration(g.minutes),
    ...(groups ? { groups: groups.map(group) } : {}),
  });
  // The lines get theirs in place: a report is built for one answer, and a copy of up to
  // 200,000 lines would hold twice the memory until it is sent.
  const lines = report.lines as FormattedReportLine[];
  for (const line of lines) line.duration = duration(line.minutes);
  return { ...report, total_duration: duration(report.total_minutes), groups: report.groups.map(group), lines };
}
