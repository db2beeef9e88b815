/**
 * A calendar date from the API (`YYYY-MM-DD`, no time zone) in the planner's own locale. It is
 * formatted as a UTC date so that no time zone can move it to the day before.
 */
const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

export function CalendarDate({ value }: { value: string | null | undefined }) {
  if (!value) return null;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return <time dateTime={value}>{format.format(date)}</time>;
}
