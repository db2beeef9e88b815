import { describe, expect, it } from 'vitest';
import { buildWeekGrid, planCellEdit, planEntryChange, type SheetContext, type SheetEntry } from '../../renderer/views/time/week-grid.js';

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
  /** The sheet of a week of `entries`; the person works 8 hours on weekdays unless told otherwise. */
  const sheetOf = (entries: SheetEntry[], expected: (date: string) => number | null = weekdays(480)): SheetContext => ({
    grid: buildWeekGrid({ monday, timeZone: zone, now, entries }),
    timeZone: zone,
    now,
    expected,
  });
  const cellOf = (sheet: SheetContext, card = 'frame', date = '2026-11-18') =>
    sheet.grid.rows.find((row) => row.cardId === card)?.cells.find((cell) => cell.date === date) ?? { date, minutes: 0, entries: [] };
  const type = (entries: SheetEntry[], text: string, card = 'frame', date = '2026-11-18') => {
    const sheet = sheetOf(entries);
    return planCellEdit(cellOf(sheet, card, date), text, sheet);
  };

  it('creates an entry from 09:00 local time in an empty cell', () => {
    expect(type([], '1:30')).toEqual({ kind: 'create', start: '2026-11-18T08:00:00Z', end: '2026-11-18T09:30:00Z', ask: null });
    expect(type([], '')).toEqual({ kind: 'unchanged' });
  });

  it('adjusts the end of the one entry there, or deletes it for 0', () => {
    const one = entry('frame', '2026-11-18T07:00:00Z', 60);
    expect(type([one], '2')).toEqual({ kind: 'update', id: one.id, start: one.start, end: '2026-11-18T09:00:00Z', ask: null });
    expect(type([one], '1:00')).toEqual({ kind: 'unchanged' });
    expect(type([one], '0')).toEqual({ kind: 'delete', id: one.id });
    expect(type([one], '')).toEqual({ kind: 'delete', id: one.id });
  });

  it('asks to choose when the cell holds several entries', () => {
    const two = [entry('frame', '2026-11-18T07:00:00Z', 60), entry('frame', '2026-11-18T12:00:00Z', 30)];
    expect(type(two, '2')).toEqual({ kind: 'choose' });
    expect(type(two, '1:30')).toEqual({ kind: 'unchanged' });
  });

  it('refuses to change a locked entry or a running timer', () => {
    expect(type([entry('frame', '2026-11-18T07:00:00Z', 60, { locked: true })], '2')).toEqual({ kind: 'locked' });
    expect(type([entry('frame', '2026-11-18T10:00:00Z', null)], '1')).toEqual({ kind: 'running' });
  });

  it('says what is wrong with the text', () => {
    expect(type([], 'lots')).toEqual({ kind: 'invalid', reason: 'not-a-duration' });
    expect(type([], '25')).toEqual({ kind: 'invalid', reason: 'too-long' });
  });
});

/** Expected minutes on weekdays, nothing at the weekend. */
function weekdays(minutes: number) {
  return (date: string) => ([0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()) ? 0 : minutes);
}

describe('a day on the sheet adds up as the reports add it up', () => {
  it('counts a night shift on both days, cut at local midnight, not all on the day it starts', () => {
    // Tuesday 23:00 to Wednesday 07:00 in Amsterdam.
    const grid = buildWeekGrid({ monday, timeZone: zone, now, entries: [entry('frame', '2026-11-17T22:00:00Z', 480)] });
    expect(grid.rows[0]!.cells.map((cell) => cell.minutes)).toEqual([0, 60, 420, 0, 0, 0, 0]);
    expect(grid.dayTotals).toEqual([0, 60, 420, 0, 0, 0, 0]);
    expect(grid.total).toBe(480);
    // The entry is behind both cells, so either one opens it.
    expect(grid.rows[0]!.cells[1]!.entries).toEqual(grid.rows[0]!.cells[2]!.entries);
  });

  it('gives the night summer time ends its 25th hour: Saturday 22:00 to Sunday 06:00 is 2:00 and 7:00', () => {
    // Week 43 of 2026; clocks go from 03:00 CEST back to 02:00 CET on Sunday 25 October.
    const grid = buildWeekGrid({
      monday: '2026-10-19',
      timeZone: zone,
      now,
      entries: [entry('frame', '2026-10-24T20:00:00Z', 540)],
    });
    expect(grid.dayTotals).toEqual([0, 0, 0, 0, 0, 120, 420]);
  });

  it('shows a night shift that began the Sunday before on this Monday only', () => {
    const grid = buildWeekGrid({ monday, timeZone: zone, now, entries: [entry('frame', '2026-11-15T21:00:00Z', 600)] });
    expect(grid.dayTotals).toEqual([480, 0, 0, 0, 0, 0, 0]);
  });
});

describe('time typed on the sheet stays within its day and beside the other time booked that day', () => {
  const sheetOf = (entries: SheetEntry[], expected: (date: string) => number | null = weekdays(480)): SheetContext => ({
    grid: buildWeekGrid({ monday, timeZone: zone, now, entries }),
    timeZone: zone,
    now,
    expected,
  });
  const typed = (sheet: SheetContext, row: { card: string | null; activity?: string | null }, date: string, text: string) => {
    const cells = sheet.grid.rows.find((r) => r.cardId === row.card && r.activityId === (row.activity ?? null))?.cells;
    return planCellEdit(cells?.find((cell) => cell.date === date) ?? { date, minutes: 0, entries: [] }, text, sheet);
  };
  const thursday = '2026-11-19';
  /** 09:00–10:00 local on Thursday, on the packing row. */
  const packing = entry(null, '2026-11-19T08:00:00Z', 60, { activity_id: 'packing' });

  it('starts a second row of the day where the first one ends, so the two do not overlap', () => {
    expect(typed(sheetOf([packing]), { card: 'saw' }, thursday, '2')).toMatchObject({
      kind: 'create',
      start: '2026-11-19T09:00:00Z',
      end: '2026-11-19T11:00:00Z',
    });
  });

  it('uses the first free stretch from 09:00 on, and before 09:00 only when nothing later holds it', () => {
    // 07:00–08:00 and 10:00–11:00 booked: an hour fits at 09:00, two hours after 11:00.
    const early = entry('door', '2026-11-19T06:00:00Z', 60);
    const late = entry('door', '2026-11-19T09:00:00Z', 60);
    const sheet = sheetOf([early, late]);
    expect(typed(sheet, { card: 'saw' }, thursday, '1')).toMatchObject({ start: '2026-11-19T08:00:00Z', end: '2026-11-19T09:00:00Z' });
    expect(typed(sheet, { card: 'saw' }, thursday, '2')).toMatchObject({ start: '2026-11-19T10:00:00Z', end: '2026-11-19T12:00:00Z' });
    // 09:00 to midnight taken: 3 hours go before 09:00, ending where the free time ends.
    const rest = entry('door', '2026-11-19T08:00:00Z', 900);
    expect(typed(sheetOf([rest]), { card: 'saw' }, thursday, '3')).toMatchObject({
      start: '2026-11-19T05:00:00Z',
      end: '2026-11-19T08:00:00Z',
    });
  });

  it('refuses what is more than the day has free, saying how much is free, and never runs past midnight', () => {
    // The walk's Monday: 4:00 booked (09:00–13:00), then 22 typed on another row.
    const morning = entry('paint', '2026-11-16T08:00:00Z', 240);
    expect(typed(sheetOf([morning]), { card: 'saw' }, monday, '22')).toEqual({
      kind: 'no-room',
      date: monday,
      minutes: 1320,
      free: 1200,
      longest: 660,
    });
    // 12 hours fit before midnight nowhere after 13:00 and nowhere before 09:00: still refused.
    expect(typed(sheetOf([morning]), { card: 'saw' }, monday, '12')).toMatchObject({ kind: 'no-room', free: 1200, longest: 660 });
    // 11 hours fit exactly up to midnight.
    expect(typed(sheetOf([morning]), { card: 'saw' }, monday, '11')).toMatchObject({
      kind: 'create',
      start: '2026-11-16T12:00:00Z',
      end: '2026-11-16T23:00:00Z',
    });
  });

  it('keeps the start of a changed entry when the longer entry overlaps nothing, and moves it when it would', () => {
    const saw = entry('saw', '2026-11-19T09:00:00Z', 120); // 10:00–12:00
    const sheet = sheetOf([packing, saw]);
    // Packing 09:00–10:00 to 1:30 would run into the sawing: it goes after it, 12:00–13:30.
    expect(typed(sheet, { card: null, activity: 'packing' }, thursday, '1:30')).toEqual({
      kind: 'update',
      id: packing.id,
      start: '2026-11-19T11:00:00Z',
      end: '2026-11-19T12:30:00Z',
      ask: null,
    });
    // Sawing to three hours just grows.
    expect(typed(sheet, { card: 'saw' }, thursday, '3')).toMatchObject({ kind: 'update', start: saw.start, end: '2026-11-19T12:00:00Z' });
    // An entry that began the week before is not changed here: its day is not on this sheet.
    const sunday = entry('frame', '2026-11-15T21:00:00Z', 600);
    expect(planEntryChange(sunday, 300, sheetOf([sunday]))).toEqual({ kind: 'other-week' });
  });

  it('leaves a day of overlapping entries that already holds 24 hours at that, whatever fits beside them', () => {
    // Two entries 00:00–12:00 on Thursday: 24 hours booked, 12 of them free.
    const first = entry('door', '2026-11-18T23:00:00Z', 720);
    const second = entry('frame', '2026-11-18T23:00:00Z', 720);
    expect(typed(sheetOf([first, second]), { card: 'saw' }, thursday, '2')).toEqual({
      kind: 'over-limit',
      date: thursday,
      total: 1560,
      limit: 1440,
    });
  });
});

describe('a day far over the schedule is asked about before it is booked', () => {
  const sheetOf = (entries: SheetEntry[], expected: (date: string) => number | null): SheetContext => ({
    grid: buildWeekGrid({ monday, timeZone: zone, now, entries }),
    timeZone: zone,
    now,
    expected,
  });
  const cellOf = (sheet: SheetContext, date: string) =>
    sheet.grid.rows.find((row) => row.cardId === 'saw')?.cells.find((cell) => cell.date === date) ?? { date, minutes: 0, entries: [] };
  const morning = entry('paint', '2026-11-16T08:00:00Z', 240);

  it('asks when an 8-hour day would hold more than 12 hours, and not at 12', () => {
    const sheet = sheetOf([morning], weekdays(480));
    expect(planCellEdit(cellOf(sheet, monday), '8', sheet)).toMatchObject({ kind: 'create', ask: null });
    expect(planCellEdit(cellOf(sheet, monday), '8:01', sheet)).toMatchObject({
      kind: 'create',
      ask: { date: monday, total: 721, expected: 480 },
    });
  });

  it('asks above 4 hours on a day off, and above 12 hours for a person with no schedule', () => {
    const saturday = '2026-11-21';
    const scheduled = sheetOf([], weekdays(480));
    expect(planCellEdit(cellOf(scheduled, saturday), '4', scheduled)).toMatchObject({ ask: null });
    expect(planCellEdit(cellOf(scheduled, saturday), '5', scheduled)).toMatchObject({ ask: { total: 300, expected: 0 } });
    const unscheduled = sheetOf([morning], () => null);
    expect(planCellEdit(cellOf(unscheduled, monday), '8', unscheduled)).toMatchObject({ ask: null });
    expect(planCellEdit(cellOf(unscheduled, monday), '9', unscheduled)).toMatchObject({ ask: { total: 780, expected: null } });
  });

  it('does not ask when a day that is already long gets shorter', () => {
    const long = entry('saw', '2026-11-16T12:00:00Z', 600); // 13:00–23:00, with the morning 14 hours
    const sheet = sheetOf([morning, long], weekdays(480));
    expect(planCellEdit(cellOf(sheet, monday), '9', sheet)).toMatchObject({ kind: 'update', ask: null });
    expect(planCellEdit(cellOf(sheet, monday), '10:30', sheet)).toMatchObject({ kind: 'update', ask: { total: 870 } });
  });
});
