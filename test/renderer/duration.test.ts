import { describe, expect, it } from 'vitest';
import { formatElapsed, formatHours, parseDuration } from '../../renderer/views/time/duration.js';

describe('typed durations', () => {
  it('reads hours and minutes with a colon', () => {
    expect(parseDuration('1:30')).toBe(90);
    expect(parseDuration('0:05')).toBe(5);
    expect(parseDuration(':45')).toBe(45);
    expect(parseDuration('10:00')).toBe(600);
  });

  it('reads decimal hours with a point or a comma, and whole hours', () => {
    expect(parseDuration('1.5')).toBe(90);
    expect(parseDuration('1,5')).toBe(90);
    expect(parseDuration('0.25')).toBe(15);
    expect(parseDuration('2')).toBe(120);
    expect(parseDuration('2h')).toBe(120);
    expect(parseDuration('1.75 uur')).toBe(105);
  });

  it('reads minutes and hours-with-minutes spelled out', () => {
    expect(parseDuration('90m')).toBe(90);
    expect(parseDuration('90 min')).toBe(90);
    expect(parseDuration('1h30')).toBe(90);
    expect(parseDuration('1h 30m')).toBe(90);
    expect(parseDuration('1u30')).toBe(90);
  });

  it('takes an empty cell as nothing, and trims and ignores case', () => {
    expect(parseDuration('')).toBe(0);
    expect(parseDuration('   ')).toBe(0);
    expect(parseDuration(' 2H ')).toBe(120);
  });

  it('refuses what is not a duration', () => {
    for (const text of ['abc', '1:75', '-1', '1:30:00', '1h75', '1..5', 'm']) expect(parseDuration(text), text).toBeNull();
  });
});

describe('shown durations', () => {
  it('shows h:mm, and a blank for nothing in a cell', () => {
    expect(formatHours(90)).toBe('1:30');
    expect(formatHours(5)).toBe('0:05');
    expect(formatHours(0)).toBe('0:00');
    expect(formatHours(0, true)).toBe('');
    expect(formatHours(-75)).toBe('-1:15');
  });

  it('shows a running timer as h:mm:ss', () => {
    expect(formatElapsed(0)).toBe('0:00:00');
    expect(formatElapsed(61_000)).toBe('0:01:01');
    expect(formatElapsed((2 * 3600 + 3 * 60 + 4) * 1000 + 999)).toBe('2:03:04');
    expect(formatElapsed(-5000)).toBe('0:00:00');
  });
});
