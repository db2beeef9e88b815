/**
 * The company's days off on the planboard (shared/holiday-days.ts says which days they are).
 */
import { useMemo } from 'react';
import { maxLimit } from '../../../shared/list.js';
import { holidayDays, noHolidayDays, type HolidayDays } from '../../../shared/holiday-days.js';
import { useList } from '../../api/hooks.js';

const holidaysQuery = { limit: maxLimit, sort: 'start_date:asc' };

/** The company's days off, read once and again whenever a company holiday changes (its change events). */
export function useHolidayDays(): HolidayDays {
  const data = useList('company_holiday', holidaysQuery).data?.data;
  return useMemo(() => (data ? holidayDays(data) : noHolidayDays), [data]);
}
