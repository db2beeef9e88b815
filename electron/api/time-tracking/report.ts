/**
 * Computing a time report (shared/time-report.ts) from the entries that overlap a period.
 *
 *  - The period runs from the start of its first day to the end of its last day in the
 *    report's time zone; entries are clipped to it (a running timer counts until now).
 *  - Each entry is split at local midnight into one line per day, by the function the week
 *    sheet and the API's day limit use too (shared/entry-days.ts): line minutes are the
 *    entry's clipped minutes, rounded once and shared out over its days by the largest
 *    remainders, so the lines of an entry always add up to the entry, to the minute.
 *  - Groups nest in `group_by` order; each has its minutes; the grand total is their sum.
 *  - Each line is worth its activity's hourly rate × its hours, rounded to the cent; groups
 *    and the grand total add up their lines in whole cents, split into billable and
 *    non-billable by the activity's flag. Rates are the activities' as they are now.
 *  - A line says whether its entry overlaps another entry of the same user in the period,
 *    whatever the filter leaves out (entry-time.ts).
 *  - Each line is split into payroll hour codes by the surcharge rules, by the clock of its
 *    user's time zone (Europe/Amsterdam, the user record's default, for an entry without a
 *    user), with the whole-day company holidays for everyone as public holidays
 *    (shared/surcharges.ts, docs/API.md "Surcharge rules").
 */
import { LocalDays, splitIntoDays, type LocalDay } from '../../../shared/entry-days.js';
import type { FilterNode } from '../../../shared/filter.js';
import { holidayNamesByDay } from '../../../shared/holiday-days.js';
import { isTimeZone } from '../../../shared/fields.js';
import { splitBySurcharges, type SurchargeTerms } from '../../../shared/surcharges.js';
import {
  centsToAmount,
  hourCodeTotals,
  type DurationFormat,
  type ReportGroup,
  type ReportGrouping,
  type ReportLine,
  type ReportMoney,
  type TimeReport,
} from '../../../shared/time-report.js';
import { endOfLocalDate, startOfLocalDate } from '../../../shared/zoned-time.js';
import { nowTimestamp } from '../../../shared/ids.js';
import { ApiError } from '../errors.js';
import { relationJoins } from '../records.js';
import type { RequestContext } from '../resource.js';
import { moduleNamed } from '../registry.js';
import { overlappingIds } from './entry-time.js';
import { twoDigitsAt } from './export/zone-clock.js';
import { cardNames, exportedBy, filterText, userName } from './report-names.js';
import { tables } from '../tables.js';
import { nowMs } from '../../../shared/clock.js';

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
  /** ISO 4217 code of the amounts (default EUR). */
  currency?: string;
}

const dayMs = 86_400_000;

const twoDigits = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const clockTexts = Array.from({ length: 1440 }, (_, m) => `${twoDigits[Math.floor(m / 60)]}:${twoDigits[m % 60]}`);

/**
 * Instants as the API writes them (`nowTimestamp`: `2026-11-02T08:30:00Z`, whole seconds, UTC)
 * from epoch milliseconds. A report writes two per line: a `Date` and a regular expression
 * each would cost more than the rest of the line, and the date part is the same for many.
 * Joined rather than concatenated, because V8 keeps a concatenation as a tree of its parts,
 * several times the size of the text, for as long as the line lives.
 */
class InstantTexts {
  private readonly dates = new Map<number, string>();

  text(instant: number): string {
    const day = Math.floor(instant / dayMs);
    let date = this.dates.get(day);
    if (date === undefined) {
      const iso = new Date(day * dayMs).toISOString();
      date = iso.slice(0, iso.indexOf('T'));
      this.dates.set(day, date);
    }
    const second = Math.floor((instant - day * dayMs) / 1000);
    return [date, 'T', clockTexts[Math.floor(second / 60)], ':', twoDigits[second % 60], 'Z'].join('');
  }
}

/** Whether a stored instant has the API's own form (`2026-11-02T08:30:00Z`), which `InstantTexts` would write again. */
function isApiInstant(text: string): boolean {
  return (
    text.length === 20 &&
    text.charCodeAt(10) === 0x54 &&
    text.charCodeAt(13) === 0x3a &&
    text.charCodeAt(16) === 0x3a &&
    text.charCodeAt(19) === 0x5a
  );
}

/**
 * Epoch milliseconds of stored instants, 200,000 of them for a large report: `Date.parse` costs
 * more than the rest of reading an entry. Entries come in order of start, so an instant's date
 * is nearly always the one read last; its clock part is read digit by digit. Any other form
 * (an offset, fractions of a second) goes to `Date.parse`.
 */
class InstantReader {
  private date = '';
  private dayStart = 0;

  parse(text: string): number {
    if (!isApiInstant(text)) return Date.parse(text);
    if (this.date === '' || !text.startsWith(this.date)) {
      const date = text.slice(0, 10);
      const dayStart = Date.parse(date);
      if (Number.isNaN(dayStart)) return Date.parse(text);
      this.date = date;
      this.dayStart = dayStart;
    }
    const hours = twoDigitsAt(text, 11);
    const minutes = twoDigitsAt(text, 14);
    const seconds = twoDigitsAt(text, 17);
    return hours < 24 && minutes < 60 && seconds < 60
      ? this.dayStart + hours * 3_600_000 + minutes * 60_000 + seconds * 1000
      : Date.parse(text);
  }
}

function byId<T extends { id: string }>(records: T[]): Map<string, T> {
  return new Map(records.map((r) => [r.id, r]));
}

/** The fields of an entry a report reads, in the order `eachValues` gives them. */
const entryFields = ['id', 'start', 'end', 'card_id', 'activity_id', 'user_id', 'status', 'note'] as const;
type EntryValues = [
  id: string,
  start: string,
  end: string | null,
  card_id: string | null,
  activity_id: string | null,
  user_id: string | null,
  status: string,
  note: string | null,
];

/** An entry of the report, clipped to its period. */
interface ClippedEntry {
  id: string;
  from: number;
  to: number;
  /** Start and end (now while running) before clipping, for overlaps. */
  start: number;
  end: number;
  /**
   * The stored start and end when they are in the API's own form: a line that begins or ends
   * where its entry does reuses them instead of writing the same text again.
   */
  startText: string | null;
  endText: string | null;
  cardId: string | null;
  activityId: string | null;
  userId: string | null;
  status: string;
  note: string | null;
}

/**
 * One string per distinct value. SQLite gives every entry its own copy of its card id, and the
 * lines keep them: 100,000 copies of a few hundred ids would stay in memory (and be copied by
 * every garbage collection) until the report is sent.
 */
class SharedTexts {
  private readonly texts = new Map<string, string>();

  of(text: string): string;
  of(text: string | null): string | null;
  of(text: string | null): string | null {
    if (text === null) return null;
    const shared = this.texts.get(text);
    if (shared !== undefined) return shared;
    this.texts.set(text, text);
    return text;
  }

  all(): string[] {
    return [...this.texts.keys()];
  }
}

/** What a line says about its card, worked out once per card. */
interface CardLabels {
  card: string;
  collection_id: string | null;
  collection: string;
  board_id: string | null;
  board: string;
}

/**
 * What a line is grouped by at each level, and the group's label: two functions rather than one
 * answering both, so that grouping 200,000 lines makes no pair per line.
 */
const keyOf: Record<ReportGrouping, (line: ReportLine) => string | null> = {
  days: (l) => l.date,
  weeks: (l) => l.week,
  activities: (l) => l.activity_id,
  collections: (l) => l.collection_id,
  boards: (l) => l.board_id,
  statuses: (l) => l.status,
  users: (l) => l.user_id,
  billable: (l) => (l.billable ? 'billable' : 'non_billable'),
};
const labelOf: Record<ReportGrouping, (line: ReportLine) => string> = {
  days: (l) => l.date,
  weeks: (l) => l.week,
  activities: (l) => l.activity || 'No activity',
  collections: (l) => l.collection || 'No collection',
  boards: (l) => l.board || 'No board',
  statuses: (l) => l.status,
  users: (l) => l.user || 'No user',
  billable: (l) => (l.billable ? 'Billable' : 'Non-billable'),
};

/** Money of lines, added up in whole cents so that every total agrees to the cent. */
class MoneySum {
  minutes = 0;
  private cents = 0;
  private billableMinutes = 0;
  private billableCents = 0;

  add(line: ReportLine): void {
    const cents = Math.round(line.amount * 100);
    this.minutes += line.minutes;
    this.cents += cents;
    if (line.billable) {
      this.billableMinutes += line.minutes;
      this.billableCents += cents;
    }
  }

  money(): ReportMoney {
    return {
      amount: centsToAmount(this.cents),
      billable_minutes: this.billableMinutes,
      billable_amount: centsToAmount(this.billableCents),
      non_billable_minutes: this.minutes - this.billableMinutes,
      non_billable_amount: centsToAmount(this.cents - this.billableCents),
    };
  }
}

function group(lines: ReportLine[], indexes: number[], levels: ReportGrouping[]): ReportGroup[] {
  const [level, ...rest] = levels;
  if (!level) return [];
  const groups = new Map<string, { grouping: ReportGrouping; key: string | null; label: string; sum: MoneySum; members: number[] }>();
  const keyOfLine = keyOf[level];
  for (const index of indexes) {
    const line = lines[index]!;
    const key = keyOfLine(line);
    let g = groups.get(key ?? '');
    if (!g) {
      g = { grouping: level, key, label: labelOf[level](line), sum: new MoneySum(), members: [] };
      groups.set(key ?? '', g);
    }
    g.sum.add(line);
    g.members.push(index);
  }
  // Days and weeks in time order; billable before non-billable; the rest by name.
  const chronological = level === 'days' || level === 'weeks' || level === 'billable';
  return [...groups.values()]
    .sort((a, b) => (chronological ? (a.key ?? '').localeCompare(b.key ?? '') : a.label.localeCompare(b.label)))
    .map(({ members, sum, ...g }): ReportGroup => {
      const figures = { ...g, minutes: sum.minutes, ...sum.money() };
      return rest.length > 0 ? { ...figures, groups: group(lines, members, rest) } : { ...figures, lines: members };
    });
}

export async function buildReport(ctx: RequestContext, request: ReportRequest): Promise<TimeReport> {
  const { timezone } = request;
  const periodStart = startOfLocalDate(request.start, timezone);
  const periodEnd = endOfLocalDate(request.end, timezone);
  const now = nowMs();
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
  const { records } = ctx;

  const days = new LocalDays(timezone);
  const stored = new InstantReader();
  const [cardIds, activityIds, userIds, statuses] = [new SharedTexts(), new SharedTexts(), new SharedTexts(), new SharedTexts()];
  // Each entry clipped to the period, and how many local days (lines) it covers: the limit is
  // checked before a single line is made. Every matched entry makes at least one line, so
  // reading one entry over the limit is enough to refuse, and no count is needed before.
  const entries: ClippedEntry[] = [];
  let matched = 0;
  let lineCount = 0;
  await records.eachValues(
    tables.time_tracking,
    {
      filter: overlap,
      relations: relationJoins(moduleNamed('time_tracking')),
      // By start, then id: the index on (start, id) gives this order without a sort (migration 21).
      sort: [{ field: 'start', direction: 'asc' }],
      limit: maxReportLines + 1,
      offset: 0,
    },
    entryFields,
    (values) => {
      // eachValues answers the columns entryFields names, in that order, as the entry stores them.
      const [id, start, end, cardId, activityId, userId, status, note] = values as EntryValues;
      matched++;
      const began = stored.parse(start);
      const ended = end ? stored.parse(end) : now;
      const from = Math.max(began, periodStart);
      const to = Math.min(ended, periodEnd);
      if (to <= from) return;
      const first = days.dayOf(from);
      lineCount += to <= first.end ? 1 : days.dayOf(to - 1).ordinal - first.ordinal + 1;
      entries.push({
        id,
        from,
        to,
        start: began,
        end: ended,
        startText: isApiInstant(start) ? start : null,
        endText: end && isApiInstant(end) ? end : null,
        cardId: cardIds.of(cardId),
        activityId: activityIds.of(activityId),
        userId: userIds.of(userId),
        status: statuses.of(status),
        note,
      });
    },
  );

  if (matched > maxReportLines) tooLarge(matched);
  if (lineCount > maxReportLines) tooLarge(lineCount);

  const cards = byId(await records.getWhereIn(tables.card, 'id', cardIds.all()));
  const collections = byId(
    await records.getWhereIn(
      tables.collection,
      'id',
      [...cards.values()].map((c) => c.collection_id),
    ),
  );
  const boards = byId(
    await records.getWhereIn(
      tables.board,
      'id',
      [...cards.values()].map((c) => c.board_id),
    ),
  );
  const activities = byId(await records.getWhereIn(tables.activity, 'id', activityIds.all()));
  const users = byId(await records.getWhereIn(tables.user, 'id', userIds.all()));
  const displayNames = await cardNames(ctx, [...cards.values()]);
  const payroll = await payrollTerms(ctx);
  const overlapping = await overlapsOf(ctx, entries, request.filter !== undefined, overlap);
  const cardLabels = new Map<string | null, CardLabels>();
  const labelsOf = (cardId: string | null): CardLabels => {
    let labels = cardLabels.get(cardId);
    if (!labels) {
      // A null id (no card) finds nothing in the map.
      const card = cards.get(cardId as string);
      const collection = card ? collections.get(card.collection_id) : undefined;
      const board = card ? boards.get(card.board_id) : undefined;
      labels = {
        card: card ? (displayNames.get(card.id) ?? '') : '',
        collection_id: card?.collection_id ?? null,
        collection: collection?.name ?? '',
        board_id: card?.board_id ?? null,
        board: board?.name ?? '',
      };
      cardLabels.set(cardId, labels);
    }
    return labels;
  };

  const instants = new InstantTexts();
  const lines: ReportLine[] = [];
  const userNames = new Map([...users.values()].map((u) => [u.id, userName(u)]));
  // What a line takes from its activity, worked out once per activity.
  const activityTerms = new Map<string | null, { activity: string; rate: number; billable: boolean; hourCode: string | null }>();
  const termsOf = (activityId: string | null) => {
    let terms = activityTerms.get(activityId);
    if (!terms) {
      // A null id (no activity) finds nothing in the map.
      const activity = activities.get(activityId as string);
      terms = {
        activity: activity?.description ?? '',
        rate: Number(activity?.hourly_rate ?? 0) || 0,
        billable: activity?.billable === true,
        hourCode: activity?.hour_code ?? null,
      };
      activityTerms.set(activityId, terms);
    }
    return terms;
  };
  // Each user's days, in their own zone, worked out once per zone and looked up once per user:
  // checking a zone name costs more than splitting a line.
  const zoneDays = new Map<string, LocalDays>();
  const userDays = new Map<string | null, LocalDays>();
  const daysOfUser = (userId: string | null): LocalDays => {
    let found = userDays.get(userId);
    if (found) return found;
    // A null user id finds no user in the map.
    const stored = users.get(userId as string)?.timezone;
    const zone = typeof stored === 'string' && isTimeZone(stored) ? stored : defaultUserZone;
    found = zoneDays.get(zone);
    if (!found) zoneDays.set(zone, (found = new LocalDays(zone)));
    userDays.set(userId, found);
    return found;
  };
  const addLine = (entry: ClippedEntry, day: LocalDay, start: number, end: number, minutes: number) => {
    const labels = labelsOf(entry.cardId);
    const { activity, rate, billable, hourCode } = termsOf(entry.activityId);
    const userDays = daysOfUser(entry.userId);
    lines.push({
      entry_id: entry.id,
      date: day.date,
      week: day.week,
      start: start === entry.start && entry.startText !== null ? entry.startText : instants.text(start),
      end: end === entry.end && entry.endText !== null ? entry.endText : instants.text(end),
      minutes,
      user_id: entry.userId,
      // A null user id finds no name in the map (a comment, not a check: this runs per line).
      user: userNames.get(entry.userId as string) ?? '',
      card_id: entry.cardId,
      card: labels.card,
      collection_id: labels.collection_id,
      collection: labels.collection,
      board_id: labels.board_id,
      board: labels.board,
      activity_id: entry.activityId,
      activity,
      hourly_rate: rate,
      billable,
      amount: centsToAmount(Math.round((rate * minutes * 100) / 60)),
      overlaps: overlapping.has(entry.id),
      status: entry.status,
      note: entry.note ?? '',
      hour_code: hourCode,
      segments: splitBySurcharges({
        start,
        end,
        timeZone: userDays.timeZone,
        days: userDays,
        rules: payroll.rules,
        holidays: payroll.holidays,
        hourCode,
        minutes,
      }),
    });
  };
  // Each entry cut at local midnight, a line per day (shared/entry-days.ts).
  for (const entry of entries)
    splitIntoDays(entry.from, entry.to, days, (day, start, end, minutes) => addLine(entry, day, start, end, minutes));

  const all = lines.map((_, i) => i);
  const groups = request.groupBy.length > 0 ? group(lines, all, request.groupBy) : [];
  const sum = new MoneySum();
  for (const line of lines) sum.add(line);

  return {
    title: request.title,
    period: { start: request.start, end: request.end, timezone },
    filters: request.filters,
    filter_text: await filterText(ctx, request.filter),
    exported_by: await exportedBy(ctx),
    currency: request.currency ?? 'EUR',
    group_by: request.groupBy,
    duration_format: request.durationFormat,
    generated_at: nowTimestamp(),
    total_minutes: sum.minutes,
    totals: sum.money(),
    groups,
    lines,
    hour_codes: hourCodeTotals(lines),
  };
}

/** Whose entries have no user (or a zone this runtime does not know) are split in the user record's default zone. */
const defaultUserZone = 'Europe/Amsterdam';

/**
 * The surcharge rules, by name (then id, so that of two rules with the same percentage the same
 * one wins every time), and the dates of the whole-day company holidays for everyone.
 */
async function payrollTerms(ctx: RequestContext): Promise<{ rules: SurchargeTerms[]; holidays: ReadonlyMap<string, unknown> }> {
  const rules = (await ctx.records.list(tables.surcharge_rule, { limit: 1_000_000, offset: 0 })).rows
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .map((r) => ({
      weekdays: r.weekdays,
      public_holiday: r.public_holiday,
      from_time: r.from_time,
      to_time: r.to_time,
      percentage: r.percentage,
      hour_code: r.hour_code,
    }));
  const holidays = holidayNamesByDay((await ctx.records.list(tables.company_holiday, { limit: 1_000_000, offset: 0 })).rows);
  return { rules, holidays };
}

/**
 * The ids of entries that overlap another entry of the same user. Compared over every entry of
 * the period, also those a filter leaves out (another status, another card): an overlap is a
 * fact about the user's time, not about the report's selection.
 */
async function overlapsOf(
  ctx: RequestContext,
  entries: readonly ClippedEntry[],
  filtered: boolean,
  period: FilterNode,
): Promise<Set<string>> {
  if (!filtered) return overlappingIds(entries);
  const unfiltered = period.kind === 'and' ? { ...period, items: period.items.slice(0, 2) } : period;
  const now = nowMs();
  const all: { id: string; userId: string | null; start: number; end: number }[] = [];
  await ctx.records.eachValues(
    tables.time_tracking,
    { filter: unfiltered, sort: [{ field: 'start', direction: 'asc' }], limit: maxReportLines * 2, offset: 0 },
    ['id', 'user_id', 'start', 'end'],
    (values) => {
      // The four columns named above, in that order, as the entry stores them.
      const [id, userId, start, end] = values as [string, string | null, string, string | null];
      all.push({ id, userId, start: Date.parse(start), end: end ? Date.parse(end) : now });
    },
  );
  return overlappingIds(all);
}

function tooLarge(lines: number): never {
  throw new ApiError('memoryExhausted', [
    { description: `The report would hold at least ${lines} lines; the limit is ${maxReportLines}. Choose a shorter period or a filter.` },
  ]);
}
