/**
 * Wall-clock time in the report's time zone, fast enough for 200,000 lines.
 *
 * `Intl.DateTimeFormat` answers "what does the clock in Europe/Amsterdam show at this instant",
 * but at a few microseconds a call it would cost more than the whole CSV budget. A zone's
 * offset only changes at a transition, so it is asked once per UTC hour and remembered; an
 * hour whose two ends disagree (the hour of a DST change) is answered exactly, instant by
 * instant. Wall times are carried as "local milliseconds": the epoch milliseconds of the same
 * clock reading in UTC, so `getUTC…` on them reads the local clock (and exceljs, which turns a
 * Date into an Excel serial through its UTC value, writes the local clock into the cell).
 */

const hourMs = 3_600_000;

export class ZoneClock {
  readonly timeZone: string;
  readonly #parts: Intl.DateTimeFormat;
  readonly #hourOffsets = new Map<number, number | null>();

  /** Throws a RangeError for a time zone that is not an IANA name the runtime knows. */
  constructor(timeZone: string) {
    this.timeZone = timeZone;
    this.#parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  /** The local milliseconds of an ISO 8601 instant (`2026-11-02T08:30:00Z`). */
  local(iso: string): number {
    const utc = Date.parse(iso);
    if (Number.isNaN(utc)) throw new RangeError(`not an ISO 8601 instant: ${JSON.stringify(iso)}`);
    return utc + this.offsetAt(utc);
  }

  /** The zone's offset from UTC in milliseconds at a UTC instant. */
  offsetAt(utc: number): number {
    const hour = Math.floor(utc / hourMs);
    let offset = this.#hourOffsets.get(hour);
    if (offset === undefined) {
      const first = this.#exactOffset(hour * hourMs);
      offset = first === this.#exactOffset(hour * hourMs + hourMs - 1) ? first : null;
      this.#hourOffsets.set(hour, offset);
    }
    return offset ?? this.#exactOffset(utc);
  }

  #exactOffset(utc: number): number {
    const at = Math.floor(utc / 1000) * 1000;
    const field: Record<string, number> = {};
    for (const part of this.#parts.formatToParts(at)) field[part.type] = Number(part.value);
    const wall = Date.UTC(field.year!, field.month! - 1, field.day!, field.hour!, field.minute!, field.second!);
    return wall - at;
  }
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/** `YYYY-MM-DD` of local milliseconds. */
export function formatLocalDate(local: number): string {
  const d = new Date(local);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

/** `HH:MM` of local milliseconds. */
export function formatLocalTime(local: number): string {
  const d = new Date(local);
  return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

/** `YYYY-MM-DD HH:MM` of local milliseconds. */
export function formatLocalDateTime(local: number): string {
  return `${formatLocalDate(local)} ${formatLocalTime(local)}`;
}

/** Local milliseconds of a `YYYY-MM-DD` date's midnight. */
export function localDate(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}
