import { describe, expect, it } from 'vitest';
import { cardDates, cardDisplayName, cardDisplayNames } from '../../shared/card-display-name.js';

describe('cardDisplayName', () => {
  const collection = { name: 'SO-1001' };
  const sawing = { name: 'Sawing' };

  it('names a card by its collection, then its stage, then its dates when asked', () => {
    const card = { name: 'SO-1001', start_date: '2026-12-02', end_date: '2026-12-03' };
    expect(cardDisplayName(card, { collection, stage: sawing })).toBe('SO-1001 · Sawing');
    expect(cardDisplayName(card, { collection, stage: sawing }, { dates: true })).toBe('SO-1001 · Sawing · 2–3 Dec');
  });

  it('falls back to the activity without a stage, and keeps a card name of its own', () => {
    const card = { name: 'Frame', start_date: '2026-12-02', end_date: '2026-12-02' };
    expect(cardDisplayName(card, { collection, activity: { description: 'Welding', code: 'W' } }, { dates: true })).toBe(
      'SO-1001 · Frame · Welding · 2 Dec',
    );
    expect(cardDisplayName({ name: null }, {}, { untitled: 'Naamloze kaart' })).toBe('Naamloze kaart');
  });

  it('writes spans over months and years', () => {
    expect(cardDates({ start_date: '2026-11-30', end_date: '2026-12-02' })).toBe('30 Nov–2 Dec');
    expect(cardDates({ start_date: '2026-12-30', end_date: '2027-01-02' })).toBe('30 Dec 2026–2 Jan 2027');
    expect(cardDates({ start_date: null, end_date: null })).toBeNull();
  });

  it('adds dates only to the names two cards of a list share', () => {
    const names = cardDisplayNames([
      { card: { start_date: '2026-12-02', end_date: '2026-12-03' }, parts: { collection, stage: sawing } },
      { card: { start_date: '2026-12-07', end_date: '2026-12-07' }, parts: { collection, stage: sawing } },
      { card: { start_date: '2026-12-04', end_date: '2026-12-04' }, parts: { collection, stage: { name: 'Painting' } } },
    ]);
    expect(names).toEqual(['SO-1001 · Sawing · 2–3 Dec', 'SO-1001 · Sawing · 7 Dec', 'SO-1001 · Painting']);
  });
});
