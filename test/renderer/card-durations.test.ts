import { describe, expect, it } from 'vitest';
import { elapsedSeconds, formatClock, formatMinutes } from '../../renderer/views/card/durations.js';

describe('durations', () => {
  it('shows minutes as h:mm', () => {
    expect(formatMinutes(0)).toBe('0:00');
    expect(formatMinutes(5)).toBe('0:05');
    expect(formatMinutes(75)).toBe('1:15');
    expect(formatMinutes(1500)).toBe('25:00');
  });

  it('reads missing or negative minutes as none, and rounds fractions', () => {
    expect(formatMinutes(null)).toBe('0:00');
    expect(formatMinutes(undefined)).toBe('0:00');
    expect(formatMinutes(-3)).toBe('0:00');
    expect(formatMinutes(59.6)).toBe('1:00');
  });

  it('counts a running timer in whole seconds since its start, never below zero', () => {
    const start = '2026-03-02T09:00:00Z';
    expect(elapsedSeconds(start, Date.parse('2026-03-02T10:02:05.900Z'))).toBe(3725);
    expect(elapsedSeconds(start, Date.parse('2026-03-02T08:59:58Z'))).toBe(0);
    expect(elapsedSeconds('not a date', Date.now())).toBe(0);
  });

  it('shows a running time as h:mm:ss', () => {
    expect(formatClock(0)).toBe('0:00:00');
    expect(formatClock(59)).toBe('0:00:59');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(36_000)).toBe('10:00:00');
  });
});
