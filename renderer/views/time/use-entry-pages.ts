/**
 * The pages of the entries list that the rows in view need, each its own query (as the order
 * list does), under the `time_tracking` key so change events refresh them.
 */
import { useQueries } from '@tanstack/react-query';
import { useApi } from '../../api/provider.js';
import { entryShape, type EntryRow } from './time-api.js';

export const entryPageSize = 500;

export function useEntryPages(filter: string, pages: readonly number[]) {
  const { client } = useApi();
  const results = useQueries({
    queries: pages.map((page) => ({
      queryKey: ['time_tracking', 'page', filter, page] as const,
      queryFn: () =>
        client.list<EntryRow>('/v1/time_tracking', {
          filter,
          with: entryShape,
          sort: 'start:desc',
          limit: entryPageSize,
          offset: page * entryPageSize,
        }),
    })),
  });
  const loaded = results.find((result) => result.data)?.data;
  const failed = results.find((result) => result.isError);
  return {
    count: loaded?.count,
    rowAt(index: number): EntryRow | undefined {
      const page = Math.floor(index / entryPageSize);
      const at = pages.indexOf(page);
      return at === -1 ? undefined : results[at]?.data?.data[index - page * entryPageSize];
    },
    /** Every row of the pages loaded now. */
    loadedRows(): EntryRow[] {
      return results.flatMap((result) => result.data?.data ?? []);
    },
    error: failed?.error ?? null,
    retry: () => void failed?.refetch(),
  };
}
