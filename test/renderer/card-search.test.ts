/**
 * Finding a card by what a planner knows of it (renderer/views/time/card-search.ts): its
 * collection, stage, activity or a day it is planned on, as the API's filter text.
 */
import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../shared/filter.js';
import { cardSearchFilter, datesInSearch } from '../../renderer/views/time/card-search.js';

const today = '2026-11-26';

describe('card search', () => {
  it('looks for each word in the card, its collection, its stage and its activities', () => {
    expect(cardSearchFilter('SO-1001 zagen', today)).toBe(
      "(name:contains:'SO-1001',or,collection.name:contains:'SO-1001',or,stage.name:contains:'SO-1001',or,activities.description:contains:'SO-1001',or,activities.code:contains:'SO-1001')" +
        ",and,(name:contains:'zagen',or,collection.name:contains:'zagen',or,stage.name:contains:'zagen',or,activities.description:contains:'zagen',or,activities.code:contains:'zagen')",
    );
    expect(cardSearchFilter('   ', today)).toBeUndefined();
  });

  it('reads dates as a planner types them, in English and Dutch, the nearest one when no year is given', () => {
    expect(datesInSearch('2026-12-02', today)).toEqual({ dates: ['2026-12-02'], words: '' });
    expect(datesInSearch('SO-1001 2 Dec', today)).toEqual({ dates: ['2026-12-02'], words: 'SO-1001' });
    expect(datesInSearch('2 december zagen', today)).toEqual({ dates: ['2026-12-02'], words: 'zagen' });
    expect(datesInSearch('3 mrt', today).dates).toEqual(['2027-03-03']);
    expect(datesInSearch('2/12', today).dates).toEqual(['2026-12-02']);
    expect(datesInSearch('5-1', today).dates).toEqual(['2027-01-05']);
    expect(datesInSearch('2.12.2025', today).dates).toEqual(['2025-12-02']);
    expect(datesInSearch('15 jun 2026', today).dates).toEqual(['2026-06-15']);
  });

  it('leaves what is no date as words: order codes, impossible days, unknown months', () => {
    expect(datesInSearch('SO-1001', today)).toEqual({ dates: [], words: 'SO-1001' });
    expect(datesInSearch('31/2', today)).toEqual({ dates: [], words: '31/2' });
    expect(datesInSearch('2 zagen', today)).toEqual({ dates: [], words: '2 zagen' });
    expect(datesInSearch('PO-2026-12-02', today)).toEqual({ dates: [], words: 'PO-2026-12-02' });
  });

  it('finds the cards whose span holds the day, and every filter it makes is valid grammar', () => {
    const filter = cardSearchFilter('Sawing 2 Dec', today)!;
    expect(filter).toContain('(start_date:lte:2026-12-02,and,end_date:gte:2026-12-02)');
    for (const text of ['Sawing 2 Dec', "O'Brien 3/4", '2026-01-31 x', 'a,b (c)'])
      expect(() => parseFilter(cardSearchFilter(text, today)!)).not.toThrow();
  });
});
