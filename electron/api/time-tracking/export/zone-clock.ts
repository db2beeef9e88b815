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
const instantEnd = /T\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d(?::?\d\d)?)$/i;

export class ZoneClock {
  readonly timeZone: string;
  readonly #parts: Intl.DateTimeFormat;
  readonly #hourOffsets = new Map<number, number | null>();
  /** The UTC hour `local` last read (`2026-11-02T08`), and the local milliseconds it begins at. */
  #lastHour: { prefix: string; local: number } | null = null;

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

  /**
   * The local milliseconds of an ISO 8601 instant (`2026-11-02T08:30:00Z`). An instant must
   * say its offset: `Date.parse` would read `2026-11-02T08:30:00` on the server's clock.
   */
  local(iso: string): number {
    // Lines come in runs of the same hour: `2026-11-02T08:30:00Z` is read as the hour of
    // `2026-11-02T08` (parsed once) plus its minutes and seconds, when it has exactly that form.
    const hour = this.#lastHour;
    if (
      hour !== null &&
      iso.length === 20 &&
      iso.startsWith(hour.prefix) &&
      iso.charCodeAt(13) === 0x3a &&
      iso.charCodeAt(16) === 0x3a &&
      iso.charCodeAt(19) === 0x5a
    ) {
      const minute = twoDigitsAt(iso, 14);
      const second = twoDigitsAt(iso, 17);
      if (minute < 60 && second < 60) return hour.local + minute * 60_000 + second * 1000;
    }
    const utc = Date.parse(iso);
    if (Number.isNaN(utc) || !instantEnd.test(iso)) throw new RangeError(`not an ISO 8601 instant with an offset: ${JSON.stringify(iso)}`);
    const offset = this.offsetAt(utc);
    // Remembered only for an hour of one offset (not the hour of a DST change).
    if (
      iso.length === 20 &&
      iso.charCodeAt(10) === 0x54 &&
      iso.charCodeAt(13) === 0x3a &&
      iso.charCodeAt(16) === 0x3a &&
      iso.charCodeAt(19) === 0x5a &&
      this.#hourOffsets.get(Math.floor(utc / hourMs)) !== null
    ) {
      const minute = twoDigitsAt(iso, 14);
      const second = twoDigitsAt(iso, 17);
      if (minute < 60 && second < 60) this.#lastHour = { prefix: iso.slice(0, 13), local: utc + offset - minute * 60_000 - second * 1000 };
    }
    return utc + offset;
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

/** The two digits at `at` as a number; 99 when they are not two digits. */
export function twoDigitsAt(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 48;
  const ones = text.charCodeAt(at + 1) - 48;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : 99;
}

const dayMs = 86_400_000;
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const clockTexts = Array.from({ length: 1440 }, (_, m) => `${pad2(Math.floor(m / 60))}:${pad2(m % 60)}`);
// Formatting runs twice per line for 200,000 lines: days are few, so their text is kept.
const dayTexts = new Map<number, string>();

/** `YYYY-MM-DD` of local milliseconds. */
export function formatLocalDate(local: number): string {
  const day = Math.floor(local / dayMs);
  let text = dayTexts.get(day);
  if (text === undefined) {
    text = new Date(day * dayMs).toISOString().slice(0, 10);
    if (dayTexts.size >= 50_000) dayTexts.clear();
    dayTexts.set(day, text);
  }
  return text;
}

/** `HH:MM` of local milliseconds (seconds are dropped). */
export function formatLocalTime(local: number): string {
  return clockTexts[Math.floor((local - Math.floor(local / dayMs) * dayMs) / 60_000)]!;
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
