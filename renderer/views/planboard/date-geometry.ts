/**
 * Where days sit on the planboard's time axis, as pure arithmetic on `YYYY-MM-DD` strings:
 * day ↔ x at a zoom, the box of a card's span, which days a scroll position shows, the week
 * and month bands of the header, and which days the board does not work. No DOM, so every
 * rule here is tested on its own (test/renderer/date-geometry.test.ts).
 *
 * The axis is a fixed stretch of days from `origin` (a Monday). Day `i` covers
 * x ∈ [i × dayWidth, (i + 1) × dayWidth); a card from start to end (inclusive) covers its
 * days' columns whole.
 *
 * Dates in words take the planner's `Translate`: day and month names come from its locale
 * (Intl), the order they are written in from its catalogue.
 */
import { addDays, daysBetween, isoWeekday, parseDate } from '../../../shared/dates.js';
import { formatDay } from '../../components/dates-format.js';
import type { Translate } from '../../i18n/index.js';
import { nowDate } from '../../../shared/clock.js';

export type Zoom = 'day' | 'week' | 'month';
export const zooms: readonly Zoom[] = ['day', 'week', 'month'];

/** Pixels per day: day zoom shows a card's text, month zoom a quarter at a glance. */
export const dayWidths: Readonly<Record<Zoom, number>> = { day: 96, week: 40, month: 10 };

export interface Timeline {
  /** Day 0, always a Monday. */
  origin: string;
  /** How many days the axis holds. */
  days: number;
  dayWidth: number;
}

/** Weeks before today the axis starts, and weeks it runs in total (about a year back, two ahead). */
const weeksBack = 53;
const weeksTotal = 157;

/** The planner's own calendar day (local time, not UTC: "today" is where they sit). */
export function localToday(now: Date = nowDate()): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

export function mondayOf(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

/** The axis around `today` at a zoom. The origin depends on today only, so zooming keeps it. */
export function timelineAround(today: string, zoom: Zoom): Timeline {
  return { origin: addDays(mondayOf(today), -7 * weeksBack), days: 7 * weeksTotal, dayWidth: dayWidths[zoom] };
}

export function totalWidth(timeline: Timeline): number {
  return timeline.days * timeline.dayWidth;
}

/**
 * Day number of a date on the axis (may be outside 0 … days - 1). Laying out 5,000 cards asks
 * this 10,000 times for a few hundred distinct dates, so answers are kept per origin.
 */
export function dayIndex(timeline: Timeline, date: string): number {
  let known = dayNumbers.get(timeline.origin);
  if (!known) dayNumbers.set(timeline.origin, (known = new Map()));
  let index = known.get(date);
  if (index === undefined) {
    index = daysBetween(timeline.origin, date);
    if (known.size < 20_000) known.set(date, index);
  }
  return index;
}

const dayNumbers = new Map<string, Map<string, number>>();

/**
 * The date of a day number. Every render of the grid asks this for each visible day (headers,
 * shading, capacity), so the axis's dates are made once per origin and looked up after that.
 */
export function dateAt(timeline: Timeline, index: number): string {
  if (index < 0 || index >= timeline.days) return addDays(timeline.origin, index);
  let dates = axisDates.get(timeline.origin);
  if (!dates || dates.length < timeline.days) {
    dates = Array.from({ length: timeline.days }, (_, i) => addDays(timeline.origin, i));
    axisDates.set(timeline.origin, dates);
  }
  return dates[index]!;
}

const axisDates = new Map<string, string[]>();

/** ISO weekday of a day number (the origin is a Monday): 1 = Monday … 7 = Sunday. */
function weekdayAt(index: number): number {
  return (((index % 7) + 7) % 7) + 1;
}

export function xOfDate(timeline: Timeline, date: string): number {
  return dayIndex(timeline, date) * timeline.dayWidth;
}

/** The day under x, clamped to the axis. */
export function dayAtX(timeline: Timeline, x: number): number {
  return clamp(Math.floor(x / timeline.dayWidth), 0, timeline.days - 1);
}

export function dateAtX(timeline: Timeline, x: number): string {
  return dateAt(timeline, dayAtX(timeline, x));
}

export interface Box {
  left: number;
  width: number;
}

/** The horizontal box of a span of days, end inclusive; an end before the start counts as one day. */
export function spanBox(timeline: Timeline, start: string, end: string): Box {
  const first = dayIndex(timeline, start);
  const days = Math.max(1, daysBetween(start, end) + 1);
  return { left: first * timeline.dayWidth, width: days * timeline.dayWidth };
}

export interface DayRange {
  /** First day number (inclusive). */
  first: number;
  /** Last day number (inclusive). */
  last: number;
}

/**
 * The days to render for a scroll position: the days in view plus `overscan` on each side,
 * widened to whole blocks of `block` days, so that scrolling changes the answer only when it
 * crosses a block (and React re-renders a few times a second, not every frame).
 */
export function renderedDays(timeline: Timeline, scrollLeft: number, viewportWidth: number, overscan: number, block = 7): DayRange {
  const firstInView = Math.floor(Math.max(0, scrollLeft) / timeline.dayWidth);
  const lastInView = Math.floor((Math.max(0, scrollLeft) + Math.max(0, viewportWidth)) / timeline.dayWidth);
  const first = Math.floor((firstInView - overscan) / block) * block;
  const last = Math.ceil((lastInView + overscan + 1) / block) * block - 1;
  return { first: clamp(first, 0, timeline.days - 1), last: clamp(last, 0, timeline.days - 1) };
}

/** Whether a span of day numbers (inclusive) meets a range. */
export function spanMeets(first: number, last: number, range: DayRange): boolean {
  return last >= range.first && first <= range.last;
}

/** The scroll position that puts `date` at the viewport's left edge plus `inset` pixels. */
export function scrollLeftFor(timeline: Timeline, date: string, inset = 0): number {
  return clamp(xOfDate(timeline, date) - inset, 0, totalWidth(timeline));
}

/**
 * The scroll position that keeps the date under the viewport's centre where it is when the
 * zoom (day width) changes.
 */
export function rezoomScrollLeft(before: Timeline, after: Timeline, scrollLeft: number, viewportWidth: number): number {
  const centreDays = (scrollLeft + viewportWidth / 2) / before.dayWidth;
  return Math.max(0, centreDays * after.dayWidth - viewportWidth / 2);
}

/** The smallest scroll change that shows [left, left + width) in a viewport; unchanged when it already does. */
export function scrollToShow(left: number, width: number, scroll: number, viewport: number): number {
  if (left < scroll) return left;
  if (left + width > scroll + viewport) return Math.min(left, left + width - viewport);
  return scroll;
}

/** Board workdays: `{"1": true … "7": false}`, Monday = 1. A day missing from the object is worked. */
export type Workdays = Readonly<Record<string, boolean>>;

export function isWorkday(date: string, workdays: Workdays): boolean {
  return workdays[String(isoWeekday(date))] !== false;
}

const weekdayKeys = ['', '1', '2', '3', '4', '5', '6', '7'];

export interface DayColumn {
  index: number;
  date: string;
  left: number;
  workday: boolean;
  today: boolean;
  /** First day of an ISO week: the header draws a stronger line before it. */
  weekStart: boolean;
}

/** The columns of the rendered days: where each is, whether it is shaded, which one is today. */
export function dayColumns(timeline: Timeline, range: DayRange, workdays: Workdays, today: string): DayColumn[] {
  const columns: DayColumn[] = [];
  for (let index = range.first; index <= range.last; index++) {
    const date = dateAt(timeline, index);
    const weekday = weekdayAt(index);
    columns.push({
      index,
      date,
      left: index * timeline.dayWidth,
      workday: workdays[weekdayKeys[weekday]!] !== false,
      today: date === today,
      weekStart: weekday === 1,
    });
  }
  return columns;
}

export interface Band {
  key: string;
  label: string;
  left: number;
  width: number;
}

/** ISO 8601 week number (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(date: string): number {
  const thursday = addDays(date, 4 - isoWeekday(date));
  const yearStart = `${thursday.slice(0, 4)}-01-01`;
  return Math.floor(daysBetween(yearStart, thursday) / 7) + 1;
}

/** A date's parts in the locale's words: "Mon", "23", "Nov", "2026". */
function dateWords(date: string, t: Translate) {
  return {
    weekday: formatDay(date, t.locale, { weekday: 'short' }),
    day: Number(date.slice(8, 10)),
    month: formatDay(date, t.locale, { month: 'short' }),
    year: date.slice(0, 4),
  };
}

/**
 * "Mon 23 Nov 2026": how a day is read out and shown in tooltips. Each card's name asks this
 * for its dates on every render, so answers are kept per language.
 */
export function longDate(date: string, t: Translate): string {
  let known = longDates.get(t);
  if (!known) longDates.set(t, (known = new Map()));
  let text = known.get(date);
  if (text === undefined) {
    text = t('planboard.date.long', dateWords(date, t));
    if (known.size < 20_000) known.set(date, text);
  }
  return text;
}

const longDates = new WeakMap<Translate, Map<string, string>>();

/** "23 Nov": a short date, for the week bands. */
export function shortDate(date: string, t: Translate): string {
  return t('planboard.date.short', dateWords(date, t));
}

export interface Header {
  /** The upper band: weeks at day and week zoom, months at month zoom. */
  upper: Band[];
  /** The lower band: one cell per day, or per week at month zoom. */
  lower: Band[];
}

/**
 * The two header bands over the rendered days. Day zoom: weeks over "Mon 23"; week zoom:
 * weeks ("W48 · Nov 2026") over day numbers; month zoom: months over week numbers (days are
 * too narrow to label). Bands cut by the range edges keep their full width and position, so
 * a label does not jump while scrolling.
 */
export function headerBands(timeline: Timeline, range: DayRange, zoom: Zoom, t: Translate): Header {
  const w = timeline.dayWidth;
  const weekBands = (): Band[] => {
    const bands: Band[] = [];
    for (let index = range.first - (weekdayAt(range.first) - 1); index <= range.last; index += 7) {
      const monday = dateAt(timeline, index);
      const week = isoWeek(monday);
      const words = dateWords(monday, t);
      const label =
        zoom === 'day'
          ? t('planboard.date.week', { week, date: shortDate(monday, t), year: words.year })
          : zoom === 'week'
            ? t('planboard.date.weekShort', { week, month: words.month, year: words.year })
            : String(week);
      bands.push({ key: monday, label, left: index * w, width: 7 * w });
    }
    return bands;
  };
  if (zoom === 'month') {
    const months: Band[] = [];
    let index = range.first - (Number(dateAt(timeline, range.first).slice(8, 10)) - 1);
    while (index <= range.last) {
      const first = dateAt(timeline, index);
      const next = nextMonth(first);
      const days = daysBetween(first, next);
      const label = t('planboard.date.month', { month: formatDay(first, t.locale, { month: 'long' }), year: first.slice(0, 4) });
      months.push({ key: first, label, left: index * w, width: days * w });
      index += days;
    }
    return { upper: months, lower: weekBands() };
  }
  const days: Band[] = [];
  for (let index = range.first; index <= range.last; index++) {
    const date = dateAt(timeline, index);
    const label = zoom === 'day' ? t('planboard.date.day', dateWords(date, t)) : String(Number(date.slice(8, 10)));
    days.push({ key: date, label, left: index * w, width: w });
  }
  return { upper: weekBands(), lower: days };
}

function nextMonth(first: string): string {
  const year = Number(first.slice(0, 4));
  const month = Number(first.slice(5, 7));
  return month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, '0')}-01`;
}

/** Day numbers of a card's span on the axis, for packing and hit tests. */
export function spanDays(timeline: Timeline, start: string, end: string): { first: number; last: number } {
  const first = dayIndex(timeline, start);
  return { first, last: Math.max(first, dayIndex(timeline, end)) };
}

/** A whole number of days for a horizontal drag of `dx` pixels (half a column rounds). */
export function snapDays(dx: number, dayWidth: number): number {
  const days = Math.round(dx / dayWidth);
  return days === 0 ? 0 : days; // never -0
}

/** A span moved by `days`; its length stays. */
export function shiftSpan(start: string, end: string, days: number): { start: string; end: string } {
  return { start: addDays(start, days), end: addDays(end, days) };
}

/**
 * A span with one edge dragged by `days`. The span never gets shorter than one day: the
 * dragged edge stops at the other one.
 */
export function resizeSpan(start: string, end: string, edge: 'start' | 'end', days: number): { start: string; end: string } {
  if (edge === 'start') {
    const moved = addDays(start, days);
    return { start: parseDate(moved) > parseDate(end) ? end : moved, end };
  }
  const moved = addDays(end, days);
  return { start, end: parseDate(moved) < parseDate(start) ? start : moved };
}

/**
 * The fixed blocks of days cards are loaded in (`size` days from the origin each), covering a
 * range: loading by blocks lets a scroll reuse what earlier scrolls loaded.
 */
export function blocksCovering(
  timeline: Timeline,
  range: DayRange,
  size: number,
): { first: number; last: number; from: string; to: string }[] {
  const blocks: { first: number; last: number; from: string; to: string }[] = [];
  for (let first = Math.floor(range.first / size) * size; first <= range.last; first += size) {
    const last = first + size - 1;
    blocks.push({ first, last, from: dateAt(timeline, first), to: dateAt(timeline, last) });
  }
  return blocks;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
