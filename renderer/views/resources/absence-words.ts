/** How absences read in the planner's words: types, date ranges, and whole or part days. */
import type { ScheduleDeviation } from '../../../shared/resources/resource.js';
import { formatDayRange } from '../../components/dates-format.js';
import type { Translate } from '../../i18n/index.js';
import type { AbsenceType } from './absences-api.js';

/** The types offered when entering an absence, most used first; overtime, which adds time, last. */
export const absenceTypes: readonly AbsenceType[] = [
  'vacation',
  'sick',
  'leave',
  'time_for_time',
  'holiday',
  'maintenance',
  'malfunction',
  'other',
  'overtime',
];

/** Overtime adds its hours to the day; every other type takes them (docs/API.md "Schedules and capacity"). */
export const addsTime = (type: AbsenceType): boolean => type === 'overtime';

export function absenceTypeName(type: AbsenceType, t: Translate): string {
  return t(`absences.type.${type}`);
}

/** Minutes as hours, with at most one decimal in the planner's language: 90 → "1.5". */
export function hoursText(minutes: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(minutes / 60);
}

/** "whole day", "2 h off per day", or for overtime "+2 h per day". */
export function absenceExtent(type: AbsenceType, time: number | null, t: Translate): string {
  if (addsTime(type)) return t('absences.overtimeText', { hours: hoursText(time ?? 0, t.locale) });
  return time === null ? t('absences.wholeDayText') : t('absences.partDayText', { hours: hoursText(time, t.locale) });
}

/** "Vacation 3 Mar – 5 Mar 2027". */
export function absenceName(absence: Pick<ScheduleDeviation, 'type' | 'start_date' | 'end_date'>, t: Translate): string {
  return t('absences.rowName', {
    type: absenceTypeName(absence.type, t),
    dates: formatDayRange(absence.start_date, absence.end_date, t.locale),
  });
}
