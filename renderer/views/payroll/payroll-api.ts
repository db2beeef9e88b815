/**
 * The payroll summary as the API computes it (`GET /v1/time_tracking/payroll`, docs/API.md
 * "Payroll summary"): the JSON the screen shows, and the same summary as a file. The screen
 * asks for hours and minutes, as the week sheet writes time; the files come in that format too.
 */
import { useQuery } from '@tanstack/react-query';
import { sendRequest } from '../../api/client.js';
import { payrollKey } from '../../api/hooks.js';
import { useApi } from '../../api/provider.js';
import type { PayrollBucketKind, PayrollSummary } from '../../../shared/payroll-summary.js';
import type { ExportFormat } from '../../../shared/ipc.js';
import type { DurationFormat } from '../../../shared/time-report.js';
import type { DateRange } from '../time/periods.js';

export const payrollDurations: DurationFormat = 'hh:mm';

export interface PayrollChoices {
  range: DateRange;
  timeZone: string;
  per: PayrollBucketKind;
}

export function payrollQuery(choices: PayrollChoices, format: ExportFormat | 'json'): Record<string, string> {
  return {
    start: choices.range.start,
    end: choices.range.end,
    timezone: choices.timeZone,
    per: choices.per,
    duration_format: payrollDurations,
    format,
  };
}

/** The name a saved summary gets when the API names none. */
export function payrollFileName(range: DateRange, format: ExportFormat): string {
  return `payroll-summary-${range.start}-${range.end}.${format}`;
}

export function usePayrollSummary(choices: PayrollChoices) {
  const { transport } = useApi();
  const query = payrollQuery(choices, 'json');
  return useQuery({
    queryKey: [...payrollKey, query],
    queryFn: async () => (await sendRequest(transport, { method: 'GET', path: '/v1/time_tracking/payroll', query })).body as PayrollSummary,
  });
}
