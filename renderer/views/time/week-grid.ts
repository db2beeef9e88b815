/**
 * The week timesheet as data: one row per card and activity (or per activity, for time on no
 * card: a meeting, cleaning), one cell per day of an ISO week, the minutes of each cell with
 * the entries behind them, and the totals per day and per row. Entries are cut into days by
 * the function the time reports use (shared/entry-days.ts), in the person's time zone, so a
 * night shift counts on the sheet exactly as it does in every report and the payroll summary.
 *
 * And what typing a duration into a cell means: book that much on that day (new time, laid
 * out beside the person's other time of the day: day-layout.ts), adjust the one entry there,
 * delete it (typing 0 or nothing), or — with more than one entry in the cell, or one that
 * crosses midnight — let the planner choose in a list. A day that would then hold more than
 * a day has is refused; one far over the person's schedule is asked about first (`askAbove`).
 * Pure (test/renderer/week-grid.test.ts).
 */
import { addDays } from '../../../shared/dates.js';
import { dayLimitMinutes, LocalDays, minutesByDay, splitIntoDays } from '../../../shared/entry-days.js';
import { localDate } from '../../../shared/zoned-time.js';
import { placeOnDay, resizeOnDay, type Placement, type Span } from './day-layout.js';
import { maxDayMinutes, minutesBetween, parseDuration } from './duration.js';
import { isoInstant, localTimeInstant } from './periods.js';

/** The fields of a time entry the sheet works with. */
export interface SheetEntry {
  id: string;
  card_id: string | null;
  activity_id: string | null;
  start: string;
  end: string | null;
  duration: number | null;
  locked: boolean;
  running: boolean;
  /** The same user's other entries this one overlaps in time (the API flags them). */
  overlaps?: readonly unknown[] | null;
}

export interface WeekCell {
  date: string;
  minutes: number;
  entries: SheetEntry[];
}

/** What a row books on: a card with an activity (or none), or an activity with no card. */
export interface RowSubject {
  cardId: string | null;
  activityId: string | null;
}

export interface WeekRow extends RowSubject {
  /** The row's identity (rowKey). */
  key: string;
  cells: WeekCell[];
  total: number;
}

export interface WeekGrid {
  /** The seven dates, Monday first. */
  days: string[];
  rows: WeekRow[];
  dayTotals: number[];
  total: number;
  /** Every entry with time on each day, whatever its row: what new time is laid out beside. */
  dayEntries: SheetEntry[][];
}

export interface WeekGridInput {
  /** The Monday of the week. */
  monday: string;
  entries: readonly SheetEntry[];
  /** Rows the planner added to the sheet, shown even without entries this week. */
  addedRows?: readonly RowSubject[];
  timeZone: string;
  /** A running timer counts until now. */
  now: number;
}

/** The minutes an entry counts for: its duration, or until now while it runs. */
export function entryMinutes(entry: SheetEntry, now: number): number {
  if (entry.duration !== null) return entry.duration;
  return entry.running ? Math.max(0, minutesBetween(entry.start, isoInstant(now))) : 0;
}

export function rowKey({ cardId, activityId }: RowSubject): string {
  return `${cardId ?? '-'}|${activityId ?? '-'}`;
}

/** When an entry starts and ends: a running timer until now (as the reports count it). */
export function entrySpan(entry: SheetEntry, now: number): Span {
  const start = Date.parse(entry.start);
  return { start, end: entry.end ? Date.parse(entry.end) : entry.running ? Math.max(now, start) : start };
}

/**
 * Rows in the order their card and activity first appear in the entries, then the added rows.
 * An entry counts on each local day it has time on, with the minutes the reports give that
 * day; one of no length (a timer stopped in the second it started) on the day it starts.
 */
export function buildWeekGrid({ monday, entries, addedRows = [], timeZone, now }: WeekGridInput): WeekGrid {
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const localDays = new LocalDays(timeZone);
  const rows = new Map<string, WeekRow>();
  const dayEntries: SheetEntry[][] = days.map(() => []);
  const rowFor = (subject: RowSubject) => {
    const key = rowKey(subject);
    let row = rows.get(key);
    if (!row) {
      row = {
        key,
        cardId: subject.cardId,
        activityId: subject.activityId,
        cells: days.map((date) => ({ date, minutes: 0, entries: [] })),
        total: 0,
      };
      rows.set(key, row);
    }
    return row;
  };
  const ordered = [...entries].sort((a, b) => a.start.localeCompare(b.start));
  for (const entry of ordered) {
    const book = (date: string, minutes: number) => {
      const day = days.indexOf(date);
      if (day === -1) return;
      const cell = rowFor({ cardId: entry.card_id, activityId: entry.activity_id }).cells[day]!;
      cell.entries.push(entry);
      cell.minutes += minutes;
      dayEntries[day]!.push(entry);
    };
    const { start, end } = entrySpan(entry, now);
    if (end > start) splitIntoDays(start, end, localDays, (day, _from, _to, minutes) => book(day.date, minutes));
    else book(localDate(start, timeZone), 0);
  }
  for (const subject of addedRows) rowFor(subject);
  const dayTotals = days.map(() => 0);
  for (const row of rows.values()) {
    row.cells.forEach((cell, i) => {
      row.total += cell.minutes;
      dayTotals[i]! += cell.minutes;
    });
  }
  return { days, rows: [...rows.values()], dayTotals, total: dayTotals.reduce((sum, m) => sum + m, 0), dayEntries };
}

/**
 * How far over the hours a person is expected to work on a day (their schedule less absences,
 * docs/API.md "Schedules and capacity") the sheet lets a day go before it asks: 4 hours. On
 * the common 8-hour day that is 12 hours, the longest shift the Dutch Working Hours Act
 * (Arbeidstijdenwet) allows, so a real long day is booked without a question, while a slipped
 * digit (22 for 2), or the same day typed in twice, is asked about.
 */
export const farOverMinutes = 4 * 60;
/** Without a schedule to compare with (a person who is no resource): more than 12 hours. */
export const longDayMinutes = 12 * 60;

/** A day total above this is asked about before it is booked. */
export function askAbove(expected: number | null): number {
  return expected === null ? longDayMinutes : expected + farOverMinutes;
}

/** Where new time starts on a day when nothing is in the way. */
export const workdayStart = '09:00';

/** A day the sheet would make far longer than the person's schedule, to ask about first. */
export interface DayQuestion {
  date: string;
  /** What the day would hold, in minutes. */
  total: number;
  /** What the person is expected to work that day; null: no schedule to compare with. */
  expected: number | null;
}

export type CellEdit =
  | { kind: 'unchanged' }
  | { kind: 'invalid'; reason: 'not-a-duration' | 'too-long' }
  | { kind: 'create'; start: string; end: string; ask: DayQuestion | null }
  | { kind: 'update'; id: string; start: string; end: string; ask: DayQuestion | null }
  | { kind: 'delete'; id: string }
  /** `minutes` fit nowhere in one piece on `date`: `free` minutes of it are, `longest` at once. */
  | { kind: 'no-room'; date: string; minutes: number; free: number; longest: number }
  /** `date` would hold `total` minutes, more than its `limit` (shared/entry-days.ts). */
  | { kind: 'over-limit'; date: string; total: number; limit: number }
  /** The entry starts before this week, where the sheet does not see the rest of its day. */
  | { kind: 'other-week' }
  /** The one entry there is approved: it cannot change. */
  | { kind: 'locked' }
  /** The one entry there is a running timer: stop it first. */
  | { kind: 'running' }
  /** More than one entry, or one over midnight: which one to change is the planner's choice. */
  | { kind: 'choose' };

/** What a cell's edit is judged against: the whole sheet and the person's schedule. */
export interface SheetContext {
  grid: WeekGrid;
  timeZone: string;
  now: number;
  /** Minutes the person is expected to work on a date; null when there is no schedule. */
  expected(date: string): number | null;
}

/** Typed into a cell. */
export function planCellEdit(cell: WeekCell, text: string, sheet: SheetContext): CellEdit {
  const minutes = parseDuration(text);
  if (minutes === null) return { kind: 'invalid', reason: 'not-a-duration' };
  if (minutes > maxDayMinutes) return { kind: 'invalid', reason: 'too-long' };
  if (minutes === cell.minutes) return { kind: 'unchanged' };
  const [only, ...others] = cell.entries;
  if (!only) return book(sheet, cell.date, null, minutes);
  const span = entrySpan(only, sheet.now);
  const crosses =
    localDate(span.start, sheet.timeZone) !== cell.date || localDate(Math.max(span.start, span.end - 1), sheet.timeZone) !== cell.date;
  if (others.length > 0 || crosses) return { kind: 'choose' };
  return planEntryChange(only, minutes, sheet);
}

/** An entry's duration typed anew, in its cell or in the list of a cell with several. */
export function planEntryChange(entry: SheetEntry, minutes: number, sheet: SheetContext): CellEdit {
  if (minutes > maxDayMinutes) return { kind: 'invalid', reason: 'too-long' };
  if (minutes === entryMinutes(entry, sheet.now)) return { kind: 'unchanged' };
  if (entry.locked) return { kind: 'locked' };
  if (entry.running) return { kind: 'running' };
  if (minutes === 0) return { kind: 'delete', id: entry.id };
  return book(sheet, localDate(Date.parse(entry.start), sheet.timeZone), entry, minutes);
}

/** `minutes` on `date`, as new time or as `entry`'s new length; then the day totals checked. */
function book(sheet: SheetContext, date: string, entry: SheetEntry | null, minutes: number): CellEdit {
  const { grid, timeZone, now } = sheet;
  const index = grid.days.indexOf(date);
  if (index === -1) return { kind: 'other-week' };
  const localDays = new LocalDays(timeZone);
  const day = localDays.day(date);
  const others = grid.dayEntries[index]!.filter((other) => other.id !== entry?.id).map((other) => takenSpan(other, now, localDays));
  const morning = localTimeInstant(date, workdayStart, timeZone);
  const placed: Placement = entry
    ? resizeOnDay(day, others, entrySpan(entry, now), minutes, morning)
    : placeOnDay(day, others, minutes, morning);
  if (placed.kind === 'no-room') return { kind: 'no-room', date, minutes, free: placed.free, longest: placed.longest };

  // The days this changes, before and after (an entry may reach into the next day).
  const after = new Map(grid.days.map((d, i) => [d, grid.dayTotals[i]!]));
  if (entry) {
    const { start, end } = entrySpan(entry, now);
    for (const [d, m] of minutesByDay(start, end, localDays)) if (after.has(d)) after.set(d, after.get(d)! - m);
  }
  const added = minutesByDay(placed.start, placed.end, localDays);
  for (const [d, m] of added) if (after.has(d)) after.set(d, after.get(d)! + m);
  let ask: DayQuestion | null = null;
  for (const [d, i] of grid.days.map((d, i) => [d, i] as const)) {
    const total = after.get(d)!;
    if (total <= grid.dayTotals[i]!) continue;
    const limit = dayLimitMinutes(localDays.day(d));
    if (total > limit) return { kind: 'over-limit', date: d, total, limit };
    const expected = sheet.expected(d);
    if (!ask && total > askAbove(expected)) ask = { date: d, total, expected };
  }
  const start = isoInstant(placed.start);
  const end = isoInstant(placed.end);
  return entry ? { kind: 'update', id: entry.id, start, end, ask } : { kind: 'create', start, end, ask };
}

/**
 * What an entry keeps others from on its days: its time, and a running timer the rest of
 * today (or of the day it starts, if later), since it may run on.
 */
function takenSpan(entry: SheetEntry, now: number, days: LocalDays): Span {
  const span = entrySpan(entry, now);
  return entry.running ? { start: span.start, end: days.dayOf(span.end).end } : span;
}
