import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import {
  blocksCovering,
  dateAt,
  dateAtX,
  dayAtX,
  dayColumns,
  dayIndex,
  dayWidths,
  headerBands,
  isoWeek,
  isWorkday,
  localToday,
  longDate,
  renderedDays,
  resizeSpan,
  rezoomScrollLeft,
  scrollToShow,
  shiftSpan,
  snapDays,
  spanBox,
  spanDays,
  timelineAround,
  xOfDate,
} from '../../renderer/views/planboard/date-geometry.js';

const monToFri = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false };
const english = createTranslate(catalogues, 'en');
const dutch = createTranslate(catalogues, 'nl');
// Thursday 26 November 2026.
const today = '2026-11-26';
const week = timelineAround(today, 'week');

describe('the time axis', () => {
  it('starts on a Monday about a year before today and runs three years', () => {
    expect(week.origin).toBe('2025-11-17');
    expect(new Date(`${week.origin}T00:00:00Z`).getUTCDay()).toBe(1);
    expect(week.days).toBe(157 * 7);
    expect(dayIndex(week, today)).toBe(374);
  });

  it('keeps the same origin at every zoom, only the day width changes', () => {
    for (const zoom of ['day', 'week', 'month'] as const) {
      const timeline = timelineAround(today, zoom);
      expect(timeline.origin).toBe(week.origin);
      expect(timeline.dayWidth).toBe(dayWidths[zoom]);
    }
    expect(dayWidths.day).toBeGreaterThan(dayWidths.week);
    expect(dayWidths.week).toBeGreaterThan(dayWidths.month);
  });

  it('turns days into x and x back into the day under it', () => {
    expect(xOfDate(week, week.origin)).toBe(0);
    expect(xOfDate(week, '2025-11-18')).toBe(40);
    expect(dateAtX(week, 0)).toBe('2025-11-17');
    expect(dateAtX(week, 39.9)).toBe('2025-11-17');
    expect(dateAtX(week, 40)).toBe('2025-11-18');
    for (const date of ['2026-01-01', '2026-03-29', '2026-10-25', today]) expect(dateAtX(week, xOfDate(week, date) + 5)).toBe(date);
  });

  it('clamps x outside the axis to its first and last day', () => {
    expect(dayAtX(week, -500)).toBe(0);
    expect(dayAtX(week, 10_000_000)).toBe(week.days - 1);
  });

  it('is not shifted by daylight saving: every day is one column', () => {
    // Europe changes clocks on 29 March and 25 October 2026; the axis is UTC calendar days.
    expect(dayIndex(week, '2026-03-30') - dayIndex(week, '2026-03-29')).toBe(1);
    expect(dateAt(week, dayIndex(week, '2026-10-26'))).toBe('2026-10-26');
  });

  it('reads "today" in the local calendar, not UTC', () => {
    expect(localToday(new Date(2026, 10, 26, 23, 59))).toBe('2026-11-26');
    expect(localToday(new Date(2026, 0, 1, 0, 1))).toBe('2026-01-01');
  });
});

describe('card spans', () => {
  it('covers the start to the end day inclusive', () => {
    expect(spanBox(week, '2025-11-18', '2025-11-20')).toEqual({ left: 40, width: 3 * 40 });
    expect(spanBox(week, today, today)).toEqual({ left: 374 * 40, width: 40 });
    expect(spanDays(week, '2025-11-18', '2025-11-20')).toEqual({ first: 1, last: 3 });
  });

  it('draws an end before the start as one day', () => {
    expect(spanBox(week, '2025-11-20', '2025-11-18')).toEqual({ left: 3 * 40, width: 40 });
    expect(spanDays(week, '2025-11-20', '2025-11-18')).toEqual({ first: 3, last: 3 });
  });

  it('snaps a drag to whole days, rounding at half a column', () => {
    expect(snapDays(19, 40)).toBe(0);
    expect(snapDays(20, 40)).toBe(1);
    expect(snapDays(-21, 40)).toBe(-1);
    expect(Object.is(snapDays(-3, 40), -0)).toBe(false);
    expect(snapDays(96 * 3 + 40, 96)).toBe(3);
  });

  it('moves a span keeping its length, across a month end', () => {
    expect(shiftSpan('2026-11-30', '2026-12-02', 2)).toEqual({ start: '2026-12-02', end: '2026-12-04' });
    expect(shiftSpan('2026-03-02', '2026-03-03', -3)).toEqual({ start: '2026-02-27', end: '2026-02-28' });
  });

  it('resizes from either edge and never below one day', () => {
    expect(resizeSpan('2026-11-23', '2026-11-25', 'end', 2)).toEqual({ start: '2026-11-23', end: '2026-11-27' });
    expect(resizeSpan('2026-11-23', '2026-11-25', 'start', -1)).toEqual({ start: '2026-11-22', end: '2026-11-25' });
    expect(resizeSpan('2026-11-23', '2026-11-25', 'end', -5)).toEqual({ start: '2026-11-23', end: '2026-11-23' });
    expect(resizeSpan('2026-11-23', '2026-11-25', 'start', 9)).toEqual({ start: '2026-11-25', end: '2026-11-25' });
  });
});

describe('what is rendered for a scroll position', () => {
  it('is the days in view plus the overscan, widened to whole weeks', () => {
    // 1,000 px at 40 px a day from day 100: days 100 … 125 in view.
    const range = renderedDays(week, 100 * 40, 1000, 14);
    expect(range.first).toBeLessThanOrEqual(86);
    expect(range.last).toBeGreaterThanOrEqual(139);
    expect(range.first % 7).toBe(0);
    expect((range.last + 1) % 7).toBe(0);
  });

  it('changes only when the scroll crosses a block', () => {
    const a = renderedDays(week, 100 * 40, 1000, 14);
    const b = renderedDays(week, 100 * 40 + 39, 1000, 14);
    expect(b).toEqual(a);
  });

  it('stays inside the axis at both ends', () => {
    expect(renderedDays(week, 0, 1000, 30).first).toBe(0);
    expect(renderedDays(week, week.days * 40, 1000, 30).last).toBe(week.days - 1);
  });

  it('loads in fixed blocks, so a scroll back asks for blocks already loaded', () => {
    const blocks = blocksCovering(week, { first: 30, last: 70 }, 28);
    expect(blocks.map((b) => [b.first, b.last])).toEqual([
      [28, 55],
      [56, 83],
    ]);
    expect(blocks[0]).toMatchObject({ from: dateAt(week, 28), to: dateAt(week, 55) });
    expect(blocksCovering(week, { first: 40, last: 50 }, 28)[0]).toEqual(blocks[0]);
  });

  it('keeps the date at the centre when the zoom changes', () => {
    const day = timelineAround(today, 'day');
    const scrollLeft = 5000;
    const viewport = 1000;
    const centre = dateAtX(week, scrollLeft + viewport / 2);
    expect(dateAtX(day, rezoomScrollLeft(week, day, scrollLeft, viewport) + viewport / 2)).toBe(centre);
  });

  it('scrolls as little as needed to show a box', () => {
    expect(scrollToShow(100, 50, 0, 500)).toBe(0);
    expect(scrollToShow(600, 50, 0, 500)).toBe(150);
    expect(scrollToShow(100, 50, 300, 500)).toBe(100);
    // Wider than the viewport: its start shows.
    expect(scrollToShow(1000, 900, 0, 500)).toBe(1000);
  });
});

describe('workdays, today and the header', () => {
  it('shades the days the board does not work', () => {
    expect(isWorkday('2026-11-27', monToFri)).toBe(true); // Friday
    expect(isWorkday('2026-11-28', monToFri)).toBe(false); // Saturday
    expect(isWorkday('2026-11-29', { ...monToFri, '7': true })).toBe(true);
    const columns = dayColumns(week, { first: dayIndex(week, '2026-11-23'), last: dayIndex(week, '2026-11-29') }, monToFri, today);
    expect(columns.map((c) => c.workday)).toEqual([true, true, true, true, true, false, false]);
    expect(columns.filter((c) => c.today).map((c) => c.date)).toEqual([today]);
    expect(columns[0]).toMatchObject({ date: '2026-11-23', weekStart: true, left: dayIndex(week, '2026-11-23') * 40 });
  });

  it('numbers weeks as ISO 8601 does', () => {
    expect(isoWeek('2026-01-01')).toBe(1);
    expect(isoWeek('2026-11-26')).toBe(48);
    expect(isoWeek('2027-01-01')).toBe(53);
    expect(isoWeek('2024-12-30')).toBe(1);
  });

  it('labels weeks over days at week zoom, and days with weekday names at day zoom', () => {
    const range = { first: dayIndex(week, '2026-11-23'), last: dayIndex(week, '2026-11-29') };
    const header = headerBands(week, range, 'week', english);
    expect(header.upper).toEqual([{ key: '2026-11-23', label: 'W48 · Nov 2026', left: range.first * 40, width: 7 * 40 }]);
    expect(header.lower.map((band) => band.label)).toEqual(['23', '24', '25', '26', '27', '28', '29']);
    const day = timelineAround(today, 'day');
    expect(headerBands(day, range, 'day', english).lower[0]).toMatchObject({ label: 'Mon 23', width: 96 });
    expect(headerBands(day, range, 'day', english).upper[0]!.label).toBe('Week 48, 23 Nov 2026');
  });

  it('labels months over week numbers at month zoom, whole bands even when cut by the range', () => {
    const month = timelineAround(today, 'month');
    const range = { first: dayIndex(month, '2026-11-20'), last: dayIndex(month, '2026-12-10') };
    const header = headerBands(month, range, 'month', english);
    expect(header.upper.map((band) => band.label)).toEqual(['November 2026', 'December 2026']);
    expect(header.upper[0]).toMatchObject({ left: dayIndex(month, '2026-11-01') * 10, width: 30 * 10 });
    expect(header.lower[0]).toMatchObject({ key: '2026-11-16', label: '47' });
  });

  it('reads dates out in words', () => {
    expect(longDate('2026-11-26', english)).toBe('Thu 26 Nov 2026');
  });

  it('writes the header and dates in Dutch for a Dutch planner', () => {
    const range = { first: dayIndex(week, '2026-11-23'), last: dayIndex(week, '2026-11-29') };
    expect(headerBands(week, range, 'week', dutch).upper[0]!.label).toBe('wk 48 · nov 2026');
    const day = timelineAround(today, 'day');
    expect(headerBands(day, range, 'day', dutch).lower.map((band) => band.label)).toEqual([
      'ma 23',
      'di 24',
      'wo 25',
      'do 26',
      'vr 27',
      'za 28',
      'zo 29',
    ]);
    expect(headerBands(day, range, 'day', dutch).upper[0]!.label).toBe('Week 48, 23 nov 2026');
    const month = timelineAround(today, 'month');
    const months = { first: dayIndex(month, '2027-02-20'), last: dayIndex(month, '2027-03-10') };
    expect(headerBands(month, months, 'month', dutch).upper.map((band) => band.label)).toEqual(['februari 2027', 'maart 2027']);
    expect(longDate('2026-11-26', dutch)).toBe('do 26 nov 2026');
    expect(longDate('2027-03-01', dutch)).toBe('ma 1 mrt 2027');
  });
});
