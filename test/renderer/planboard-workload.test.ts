/**
 * The planboard's pure rules for load and non-workdays: which moves land a card on a day the
 * board does not work (non-workdays.ts), which cards are flagged, and the capacity strip's
 * weeks in hours (capacity.ts).
 */
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import { hourFigures, indexCapacity, weekCapacities, weekLevel } from '../../renderer/views/planboard/capacity.js';
import { dateAt, timelineAround } from '../../renderer/views/planboard/date-geometry.js';
import { denseLimit, denseWeeks } from '../../renderer/views/planboard/dense-cells.js';
import type { PlacedCard } from '../../renderer/views/planboard/board-layout.js';
import { nonWorkdayLanding, onNonWorkday } from '../../renderer/views/planboard/non-workdays.js';

/** Monday to Friday, as a board's `workdays`. */
const officeWeek = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false };
/** Fri 4 Dec 2026 … Mon 7 Dec 2026. */
const friday = { start_date: '2026-12-04', end_date: '2026-12-04' };
const weekendSpan = { start_date: '2026-12-04', end_date: '2026-12-07' };

describe('moves onto non-workdays', () => {
  it('finds a move from Friday onto Saturday, with the Saturday', () => {
    const move = { card: friday, start_date: '2026-12-05', end_date: '2026-12-05' };
    expect(nonWorkdayLanding([move], officeWeek)).toEqual({ move, date: '2026-12-05' });
  });

  it('finds a resize whose new end is a Sunday, and a move whose new start is a Saturday', () => {
    const resize = { card: friday, start_date: '2026-12-04', end_date: '2026-12-06' };
    expect(nonWorkdayLanding([resize], officeWeek)?.date).toBe('2026-12-06');
    const move = { card: weekendSpan, start_date: '2026-12-05', end_date: '2026-12-08' };
    expect(nonWorkdayLanding([move], officeWeek)?.date).toBe('2026-12-05');
  });

  it('lets a card span a weekend in its middle, and the first refused card of several is named', () => {
    const across = { card: friday, start_date: '2026-12-04', end_date: '2026-12-07' };
    expect(nonWorkdayLanding([across], officeWeek)).toBeUndefined();
    const other = { card: weekendSpan, start_date: '2026-12-11', end_date: '2026-12-13' };
    expect(nonWorkdayLanding([across, other], officeWeek)).toEqual({ move: other, date: '2026-12-13' });
  });

  it('does not refuse a move that leaves a card on a non-workday where it was (a change of stage)', () => {
    const saturday = { start_date: '2026-12-05', end_date: '2026-12-05' };
    expect(nonWorkdayLanding([{ card: saturday, start_date: '2026-12-05', end_date: '2026-12-05' }], officeWeek)).toBeUndefined();
  });

  it('counts Saturday as a workday on a board that works Saturdays', () => {
    const move = { card: friday, start_date: '2026-12-05', end_date: '2026-12-05' };
    expect(nonWorkdayLanding([move], { ...officeWeek, '6': true })).toBeUndefined();
  });

  it('flags a card that starts or ends on a non-workday, not one spanning a weekend', () => {
    expect(onNonWorkday({ start_date: '2026-12-05', end_date: '2026-12-05' }, officeWeek)).toBe(true);
    expect(onNonWorkday({ start_date: '2026-12-04', end_date: '2026-12-05' }, officeWeek)).toBe(true);
    expect(onNonWorkday({ start_date: '2026-12-06', end_date: '2026-12-07' }, officeWeek)).toBe(true);
    expect(onNonWorkday(weekendSpan, officeWeek)).toBe(false);
  });

  it("lets a card onto a day its stage works and the board does not, and no other stage's card", () => {
    // Press works Sat 2026-12-05 (a Saturday shift, docs/API.md "A stage's workdays"); Cut does not.
    const stageDays = new Map([['press', new Set(['2026-12-05'])]]);
    const onto = (stage_id: string) => ({ card: { ...friday, stage_id }, start_date: '2026-12-05', end_date: '2026-12-05', stage_id });
    expect(nonWorkdayLanding([onto('press')], officeWeek, stageDays)).toBeUndefined();
    expect(nonWorkdayLanding([onto('cut')], officeWeek, stageDays)?.date).toBe('2026-12-05');
    // Moved from Cut to Press on that Saturday: Press's days count.
    const across = { card: { ...friday, stage_id: 'cut' }, start_date: '2026-12-05', end_date: '2026-12-05', stage_id: 'press' };
    expect(nonWorkdayLanding([across], officeWeek, stageDays)).toBeUndefined();
    // The Saturday after is not Press's: refused.
    expect(nonWorkdayLanding([{ ...onto('press'), start_date: '2026-12-12', end_date: '2026-12-12' }], officeWeek, stageDays)?.date).toBe(
      '2026-12-12',
    );
    const saturday = { start_date: '2026-12-05', end_date: '2026-12-05' };
    expect(onNonWorkday({ ...saturday, stage_id: 'press' }, officeWeek, stageDays)).toBe(false);
    expect(onNonWorkday({ ...saturday, stage_id: 'cut' }, officeWeek, stageDays)).toBe(true);
  });
});

describe('the capacity strip by week', () => {
  // The axis starts on a Monday; the week of Mon 30 Nov 2026 is day `w` … `w + 6`.
  const timeline = timelineAround('2026-12-02', 'week');
  const at = (day: number) => dateAt(timeline, day);
  const w = Math.round((Date.parse('2026-11-30') - Date.parse(timeline.origin)) / 86_400_000);
  const stage = 'stage-1';
  const day = (date: string, time_available: number, time_planned: number) => ({
    date,
    stage: [{ id: stage, time_available, time_planned }],
  });
  const index = indexCapacity([
    {
      data: [
        day('2026-11-30', 480, 480),
        day('2026-12-01', 480, 600), // 2 h over
        day('2026-12-02', 480, 240),
        day('2026-12-03', 480, 0),
        day('2026-12-04', 480, 0),
        day('2026-12-05', 0, 300), // a card on Saturday: over, nothing available
        day('2026-12-06', 0, 0),
        // the next week: 38 of 40 h, no day over
        ...['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10'].map((date) => day(date, 480, 480)),
        day('2026-12-11', 480, 360),
      ],
    },
  ]);

  it('sums each whole week, Monday to Sunday, even when the view starts mid-week', () => {
    const weeks = weekCapacities(index, stage, w + 3, w + 8, at);
    expect(weeks.map((week) => [at(week.first), week.planned, week.available, week.overDays])).toEqual([
      ['2026-11-30', 1620, 2400, ['2026-12-01', '2026-12-05']],
      ['2026-12-07', 2280, 2400, []],
    ]);
  });

  it('reads a week as over when one of its days is, though the week sum fits', () => {
    const [first, second] = weekCapacities(index, stage, w, w + 13, at);
    expect(weekLevel(first!)).toBe('over');
    expect(weekLevel(second!)).toBe('full');
  });

  it('leaves out weeks with nothing available or planned', () => {
    expect(weekCapacities(index, stage, w + 14, w + 20, at)).toEqual([]);
  });

  it('prints hours: "38 / 40 h" in English, a decimal comma and "u" in Dutch', () => {
    const en = createTranslate(catalogues, 'en');
    const nl = createTranslate(catalogues, 'nl');
    expect(en('workload.hours', hourFigures({ planned: 2280, available: 2400 }, en.locale, true))).toBe('38 / 40 h');
    expect(en('workload.hours', hourFigures({ planned: 1620, available: 2400 }, en.locale, false))).toBe('27 / 40 h');
    expect(nl('workload.hours', hourFigures({ planned: 1650, available: 2400 }, nl.locale, false))).toBe('27,5 / 40 u');
    expect(en('workload.hours', hourFigures({ planned: 1650, available: 2400 }, en.locale, true))).toBe('28 / 40 h');
  });
});

describe('dense weeks at month zoom', () => {
  /** A card of one stage row over days `first` … `last` of the axis (day 0 a Monday). */
  const placed = (id: string, first: number, last = first) => ({ card: { id }, stage: 0, lane: 0, first, last }) as unknown as PlacedCard;

  it('is dense from more than four cards on one day of a stage, and lists every card meeting the week', () => {
    expect(denseLimit).toBe(4);
    // Day 7 (a Monday) has a, b, c and d; e and f are later that week, on days with fewer.
    const four = [placed('a', 7), placed('b', 7), placed('c', 7, 9), placed('d', 6, 8), placed('e', 9), placed('f', 8)];
    expect(denseWeeks(four, 0, 20)).toEqual([]);
    // g from the Saturday before makes five on day 7; the week before has d and g only.
    const five = [...four, placed('g', 5, 7)];
    expect(denseWeeks(five, 0, 20).map((week) => [week.first, week.cards.map((p) => p.card.id)])).toEqual([
      [7, ['a', 'b', 'c', 'd', 'e', 'f', 'g']],
    ]);
  });

  it('counts a long card on every day it covers, and only the weeks in view', () => {
    const long = Array.from({ length: 5 }, (_, at) => placed(`long${at}`, 0, 20));
    expect(denseWeeks(long, 8, 15).map((week) => week.first)).toEqual([7, 14]);
    expect(denseWeeks(long, 0, 20, 5)).toEqual([]);
  });
});
