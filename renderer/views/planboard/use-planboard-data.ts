/**
 * The planboard's data for the days around the view: cards and capacity, loaded in fixed
 * blocks of days so that a scroll back re-uses what an earlier scroll loaded (blocks stay in
 * the cache for half an hour), merged into one list for the grid.
 */
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useRef } from 'react';
import { useApi } from '../../api/provider.js';
import { blocksCovering, type DayRange, type Timeline } from './date-geometry.js';
import { indexCapacity, type CapacityIndex, type CapacityResponse } from './capacity.js';
import { fetchBoardCards, fetchCapacity, fetchStageWorkdays, type StageWorkdaysResponse } from './planboard-api.js';
import type { StageDays } from './non-workdays.js';
import { planboardKeys } from './planboard-cache.js';
import type { PlanCard } from './plan-card.js';

/** Days per loaded block: four weeks, aligned to the axis origin (a Monday). */
export const blockDays = 28;

const keepLoaded = 30 * 60_000;

export interface BoardCards {
  cards: PlanCard[];
  /** Some block of the range has no answer yet. */
  loading: boolean;
  error: unknown;
  retry: () => void;
}

/** Cards of the board that touch the blocks covering `range`. */
export function usePlanboardCards(boardId: string, timeline: Timeline, range: DayRange): BoardCards {
  const { transport } = useApi();
  const results = useQueries({
    queries: blocksCovering(timeline, range, blockDays).map((block) => ({
      queryKey: planboardKeys.cardBlock(boardId, block.from, block.to),
      queryFn: async () => {
        const cards = await fetchBoardCards(transport, boardId, block.from, block.to);
        // When the data of a block was in hand, for the first-render mark (Planboard.tsx); only
        // the latest is kept, so a long session does not pile up marks.
        performance.clearMarks('planboard:cards-loaded');
        performance.mark('planboard:cards-loaded', { detail: { from: block.from, to: block.to, count: cards.length } });
        return cards;
      },
      gcTime: keepLoaded,
    })),
  });
  // Merged here rather than in useQueries' `combine`, which deep-compares its result (5,000
  // cards) on every change: the merge is redone only when a block's data is another array.
  const blocks = results.map((result) => result.data);
  const merged = useRef<{ blocks: (PlanCard[] | undefined)[]; cards: PlanCard[] } | null>(null);
  if (!merged.current || merged.current.blocks.length !== blocks.length || merged.current.blocks.some((data, i) => data !== blocks[i])) {
    merged.current = { blocks, cards: mergeBlocks(blocks) };
  }
  const error = results.find((result) => result.error)?.error ?? null;
  return {
    cards: merged.current.cards,
    loading: results.some((result) => result.isPending),
    error,
    retry: () => {
      for (const result of results) if (result.error) void result.refetch();
    },
  };
}

/** One list of the blocks' cards; a card spanning two blocks is in both and counts once. */
export function mergeBlocks(blocks: readonly (readonly PlanCard[] | undefined)[]): PlanCard[] {
  const byId = new Map<string, PlanCard>();
  for (const block of blocks) if (block) for (const card of block) byId.set(card.id, card);
  return [...byId.values()];
}

export interface BoardCapacity {
  index: CapacityIndex;
  error: unknown;
}

/** Available and planned minutes per stage and day over the blocks covering `range`. */
export function usePlanboardCapacity(boardId: string, timeline: Timeline, range: DayRange, enabled: boolean): BoardCapacity {
  const { transport } = useApi();
  return useQueries({
    queries: blocksCovering(timeline, range, blockDays).map((block) => ({
      queryKey: planboardKeys.capacityBlock(boardId, block.from, block.to),
      queryFn: () => fetchCapacity(transport, boardId, block.from, block.to),
      gcTime: keepLoaded,
      enabled,
    })),
    combine: mergeCapacity,
  });
}

/** The days each stage works that the board does not, over the blocks covering `range` (docs/API.md "A stage's workdays"). */
export function usePlanboardStageDays(boardId: string, timeline: Timeline, range: DayRange): StageDays {
  const { transport } = useApi();
  return useQueries({
    queries: blocksCovering(timeline, range, blockDays).map((block) => ({
      queryKey: planboardKeys.stageDaysBlock(boardId, block.from, block.to),
      queryFn: () => fetchStageWorkdays(transport, boardId, block.from, block.to),
      gcTime: keepLoaded,
    })),
    combine: mergeStageDays,
  });
}

function mergeStageDays(results: UseQueryResult<StageWorkdaysResponse>[]): StageDays {
  const days = new Map<string, Set<string>>();
  for (const result of results) {
    for (const stage of result.data?.data ?? []) {
      let dates = days.get(stage.stage_id);
      if (!dates) days.set(stage.stage_id, (dates = new Set()));
      for (const date of stage.dates) dates.add(date);
    }
  }
  return days;
}

function mergeCapacity(results: UseQueryResult<CapacityResponse>[]): BoardCapacity {
  return { index: indexCapacity(results.map((result) => result.data)), error: results.find((result) => result.error)?.error ?? null };
}
