/**
 * The days the whole company is off (docs/API.md "Absences and holidays"): company holidays
 * for everyone, whole days. The planboard shades them like the days the board does not work and
 * names them on the date bar, and the printed plan does the same; what a holiday of a group or
 * of part of a day takes shows in the capacity, which counts every resource's days off.
 */
import { addDays } from './dates.js';
import { maxHolidayDays, type CompanyHoliday } from './resources/company-holiday.js';

/** Date → the holiday's name, for every day of a whole-day company holiday for everyone. */
export type HolidayDays = ReadonlyMap<string, string>;

export const noHolidayDays: HolidayDays = new Map();

type Holiday = Pick<CompanyHoliday, 'description' | 'start_date' | 'end_date' | 'time' | 'group_id'>;

/** Date → the names of the whole-day company holidays for everyone on it, each once. */
export function holidayNamesByDay(holidays: readonly Holiday[]): Map<string, string[]> {
  const days = new Map<string, string[]>();
  for (const holiday of holidays) {
    if (holiday.group_id !== null || holiday.time !== null) continue;
    // A holiday lasts at most maxHolidayDays days (the API refuses longer), so this ends.
    for (let day = holiday.start_date, n = 0; day <= holiday.end_date && n < maxHolidayDays; day = addDays(day, 1), n++) {
      const names = days.get(day) ?? [];
      if (!names.includes(holiday.description)) names.push(holiday.description);
      days.set(day, names);
    }
  }
  return days;
}

/** Date → the holiday's name (several joined), for every day of a whole-day company holiday for everyone. */
export function holidayDays(holidays: readonly Holiday[]): HolidayDays {
  return new Map([...holidayNamesByDay(holidays)].map(([day, names]) => [day, names.join(', ')]));
}
