/**
 * The answer of GET /v1/kpi (docs/API.md "KPIs"): a board's figures per ISO week or calendar
 * month. The API works them out (electron/api/planning/kpi.ts); the KPI screen reads them.
 */
export type KpiTimeFrame = 'week' | 'month';
export const kpiTimeFrames: readonly KpiTimeFrame[] = ['week', 'month'];

/** A count over a count, so that a client can add periods or boards up before it divides. */
export interface Ratio {
  numerator: number;
  denominator: number;
  /** numerator / denominator to 4 decimals; null when the denominator is 0. */
  ratio: number | null;
}

export interface KpiFigures {
  /** Collections (by stage: a collection's cards on the stage) finished in the period. */
  finished: number;
  on_time_delivery: Ratio;
  promise_reliability: Ratio;
  utilisation: {
    available_minutes: number;
    planned_minutes: number;
    booked_minutes: number;
    planned: Ratio;
    booked: Ratio;
  };
  work_in_progress: number;
  backlog: {
    planned_minutes: number;
    /** Minutes of collections not planned; null by stage (they are on no stage yet). */
    unplanned_minutes: number | null;
    weekly_available_minutes: number;
    weeks: Ratio;
  };
}

export interface PeriodFigures {
  board: KpiFigures;
  stages: (KpiFigures & { stage_id: string; name: string })[];
  resources: { resource_id: string; name: string; available_minutes: number; planned_minutes: number; planned: Ratio }[];
  users: { user_id: string; booked_minutes: number }[];
}

export interface KpiPeriod {
  period_start: string;
  period_end: string;
  closed: boolean;
  /** When the closed period's figures were kept; null for an open period. */
  snapshot_taken_at: string | null;
  figures: PeriodFigures;
}

export function ratio(numerator: number, denominator: number): Ratio {
  return { numerator, denominator, ratio: denominator > 0 ? Math.round((numerator / denominator) * 10_000) / 10_000 : null };
}

/** The whole answer: the board's periods, from the one holding `from` to the one holding `to`. */
export interface KpiAnswer {
  board_id: string;
  time_frame: KpiTimeFrame;
  data: KpiPeriod[];
}
