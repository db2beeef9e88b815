/** What a planboard card shows in its width (renderer/views/planboard/plan-card.ts, shownTitle). */
import { describe, expect, it } from 'vitest';
import { shownTitle } from '../../renderer/views/planboard/plan-card.js';

describe("a card's title in its width", () => {
  it("is the collection's name where it fits, as in day view", () => {
    expect(shownTitle('SO-1001', 'Saw', 200)).toBe('SO-1001');
  });

  it("is the stage's name in a week or month column too narrow for the collection's", () => {
    expect(shownTitle('SO-1001', 'Saw', 40)).toBe('Saw');
    expect(shownTitle('PO-2026-0042', 'Paint', 80)).toBe('Paint');
  });

  it('keeps the name when there is no stage name to show instead', () => {
    expect(shownTitle('SO-1001', '', 40)).toBe('SO-1001');
  });
});
