/**
 * The resource view's workload figures: per resource and day, the minutes available (the
 * person counted once, however many stages they work on) and the minutes of their cards, from
 * `GET /v1/board/{id}/capacity/resource` (docs/API.md "Schedules and capacity"). One call per
 * loaded block of days, as the stage capacity loads, looked up the same way (capacity.ts), by
 * resource id instead of stage id, so the capacity strip draws a resource's row unchanged.
 */
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { send } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import type { Transport } from '../../api/transport.js';
import { indexCapacity, type CapacityIndex } from './capacity.js';
import { blocksCovering, type DayRange, type Timeline } from './date-geometry.js';
import { planboardKeys } from './planboard-cache.js';
import { blockDays } from './use-planboard-data.js';

export interface ResourceCapacityResponse {
  capacity_method?: string;
  data: {
    date: string;
    resource: { id: string; time_available: number; time_planned: number }[];
    /** The minutes of cards nobody is assigned to. */
    no_resource?: { time_planned: number };
  }[];
}

/** Where the index keeps the work nobody is assigned to: the "No resource" row's id. */
export const noResourceId = '';

export function fetchResourceCapacity(transport: Transport, boardId: string, from: string, to: string): Promise<ResourceCapacityResponse> {
  return send(transport, {
    method: 'GET',
    path: apiPath`/v1/board/${boardId}/capacity/resource`,
    query: { date_range_start: from, date_range_end: to, time_frame: 'day' },
  });
}

/** Resource id and date → figures, over the answers of several blocks; the work of no one under noResourceId. */
export function indexResourceCapacity(responses: readonly (ResourceCapacityResponse | undefined)[]): CapacityIndex {
  return indexCapacity(
    responses.map(
      (response) =>
        response && {
          data: response.data.map((day) => ({
            date: day.date,
            stage: [...day.resource, { id: noResourceId, time_available: 0, time_planned: day.no_resource?.time_planned ?? 0 }],
          })),
        },
    ),
  );
}

export interface ResourceCapacity {
  index: CapacityIndex;
  error: unknown;
}

const keepLoaded = 30 * 60_000;

/**
 * Available and planned minutes per resource and day over the blocks covering `range`. Under
 * the board's capacity key, so every write that refreshes the stage capacity refreshes this.
 */
export function useResourceCapacity(boardId: string, timeline: Timeline, range: DayRange, enabled: boolean): ResourceCapacity {
  const { transport } = useApi();
  return useQueries({
    queries: blocksCovering(timeline, range, blockDays).map((block) => ({
      queryKey: [...planboardKeys.capacityOfBoard(boardId), 'resource', block.from, block.to],
      queryFn: () => fetchResourceCapacity(transport, boardId, block.from, block.to),
      gcTime: keepLoaded,
      enabled,
    })),
    combine: mergeResourceCapacity,
  });
}

function mergeResourceCapacity(results: UseQueryResult<ResourceCapacityResponse>[]): ResourceCapacity {
  return {
    index: indexResourceCapacity(results.map((result) => result.data)),
    error: results.find((result) => result.error)?.error ?? null,
  };
}
