/**
 * Computing a time report (shared/time-report.ts) from the entries that overlap a period.
 *
 *  - The period runs from the start of its first day to the end of its last day in the
 *    report's time zone; entries are clipped to it (a running timer counts until now).
 *  - Each entry is split at local midnight into one line per day. Line minutes are the
 *    entry's clipped minutes, rounded once and shared out over its days by the largest
 *    remainders, so the lines of an entry always add up to the entry, to the minute.
 *  - Groups nest in `group_by` order; each has its minutes; the grand total is their sum.
 */
import { addDays, daysBetween, formatDate } from '../../../shared/dates.js';
import type { FilterNode } from '../../../shared/filter.js';
import { type DurationFormat, type ReportGroup, type ReportGrouping, type ReportLine, type TimeReport } from '../../../shared/time-report.js';
import { endOfLocalDate, isoWeek, startOfLocalDate } from '../../../shared/zoned-time.js';
import { nowTimestamp } from '../../../shared/ids.js';
import type { StoredRecord } from '../../store/environment-store.js';
import { ApiError } from '../errors.js';
import { relationJoins } from '../records.js';
import type { RequestContext } from '../resource.js';
import { activityModule } from '../resources/activity.js';
import { boardModule } from '../resources/board.js';
import { cardModule } from '../resources/card.js';
import { collectionModule } from '../resources/collection.js';
import { timeTrackingModule } from '../resources/time-tracking.js';
import { userModule } from '../resources/user.js';

/**
 * The most lines a report may have (an entry over several days is a line per day); above it
 * the API answers 422 before any file is written.
 */
export const maxReportLines = 200_000;
export const maxReportDays = 366;

export interface ReportRequest {
  start: string;
  end: string;
  timezone: string;
  groupBy: ReportGrouping[];
  durationFormat: DurationFormat;
  filter?: FilterNode;
  filters: Record<string, string>;
  title: string;
}

/**
 * The local days of one report, each worked out once: when it begins and ends, and its ISO
 * week. Time-zone arithmetic is slow (Intl); a report of many lines covers few days.
 */
class LocalDays {
  private readonly starts = new Map<string, number>();
  private readonly following = new Map<string, string>();
  private readonly weeks = new Map<string, string>();

  constructor(private readonly timezone: string) {}

  start(date: string): number {
    let start = this.starts.get(date);
    if (start === undefined) {
      start = startOfLocalDate(date, this.timezone);
      this.starts.set(date, start);
    }
    return start;
  }

  next(date: string): string {
    let next = this.following.get(date);
    if (next === undefined) {
      next = addDays(date, 1);
      this.following.set(date, next);
    }
    return next;
  }

  /** The instant the day after `date` begins. */
  end(date: string): number {
    return this.start(this.next(date));
  }

  week(date: string): string {
    let week = this.weeks.get(date);
    if (week === undefined) {
      week = isoWeek(date);
      this.weeks.set(date, week);
    }
    return week;
  }

  /** The local date of an instant: within a day of its UTC date. */
  dateOf(instant: number): string {
    let date = formatDate(instant);
    while (this.start(date) > instant) date = addDays(date, -1);
    while (this.end(date) <= instant) date = this.next(date);
    return date;
  }
}

function byId(records: StoredRecord[]): Map<string, StoredRecord> {
  return new Map(records.map((r) => [r.id, r]));
}

/** Splits `total` whole minutes over pieces in proportion to their exact lengths. */
function shareMinutes(exact: number[]): number[] {
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

const labelOf: Record<ReportGrouping, (line: ReportLine) => [string | null, string]> = {
  days: (l) => [l.date, l.date],
  weeks: (l) => [l.week, l.week],
  activities: (l) => [l.activity_id, l.activity || 'No activity'],
  collections: (l) => [l.collection_id, l.collection || 'No collection'],
  boards: (l) => [l.board_id, l.board || 'No board'],
  statuses: (l) => [l.status, l.status],
  users: (l) => [l.user_id, l.user || 'No user'],
};

function group(lines: ReportLine[], indexes: number[], levels: ReportGrouping[]): ReportGroup[] {
  const [level, ...rest] = levels;
  if (!level) return [];
  const groups = new Map<string, ReportGroup & { members: number[] }>();
  for (const index of indexes) {
    const [key, label] = labelOf[level](lines[index]!);
    const id = key ?? '';
    let g = groups.get(id);
    if (!g) {
      g = { grouping: level, key, label, minutes: 0, members: [] };
      groups.set(id, g);
    }
    g.minutes += lines[index]!.minutes;
    g.members.push(index);
  }
  const chronological = level === 'days' || level === 'weeks';
  return [...groups.values()]
    .sort((a, b) => (chronological ? (a.key ?? '').localeCompare(b.key ?? '') : a.label.localeCompare(b.label)))
    .map(({ members, ...g }) => (rest.length > 0 ? { ...g, groups: group(lines, members, rest) } : { ...g, lines: members }));
}

export function buildReport(ctx: RequestContext, request: ReportRequest): TimeReport {
  const { timezone } = request;
  const periodStart = startOfLocalDate(request.start, timezone);
  const periodEnd = endOfLocalDate(request.end, timezone);
  const now = Date.now();
  const overlap: FilterNode = {
    kind: 'and',
    items: [
      { kind: 'atom', field: 'start', operator: 'lt', not: false, value: new Date(periodEnd).toISOString() },
      {
        kind: 'or',
        items: [
          { kind: 'atom', field: 'end', operator: 'gt', not: false, value: new Date(periodStart).toISOString() },
          { kind: 'atom', field: 'end', operator: 'eq', not: false, value: null },
        ],
      },
      ...(request.filter ? [request.filter] : []),
    ],
  };
  const { store } = ctx;
  const relations = relationJoins(timeTrackingModule);
  const matched = store.list(timeTrackingModule.table, { filter: overlap, relations, sort: [{ field: 'start', direction: 'asc' }], limit: 0, offset: 0 });
  // Every matched entry makes at least one line: refuse before reading them all.
  if (matched.count > maxReportLines) tooLarge(matched.count);
  const entries = store.list(timeTrackingModule.table, { filter: overlap, relations, sort: [{ field: 'start', direction: 'asc' }], limit: maxReportLines, offset: 0 }).rows;

  // Each entry clipped to the period, and how many local days (lines) it covers: the limit is
  // checked before a single line is made.
  const days = new LocalDays(timezone);
  const spans: { entry: StoredRecord; from: number; to: number; first: string }[] = [];
  let lineCount = 0;
  for (const entry of entries) {
    const from = Math.max(Date.parse(entry.start as string), periodStart);
    const to = Math.min(entry.end ? Date.parse(entry.end as string) : now, periodEnd);
    if (to <= from) continue;
    const first = days.dateOf(from);
    lineCount += daysBetween(first, days.dateOf(to - 1)) + 1;
    spans.push({ entry, from, to, first });
  }
  if (lineCount > maxReportLines) tooLarge(lineCount);

  const cards = byId(store.getWhereIn(cardModule.table, 'id', entries.map((e) => e.card_id)));
  const collections = byId(store.getWhereIn(collectionModule.table, 'id', [...cards.values()].map((c) => c.collection_id)));
  const boards = byId(store.getWhereIn(boardModule.table, 'id', [...cards.values()].map((c) => c.board_id)));
  const activities = byId(store.getWhereIn(activityModule.table, 'id', entries.map((e) => e.activity_id)));
  const users = byId(store.getWhereIn(userModule.table, 'id', entries.map((e) => e.user_id)));

  const lines: ReportLine[] = [];
  for (const { entry, from, to, first } of spans) {
    const pieces: { date: string; start: number; end: number }[] = [];
    for (let day = first, i = 0; i < 400; day = days.next(day), i++) {
      const dayStart = Math.max(from, days.start(day));
      const dayEnd = Math.min(to, days.end(day));
      if (dayEnd > dayStart) pieces.push({ date: day, start: dayStart, end: dayEnd });
      if (dayEnd >= to) break;
    }
    const minutes = shareMinutes(pieces.map((p) => (p.end - p.start) / 60_000));
    const card = cards.get(entry.card_id as string);
    const collection = card ? collections.get(card.collection_id as string) : undefined;
    const board = card ? boards.get(card.board_id as string) : undefined;
    const activity = activities.get(entry.activity_id as string);
    const user = users.get(entry.user_id as string);
    pieces.forEach((piece, i) => {
      lines.push({
        entry_id: entry.id,
        date: piece.date,
        week: days.week(piece.date),
        start: new Date(piece.start).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        end: new Date(piece.end).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        minutes: minutes[i]!,
        user_id: (entry.user_id as string | null) ?? null,
        user: (user?.fullname as string | null) ?? (user?.email as string | undefined) ?? '',
        card_id: (entry.card_id as string | null) ?? null,
        card: (card?.name as string | null) ?? '',
        collection_id: (card?.collection_id as string | null) ?? null,
        collection: (collection?.name as string | null) ?? '',
        board_id: (card?.board_id as string | null) ?? null,
        board: (board?.name as string | null) ?? '',
        activity_id: (entry.activity_id as string | null) ?? null,
        activity: (activity?.description as string | undefined) ?? '',
        status: entry.status as string,
        note: (entry.note as string | null) ?? '',
      });
    });
  }
  const all = lines.map((_, i) => i);
  const groups = request.groupBy.length > 0 ? group(lines, all, request.groupBy) : [];
  return {
    title: request.title,
    period: { start: request.start, end: request.end, timezone },
    filters: request.filters,
    group_by: request.groupBy,
    duration_format: request.durationFormat,
    generated_at: nowTimestamp(),
    total_minutes: lines.reduce((s, l) => s + l.minutes, 0),
    groups,
    lines,
  };
}

function tooLarge(lines: number): never {
  throw new ApiError('memoryExhausted', [{ description: `The report would hold at least ${lines} lines; the limit is ${maxReportLines}. Choose a shorter period or a filter.` }]);
}
