/**
 * A calendar date from the API (`YYYY-MM-DD`, no time zone) in the planner's language. It is
 * formatted as a UTC date so that no time zone can move it to the day before.
 */
import { parseDate } from '../../shared/dates.js';
import { useT } from '../i18n/index.js';
import { formatDay } from './dates-format.js';

export function CalendarDate({ value }: { value: string | null | undefined }) {
  const t = useT();
  if (!value) return null;
  if (Number.isNaN(parseDate(value))) return <span>{value}</span>;
  return <time dateTime={value}>{formatDay(value, t.locale, { dateStyle: 'medium' })}</time>;
}
