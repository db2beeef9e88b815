/**
 * What the floor reported on a card, as the planner's card panel shows it (docs/API.md "The
 * floor"): hours booked against hours planned, who has a timer running on it, and pieces made
 * and scrapped against ordered for the order rows that are the card's work. The same figures
 * as the floor's own job list (`planned_minutes`, `booked_minutes`, `order_rows`), computed
 * from what the panel reads already. Pure (test/renderer/card-floor-figures.test.ts).
 */
import { isRowOfActivities } from '../../../shared/operations/floor.js';
import type { OrderRow } from '../../../shared/resources/order-row.js';
import type { TimeTracking } from '../../../shared/resources/time-tracking.js';

/** A time entry with who made it (`with=user`; null for an entry made with an API key). */
export type EntryWithUser = TimeTracking & { user?: { display_name: string | null; fullname: string | null; email: string } | null };

/** The card's planned minutes: the sum of its activities' `time`, as the panel's "Planned" and the floor count them. */
export function plannedMinutes(activities: readonly { time: number }[]): number {
  return activities.reduce((sum, activity) => sum + activity.time, 0);
}

export function isRunning(entry: Pick<TimeTracking, 'running' | 'end'>): boolean {
  return entry.running || entry.end === null;
}

/**
 * Minutes booked on the card: each finished entry's `duration`, and a running one's minutes
 * from its start until `now` (rounded, as the API rounds a duration), never below zero.
 */
export function bookedMinutes(entries: readonly Pick<TimeTracking, 'start' | 'end' | 'duration' | 'running'>[], now: number): number {
  return entries.reduce((sum, entry) => {
    const until = isRunning(entry) ? now : Date.parse(entry.end ?? '');
    const minutes = !isRunning(entry) && entry.duration !== null ? entry.duration : Math.round((until - Date.parse(entry.start)) / 60_000);
    return sum + (Number.isFinite(minutes) ? Math.max(0, minutes) : 0);
  }, 0);
}

/** Booked as a share of planned, in whole percent; booked time on nothing planned is over plan. */
export function bookedShare(booked: number, planned: number): { percent: number; over: boolean } {
  if (planned <= 0) return { percent: booked > 0 ? 100 : 0, over: booked > 0 };
  const percent = Math.round((booked / planned) * 100);
  return { percent, over: booked > planned };
}

/** The timer running on the card, the latest started should there be more than one. */
export function runningEntry<E extends Pick<TimeTracking, 'start' | 'end' | 'running'>>(entries: readonly E[]): E | undefined {
  return entries.filter(isRunning).sort((a, b) => Date.parse(b.start) - Date.parse(a.start))[0];
}

/** The name of whoever made an entry; null when no user made it. */
export function entryUserName(entry: EntryWithUser): string | null {
  const user = entry.user;
  return user ? user.display_name || user.fullname || user.email : null;
}

export interface RowFigures {
  row: OrderRow;
  made: number;
  /** Null when the row names no quantity. */
  ordered: number | null;
  scrapped: number;
}

/**
 * Made against ordered for the rows of the card's order that are its work: the floor's rule
 * (`isRowOfActivities`, on the card's own activities, else its stage's), in the order's order.
 */
export function rowFigures(rows: readonly OrderRow[], activityIds: readonly string[]): RowFigures[] {
  return rows
    .filter((row) => isRowOfActivities(row, activityIds))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map((row) => ({ row, made: row.quantity_delivered ?? 0, ordered: row.quantity, scrapped: row.quantity_scrapped ?? 0 }));
}

/** Minutes as hours with at most one decimal, in the planner's language: 330 → "5.5" ("5,5"). */
export function hoursText(minutes: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(minutes / 60);
}
