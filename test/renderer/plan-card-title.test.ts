/**
 * What a planboard card shows in its width (renderer/views/planboard/plan-card.ts, shownTitle
 * and sharedStart): its title where it fits; else what tells it apart from the other cards of
 * its stage row, its order, never the stage the row already names.
 */
import { describe, expect, it } from 'vitest';
import { cardFaces, sharedStart, shownTitle, type MeasureTitle } from '../../renderer/views/planboard/plan-card.js';

/** Every character 7 px wide in the normal face, 6 px in the narrow one. */
const measure: MeasureTitle = (text, face) => text.length * (face === 'normal' ? 7 : 6);

describe("a card's title in its width", () => {
  it('is the title where it fits, as in day view', () => {
    expect(shownTitle('SO-1001', 'SO-1001', 'SO-', 200, measure)).toEqual({ text: 'SO-1001', narrow: false });
  });

  it("is the order's own part, without what its row shares, in a week column too narrow for the title", () => {
    expect(shownTitle('SO-1001', 'SO-1001', 'SO-', 40, measure)).toEqual({ text: '1001', narrow: true });
    expect(shownTitle('PO-2026-0042', 'PO-2026-0042', 'PO-2026-', 80, measure)).toEqual({ text: '0042', narrow: true });
  });

  it('is the order, not the card’s own name, for a renamed card', () => {
    expect(shownTitle('SO-1004 sawing (rush)', 'SO-1004', 'SO-', 40, measure)).toEqual({ text: '1004', narrow: true });
  });

  it('keeps the end of an order number that does not fit even so, where numbers differ, and the start of words', () => {
    const width = cardFaces.narrow.room + 4 * 6;
    expect(shownTitle('SO-123456', 'SO-123456', '', width, measure)).toEqual({ text: '…456', narrow: true });
    expect(shownTitle('Oak table', 'Oak table', '', width, measure)).toEqual({ text: 'Oak table', narrow: true });
  });
});

describe('the start a row’s collection names share', () => {
  it('runs to the last separator, so each name keeps a whole number', () => {
    expect(sharedStart(['SO-1001', 'SO-1002', 'SO-1013'])).toBe('SO-');
    expect(sharedStart(['PO-2026-0042', 'PO-2026-0043'])).toBe('PO-2026-');
    expect(sharedStart(['Oak table', 'Oak chair'])).toBe('Oak ');
  });

  it('is nothing for one name, names with nothing shared, or no separator', () => {
    expect(sharedStart(['SO-1001', 'SO-1001', ''])).toBe('');
    expect(sharedStart(['SO-1001', 'PO-2'])).toBe('');
    expect(sharedStart(['A1001', 'A1002'])).toBe('');
  });
});
