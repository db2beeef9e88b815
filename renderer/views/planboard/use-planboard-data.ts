/**
 * The planboard's data for the days around the view: cards and capacity, loaded in fixed
 * blocks of days so that a scroll back re-uses what an earlier scroll loaded (blocks stay in
 * the cache for half an hour), merged into one list for the grid.
 */
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { useApi } from '../../api/provider.js';
import { blocksCovering, type DayRange, type Timeline } from './date-geometry.js';
import { indexCapacity, type CapacityIndex, type CapacityResponse } from './capacity.js';
import { fetchBoardCards, fetchCapacity } from './planboard-api.js';
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
  return useQueries({
    queries: blocksCovering(timeline, range, blockDays).map((block) => ({
      queryKey: planboardKeys.cardBlock(boardId, block.from, block.to),
      queryFn: async () => {
        const cards = await fetchBoardCards(transport, boardId, block.from, block.to);
        // Read by test/bench/ui.ts: when the data of a block was in hand.
        performance.mark('planboard:cards-loaded', { detail: { from: block.from, to: block.to, count: cards.length } });
        return cards;
      },
      gcTime: keepLoaded,
    })),
    combine: mergeCardBlocks,
  });
}

function mergeCardBlocks(results: UseQueryResult<PlanCard[]>[]): BoardCards {
  const byId = new Map<string, PlanCard>();
  let loading = false;
  let error: unknown = null;
  for (const result of results) {
    if (result.data) for (const card of result.data) byId.set(card.id, card);
    else if (result.isPending) loading = true;
    if (result.error && !error) error = result.error;
  }
  return {
    cards: [...byId.values()],
    loading,
    error,
    retry: () => {
      for (const result of results) if (result.error) void result.refetch();
    },
  };
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

function mergeCapacity(results: UseQueryResult<CapacityResponse>[]): BoardCapacity {
  return { index: indexCapacity(results.map((result) => result.data)), error: results.find((result) => result.error)?.error ?? null };
}
