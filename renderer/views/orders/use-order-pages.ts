/**
 * The pages of the order list that the rows in view need, fetched as separate queries so a
 * jump to the middle of 10,000 orders loads one page, not every page before it. Each page is
 * cached under the list key of its own query, so change events refresh what is on screen.
 */
import { useQueries } from '@tanstack/react-query';
import { queryKeys } from '../../api/hooks.js';
import { useApi } from '../../api/provider.js';
import { resourcePath } from '../../api/resources.js';
import type { Order } from '../../../shared/resources/order.js';
import type { RelationRecord } from '../../../shared/resources/relation.js';
import type { Collection } from '../../../shared/resources/collection.js';
import { orderPageQuery, orderPageSize } from './order-list-query.js';

/** An order as the list shows it: with its relation, for the relation's name, and its collection, for the planned end. */
export type OrderListRow = Order & { relation?: RelationRecord | null; collection?: Collection | null };

export function useOrderPages(filter: string | undefined, sort: string, pages: readonly number[]) {
  const { client } = useApi();
  const results = useQueries({
    queries: pages.map((page) => {
      const query = orderPageQuery(filter, sort, page);
      return {
        queryKey: queryKeys.list('order', query),
        queryFn: () => client.list<OrderListRow>(resourcePath('order'), query),
      };
    }),
  });

  const loaded = results.find((result) => result.data)?.data;
  const failed = results.find((result) => result.isError);
  return {
    /** Total matching orders; undefined until a page has arrived. */
    count: loaded?.count,
    /** The order at `index` of the whole list, or undefined while its page loads. */
    rowAt(index: number): OrderListRow | undefined {
      const page = Math.floor(index / orderPageSize);
      const at = pages.indexOf(page);
      return at === -1 ? undefined : results[at]?.data?.data[index - page * orderPageSize];
    },
    error: failed?.error ?? null,
    retry: () => void failed?.refetch(),
  };
}
