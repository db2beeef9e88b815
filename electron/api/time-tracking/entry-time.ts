/**
 * When a time entry's time may be booked, and what is flagged about it (docs/API.md "Time
 * tracking"; issue 17, "Nothing booked by mistake"). The same for API calls, timers and a
 * replica's pushed changes, since all of them go through the module's `check`:
 *
 *  - an entry ends after it starts and lasts at most 24 hours. `overnight: true` says an end
 *    sent at or before the start is on the next day: the end moves one day (24 hours) later.
 *    Without it an end at or before the start is refused, never read as "overnight";
 *  - one user books at most 24 hours on a day (25 on the night summer time ends), the days cut
 *    at midnight in the user's time zone as the reports cut them: the user's finished entries
 *    that day with this one added (a running timer counts once it is stopped, and is checked then);
 *  - entries of one user that overlap in time are not refused (a planner may have booked two
 *    cards at once on purpose) but flagged: `overlaps` lists the other entries;
 *  - a running timer is `forgotten` once it has run longer than its user's
 *    `forgotten_timer_hours` (10 unless they set another number).
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { isTimeZone } from '../../../shared/fields.js';
import { nowTimestamp } from '../../../shared/ids.js';
import { dayLimitMinutes, LocalDays, minutesByDay, splitIntoDays, type LocalDay } from '../../../shared/entry-days.js';
import type { FilterNode } from '../../../shared/filter.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { ListQuery } from '../../store/record-sql.js';
import { tables } from '../tables.js';
import type { RequestContext } from '../resource.js';
import { nowMs } from '../../../shared/clock.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';

const entries = tables.time_tracking;
const users = tables.user;

const minuteMs = 60_000;
const hourMs = 3_600_000;
/** The longest entry (the most one user books on a day: shared/entry-days.ts `dayLimitMinutes`). */
export const maxEntryMinutes = 24 * 60;
export const defaultForgottenTimerHours = 10;

export const endAfterStartMessage = 'end must be after start (for an entry that ends the next day, send overnight: true)';
export const tooLongMessage = `a time entry lasts at most ${maxEntryMinutes / 60} hours`;

/** `overnight: true`: an end at or before the start is on the next day. */
export function overnightEnd(start: string, end: string): string {
  if (Date.parse(end) > Date.parse(start)) return end;
  return nowTimestamp(new Date(Date.parse(end) + 24 * hourMs));
}

/** The end of an entry of `minutes` from `start`, as the API writes instants. */
export function endAfter(start: string, minutes: number): string {
  return nowTimestamp(new Date(Date.parse(start) + minutes * minuteMs));
}

/** End after start, and at most 24 hours. */
export function spanProblems(start: string, end: string, field = 'end'): FieldProblem[] {
  const ms = Date.parse(end) - Date.parse(start);
  if (ms <= 0) return [{ field, description: endAfterStartMessage, rule: 'endAfterStart' }];
  if (ms > maxEntryMinutes * minuteMs) return [{ field, description: tooLongMessage, rule: 'tooLong', limit: maxEntryMinutes }];
  return [];
}

const atom = (field: string, operator: 'lt' | 'gt' | 'eq', value: string | null): FilterNode => ({
  kind: 'atom',
  field,
  operator,
  not: false,
  value,
});

/** A user's entries (id, start, end) that overlap `from`…`to`, running timers included. */
async function entriesOfUserBetween(records: RecordReads, userId: string, from: number, to: number, visit: EntryVisit): Promise<void> {
  for (const read of userEntryReads(userId, from, to, visit)) await records.eachValues(entries, read.query, entryTimeFields, read.visit);
}

type EntryVisit = (id: string, start: number, end: number | null) => void;
const entryTimeFields = ['id', 'start', 'end'] as const;

/**
 * The two queries for a user's entries that overlap `from`…`to`, each on an index: finished
 * entries last at most a day, so only those that start within a day before `from` can reach
 * it, a narrow range of (user_id, start); running timers may have started any time before and
 * are read on (user_id, running). Entries of earlier versions longer than a day are not looked
 * for. Each comes with what to do with a row of `entryTimeFields`.
 */
function userEntryReads(
  userId: string,
  from: number,
  to: number,
  visit: EntryVisit,
): { query: ListQuery; visit: (values: unknown[]) => void }[] {
  const iso = (ms: number) => nowTimestamp(new Date(ms));
  const read = (query: Pick<ListQuery, 'match' | 'range' | 'filter'>, keep: (start: number) => boolean = () => true) => ({
    query: { ...query, limit: 100_000, offset: 0 },
    visit: (values: unknown[]) => {
      // The three columns of entryTimeFields, in that order, as the entry stores them.
      const [id, start, end] = values as [string, string, string | null];
      const began = Date.parse(start);
      if (keep(began)) visit(id, began, end ? Date.parse(end) : null);
    },
  });
  return [
    read({
      match: { user_id: userId },
      range: { field: 'start', after: iso(from - 24 * hourMs - minuteMs), before: iso(to) },
      filter: atom('end', 'gt', iso(from)),
    }),
    read({ match: { user_id: userId, running: true } }, (start) => start < to),
  ];
}

/** The time zone a user's days are cut in: theirs, or UTC for no user or none set. */
export function userTimeZone(user: StoredRecord | undefined): string {
  const zone = user?.timezone;
  return typeof zone === 'string' && isTimeZone(zone) ? zone : 'UTC';
}

function hours(minutes: number): string {
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * More than a day holds on one local day of the user's (their other finished entries that day,
 * and this one), for each day this entry touches. Every entry is cut into days as the reports
 * and the week sheet cut it (shared/entry-days.ts), so the API refuses exactly the day they
 * would show over the limit: 24 hours, 25 on the night summer time ends.
 */
export async function dayLimitProblems(
  tx: RecordWrites,
  entry: { id?: string; userId: string; start: string; end: string },
  field = 'end',
): Promise<FieldProblem[]> {
  const user = await tx.get(users, entry.userId);
  const zone = userTimeZone(user);
  const days = new LocalDays(zone);
  const touched: LocalDay[] = [];
  splitIntoDays(Date.parse(entry.start), Date.parse(entry.end), days, (day) => touched.push(day));
  const problems: FieldProblem[] = [];
  for (const day of touched) {
    let minutes = minutesByDay(Date.parse(entry.start), Date.parse(entry.end), days).get(day.date) ?? 0;
    await entriesOfUserBetween(tx, entry.userId, day.start, day.end, (id, start, end) => {
      // A running timer's time is not booked yet: it counts once it stops (and is checked then).
      if (id === entry.id || end === null) return;
      minutes += minutesByDay(start, end, days).get(day.date) ?? 0;
    });
    const limit = dayLimitMinutes(day);
    if (minutes > limit) {
      problems.push({
        field,
        description: `with this entry its user would have ${hours(minutes)} hours on ${day.date} (${zone}); a day holds at most ${limit / 60} hours`,
        rule: 'dayLimit',
        limit,
        date: day.date,
        minutes,
      });
      break;
    }
  }
  return problems;
}

/**
 * When a running timer that started at `start` (ms) counts as forgotten: once it has run longer
 * than its user's `forgotten_timer_hours` (10 for an entry of no user, or one who set none).
 */
export function forgottenFrom(start: number, user: { forgotten_timer_hours?: unknown } | undefined): number {
  const limit = Number(user?.forgotten_timer_hours ?? defaultForgottenTimerHours) || defaultForgottenTimerHours;
  return start + limit * hourMs;
}

/**
 * Fills `overlaps` (ids of the same user's other entries that overlap it; a running timer
 * runs until now) and `forgotten` on a page of entries.
 */
export async function flagEntries(ctx: RequestContext, records: Record<string, unknown>[]): Promise<void> {
  const now = nowMs();
  const userIds = [...new Set(records.map((r) => r.user_id).filter((id): id is string => typeof id === 'string'))];
  const people = new Map((await ctx.records.getWhereIn(users, 'id', userIds)).map((u) => [u.id, u]));
  for (const record of records) {
    const start = typeof record.start === 'string' ? Date.parse(record.start) : NaN;
    const end = typeof record.end === 'string' ? Date.parse(record.end) : record.end === null ? now : NaN;
    const userId = record.user_id;
    const overlaps: string[] = [];
    if (typeof userId === 'string' && end > start) {
      await entriesOfUserBetween(ctx.records, userId, start, end, (id, otherStart, otherEnd) => {
        if (id !== record.id && otherStart < end && (otherEnd ?? now) > start && (otherEnd ?? now) > otherStart) overlaps.push(id);
      });
    }
    record.overlaps = overlaps.sort();
    // A null user id finds no one in the map.
    record.forgotten = record.end === null && Number.isFinite(start) && now > forgottenFrom(start, people.get(userId as string));
  }
}

/**
 * Which of a report's entries overlap another of the same user's, in one pass over entries
 * sorted by start (`all` must be): each entry is compared only with the earlier ones of its
 * user still running at its start, which are few (none while a user's entries follow each
 * other), and the list of those is pruned in place rather than copied for every entry.
 */
export function overlappingIds<Entry extends { id: string; userId: string | null; start: number; end: number }>(
  all: Iterable<Entry>,
): Set<string> {
  const flagged = new Set<string>();
  // Each user's entries that are still open at the current start; the entries themselves, so
  // that 100,000 entries of a report make no second object each.
  const open = new Map<string, Entry[]>();
  for (const entry of all) {
    if (entry.userId === null || entry.end <= entry.start) continue;
    let running = open.get(entry.userId);
    if (!running) open.set(entry.userId, (running = []));
    let kept = 0;
    for (const other of running) {
      if (other.end <= entry.start) continue;
      flagged.add(other.id);
      flagged.add(entry.id);
      running[kept++] = other;
    }
    running.length = kept;
    running.push(entry);
  }
  return flagged;
}
