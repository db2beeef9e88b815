/**
 * The printed plan's layout (electron/api/print/plan-layout.ts), as arithmetic: a week of
 * columns a page, lanes for cards that overlap, names wrapped in full, a stage too long for
 * one page continued on the next, and every card on the page of its days.
 */
import { describe, expect, it } from 'vitest';
import { dayChunks, layoutPlan, page, wrapName, type PrintCard } from '../../electron/api/print/plan-layout.js';

/** Every character 5 pt wide at any size: widths are easy to reason about. */
const measure = (text: string) => text.length * 5;

const stages = [
  { id: 's1', name: 'Sawing' },
  { id: 's2', name: 'Painting' },
];

const card = (id: string, stage_id: string, start_date: string, end_date: string, name = `Card ${id}`): PrintCard => ({
  id,
  name,
  stage_id,
  start_date,
  end_date,
});

describe('printed plan layout', () => {
  it('cuts a period into chunks of at most seven days from its first day', () => {
    expect(dayChunks('2026-12-07', '2026-12-13')).toEqual([
      ['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11', '2026-12-12', '2026-12-13'],
    ]);
    const chunks = dayChunks('2026-12-07', '2026-12-22');
    expect(chunks.map((days) => [days[0], days.length])).toEqual([
      ['2026-12-07', 7],
      ['2026-12-14', 7],
      ['2026-12-21', 2],
    ]);
  });

  it('wraps a name over lines at word breaks and keeps all of it', () => {
    expect(wrapName('SO-1001 · Sawing · 2–3 Dec', 55, 7, measure)).toEqual(['SO-1001 ·', 'Sawing ·', '2–3 Dec']);
    expect(wrapName('Abcdefghijklmnop', 40, 7, measure)).toEqual(['Abcdefgh', 'ijklmnop']);
    expect(wrapName('one two three four five six', 20, 7, measure, 2)).toEqual(['one', 'two…']);
  });

  it('puts overlapping cards of a stage in separate lanes and cards on their own days', () => {
    const [only] = layoutPlan(
      stages,
      [
        card('a', 's1', '2026-12-07', '2026-12-08'),
        card('b', 's1', '2026-12-08', '2026-12-09'),
        card('c', 's1', '2026-12-10', '2026-12-10'),
      ],
      '2026-12-07',
      '2026-12-13',
      measure,
    );
    expect(only!.days).toHaveLength(7);
    const sawing = only!.stages.find((s) => s.id === 's1')!;
    const at = (id: string) => sawing.cards.find((c) => c.id === id)!;
    expect(at('b').y).toBeGreaterThan(at('a').y);
    expect(at('c').y).toBe(at('a').y);
    expect(at('a').x).toBeCloseTo(only!.dayX[0]! + 1);
    expect(at('a').width).toBeCloseTo(2 * only!.dayWidth - 2);
    expect(at('c').x).toBeCloseTo(only!.dayX[3]! + 1);
    const painting = only!.stages.find((s) => s.id === 's2')!;
    expect(painting.y).toBeCloseTo(sawing.y + sawing.height);
  });

  it('shows a card that runs over a chunk edge in both chunks, cut to each', () => {
    const pages = layoutPlan(stages, [card('x', 's2', '2026-12-12', '2026-12-15')], '2026-12-07', '2026-12-20', measure);
    expect(pages).toHaveLength(2);
    const [first, second] = pages.map((p) => p.stages.find((s) => s.id === 's2')!.cards[0]!);
    expect(first!.width).toBeCloseTo(2 * pages[0]!.dayWidth - 2);
    expect(second!.x).toBeCloseTo(pages[1]!.dayX[0]! + 1);
    expect(second!.width).toBeCloseTo(2 * pages[1]!.dayWidth - 2);
  });

  it('continues a stage with more lanes than a page holds on the next page, inside the page', () => {
    const many = Array.from({ length: 80 }, (_, i) => card(`m${i}`, 's1', '2026-12-07', '2026-12-07'));
    const pages = layoutPlan(stages, many, '2026-12-07', '2026-12-13', measure);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.map((p) => p.number)).toEqual(pages.map((_, i) => i + 1));
    expect(pages[1]!.stages[0]).toMatchObject({ id: 's1', continued: true });
    const placed = pages.flatMap((p) => p.stages.flatMap((s) => s.cards));
    expect(placed.map((c) => c.id).sort()).toEqual(many.map((c) => c.id).sort());
    for (const c of placed) expect(c.y + c.height).toBeLessThanOrEqual(page.height - page.margin);
  });
});
