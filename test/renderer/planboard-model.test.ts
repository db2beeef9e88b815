/** The planboard's pure pieces between the API and the grid: filters, layout, capacity, the card cache. */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import { cardsInWindow, laneAtY, layoutBoard, rowAtY } from '../../renderer/views/planboard/board-layout.js';
import { capacityLevel, capacityOn, capacityShare, hours, indexCapacity } from '../../renderer/views/planboard/capacity.js';
import { cardMatcher, filtersFromView, isFiltering, noFilters } from '../../renderer/views/planboard/card-filter.js';
import { describeDrop, movesFor } from '../../renderer/views/planboard/card-pointer.js';
import { dayIndex, timelineAround } from '../../renderer/views/planboard/date-geometry.js';
import {
  cachedCollectionCards,
  changeCachedCards,
  planboardKeys,
  restoreSnapshot,
} from '../../renderer/views/planboard/planboard-cache.js';
import { toPlanCard, type PlanCard } from '../../renderer/views/planboard/plan-card.js';
import { planCard } from './plan-card.js';

const card = planCard;

describe('filters', () => {
  const cards = [
    card('1', 's1', '2026-11-23', '2026-11-24', { labels: [{ id: 'rush' }], resources: [{ id: 'anna' }] }),
    card('2', 's1', '2026-11-23', '2026-11-24', {
      labels: [{ id: 'export' }],
      status_id: 'done',
      name: null,
      collection: { name: 'Frame 77', warnings: [] },
    }),
    card('3', 's2', '2026-11-23', '2026-11-24', { resources: [{ id: 'ben' }] }),
  ];
  const shown = (filters: Partial<typeof noFilters>) => {
    const match = cardMatcher({ ...noFilters, ...filters });
    return (match ? cards.filter(match) : cards).map((c) => c.id);
  };

  it('lets every card through without filters (and costs nothing)', () => {
    expect(cardMatcher(noFilters)).toBeNull();
    expect(isFiltering({ ...noFilters, text: '   ' })).toBe(false);
  });

  it('matches any chosen label, resource or status, and all kinds together', () => {
    expect(shown({ labels: ['rush', 'export'] })).toEqual(['1', '2']);
    expect(shown({ labels: ['rush', 'export'], resources: ['anna'] })).toEqual(['1']);
    expect(shown({ statuses: ['done'] })).toEqual(['2']);
    expect(shown({ resources: ['ben'] })).toEqual(['3']);
  });

  it('matches text in the card or collection name, ignoring case', () => {
    expect(shown({ text: 'frame' })).toEqual(['2']);
    expect(shown({ text: 'CARD 3' })).toEqual(['3']);
  });

  it('reads filters back from a saved view, ignoring what is malformed', () => {
    expect(filtersFromView({ labels: ['rush', 7], text: 'x', statuses: 'done' })).toEqual({
      labels: ['rush'],
      resources: [],
      statuses: [],
      text: 'x',
    });
    expect(filtersFromView(null)).toEqual(noFilters);
  });
});

describe('board layout', () => {
  const timeline = timelineAround('2026-11-26', 'week');
  const dims = { laneHeight: 40, capacityHeight: 20, rowPadding: 6 };
  const cards = [
    card('a', 's1', '2026-11-23', '2026-11-25'),
    card('b', 's1', '2026-11-24', '2026-11-24'),
    card('c', 's2', '2026-11-30', '2026-12-01'),
    card('x', 'gone', '2026-11-23', '2026-11-23'),
  ];

  it('stacks rows by stage order, each as tall as its lanes, with cards in place', () => {
    const layout = layoutBoard(['s1', 's2', 's3'], cards, timeline, dims);
    expect(layout.rows.map((row) => [row.stageId, row.top, row.height, row.laneCount])).toEqual([
      ['s1', 0, 20 + 2 * 40 + 6, 2],
      ['s2', 106, 66, 1],
      ['s3', 172, 66, 0],
    ]);
    expect(layout.height).toBe(238);
    expect(layout.byId.get('b')).toMatchObject({ stage: 0, lane: 1, top: 20 + 40, left: dayIndex(timeline, '2026-11-24') * 40, width: 40 });
    expect(layout.byId.get('c')).toMatchObject({ stage: 1, lane: 0, top: 106 + 20, width: 80 });
  });

  it('leaves out cards of stages the board no longer has', () => {
    expect(layoutBoard(['s1', 's2'], cards, timeline, dims).byId.has('x')).toBe(false);
  });

  it('re-uses the packing of a stage whose cards did not change', () => {
    const first = layoutBoard(['s1', 's2'], cards, timeline, dims);
    const moved = cards.map((c) => (c.id === 'c' ? { ...c, start_date: '2026-12-02', end_date: '2026-12-02' } : c));
    const second = layoutBoard(['s1', 's2'], moved, timeline, dims, first);
    expect(second.rows[0]!.cards).toEqual(first.rows[0]!.cards);
    expect(second.rows[0]!.laneCount).toBe(2);
    expect(second.byId.get('c')!.left).toBe(dayIndex(timeline, '2026-12-02') * 40);
  });

  it('picks only the cards inside the rendered days and rows', () => {
    const layout = layoutBoard(['s1', 's2'], cards, timeline, dims);
    const nov = { first: dayIndex(timeline, '2026-11-23'), last: dayIndex(timeline, '2026-11-29') };
    expect(cardsInWindow(layout, nov, 0, 1000).map((p) => p.card.id)).toEqual(['a', 'b']);
    expect(cardsInWindow(layout, { first: 0, last: timeline.days - 1 }, 110, 1000).map((p) => p.card.id)).toEqual(['c']);
  });

  it('finds the row and lane under a y', () => {
    const layout = layoutBoard(['s1', 's2'], cards, timeline, dims);
    expect(rowAtY(layout, 10)!.stageId).toBe('s1');
    expect(rowAtY(layout, 110)!.stageId).toBe('s2');
    expect(rowAtY(layout, 5000)).toBeUndefined();
    expect(laneAtY(layout, layout.rows[0]!, 20 + 45)).toBe(1);
    expect(laneAtY(layout, layout.rows[0]!, 0)).toBe(0);
  });
});

describe('capacity', () => {
  const index = indexCapacity([
    {
      data: [
        {
          date: '2026-11-23',
          stage: [
            { id: 's1', time_available: 480, time_planned: 600 },
            { id: 's2', time_available: 480, time_planned: 120 },
          ],
        },
      ],
    },
    undefined,
    { data: [{ date: '2026-11-24', stage: [{ id: 's1', time_available: 0, time_planned: 0 }] }] },
  ]);

  it('looks up a stage and day over several loaded blocks', () => {
    expect(capacityOn(index, 's1', '2026-11-23')).toEqual({ available: 480, planned: 600 });
    expect(capacityOn(index, 's1', '2026-11-24')).toEqual({ available: 0, planned: 0 });
    expect(capacityOn(index, 's3', '2026-11-23')).toBeUndefined();
  });

  it('calls a day over capacity when more is planned than available', () => {
    expect(capacityLevel({ available: 480, planned: 600 })).toBe('over');
    expect(capacityLevel({ available: 0, planned: 30 })).toBe('over');
    expect(capacityLevel({ available: 480, planned: 450 })).toBe('full');
    expect(capacityLevel({ available: 480, planned: 120 })).toBe('free');
    expect(capacityLevel({ available: 0, planned: 0 })).toBe('none');
    expect(capacityShare({ available: 480, planned: 120 })).toBe(0.25);
    expect(capacityShare({ available: 480, planned: 960 })).toBe(1);
  });

  it('prints minutes as hours in the planner’s locale', () => {
    expect(hours(480, 'en-GB')).toBe('8h');
    expect(hours(90, 'en-GB')).toBe('1.5h');
    expect(hours(20, 'en-GB')).toBe('0.3h');
    expect(hours(90, 'nl-NL')).toBe('1,5 u');
  });
});

describe('the cached cards of a board', () => {
  function loaded() {
    const queryClient = new QueryClient();
    queryClient.setQueryData(planboardKeys.cardBlock('b1', '2026-11-02', '2026-11-29'), [
      card('a', 's1', '2026-11-27', '2026-12-01'),
      card('b', 's1', '2026-11-10', '2026-11-11'),
    ]);
    queryClient.setQueryData(planboardKeys.cardBlock('b1', '2026-11-30', '2026-12-27'), [card('a', 's1', '2026-11-27', '2026-12-01')]);
    queryClient.setQueryData(planboardKeys.cardBlock('b2', '2026-11-02', '2026-11-29'), [card('z', 's9', '2026-11-10', '2026-11-10')]);
    return queryClient;
  }
  const ids = (queryClient: QueryClient, from: string, to: string, board = 'b1') =>
    (queryClient.getQueryData<PlanCard[]>(planboardKeys.cardBlock(board, from, to)) ?? []).map((c) => `${c.id}@${c.start_date}`);

  it('changes a card in every block that holds it, and adds it to blocks its new dates reach', () => {
    const queryClient = loaded();
    changeCachedCards(queryClient, 'b1', { upsert: [card('b', 's1', '2026-12-02', '2026-12-03')] });
    expect(ids(queryClient, '2026-11-02', '2026-11-29')).toEqual(['a@2026-11-27', 'b@2026-12-02']);
    expect(ids(queryClient, '2026-11-30', '2026-12-27')).toEqual(['a@2026-11-27', 'b@2026-12-02']);
    expect(ids(queryClient, '2026-11-02', '2026-11-29', 'b2')).toEqual(['z@2026-11-10']);
  });

  it('removes cards, and puts everything back from the snapshot', () => {
    const queryClient = loaded();
    const snapshot = changeCachedCards(queryClient, 'b1', { remove: ['a'] });
    expect(ids(queryClient, '2026-11-30', '2026-12-27')).toEqual([]);
    expect(cachedCollectionCards(queryClient, 'b1', 'col-a')).toEqual([]);
    restoreSnapshot(queryClient, snapshot);
    expect(ids(queryClient, '2026-11-30', '2026-12-27')).toEqual(['a@2026-11-27']);
    expect(cachedCollectionCards(queryClient, 'b1', 'col-a').map((c) => c.id)).toEqual(['a']);
  });

  it('reads a planned card from the API into the planboard shape, keeping what the answer lacks', () => {
    const planned = toPlanCard(
      { id: 'n', collection_id: 'c', stage_id: 's1', status_id: 't', name: null, start_date: '2026-11-30', end_date: null, rank: 'm' },
      { name: 'Order 5', warnings: ['late'] },
    );
    expect(planned).toMatchObject({
      end_date: '2026-11-30',
      labels: [],
      resources: [],
      collection: { name: 'Order 5', warnings: ['late'] },
      time_tracking_running: false,
    });
    const previous = card('n', 's1', '2026-11-01', '2026-11-01', { labels: [{ id: 'rush' }] });
    expect(toPlanCard({ ...previous, start_date: '2026-11-02', labels: undefined }, null, previous)).toMatchObject({
      start_date: '2026-11-02',
      labels: [{ id: 'rush' }],
      collection: previous.collection,
    });
  });
});

describe('a drop', () => {
  const timeline = timelineAround('2026-11-26', 'week');
  const layout = layoutBoard(
    ['s1', 's2', 's3'],
    [card('a', 's1', '2026-11-23', '2026-11-24'), card('b', 's2', '2026-11-25', '2026-11-25')],
    timeline,
    { laneHeight: 40, capacityHeight: 0, rowPadding: 0 },
  );
  const stages = [
    { id: 's1', name: 'Cutting' },
    { id: 's2', name: 'Welding' },
    { id: 's3', name: 'Painting' },
  ];
  const a = layout.byId.get('a')!;
  const b = layout.byId.get('b')!;

  it('moves every dragged card by the same days and rows, dropping those pushed off the board', () => {
    const moves = movesFor([a, b], { mode: 'move', days: 2, rows: 1 }, stages);
    expect(moves.map((m) => [m.card.id, m.start_date, m.end_date, m.stage_id])).toEqual([
      ['a', '2026-11-25', '2026-11-26', 's2'],
      ['b', '2026-11-27', '2026-11-27', 's3'],
    ]);
    expect(movesFor([a, b], { mode: 'move', days: 0, rows: 2 }, stages).map((m) => m.card.id)).toEqual(['a']);
  });

  it('resizes one card from the edge dragged, keeping its stage', () => {
    expect(movesFor([a], { mode: 'start', days: -1, rows: 0 }, stages)[0]).toMatchObject({
      start_date: '2026-11-22',
      end_date: '2026-11-24',
      stage_id: 's1',
    });
    expect(movesFor([a], { mode: 'end', days: 3, rows: 0 }, stages)[0]).toMatchObject({ start_date: '2026-11-23', end_date: '2026-11-27' });
  });

  it('says where the card would land', () => {
    const english = createTranslate(catalogues, 'en');
    expect(describeDrop({ card: a.card, row: a.stage }, { mode: 'move', days: 1, rows: 2 }, stages, english)).toBe(
      'Tue 24 Nov 2026 – Wed 25 Nov 2026, Painting',
    );
    expect(describeDrop({ card: b.card, row: b.stage }, { mode: 'end', days: 0, rows: 0 }, stages, english)).toBe('Wed 25 Nov 2026');
  });
});
