/**
 * Which cards the planboard's arrows join (renderer/views/planboard/dependency-arrows.ts):
 * each card of a collection to its cards on the next dependent stage, relations that order two
 * cards, late ones marked, and only arrows whose two cards are rendered.
 */
import { describe, expect, it } from 'vitest';
import type { PlacedCard } from '../../renderer/views/planboard/board-layout.js';
import { arrowPath, arrowsBetween, dependencyLinks, isLate } from '../../renderer/views/planboard/dependency-arrows.js';
import type { PlanCard } from '../../renderer/views/planboard/plan-card.js';

const stages = [
  { id: 'saw', priority: 0 },
  { id: 'weld', priority: 1 },
  { id: 'extra', priority: 2, independent: true },
  { id: 'paint', priority: 3 },
];

function placed(id: string, collection: string, stage: string, start: string, end: string, left = 0, top = 0): PlacedCard {
  const card = { id, collection_id: collection, stage_id: stage, start_date: start, end_date: end } as PlanCard;
  return { card, stage: 0, lane: 0, first: 0, last: 0, left, top, width: 100 };
}

const pairs = (links: ReturnType<typeof dependencyLinks>) => links.map((l) => `${l.from.card.id}→${l.to.card.id}${l.late ? ' late' : ''}`);

describe('dependency arrows', () => {
  it('joins each card of a collection to its cards on the next dependent stage that has any', () => {
    const cards = [
      placed('a-saw', 'A', 'saw', '2026-12-07', '2026-12-08'),
      placed('a-weld', 'A', 'weld', '2026-12-09', '2026-12-09'),
      placed('a-extra', 'A', 'extra', '2026-12-07', '2026-12-07'),
      placed('a-paint', 'A', 'paint', '2026-12-10', '2026-12-11'),
      placed('b-saw', 'B', 'saw', '2026-12-07', '2026-12-07'),
      placed('b-paint', 'B', 'paint', '2026-12-08', '2026-12-08'),
      placed('c-weld', 'C', 'weld', '2026-12-07', '2026-12-07'),
    ];
    expect(pairs(dependencyLinks(cards, stages)).sort()).toEqual(['a-saw→a-weld', 'a-weld→a-paint', 'b-saw→b-paint'].sort());
  });

  it('marks a dependency late when the later card starts on or before the earlier one’s last day', () => {
    expect(isLate({ end_date: '2026-12-08' }, { start_date: '2026-12-09' })).toBe(false);
    expect(isLate({ end_date: '2026-12-08' }, { start_date: '2026-12-08' })).toBe(true);
    expect(isLate({ end_date: '2026-12-08' }, { start_date: '2026-12-01' })).toBe(true);
    const cards = [placed('a-saw', 'A', 'saw', '2026-12-07', '2026-12-09'), placed('a-weld', 'A', 'weld', '2026-12-08', '2026-12-08')];
    expect(pairs(dependencyLinks(cards, stages))).toEqual(['a-saw→a-weld late']);
  });

  it('orders cards by blocks and depends relations, and draws none for related or cloned', () => {
    const cards = [placed('x', 'X', 'saw', '2026-12-07', '2026-12-07'), placed('y', 'Y', 'saw', '2026-12-09', '2026-12-09')];
    const links = dependencyLinks(cards, stages, [
      { card_id: 'x', related_card_id: 'y', type: 'blocks' },
      { card_id: 'x', related_card_id: 'y', type: 'depends' },
      { card_id: 'x', related_card_id: 'y', type: 'related' },
      { card_id: 'x', related_card_id: 'gone', type: 'blocks' },
    ]);
    expect(pairs(links)).toEqual(['x→y', 'y→x late']);
    expect(links.every((l) => l.kind === 'relation')).toBe(true);
  });

  it('draws only the arrows whose two cards are rendered, from the right edge to the left edge', () => {
    const cards = [
      placed('a-saw', 'A', 'saw', '2026-12-07', '2026-12-08', 0, 10),
      placed('a-weld', 'A', 'weld', '2026-12-09', '2026-12-09', 200, 90),
      placed('a-paint', 'A', 'paint', '2026-12-10', '2026-12-10', 300, 170),
    ];
    const links = dependencyLinks(cards, stages);
    const arrows = arrowsBetween(links, new Set(['a-saw', 'a-weld']), 40);
    expect(arrows).toEqual([
      { id: 'stage:a-saw:a-weld', from: 'a-saw', to: 'a-weld', kind: 'stage', late: false, x1: 98, y1: 30, x2: 202, y2: 110 },
    ]);
    expect(arrowPath(arrows[0]!)).toBe('M 98 30 C 150 30, 150 110, 202 110');
  });
});
