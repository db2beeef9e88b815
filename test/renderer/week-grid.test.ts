import { describe, expect, it } from 'vitest';
import { buildWeekGrid, planCellEdit, type SheetEntry } from '../../renderer/views/time/week-grid.js';

const zone = 'Europe/Amsterdam';
const monday = '2026-11-16';
const now = Date.parse('2026-11-18T12:00:00Z');

let next = 1;
function entry(card: string | null, start: string, minutes: number | null, extra: Partial<SheetEntry> = {}): SheetEntry {
  const end = minutes === null ? null : new Date(Date.parse(start) + minutes * 60_000).toISOString();
  return {
    id: `e${next++}`,
    card_id: card,
    activity_id: null,
    start,
    end,
    duration: minutes,
    locked: false,
    running: minutes === null,
    ...extra,
  };
}

describe('the week grid', () => {
  it('has a row per card and a cell per day, with totals per day, per row and for the week', () => {
    const grid = buildWeekGrid({
      monday,
      timeZone: zone,
      now,
      entries: [
        entry('frame', '2026-11-16T08:00:00Z', 90),
        entry('frame', '2026-11-16T13:00:00Z', 30),
        entry('door', '2026-11-17T08:00:00Z', 60),
        entry('frame', '2026-11-20T08:00:00Z', 45),
      ],
    });
    expect(grid.days).toEqual(['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22']);
    expect(grid.rows.map((row) => row.cardId)).toEqual(['frame', 'door']);
    const frame = grid.rows[0]!;
    expect(frame.cells.map((cell) => cell.minutes)).toEqual([120, 0, 0, 0, 45, 0, 0]);
    expect(frame.cells[0]!.entries).toHaveLength(2);
    expect(frame.total).toBe(165);
    expect(grid.dayTotals).toEqual([120, 60, 0, 0, 45, 0, 0]);
    expect(grid.total).toBe(225);
  });

  it('puts an entry on the local day it starts, not the UTC day', () => {
    // 23:30 UTC on Monday is 00:30 on Tuesday in Amsterdam.
    const grid = buildWeekGrid({ monday, timeZone: zone, now, entries: [entry('frame', '2026-11-16T23:30:00Z', 60)] });
    expect(grid.rows[0]!.cells.map((cell) => cell.minutes)).toEqual([0, 60, 0, 0, 0, 0, 0]);
  });

  it('leaves out entries of other weeks, and shows added rows without entries', () => {
    const grid = buildWeekGrid({
      monday,
      timeZone: zone,
      now,
      entries: [entry('old', '2026-11-09T08:00:00Z', 60)],
      addedRows: [{ cardId: 'new', activityId: 'saw' }],
    });
    expect(grid.rows.map((row) => [row.cardId, row.activityId])).toEqual([['new', 'saw']]);
    expect(grid.total).toBe(0);
  });

  it('has a row per card and activity, and one per activity for time on no card', () => {
    const grid = buildWeekGrid({
      monday,
      timeZone: zone,
      now,
      entries: [
        entry('frame', '2026-11-16T08:00:00Z', 60, { activity_id: 'saw' }),
        entry('frame', '2026-11-16T10:00:00Z', 30, { activity_id: 'paint' }),
        entry(null, '2026-11-17T08:00:00Z', 60, { activity_id: 'meeting' }),
        entry('frame', '2026-11-18T08:00:00Z', 15, { activity_id: 'saw' }),
      ],
      addedRows: [
        { cardId: null, activityId: 'meeting' },
        { cardId: null, activityId: 'cleaning' },
      ],
    });
    expect(grid.rows.map((row) => [row.cardId, row.activityId, row.total])).toEqual([
      ['frame', 'saw', 75],
      ['frame', 'paint', 30],
      [null, 'meeting', 60],
      [null, 'cleaning', 0],
    ]);
    expect(new Set(grid.rows.map((row) => row.key)).size).toBe(4);
  });

  it('counts a running timer until now', () => {
    const grid = buildWeekGrid({ monday, timeZone: zone, now, entries: [entry('frame', '2026-11-18T10:30:00Z', null)] });
    expect(grid.rows[0]!.cells[2]!.minutes).toBe(90);
  });
});

describe('typing into a cell', () => {
  const cellOf = (entries: SheetEntry[], date = '2026-11-18') =>
    buildWeekGrid({ monday, timeZone: zone, now, entries }).rows[0]?.cells.find((cell) => cell.date === date) ?? {
      date,
      minutes: 0,
      entries: [],
    };

  it('creates an entry from 09:00 local time in an empty cell', () => {
    expect(planCellEdit(cellOf([]), '1:30', zone, now)).toEqual({
      kind: 'create',
      start: '2026-11-18T08:00:00Z',
      end: '2026-11-18T09:30:00Z',
    });
    expect(planCellEdit(cellOf([]), '', zone, now)).toEqual({ kind: 'unchanged' });
  });

  it('adjusts the end of the one entry there, or deletes it for 0', () => {
    const one = entry('frame', '2026-11-18T07:00:00Z', 60);
    expect(planCellEdit(cellOf([one]), '2', zone, now)).toEqual({ kind: 'update', id: one.id, end: '2026-11-18T09:00:00Z' });
    expect(planCellEdit(cellOf([one]), '1:00', zone, now)).toEqual({ kind: 'unchanged' });
    expect(planCellEdit(cellOf([one]), '0', zone, now)).toEqual({ kind: 'delete', id: one.id });
    expect(planCellEdit(cellOf([one]), '', zone, now)).toEqual({ kind: 'delete', id: one.id });
  });

  it('asks to choose when the cell holds several entries', () => {
    const cell = cellOf([entry('frame', '2026-11-18T07:00:00Z', 60), entry('frame', '2026-11-18T12:00:00Z', 30)]);
    expect(planCellEdit(cell, '2', zone, now)).toEqual({ kind: 'choose' });
    expect(planCellEdit(cell, '1:30', zone, now)).toEqual({ kind: 'unchanged' });
  });

  it('refuses to change a locked entry or a running timer', () => {
    expect(planCellEdit(cellOf([entry('frame', '2026-11-18T07:00:00Z', 60, { locked: true })]), '2', zone, now)).toEqual({
      kind: 'locked',
    });
    expect(planCellEdit(cellOf([entry('frame', '2026-11-18T10:00:00Z', null)]), '1', zone, now)).toEqual({ kind: 'running' });
  });

  it('says what is wrong with the text', () => {
    expect(planCellEdit(cellOf([]), 'lots', zone, now)).toEqual({ kind: 'invalid', reason: 'not-a-duration' });
    expect(planCellEdit(cellOf([]), '25', zone, now)).toEqual({ kind: 'invalid', reason: 'too-long' });
  });
});
