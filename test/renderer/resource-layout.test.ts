/** The planboard's resource view, its pure parts: which rows, where each card sits, the capacity lookup. */
import { describe, expect, it } from 'vitest';
import { capacityOn } from '../../renderer/views/planboard/capacity.js';
import { dayIndex, timelineAround } from '../../renderer/views/planboard/date-geometry.js';
import type { PlanCard } from '../../renderer/views/planboard/plan-card.js';
import { indexResourceCapacity } from '../../renderer/views/planboard/resource-capacity.js';
import { layoutResources, placementsInWindow, resourceRowsFor } from '../../renderer/views/planboard/resource-layout.js';
import { planCard } from './plan-card.js';

const card = (id: string, stage: string, start: string, end: string, resources: string[]): PlanCard =>
  planCard(id, stage, start, end, { resources: resources.map((r) => ({ id: r })) });

const board = 'board-1';
const onBoard = (active = true) => [{ id: board, active, stages: [] }];
const resources = [
  { id: 'pia', name: 'Pia', type: 'employee', boards: onBoard() },
  { id: 'cnc', name: 'CNC 2', type: 'machine', boards: onBoard() },
  { id: 'old', name: 'Old hand', type: 'employee', archived_at: '2026-01-01T00:00:00Z', boards: onBoard() },
  { id: 'away', name: 'Away', type: 'employee', boards: onBoard(false) },
  { id: 'elsewhere', name: 'Elsewhere', type: 'cell', boards: [{ id: 'board-2', active: true }] },
];
const timeline = timelineAround('2026-11-25', 'day');
const dims = { laneHeight: 44, capacityHeight: 20, rowPadding: 6 };

describe('resource rows', () => {
  it('are the resources active on the board by name, then those only its cards name, then "no resource"', () => {
    const cards = [card('a', 'cut', '2026-11-24', '2026-11-24', ['pia', 'elsewhere']), card('b', 'weld', '2026-11-24', '2026-11-24', [])];
    expect(resourceRowsFor(board, resources, cards, 'No resource').map((row) => row.name)).toEqual([
      'CNC 2',
      'Pia',
      'Elsewhere',
      'No resource',
    ]);
    expect(resourceRowsFor(board, resources, [], 'No resource').map((row) => row.id)).toEqual(['cnc', 'pia']);
  });
});

describe('resource layout', () => {
  const rows = [
    { id: 'pia', name: 'Pia' },
    { id: 'quinn', name: 'Quinn' },
  ];
  // Pia on two stages the same day: both cards in her row, in two lanes; the shared card in Quinn's too.
  const cards = [
    card('saw', 'cutting', '2026-11-24', '2026-11-24', ['pia']),
    card('weld', 'welding', '2026-11-24', '2026-11-25', ['pia', 'quinn']),
  ];
  const layout = layoutResources(rows, cards, timeline, dims);

  it('puts a card in the row of every resource it has, keyed by row and card, each row as tall as its lanes', () => {
    expect(layout.rows.map((row) => row.placed.map((p) => [p.key, p.lane]))).toEqual([
      [
        ['pia:saw', 0],
        ['pia:weld', 1],
      ],
      [['quinn:weld', 0]],
    ]);
    const [pia, quinn] = layout.rows;
    expect(pia!.height).toBe(20 + 2 * 44 + 6);
    expect(quinn!.top).toBe(pia!.height);
    const weldInQuinn = quinn!.placed[0]!;
    expect(weldInQuinn).toMatchObject({ top: quinn!.top + 20, first: dayIndex(timeline, '2026-11-24'), width: 2 * timeline.dayWidth });
    expect(layout.height).toBe(pia!.height + quinn!.height);
  });

  it('renders only what is in the window', () => {
    const day = dayIndex(timeline, '2026-11-24');
    const all = placementsInWindow(layout, { first: day, last: day }, 0, layout.height);
    expect(all.map((p) => p.key)).toEqual(['pia:saw', 'pia:weld', 'quinn:weld']);
    const quinnOnly = placementsInWindow(layout, { first: day, last: day }, layout.rows[1]!.top + 10, layout.height);
    expect(quinnOnly.map((p) => p.key)).toEqual(['quinn:weld']);
    expect(placementsInWindow(layout, { first: day + 2, last: day + 9 }, 0, layout.height)).toEqual([]);
  });
});

describe('resource capacity', () => {
  it('is looked up by resource and date, as the capacity strip looks up a stage', () => {
    const index = indexResourceCapacity([
      { data: [{ date: '2026-11-24', resource: [{ id: 'pia', time_available: 480, time_planned: 360 }] }] },
      undefined,
    ]);
    expect(capacityOn(index, 'pia', '2026-11-24')).toEqual({ available: 480, planned: 360 });
    expect(capacityOn(index, 'pia', '2026-11-25')).toBeUndefined();
  });
});
