/**
 * The overtime balance (docs/API.md "Overtime balance", docs/decisions/overtime-balance.md):
 * per user, computed from the records each time it is asked for, never kept as a running
 * number, except that a closed period freezes each user's balance at its end.
 *
 *   overtime of a bucket = max(0, worked − expected)      expected = scheduled − absences
 *   change of a day      = its buckets' overtime − time for time taken + corrections
 *   balance through D    = the frozen balance of the latest closed period that ends on or
 *                          before D (0 without one) + the changes of the days after it, up to D
 *
 * A bucket is a day, or (payroll setting `overtime_per: week`) an ISO week cut at the first of
 * each month and at the days the sum runs from and to: a week's overtime is earned in the
 * month it is worked in. Worked minutes are the user's finished entries cut at midnight in the
 * user's own time zone (shared/entry-days.ts, as closed periods and the week sheet cut them);
 * scheduled minutes and absences are the schedule of the user's resource (planning/schedule.ts).
 * Time for time is what an absence of type `time_for_time` takes of a day, given out as the
 * payroll files give out absences (payroll-file.ts). Only users linked to a resource have a
 * balance: without a schedule there is nothing to work over.
 */
import { addDays } from '../../../shared/dates.js';
import { LocalDays, splitIntoDays } from '../../../shared/entry-days.js';
import type { OvertimeFigures } from '../../../shared/payroll-summary.js';
import { isoWeek, localDate } from '../../../shared/zoned-time.js';
import type { RecordReads } from '../../store/record-store.js';
import { readCalendarsOf, scheduleDay, type ResourceCalendar } from '../planning/schedule.js';
import { tables, type Stored } from '../tables.js';
import { userTimeZone } from './entry-time.js';
import { absenceMinutes } from './payroll-file.js';

export type OvertimePer = 'week' | 'day';

/** What one day brings to the balance: its figures for the bucket, and what it takes or adds directly. */
interface DayFigures {
  worked: number;
  expected: number;
  /** Time for time taken (drawn from the balance) plus corrections (negative: a payout). */
  direct: number;
}

/** The way overtime counts (the payroll settings' `overtime_per`; week when there are none). */
export async function overtimePer(reads: RecordReads): Promise<OvertimePer> {
  const settings = (await reads.list(tables.payroll_setting, { limit: 1, offset: 0, sort: [{ field: 'created_at', direction: 'asc' }] }))
    .rows[0];
  return settings?.overtime_per === 'day' ? 'day' : 'week';
}

/**
 * The day-by-day figures of one user, read once for the days from `first` to `last`; the
 * balance sums them by bucket.
 */
async function readDays(
  reads: RecordReads,
  user: Stored<'user'>,
  calendar: ResourceCalendar,
  first: string,
  last: string,
): Promise<Map<string, DayFigures>> {
  const days = new Map<string, DayFigures>();
  const dayOf = (date: string): DayFigures => {
    let day = days.get(date);
    if (!day) {
      const schedule = scheduleDay(calendar, date);
      const covering = calendar.deviations.filter((d) => d.start_date <= date && d.end_date >= date);
      const timeOff = schedule.deviation > 0 ? (absenceMinutes(schedule.deviation, covering).get('time_for_time_hour_code') ?? 0) : 0;
      day = { worked: 0, expected: schedule.scheduled - schedule.deviation, direct: -timeOff };
      days.set(date, day);
    }
    return day;
  };
  for (let date = first; date <= last; date = addDays(date, 1)) dayOf(date);

  const zone = new LocalDays(userTimeZone(user));
  // An entry lasts at most a day (docs/API.md "Time tracking"), and a time zone is at most 14
  // hours off UTC: entries starting two days around the span hold every minute in it.
  await reads.eachValues(
    tables.time_tracking,
    {
      match: { user_id: user.id, running: false },
      range: { field: 'start', after: addDays(first, -2), before: addDays(last, 2) },
      limit: 1_000_000,
      offset: 0,
    },
    ['start', 'end'],
    (values) => {
      // eachValues answers the two columns named, as stored: a finished entry's start and end.
      const [start, end] = values as [string, string | null];
      if (!end) return;
      splitIntoDays(Date.parse(start), Date.parse(end), zone, (day, _from, _to, minutes) => {
        if (day.date >= first && day.date <= last) dayOf(day.date).worked += minutes;
      });
    },
  );
  const corrections = await reads.list(tables.overtime_correction, {
    match: { user_id: user.id },
    range: { field: 'date', after: addDays(first, -1), before: addDays(last, 1) },
    limit: 1_000_000,
    offset: 0,
  });
  for (const correction of corrections.rows) dayOf(correction.date).direct += correction.minutes;
  return days;
}

/** The change of the balance over the days from `from` to `to` (both included), by bucket. */
function changeOver(days: Map<string, DayFigures>, from: string, to: string, per: OvertimePer): number {
  let change = 0;
  let bucket = '';
  let worked = 0;
  let expected = 0;
  const close = () => {
    change += Math.max(0, worked - expected);
    worked = expected = 0;
  };
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const key = per === 'day' ? date : `${isoWeek(date)} ${date.slice(0, 7)}`;
    if (key !== bucket) {
      close();
      bucket = key;
    }
    // Every day from `from` to `to` was read (readDays).
    const day = days.get(date)!;
    worked += day.worked;
    expected += day.expected;
    change += day.direct;
  }
  close();
  return change;
}

/** Where a balance through `date` starts: a closed period's frozen figure and the day after it, or nothing. */
interface Anchor {
  balance: number;
  /** The first day summed after the anchor; undefined: from the user's first record. */
  from: string | undefined;
}

function anchorOf(periods: readonly Stored<'closed_period'>[], userId: string, date: string): Anchor {
  let best: { end: string; balance: number } | undefined;
  for (const period of periods) {
    const frozen = period.overtime_closing?.[userId];
    if (period.end > date || typeof frozen !== 'number') continue;
    if (!best || period.end > best.end) best = { end: period.end, balance: frozen };
  }
  return best ? { balance: best.balance, from: addDays(best.end, 1) } : { balance: 0, from: undefined };
}

/**
 * The first day a user's balance can change: their first finished entry's day, first
 * correction, or first time for time, whichever comes first; undefined when they have none.
 * Before it every bucket is max(0, 0 − expected) = 0.
 */
async function firstDay(reads: RecordReads, user: Stored<'user'>, calendar: ResourceCalendar): Promise<string | undefined> {
  const candidates: string[] = [];
  const entry = (
    await reads.list(tables.time_tracking, {
      match: { user_id: user.id, running: false },
      sort: [{ field: 'start', direction: 'asc' }],
      limit: 1,
      offset: 0,
    })
  ).rows[0];
  if (entry) candidates.push(localDate(Date.parse(entry.start), userTimeZone(user)));
  const correction = (
    await reads.list(tables.overtime_correction, {
      match: { user_id: user.id },
      sort: [{ field: 'date', direction: 'asc' }],
      limit: 1,
      offset: 0,
    })
  ).rows[0];
  if (correction) candidates.push(correction.date);
  for (const deviation of calendar.deviations) if (deviation.type === 'time_for_time') candidates.push(deviation.start_date);
  return candidates.sort()[0];
}

/**
 * Each user's balance over `start` … `end`: the opening is the balance through the day before
 * `start`, the closing the balance through `end`. Users without a resource are left out.
 */
export async function overtimeBalances(
  reads: RecordReads,
  users: readonly Stored<'user'>[],
  start: string,
  end: string,
): Promise<Map<string, OvertimeFigures>> {
  const out = new Map<string, OvertimeFigures>();
  const linked = users.filter((u) => typeof u.resource_id === 'string');
  if (linked.length === 0) return out;
  const per = await overtimePer(reads);
  const periods = (await reads.list(tables.closed_period, { limit: 1_000_000, offset: 0 })).rows;
  const resources = await reads.getWhereIn(
    tables.resource,
    'id',
    linked.map((u) => u.resource_id),
  );
  const calendars = new Map((await readCalendarsOf(reads, resources)).map((c) => [c.resource.id, c]));
  const before = addDays(start, -1);
  for (const user of linked) {
    const calendar = calendars.get(user.resource_id ?? '');
    if (!calendar) continue;
    const anchors = [anchorOf(periods, user.id, before), anchorOf(periods, user.id, end)];
    const first = anchors.some((a) => a.from === undefined) ? await firstDay(reads, user, calendar) : undefined;
    const froms = anchors.map((a) => a.from ?? first);
    const earliest = froms.filter((f): f is string => f !== undefined).sort()[0];
    const days =
      earliest !== undefined && earliest <= end ? await readDays(reads, user, calendar, earliest, end) : new Map<string, DayFigures>();
    const through = (anchor: Anchor, from: string | undefined, last: string) =>
      anchor.balance + (from !== undefined && from <= last ? changeOver(days, from, last, per) : 0);
    const opening = through(anchors[0]!, froms[0], before);
    const closing = through(anchors[1]!, froms[1], end);
    out.set(user.id, { opening_minutes: opening, change_minutes: closing - opening, closing_minutes: closing });
  }
  return out;
}

/**
 * Every linked user's balance through `end`, to freeze on a period closed there: by user id,
 * in minutes. Read in the close's own transaction.
 */
export async function closingBalances(reads: RecordReads, end: string): Promise<Record<string, number>> {
  const users = (await reads.list(tables.user, { match: { archived_at: null }, limit: 1_000_000, offset: 0 })).rows;
  const balances = await overtimeBalances(reads, users, end, end);
  return Object.fromEntries([...balances].map(([id, figures]) => [id, figures.closing_minutes]));
}
