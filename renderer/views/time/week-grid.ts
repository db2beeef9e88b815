/**
 * The week timesheet as data: one row per card and activity (or per activity, for time on no
 * card: a meeting, cleaning), one cell per day of an ISO week, the minutes
 * of each cell with the entries behind them, and the totals per day and per row. And what
 * typing a duration into a cell means for those entries: create one for that day (from 09:00
 * local), adjust the one entry there, delete it (typing 0 or nothing), or — with more than
 * one entry in the cell — let the planner choose in a list. Pure (test/renderer/week-grid.test.ts).
 */
import { addDays } from '../../../shared/dates.js';
import { localDate } from '../../../shared/zoned-time.js';
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

/**
 * Rows in the order their card and activity first appear in the entries, then the added rows.
 * An entry counts on the local day it starts.
 */
export function buildWeekGrid({ monday, entries, addedRows = [], timeZone, now }: WeekGridInput): WeekGrid {
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const rows = new Map<string, WeekRow>();
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
    const day = days.indexOf(localDate(Date.parse(entry.start), timeZone));
    if (day === -1) continue;
    const cell = rowFor({ cardId: entry.card_id, activityId: entry.activity_id }).cells[day]!;
    cell.entries.push(entry);
    cell.minutes += entryMinutes(entry, now);
  }
  for (const subject of addedRows) rowFor(subject);
  const dayTotals = days.map(() => 0);
  for (const row of rows.values()) {
    row.cells.forEach((cell, i) => {
      row.total += cell.minutes;
      dayTotals[i]! += cell.minutes;
    });
  }
  return { days, rows: [...rows.values()], dayTotals, total: dayTotals.reduce((sum, m) => sum + m, 0) };
}

export type CellEdit =
  | { kind: 'unchanged' }
  | { kind: 'invalid'; reason: 'not-a-duration' | 'too-long' }
  | { kind: 'create'; start: string; end: string }
  | { kind: 'update'; id: string; end: string }
  | { kind: 'delete'; id: string }
  /** The one entry there is approved: it cannot change. */
  | { kind: 'locked' }
  /** The one entry there is a running timer: stop it first. */
  | { kind: 'running' }
  /** More than one entry: which one to change is the planner's choice. */
  | { kind: 'choose' };

export const workdayStart = '09:00';

export function planCellEdit(cell: WeekCell, text: string, timeZone: string, now: number): CellEdit {
  const minutes = parseDuration(text);
  if (minutes === null) return { kind: 'invalid', reason: 'not-a-duration' };
  if (minutes > maxDayMinutes) return { kind: 'invalid', reason: 'too-long' };
  const [only, ...others] = cell.entries;
  if (!only) {
    if (minutes === 0) return { kind: 'unchanged' };
    const start = localTimeInstant(cell.date, workdayStart, timeZone);
    return { kind: 'create', start: isoInstant(start), end: isoInstant(start + minutes * 60_000) };
  }
  if (others.length > 0) return minutes === cell.minutes ? { kind: 'unchanged' } : { kind: 'choose' };
  if (minutes === entryMinutes(only, now)) return { kind: 'unchanged' };
  if (only.locked) return { kind: 'locked' };
  if (only.running) return { kind: 'running' };
  if (minutes === 0) return { kind: 'delete', id: only.id };
  return { kind: 'update', id: only.id, end: isoInstant(Date.parse(only.start) + minutes * 60_000) };
}
