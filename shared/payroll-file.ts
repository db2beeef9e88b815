/**
 * A payroll package's import file (docs/API.md "Payroll files"): per employee, the hours of one
 * payroll month under each hour code, as `GET /v1/time_tracking/payroll_file` computes them.
 * Worked hours come from the time report's segments (shared/surcharges.ts), absences from the
 * schedules of the users' resources; the writers (electron/api/time-tracking/export/
 * payroll-packages.ts) lay them out as each package reads them.
 */

/** The packages a payroll file is written for. */
export const payrollPackages = ['nmbrs', 'loket', 'datev'] as const;
export type PayrollPackage = (typeof payrollPackages)[number];

/** Minutes of one employee under one hour code. */
export interface PayrollCodeMinutes {
  hour_code: string;
  minutes: number;
}

export interface PayrollEmployee {
  user_id: string;
  name: string;
  /** The user's `payroll_ref`: their number in the package. */
  payroll_ref: string;
  /** By hour code. */
  hours: PayrollCodeMinutes[];
}

export interface PayrollFile {
  /** The period's first and last day (YYYY-MM-DD), both in `month`. */
  start: string;
  end: string;
  /** The payroll month, `2026-11`. */
  month: string;
  /** The employer's numbers in the packages (the payroll settings). */
  nmbrs: { debtor: string; company: string };
  datev: { consultant: string; client: string };
  /** By payroll_ref (numbers by value), then name. */
  employees: PayrollEmployee[];
}

/** Minutes as hours with two decimals and the decimal separator given: 490 → `8,17`. */
export function payrollHours(minutes: number, decimal: ',' | '.'): string {
  const hundredths = Math.round((minutes * 100) / 60);
  const sign = hundredths < 0 ? '-' : '';
  const whole = Math.floor(Math.abs(hundredths) / 100);
  const cents = String(Math.abs(hundredths) % 100).padStart(2, '0');
  return `${sign}${whole}${decimal}${cents}`;
}
