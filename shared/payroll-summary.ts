/**
 * A payroll summary (issue 17): per user, per day or ISO week of a period, the hours they
 * booked against the hours their resource's schedule expects, as `GET
 * /v1/time_tracking/payroll` computes it (docs/API.md "Payroll summary"). The JSON format is
 * this model; CSV, XLSX and PDF are written from it.
 *
 *   worked     = minutes of the user's time entries that fall on the day(s), cut at local
 *                midnight in the summary's time zone as the time report cuts them
 *   scheduled  = their resource's workday hours on those days (docs/API.md "Schedules")
 *   absence    = what the resource's schedule deviations (leave, sickness…) take of it
 *   expected   = scheduled − absence
 *   difference = worked − expected (negative: fewer hours than expected)
 *
 * A user without a resource expects nothing: all they book is difference.
 *
 * Each user also has their minutes per hour code and percentage (the surcharge rules' split,
 * docs/API.md "Surcharge rules") and their overtime balance over the period (docs/API.md
 * "Overtime balance"): opening, change and closing, null for a user without a resource.
 */
import type { HourCodeTotal } from './time-report.js';

export const payrollBuckets = ['day', 'week'] as const;
export type PayrollBucketKind = (typeof payrollBuckets)[number];

export interface PayrollFigures {
  worked_minutes: number;
  scheduled_minutes: number;
  absence_minutes: number;
  expected_minutes: number;
  difference_minutes: number;
}

/** One day, or one ISO week clipped to the period. */
export interface PayrollBucket extends PayrollFigures {
  /** `2026-11-02` for a day, `2026-W45` for a week. */
  key: string;
  /** First and last day of the bucket within the period (YYYY-MM-DD). */
  start: string;
  end: string;
}

/** A user's overtime balance over a period, in minutes (docs/API.md "Overtime balance"). */
export interface OvertimeFigures {
  /** The balance through the day before the period. */
  opening_minutes: number;
  change_minutes: number;
  /** The balance through the period's last day: opening + change. */
  closing_minutes: number;
}

export interface PayrollUser extends PayrollFigures {
  /** Null for the entries booked for no user. */
  user_id: string | null;
  user: string;
  resource_id: string | null;
  resource: string;
  /** The worked minutes per hour code and percentage, as the time report's `hour_codes`. */
  hour_codes: HourCodeTotal[];
  /** Null without a resource (no schedule to work over) and for "No user". */
  overtime: OvertimeFigures | null;
  buckets: PayrollBucket[];
}

export interface PayrollSummary {
  title: string;
  period: { start: string; end: string; timezone: string };
  per: PayrollBucketKind;
  filters: Record<string, string>;
  filter_text: string;
  exported_by: string;
  duration_format: 'decimal' | 'hh:mm';
  generated_at: string;
  users: PayrollUser[];
  totals: PayrollFigures;
}

export function emptyFigures(): PayrollFigures {
  return { worked_minutes: 0, scheduled_minutes: 0, absence_minutes: 0, expected_minutes: 0, difference_minutes: 0 };
}

/** Adds `more` into `sum` (expected and difference follow from the rest). */
export function addFigures(sum: PayrollFigures, more: PayrollFigures): void {
  sum.worked_minutes += more.worked_minutes;
  sum.scheduled_minutes += more.scheduled_minutes;
  sum.absence_minutes += more.absence_minutes;
  sum.expected_minutes = sum.scheduled_minutes - sum.absence_minutes;
  sum.difference_minutes = sum.worked_minutes - sum.expected_minutes;
}
