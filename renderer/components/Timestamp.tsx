/** An API timestamp (ISO 8601 UTC) shown in the planner's language and own time zone. */
import { useT } from '../i18n/index.js';
import { formatDateTime } from './dates-format.js';

export function Timestamp({ value }: { value: string }) {
  const t = useT();
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return (
    <time dateTime={value} title={date.toISOString()}>
      {formatDateTime(value, t.locale)}
    </time>
  );
}
