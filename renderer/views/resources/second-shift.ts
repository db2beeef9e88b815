/**
 * A resource's second shift in the resource form (docs/decisions/shifts.md): hours per weekday
 * as typed, all blank for none. Kept beside resource-draft.ts so the form's other fields and
 * the shift change apart.
 */
import { numberOrNull, numberText } from '../../components/form-values.js';
import { weekdays, type WeekdayKey } from '../../components/weekdays.js';
import type { Resource } from '../../../shared/resources/resource.js';

export type ShiftHours = Record<WeekdayKey, string>;

/** The second shift as the form shows it: blank on every day without one. */
export function shiftHoursFrom(shift: Resource['second_shift'] | undefined): ShiftHours {
  // A resource read from an older server has no second_shift: one shift.
  const byKey = shift ?? {};
  const hoursOf = (key: WeekdayKey) => {
    const hours = byKey[key];
    return typeof hours === 'number' ? hours : null;
  };
  // fromEntries over every weekday gives each key a text: a whole ShiftHours.
  return Object.fromEntries(weekdays.map(({ key }) => [key, numberText(hoursOf(key))])) as ShiftHours;
}

/** What the form saves: null when no day has hours typed, else the hours of every day. */
export function secondShiftBody(hours: ShiftHours): Record<string, number | null> | null {
  const byDay = Object.fromEntries(weekdays.map(({ key }) => [key, numberOrNull(hours[key])]));
  return Object.values(byDay).some((value) => value !== null) ? byDay : null;
}
