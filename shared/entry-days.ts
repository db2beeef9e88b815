/**
 * Which local day each minute of a time entry belongs to. This is the one place that decides
 * it: the week sheet's cells and day totals, every time report (JSON, CSV, XLSX, PDF), the
 * payroll summary and the API's "at most a day's hours per user" rule all cut entries here,
 * so they add a day up the same way (docs/API.md "Time tracking", "Time reports").
 *
 *  - An entry is cut at local midnight in one time zone: a piece per day it touches.
 *  - The entry's minutes are rounded once and shared out over its pieces by the largest
 *    remainders, so the pieces of an entry add up to the entry, to the minute — also on a
 *    23- or 25-hour day.
 */
import { addDays, formatDate, parseDate } from './dates.js';
import { isoWeek, startOfLocalDate } from './zoned-time.js';

const dayMs = 86_400_000;
const minuteMs = 60_000;

/** One local day of a time zone: when it begins and ends, and its ISO week. */
export interface LocalDay {
  date: string;
  /** Days since 1970-01-01. */
  ordinal: number;
  week: string;
  start: number;
  /** The instant the next day begins. */
  end: number;
}

/**
 * The local days of one time zone, each worked out once. Time-zone arithmetic is slow (Intl); a
 * report of many entries covers few days, and its entries come in order of start, so the day
 * of an instant is nearly always the day asked for last.
 */
export class LocalDays {
  private readonly starts = new Map<string, number>();
  private readonly days = new Map<string, LocalDay>();
  private last: LocalDay | undefined;

  constructor(readonly timeZone: string) {}

  private start(date: string): number {
    let start = this.starts.get(date);
    if (start === undefined) {
      start = startOfLocalDate(date, this.timeZone);
      this.starts.set(date, start);
    }
    return start;
  }

  day(date: string): LocalDay {
    let day = this.days.get(date);
    if (day === undefined) {
      day = { date, ordinal: parseDate(date) / dayMs, week: isoWeek(date), start: this.start(date), end: this.start(addDays(date, 1)) };
      this.days.set(date, day);
    }
    return day;
  }

  next(day: LocalDay): LocalDay {
    return this.day(addDays(day.date, 1));
  }

  /** The local day of an instant: within a day of its UTC date. */
  dayOf(instant: number): LocalDay {
    const last = this.last;
    if (last && last.start <= instant && instant < last.end) return last;
    let day = this.day(formatDate(instant));
    while (day.start > instant) day = this.day(addDays(day.date, -1));
    while (day.end <= instant) day = this.next(day);
    this.last = day;
    return day;
  }
}

/** Splits whole minutes over pieces in proportion to their exact lengths (largest remainders). */
export function shareMinutes(exact: readonly number[]): number[] {
  const total = Math.round(exact.reduce((s, x) => s + x, 0));
  const floors = exact.map(Math.floor);
  let left = total - floors.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  return floors;
}

/** What a piece of an entry is told: its day, where it begins and ends, and its minutes. */
export type DayPieceVisit = (day: LocalDay, start: number, end: number, minutes: number) => void;

/** The most days one entry is cut into (a report's period is at most 366 days). */
const maxPieces = 400;

/**
 * Cuts the time from `from` to `to` (epoch milliseconds) at local midnight and tells `visit`
 * each piece in order, with its share of the rounded minutes. Nothing for an empty span.
 */
export function splitIntoDays(from: number, to: number, days: LocalDays, visit: DayPieceVisit): void {
  if (!(to > from)) return;
  const first = days.dayOf(from);
  // Most entries lie within a day: one piece of all their (rounded) minutes.
  if (to <= first.end) {
    visit(first, from, to, Math.round((to - from) / minuteMs));
    return;
  }
  const pieces: { day: LocalDay; start: number; end: number }[] = [];
  for (let day = first, i = 0; i < maxPieces; day = days.next(day), i++) {
    const start = Math.max(from, day.start);
    const end = Math.min(to, day.end);
    if (end > start) pieces.push({ day, start, end });
    if (end >= to) break;
  }
  const minutes = shareMinutes(pieces.map((p) => (p.end - p.start) / minuteMs));
  pieces.forEach((piece, i) => visit(piece.day, piece.start, piece.end, minutes[i]!));
}

/** The minutes of `from`…`to` on each local date it touches. */
export function minutesByDay(from: number, to: number, days: LocalDays): Map<string, number> {
  const byDay = new Map<string, number>();
  splitIntoDays(from, to, days, (day, _start, _end, minutes) => byDay.set(day.date, (byDay.get(day.date) ?? 0) + minutes));
  return byDay;
}

/**
 * The most one person books on a local day, in minutes: 24 hours, or the day's own length
 * when it is longer (25 hours on the night summer time ends). A day of 23 hours still holds
 * 24: overlapping entries are allowed, and refusing them would refuse what the public API takes.
 */
export function dayLimitMinutes(day: LocalDay): number {
  return Math.max(24 * 60, Math.round((day.end - day.start) / minuteMs));
}
