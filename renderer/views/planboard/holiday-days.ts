/**
 * The days the whole company is off (docs/API.md "Absences and holidays"): company holidays
 * for everyone, whole days. The planboard shades them like the days the board does not work
 * and names them on the date bar; what a holiday of a group or of part of a day takes shows in
 * the capacity strips, which count every resource's days off.
 */
import { useMemo } from 'react';
import { addDays } from '../../../shared/dates.js';
import { maxLimit } from '../../../shared/list.js';
import { maxHolidayDays, type CompanyHoliday } from '../../../shared/resources/company-holiday.js';
import { useList } from '../../api/hooks.js';

/** Date → the holiday's name, for every day of a whole-day company holiday for everyone. */
export type HolidayDays = ReadonlyMap<string, string>;

export const noHolidayDays: HolidayDays = new Map();

export function holidayDays(
  holidays: readonly Pick<CompanyHoliday, 'description' | 'start_date' | 'end_date' | 'time' | 'group_id'>[],
): HolidayDays {
  const days = new Map<string, string>();
  for (const holiday of holidays) {
    if (holiday.group_id !== null || holiday.time !== null) continue;
    // A holiday lasts at most maxHolidayDays days (the API refuses longer), so this ends.
    for (let day = holiday.start_date, n = 0; day <= holiday.end_date && n < maxHolidayDays; day = addDays(day, 1), n++) {
      const named = days.get(day);
      days.set(day, named && named !== holiday.description ? `${named}, ${holiday.description}` : holiday.description);
    }
  }
  return days;
}

const holidaysQuery = { limit: maxLimit, sort: 'start_date:asc' };

/** The company's days off, read once and again whenever a company holiday changes (its change events). */
export function useHolidayDays(): HolidayDays {
  const data = useList('company_holiday', holidaysQuery).data?.data;
  return useMemo(() => (data ? holidayDays(data) : noHolidayDays), [data]);
}
