/**
 * Splitting worked time into payroll hour codes (shared/surcharges.ts, docs/API.md "Surcharge
 * rules"), every expectation worked out by hand from the local clock of Europe/Amsterdam: CET
 * (UTC+1) in December, CEST (UTC+2) in summer. Summer time ends on Sunday 25 October 2026 at
 * 03:00 CEST (01:00 UTC), when clocks go back to 02:00 CET: a 25-hour day. It begins on Sunday
 * 29 March 2026 at 02:00 CET (01:00 UTC), when clocks jump to 03:00 CEST: a 23-hour day.
 *
 * December 2026: Monday 7, Tuesday 8, Friday 11, Saturday 12, Sunday 13; Thursday 24, Friday 25.
 */
import { describe, expect, it } from 'vitest';
import { LocalDays } from '../../shared/entry-days.js';
import { shareTotal, splitBySurcharges, type SurchargeTerms } from '../../shared/surcharges.js';

const zone = 'Europe/Amsterdam';

const saturday: SurchargeTerms = {
  weekdays: [6],
  public_holiday: false,
  from_time: null,
  to_time: null,
  percentage: 150,
  hour_code: 'SAT',
};
const weekNights: SurchargeTerms = {
  weekdays: [1, 2, 3, 4, 5],
  public_holiday: false,
  from_time: '22:00',
  to_time: '06:00',
  percentage: 125,
  hour_code: 'NIGHT',
};
const publicHoliday: SurchargeTerms = {
  weekdays: [],
  public_holiday: true,
  from_time: null,
  to_time: null,
  percentage: 200,
  hour_code: 'HOL',
};
const everyNight: SurchargeTerms = { ...weekNights, weekdays: [1, 2, 3, 4, 5, 6, 7] };
const standard = [saturday, weekNights, publicHoliday];

/** Splits the span between two UTC instants with the activity's code ORD. */
function split(startUtc: string, endUtc: string, rules: readonly SurchargeTerms[], holidays: string[] = [], timeZone = zone) {
  return splitBySurcharges({
    start: Date.parse(startUtc),
    end: Date.parse(endUtc),
    timeZone,
    rules,
    holidays: new Set(holidays),
    hourCode: 'ORD',
  });
}

const seg = (date: string, minutes: number, percentage: number, hour_code: string | null) => ({ date, minutes, percentage, hour_code });

describe('splitBySurcharges', () => {
  it('pays a weekday day shift as normal hours under the activity’s code', () => {
    // Tuesday 08:00–16:30 CET.
    expect(split('2026-12-08T07:00:00Z', '2026-12-08T15:30:00Z', standard)).toEqual([seg('2026-12-08', 510, 100, 'ORD')]);
  });

  it('pays a Saturday at 150 %', () => {
    // Saturday 09:00–13:00 CET.
    expect(split('2026-12-12T08:00:00Z', '2026-12-12T12:00:00Z', standard)).toEqual([seg('2026-12-12', 240, 150, 'SAT')]);
  });

  it('splits a night shift across midnight into normal and night hours on two days', () => {
    // Tuesday 20:00 → Wednesday 02:00 CET: 20–22 normal, 22–24 night, Wednesday 00–02 night.
    expect(split('2026-12-08T19:00:00Z', '2026-12-09T01:00:00Z', standard)).toEqual([
      seg('2026-12-08', 120, 100, 'ORD'),
      seg('2026-12-08', 120, 125, 'NIGHT'),
      seg('2026-12-09', 120, 125, 'NIGHT'),
    ]);
  });

  it('weighs each minute by its own weekday: a Friday night shift runs into Saturday', () => {
    // Friday 20:00 → Saturday 04:00 CET: Friday 20–22 normal, 22–24 weekday night (Friday),
    // Saturday 00–04 no weekday night (Saturday is not in 1–5) but the Saturday rule.
    expect(split('2026-12-11T19:00:00Z', '2026-12-12T03:00:00Z', standard)).toEqual([
      seg('2026-12-11', 120, 100, 'ORD'),
      seg('2026-12-11', 120, 125, 'NIGHT'),
      seg('2026-12-12', 240, 150, 'SAT'),
    ]);
  });

  it('pays a company holiday at 200 %, above the night rule that holds on it too', () => {
    // Friday 25 December 08:00–12:00 CET: a holiday.
    expect(split('2026-12-25T07:00:00Z', '2026-12-25T11:00:00Z', standard, ['2026-12-25'])).toEqual([seg('2026-12-25', 240, 200, 'HOL')]);
    // Thursday 24th 21:00 → Friday 25th 01:00: 21–22 normal, 22–24 night, and 00–01 both the
    // night rule (a Friday) and the holiday rule hold: 200 beats 125.
    expect(split('2026-12-24T20:00:00Z', '2026-12-25T00:00:00Z', standard, ['2026-12-25'])).toEqual([
      seg('2026-12-24', 60, 100, 'ORD'),
      seg('2026-12-24', 120, 125, 'NIGHT'),
      seg('2026-12-25', 60, 200, 'HOL'),
    ]);
    // Without the holiday the same Friday morning is a normal one.
    expect(split('2026-12-25T07:00:00Z', '2026-12-25T11:00:00Z', standard)).toEqual([seg('2026-12-25', 240, 100, 'ORD')]);
  });

  it('lets the highest percentage win where rules overlap, whichever comes first', () => {
    const evening: SurchargeTerms = { ...weekNights, from_time: '18:00', to_time: '23:00', percentage: 110, hour_code: 'EVE' };
    // Tuesday 17:00–24:00 CET: 17–18 normal; 18–22 evening; 22–23 evening and night: night (125).
    const expected = [seg('2026-12-08', 60, 100, 'ORD'), seg('2026-12-08', 240, 110, 'EVE'), seg('2026-12-08', 120, 125, 'NIGHT')];
    expect(split('2026-12-08T16:00:00Z', '2026-12-08T23:00:00Z', [evening, weekNights])).toEqual(expected);
    expect(split('2026-12-08T16:00:00Z', '2026-12-08T23:00:00Z', [weekNights, evening])).toEqual(expected);
    // Saturday 20:00 → Sunday 02:00 with a night rule for every day: on Saturday the Saturday
    // rule (150) beats the night (125) also after 22:00; on Sunday only the night holds.
    expect(split('2026-12-12T19:00:00Z', '2026-12-13T01:00:00Z', [everyNight, saturday])).toEqual([
      seg('2026-12-12', 240, 150, 'SAT'),
      seg('2026-12-13', 120, 125, 'NIGHT'),
    ]);
  });

  it('takes the first of two rules with the same percentage', () => {
    const other: SurchargeTerms = { ...saturday, hour_code: 'WEEKEND' };
    expect(split('2026-12-12T08:00:00Z', '2026-12-12T09:00:00Z', [other, saturday])).toEqual([seg('2026-12-12', 60, 150, 'WEEKEND')]);
    expect(split('2026-12-12T08:00:00Z', '2026-12-12T09:00:00Z', [saturday, other])).toEqual([seg('2026-12-12', 60, 150, 'SAT')]);
  });

  it('pays a rule without a code of its own under the activity’s code, and reads an open end as midnight', () => {
    const lateSunday: SurchargeTerms = {
      weekdays: [7],
      public_holiday: false,
      from_time: '18:00',
      to_time: null,
      percentage: 175,
      hour_code: null,
    };
    // Sunday 13th 16:00–20:00 CET: 16–18 normal, 18–20 at 175 % under ORD.
    expect(split('2026-12-13T15:00:00Z', '2026-12-13T19:00:00Z', [lateSunday])).toEqual([
      seg('2026-12-13', 120, 100, 'ORD'),
      seg('2026-12-13', 120, 175, 'ORD'),
    ]);
  });

  it('counts the repeated hour twice on the night summer time ends (25 October 2026)', () => {
    // Saturday 24th 20:00 CEST (18:00 UTC) → Sunday 25th 06:00 CET (05:00 UTC): 11 hours.
    // Saturday 20–22 normal, 22–24 night; Sunday 00:00 CEST → 06:00 CET is 7 hours, all night.
    expect(split('2026-10-24T18:00:00Z', '2026-10-25T05:00:00Z', [everyNight])).toEqual([
      seg('2026-10-24', 120, 100, 'ORD'),
      seg('2026-10-24', 120, 125, 'NIGHT'),
      seg('2026-10-25', 420, 125, 'NIGHT'),
    ]);
    // A window that ends inside the repeated hour holds in both of its passes: Sunday
    // 02:30–05:00 at 150 %. Sunday 00:00 CEST → 06:00 CET: 00:00–02:30 CEST normal (150),
    // 02:30–03:00 CEST in (30), back to 02:00 CET, 02:00–02:30 CET normal (30),
    // 02:30–05:00 CET in (150), 05:00–06:00 CET normal (60).
    const early: SurchargeTerms = {
      weekdays: [7],
      public_holiday: false,
      from_time: '02:30',
      to_time: '05:00',
      percentage: 150,
      hour_code: 'X',
    };
    expect(split('2026-10-24T22:00:00Z', '2026-10-25T05:00:00Z', [early])).toEqual([
      seg('2026-10-25', 240, 100, 'ORD'),
      seg('2026-10-25', 180, 150, 'X'),
    ]);
  });

  it('counts nothing for the hour that does not exist when summer time begins (29 March 2026)', () => {
    // Sunday 00:00 CET (Saturday 23:00 UTC) → 05:00 CEST (03:00 UTC): 4 hours. Window 02:30–03:30:
    // 00:00–02:00 CET normal (120), the clock jumps to 03:00, 03:00–03:30 in (30), 03:30–05:00 normal (90).
    const early: SurchargeTerms = {
      weekdays: [7],
      public_holiday: false,
      from_time: '02:30',
      to_time: '03:30',
      percentage: 150,
      hour_code: 'X',
    };
    expect(split('2026-03-28T23:00:00Z', '2026-03-29T03:00:00Z', [early])).toEqual([
      seg('2026-03-29', 210, 100, 'ORD'),
      seg('2026-03-29', 30, 150, 'X'),
    ]);
  });

  it('reads the clock of the time zone it is given', () => {
    // Tuesday 21:00–23:00 UTC: in UTC 21–22 normal and 22–23 night; in Amsterdam 22–24, all night.
    expect(split('2026-12-08T21:00:00Z', '2026-12-08T23:00:00Z', standard, [], 'UTC')).toEqual([
      seg('2026-12-08', 60, 100, 'ORD'),
      seg('2026-12-08', 60, 125, 'NIGHT'),
    ]);
    expect(split('2026-12-08T21:00:00Z', '2026-12-08T23:00:00Z', standard)).toEqual([seg('2026-12-08', 120, 125, 'NIGHT')]);
  });

  it('rounds once: the segments add up to the span’s minutes, or to the minutes it is told', () => {
    // Tuesday 21:59:30 → 22:00:20 CET: 30 s normal, 20 s night; one rounded minute, to the larger part.
    expect(split('2026-12-08T20:59:30Z', '2026-12-08T21:00:20Z', standard)).toEqual([seg('2026-12-08', 1, 100, 'ORD')]);
    // Told 0 minutes (a report line that got none of its entry's rounded minute): one segment of 0.
    const told = splitBySurcharges({
      start: Date.parse('2026-12-08T20:59:30Z'),
      end: Date.parse('2026-12-08T21:00:20Z'),
      timeZone: zone,
      days: new LocalDays(zone),
      rules: standard,
      holidays: new Set(),
      hourCode: null,
      minutes: 0,
    });
    expect(told).toEqual([seg('2026-12-08', 0, 100, null)]);
    expect(split('2026-12-08T10:00:00Z', '2026-12-08T10:00:00Z', standard)).toEqual([]);
    expect(shareTotal([0.5, 1 / 3, 2.25], 3)).toEqual([1, 0, 2]);
    expect(shareTotal([30, 60, 30], 120)).toEqual([30, 60, 30]);
  });

  it('holds a rule with no window all day, and one with no rules pays everything normal', () => {
    expect(split('2026-12-12T22:00:00Z', '2026-12-13T02:00:00Z', [])).toEqual([
      seg('2026-12-12', 60, 100, 'ORD'),
      seg('2026-12-13', 180, 100, 'ORD'),
    ]);
  });
});
