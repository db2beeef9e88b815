import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packLanes, type LaneSpan } from '../../renderer/views/planboard/lanes.js';

const span = (id: string, first: number, last: number): LaneSpan => ({ id, first, last });

describe('stacking overlapping cards into lanes', () => {
  it('keeps cards that do not overlap on one lane', () => {
    const { laneOf, laneCount } = packLanes([span('a', 0, 1), span('b', 2, 3), span('c', 4, 4)]);
    expect(laneCount).toBe(1);
    expect([...laneOf.values()]).toEqual([0, 0, 0]);
  });

  it('puts a card that overlaps another one lane down, and reuses the top lane when it frees', () => {
    const { laneOf, laneCount } = packLanes([span('a', 0, 3), span('b', 2, 5), span('c', 4, 6), span('d', 6, 6)]);
    expect(Object.fromEntries(laneOf)).toEqual({ a: 0, b: 1, c: 0, d: 1 });
    expect(laneCount).toBe(2);
  });

  it('treats a card ending the day another starts as overlapping (days are whole)', () => {
    expect(packLanes([span('a', 0, 2), span('b', 2, 4)]).laneCount).toBe(2);
  });

  it('keeps the given order for cards starting the same day (the board rank)', () => {
    const { laneOf } = packLanes([span('second', 5, 6), span('first', 3, 4), span('third', 5, 5)]);
    expect(Object.fromEntries(laneOf)).toEqual({ first: 0, second: 0, third: 1 });
  });

  it('has no lanes without cards', () => {
    expect(packLanes([])).toEqual({ laneOf: new Map(), laneCount: 0 });
  });

  it('never puts overlapping cards on one lane, and needs no more lanes than cards overlap on a day', () => {
    const spans = fc.array(
      fc
        .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 10 }))
        .map(([first, length]) => ({ first, last: first + length })),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(spans, (list) => {
        const input = list.map((s, i) => span(`c${i}`, s.first, s.last));
        const { laneOf, laneCount } = packLanes(input);
        for (const a of input) {
          for (const b of input) {
            if (a.id < b.id && laneOf.get(a.id) === laneOf.get(b.id)) expect(a.last < b.first || b.last < a.first).toBe(true);
          }
        }
        let most = 0;
        for (let day = 0; day <= 70; day++) most = Math.max(most, input.filter((s) => s.first <= day && s.last >= day).length);
        expect(laneCount).toBe(most);
      }),
    );
  });

  it('packs 1,000 cards quickly', () => {
    const input = Array.from({ length: 1000 }, (_, i) => span(`c${i}`, (i * 7) % 365, ((i * 7) % 365) + (i % 4)));
    const started = performance.now();
    packLanes(input);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
