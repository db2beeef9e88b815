/** What the floor reported on a card, as the card panel counts it (renderer/views/card/floor-figures.ts). */
import { describe, expect, it } from 'vitest';
import type { OrderRow } from '../../shared/resources/order-row.js';
import {
  bookedMinutes,
  bookedShare,
  entryUserName,
  hoursText,
  plannedMinutes,
  rowFigures,
  runningEntry,
  type EntryWithUser,
} from '../../renderer/views/card/floor-figures.js';

// A fixed clock for the running timer: 10:30 on a chosen Monday.
const now = Date.parse('2026-03-02T10:30:00Z');

function entry(fields: Partial<EntryWithUser>): EntryWithUser {
  // Only the fields the figures read matter; the rest are a time entry's defaults.
  return {
    id: 'e',
    card_id: 'c',
    activity_id: null,
    user_id: null,
    start: '2026-03-02T07:00:00Z',
    end: null,
    duration: null,
    status: 'draft',
    locked: false,
    running: false,
    forgotten: false,
    overlaps: [],
    note: null,
    synchronized_at: null,
    external_ref: null,
    external_note: null,
    external_failed: false,
    created_at: '2026-03-02T07:00:00Z',
    updated_at: '2026-03-02T07:00:00Z',
    ...fields,
  };
}

function row(fields: Partial<OrderRow>): OrderRow {
  return {
    id: 'r',
    activity_id: null,
    position: 0,
    quantity: null,
    quantity_delivered: null,
    quantity_scrapped: null,
    ...fields,
  } as OrderRow; // a row with only the fields the figures read
}

describe('booked against planned', () => {
  it("plans the sum of the card's activities' time", () => {
    expect(plannedMinutes([{ time: 240 }, { time: 240 }])).toBe(480);
    expect(plannedMinutes([])).toBe(0);
  });

  it('books finished durations and a running timer until now', () => {
    const finished = entry({ start: '2026-03-02T06:00:00Z', end: '2026-03-02T07:30:00Z', duration: 90 });
    const running = entry({ start: '2026-03-02T09:00:00Z', end: null, running: true });
    expect(bookedMinutes([finished], now)).toBe(90);
    expect(bookedMinutes([finished, running], now)).toBe(180);
    // Half a minute later the running one rounds up, as the API rounds a duration.
    expect(bookedMinutes([running], now + 30_000)).toBe(91);
    // A clock a little behind the server's: a timer started "later" counts nothing, not less.
    expect(bookedMinutes([entry({ start: '2026-03-02T10:31:00Z', running: true })], now)).toBe(0);
  });

  it('counts a finished entry without a stored duration from its start to its end', () => {
    expect(bookedMinutes([entry({ start: '2026-03-02T06:00:00Z', end: '2026-03-02T06:45:00Z', duration: null })], now)).toBe(45);
  });

  it('marks booked beyond planned as over plan', () => {
    expect(bookedShare(330, 480)).toEqual({ percent: 69, over: false });
    expect(bookedShare(480, 480)).toEqual({ percent: 100, over: false });
    expect(bookedShare(540, 480)).toEqual({ percent: 113, over: true });
    expect(bookedShare(30, 0)).toEqual({ percent: 100, over: true });
    expect(bookedShare(0, 0)).toEqual({ percent: 0, over: false });
  });

  it('shows hours with one decimal in the language', () => {
    expect(hoursText(330, 'en-GB')).toBe('5.5');
    expect(hoursText(330, 'nl-NL')).toBe('5,5');
    expect(hoursText(480, 'en-GB')).toBe('8');
    expect(hoursText(100, 'en-GB')).toBe('1.7');
  });
});

describe('who is on it', () => {
  it('is the latest running timer, named by its user', () => {
    const anna = entry({
      id: 'anna',
      start: '2026-03-02T09:00:00Z',
      running: true,
      user: { display_name: null, fullname: 'Anna de Vries', email: 'anna@example.com' },
    });
    const max = entry({
      id: 'max',
      start: '2026-03-02T10:00:00Z',
      running: true,
      user: { display_name: 'Max', fullname: null, email: 'max@example.com' },
    });
    const done = entry({ id: 'done', start: '2026-03-02T10:10:00Z', end: '2026-03-02T10:20:00Z', duration: 10 });
    expect(runningEntry([anna, done])?.id).toBe('anna');
    expect(runningEntry([anna, max, done])?.id).toBe('max');
    expect(runningEntry([done])).toBeUndefined();
    expect(entryUserName(anna)).toBe('Anna de Vries');
    expect(entryUserName(max)).toBe('Max');
    expect(entryUserName(entry({ user: null }))).toBeNull();
  });
});

describe('made against ordered', () => {
  it("takes the rows of the card's activities or of none, in the order's order", () => {
    const rows = [
      row({ id: 'paint', activity_id: 'painting', position: 0, quantity: 5 }),
      row({ id: 'weld', activity_id: 'welding', position: 2, quantity: 10, quantity_delivered: 8, quantity_scrapped: 1 }),
      row({ id: 'any', activity_id: null, position: 1, quantity: null, quantity_delivered: 3 }),
    ];
    expect(rowFigures(rows, ['welding']).map(({ row: { id }, made, ordered, scrapped }) => ({ id, made, ordered, scrapped }))).toEqual([
      { id: 'any', made: 3, ordered: null, scrapped: 0 },
      { id: 'weld', made: 8, ordered: 10, scrapped: 1 },
    ]);
    expect(rowFigures(rows, []).map((figures) => figures.row.id)).toEqual(['any']);
  });
});
