import { describe, expect, it } from 'vitest';
import {
  localTimeInstant,
  periodRange,
  personTimeZone,
  rangeInstants,
  systemTimeZone,
  weekStart,
} from '../../renderer/views/time/periods.js';

describe('period presets', () => {
  // A Wednesday.
  const today = '2026-11-18';

  it('gives today, and the ISO week from Monday to Sunday', () => {
    expect(periodRange('today', today)).toEqual({ start: today, end: today });
    expect(periodRange('this_week', today)).toEqual({ start: '2026-11-16', end: '2026-11-22' });
    expect(periodRange('last_week', today)).toEqual({ start: '2026-11-09', end: '2026-11-15' });
  });

  it('gives the calendar month, and the one before across a year end', () => {
    expect(periodRange('this_month', today)).toEqual({ start: '2026-11-01', end: '2026-11-30' });
    expect(periodRange('last_month', today)).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(periodRange('last_month', '2026-01-31')).toEqual({ start: '2025-12-01', end: '2025-12-31' });
    expect(periodRange('this_month', '2028-02-10')).toEqual({ start: '2028-02-01', end: '2028-02-29' });
  });

  it('takes a week starting on Sunday as the week before it (ISO weeks start on Monday)', () => {
    expect(weekStart('2026-11-22')).toBe('2026-11-16');
    expect(weekStart('2026-11-23')).toBe('2026-11-23');
    expect(periodRange('this_week', '2027-01-01')).toEqual({ start: '2026-12-28', end: '2027-01-03' });
  });

  it('gives a custom range in order, and today when none is given', () => {
    expect(periodRange('custom', today, { start: '2026-11-01', end: '2026-11-05' })).toEqual({ start: '2026-11-01', end: '2026-11-05' });
    expect(periodRange('custom', today, { start: '2026-11-05', end: '2026-11-01' })).toEqual({ start: '2026-11-01', end: '2026-11-05' });
    expect(periodRange('custom', today, { start: '2026-11-05' })).toEqual({ start: '2026-11-05', end: '2026-11-05' });
    expect(periodRange('custom', today, {})).toEqual({ start: today, end: today });
  });

  it('turns days into the instants they begin and end in a time zone', () => {
    expect(rangeInstants({ start: '2026-11-16', end: '2026-11-22' }, 'Europe/Amsterdam')).toEqual({
      from: '2026-11-15T23:00:00Z',
      to: '2026-11-22T23:00:00Z',
    });
    expect(rangeInstants({ start: '2026-07-01', end: '2026-07-01' }, 'UTC')).toEqual({
      from: '2026-07-01T00:00:00Z',
      to: '2026-07-02T00:00:00Z',
    });
  });

  it('finds 09:00 local time, also on the days the clocks change', () => {
    const nine = (date: string) => new Date(localTimeInstant(date, '09:00', 'Europe/Amsterdam')).toISOString();
    expect(nine('2026-11-18')).toBe('2026-11-18T08:00:00.000Z');
    expect(nine('2026-07-01')).toBe('2026-07-01T07:00:00.000Z');
    // Summer time starts at 02:00 on 29 March 2026 and ends at 03:00 on 25 October.
    expect(nine('2026-03-29')).toBe('2026-03-29T07:00:00.000Z');
    expect(nine('2026-10-25')).toBe('2026-10-25T08:00:00.000Z');
  });
});

describe("a person's days", () => {
  it('are cut in their own time zone, else in the computer’s', () => {
    expect(personTimeZone({ timezone: 'America/New_York' })).toBe('America/New_York');
    expect(personTimeZone({ timezone: 'Not/A_Zone' })).toBe(systemTimeZone());
    expect(personTimeZone(null)).toBe(systemTimeZone());
  });
});
