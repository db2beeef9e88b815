/** An API timestamp (ISO 8601 UTC) shown in the planner's own locale and time zone. */
const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function Timestamp({ value }: { value: string }) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return (
    <time dateTime={value} title={date.toISOString()}>
      {format.format(date)}
    </time>
  );
}
