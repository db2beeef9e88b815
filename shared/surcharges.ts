/**
 * Splitting worked time into payroll hour codes by surcharge rules (docs/API.md "Surcharge
 * rules"), by the clock of the user's time zone:
 *
 *  - A rule holds on a minute when the minute's own local weekday is in its `weekdays`, or the
 *    minute's local date is a company holiday and the rule has `public_holiday`, and the
 *    minute's local time is inside its window: `from_time` up to (not including) `to_time`; a
 *    window whose start is later than its end runs across midnight (22:00–06:00 is 22:00–24:00
 *    and 00:00–06:00 of the same date, each weighed by that minute's own weekday); a missing
 *    start is 00:00, a missing end midnight, both missing the whole day.
 *  - Where rules overlap, the highest percentage wins; between equal percentages, the first
 *    rule in the order given. A minute no rule holds on is a normal minute: 100 % under the
 *    activity's hour code. A rule without an hour code pays under the activity's.
 *  - Local time is the wall clock: on the night summer time ends (a 25-hour day) the hour from
 *    02:00 to 03:00 happens twice and counts twice; on the night it begins (23 hours) the hour
 *    that does not exist counts for nothing.
 *  - The pieces of a span are added up per local date, percentage and hour code, and the
 *    span's minutes (rounded once) are shared out over them by the largest remainders, so the
 *    segments add up to the span to the minute (as the report's day lines do: shared/entry-days.ts).
 *
 * Pure: no store, no clock. Days are worked out through `LocalDays`, so a report of many entries
 * asks the time-zone data once per day; only the two days a year whose length is not 24 hours
 * look for the instant the clock changes.
 */
import { isoWeekday, parseDate } from './dates.js';
import { LocalDays, type LocalDay } from './entry-days.js';
import { offsetAt } from './zoned-time.js';

/** What the split reads of a surcharge rule (shared/resources/surcharge-rule.ts). */
export interface SurchargeTerms {
  weekdays: readonly number[];
  public_holiday: boolean;
  /** HH:MM local, or null (00:00). */
  from_time: string | null;
  /** HH:MM local, or null (midnight at the end of the day). */
  to_time: string | null;
  percentage: number;
  hour_code: string | null;
}

/** Minutes of one local date paid at one percentage under one hour code. */
export interface HourSegment {
  date: string;
  minutes: number;
  percentage: number;
  hour_code: string | null;
}

export interface SplitRequest {
  /** Start and end of the worked span, epoch milliseconds (UTC). */
  start: number;
  end: number;
  /** The user's IANA time zone; its days when the caller keeps them for many spans. */
  timeZone: string;
  days?: LocalDays;
  rules: readonly SurchargeTerms[];
  /** Local dates (YYYY-MM-DD) that are company holidays. */
  holidays: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  /** The activity's hour code: normal minutes and rules without a code of their own. */
  hourCode: string | null;
  /** The whole minutes the segments share; default the span's length rounded. */
  minutes?: number;
}

/** The normal percentage: a minute no rule holds on. */
export const normalPercentage = 100;

const dayMs = 86_400_000;
const minuteMs = 60_000;

/** HH:MM as milliseconds after local midnight. */
function clockMs(time: string): number {
  return (Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5))) * minuteMs;
}

/** A rule's window as one or two ranges of milliseconds after local midnight. */
function windowOf(rule: SurchargeTerms): [number, number][] {
  const from = rule.from_time === null ? 0 : clockMs(rule.from_time);
  const to = rule.to_time === null ? dayMs : clockMs(rule.to_time);
  if (from < to) return [[from, to]];
  // Equal times never pass the API's check; should one come, it reads as the whole day rather
  // than as nothing. A later start than end: across midnight.
  if (from === to) return [[0, dayMs]];
  return [
    [0, to],
    [from, dayMs],
  ];
}

/** A stretch of a local day on which the zone's offset does not change. */
interface Stretch {
  start: number;
  end: number;
  /** Local milliseconds after the date's midnight = instant + shift. */
  shift: number;
}

/** The first instant in (from, to] whose offset differs from `offset` (it does at `to`). */
function changeBetween(from: number, to: number, offset: number, timeZone: string): number {
  let lo = from;
  let hi = to;
  while (hi - lo > 1000) {
    // Whole seconds, and always past lo, so that the search ends.
    const mid = lo + Math.max(1000, Math.floor((hi - lo) / 2000) * 1000);
    if (offsetAt(mid, timeZone) === offset) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * What the split knows of each local day of a `LocalDays`, kept with it: asking the time-zone
 * data costs more than the rest of a line's split, and a report's lines share few days.
 */
const dayFacts = new WeakMap<LocalDays, Map<string, { weekday: number; stretches: Stretch[] }>>();

function factsOf(days: LocalDays, day: LocalDay): { weekday: number; stretches: Stretch[] } {
  let known = dayFacts.get(days);
  if (!known) dayFacts.set(days, (known = new Map()));
  let facts = known.get(day.date);
  if (!facts) known.set(day.date, (facts = { weekday: isoWeekday(day.date), stretches: stretchesOf(day, days.timeZone) }));
  return facts;
}

/** The stretches of constant offset of a local day: one on an ordinary day, two on a day the clock changes. */
function stretchesOf(day: LocalDay, timeZone: string): Stretch[] {
  let stretches: Stretch[];
  const midnight = parseDate(day.date);
  if (day.end - day.start === dayMs && offsetAt(day.start, timeZone) === midnight - day.start) {
    // Midnight is at day.start: local milliseconds are those since the day began.
    stretches = [{ start: day.start, end: day.end, shift: -day.start }];
  } else {
    const first = offsetAt(day.start, timeZone);
    const last = offsetAt(day.end - 1000, timeZone);
    const change = first === last ? day.end : changeBetween(day.start, day.end - 1000, first, timeZone);
    stretches = [{ start: day.start, end: change, shift: first }];
    if (change < day.end) stretches.push({ start: change, end: day.end, shift: last });
    // Local milliseconds are counted from the date's midnight, whenever the day began.
    for (const s of stretches) s.shift -= midnight;
  }
  return stretches;
}

/** A span's time on one local date at one percentage under one code, in exact milliseconds, before rounding. */
interface Piece {
  date: string;
  percentage: number;
  hour_code: string | null;
  ms: number;
}

/**
 * Splits a span of work into segments per local date, percentage and hour code, in the order
 * they first occur. A span of no time has no segments; a segment rounded to 0 minutes is left
 * out unless it is the span's only one.
 */
export function splitBySurcharges(request: SplitRequest): HourSegment[] {
  const { start, end, rules, holidays, hourCode } = request;
  if (!(end > start)) return [];
  // Given days are of the same zone (the caller keeps one per zone).
  const days = request.days ?? new LocalDays(request.timeZone);
  const total = request.minutes ?? Math.round((end - start) / minuteMs);
  const pieces: Piece[] = [];
  for (let day = days.dayOf(start); day.start < end; day = days.next(day)) {
    const { weekday, stretches } = factsOf(days, day);
    const plan = planOf(rules, weekday, holidays.has(day.date));
    for (const stretch of stretches) {
      const from = Math.max(start, stretch.start) + stretch.shift;
      const to = Math.min(end, stretch.end) + stretch.shift;
      for (const part of plan) {
        const ms = Math.min(to, part.to) - Math.max(from, part.from);
        if (ms <= 0) continue;
        const rule = part.rule === -1 ? undefined : rules[part.rule]!;
        const percentage = rule ? rule.percentage : normalPercentage;
        const code = rule ? (rule.hour_code ?? hourCode) : hourCode;
        const piece = pieces.find((p) => p.date === day.date && p.percentage === percentage && p.hour_code === code);
        if (piece) piece.ms += ms;
        else pieces.push({ date: day.date, percentage, hour_code: code, ms });
      }
    }
    if (day.end >= end) break;
  }
  // Most spans are one piece: all its minutes.
  if (pieces.length === 1)
    return [{ date: pieces[0]!.date, minutes: total, percentage: pieces[0]!.percentage, hour_code: pieces[0]!.hour_code }];
  const minutes = shareTotal(
    pieces.map((p) => p.ms / minuteMs),
    total,
  );
  const segments = pieces.map((p, i) => ({ date: p.date, minutes: minutes[i]!, percentage: p.percentage, hour_code: p.hour_code }));
  const kept = segments.filter((s) => s.minutes !== 0);
  return kept.length > 0 || segments.length === 0 ? kept : [segments[0]!];
}

/** A stretch of local clock time (milliseconds after midnight) and the rule that wins on it (-1: none). */
interface PlanPart {
  from: number;
  to: number;
  rule: number;
}

/**
 * Which rule wins when, over a whole local day, for each weekday with or without a holiday:
 * fourteen plans at most per list of rules, kept with the list (a report passes the same one
 * for every line).
 */
const plans = new WeakMap<readonly SurchargeTerms[], Map<number, PlanPart[]>>();

function planOf(rules: readonly SurchargeTerms[], weekday: number, holiday: boolean): PlanPart[] {
  let known = plans.get(rules);
  if (!known) plans.set(rules, (known = new Map()));
  const key = holiday ? -weekday : weekday;
  let plan = known.get(key);
  if (plan) return plan;
  const holding = rules.map((rule) => rule.weekdays.includes(weekday) || (holiday && rule.public_holiday));
  const windows = rules.map(windowOf);
  // Where the answer can change within the day: every edge of a window of a rule that holds.
  const edges = new Set<number>([0, dayMs]);
  holding.forEach((holds, i) => {
    if (holds) for (const [from, to] of windows[i]!) edges.add(from).add(to);
  });
  const cuts = [...edges].sort((a, b) => a - b);
  plan = [];
  for (let c = 0; c + 1 < cuts.length; c++) {
    const at = cuts[c]!;
    // The best rule holding on the whole of [cuts[c], cuts[c + 1]): no edge lies inside.
    let best = -1;
    for (let r = 0; r < rules.length; r++) {
      if (!holding[r] || !windows[r]!.some(([from, to]) => from <= at && at < to)) continue;
      if (best === -1 || rules[r]!.percentage > rules[best]!.percentage) best = r;
    }
    const last = plan[plan.length - 1];
    if (last && last.rule === best) last.to = cuts[c + 1]!;
    else plan.push({ from: at, to: cuts[c + 1]!, rule: best });
  }
  known.set(key, plan);
  return plan;
}

/**
 * Shares `total` whole minutes over parts in proportion to their exact lengths: each its floor
 * scaled to the total, the rest one by one to the largest remainders (earlier first on a tie).
 */
export function shareTotal(exact: readonly number[], total: number): number[] {
  const sum = exact.reduce((s, x) => s + x, 0);
  if (exact.length === 0) return [];
  if (!(sum > 0)) return exact.map((_, i) => (i === 0 ? total : 0));
  const scaled = exact.map((x) => (x * total) / sum);
  const shares = scaled.map(Math.floor);
  let left = total - shares.reduce((s, x) => s + x, 0);
  const order = scaled.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]!++;
    left--;
  }
  return shares;
}
