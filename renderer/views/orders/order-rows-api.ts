/**
 * Reading and writing the rows of one order. Rows live under their order
 * (`/v1/order/{id}/row`), so they have no place in the resource map; their queries are keyed
 * `['order_row', …]`, the name their change events carry, so edits made elsewhere refresh them.
 *
 * Every row write also invalidates collections: the order's collection sums its activities
 * from the rows, and that change arrives as a collection-activity event no query is keyed on.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { send, type ListQuery } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import type { Transport } from '../../api/transport.js';
import { maxLimit } from '../../../shared/list.js';
import type { OrderRow } from '../../../shared/resources/order-row.js';

export function orderRowsPath(orderId: string): string {
  return apiPath`/v1/order/${orderId}/row`;
}

// An order's rows are shown whole, in their order; the grid says so if there are more.
const rowsQuery: ListQuery = { sort: 'position:asc', limit: maxLimit };

export const orderRowKeys = {
  all: ['order_row'] as const,
  ofOrder: (orderId: string) => ['order_row', 'list', orderId] as const,
};

export function useOrderRows(orderId: string) {
  const { client } = useApi();
  return useQuery({
    queryKey: orderRowKeys.ofOrder(orderId),
    queryFn: () => client.list<OrderRow>(orderRowsPath(orderId), rowsQuery),
  });
}

function useRefreshAfterRowWrite() {
  const queryClient = useQueryClient();
  // Returned so a mutation stays pending until the grid shows its result.
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: orderRowKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['collection'] }),
    ]);
}

export type RowChanges = Record<string, unknown>;

export function useUpdateOrderRow(orderId: string) {
  const { client } = useApi();
  const refresh = useRefreshAfterRowWrite();
  return useMutation({
    mutationFn: ({ rowId, changes }: { rowId: string; changes: RowChanges }) =>
      client.update<OrderRow>(orderRowsPath(orderId), rowId, changes),
    onSuccess: refresh,
  });
}

export function useAddOrderRow(orderId: string) {
  const { client } = useApi();
  const refresh = useRefreshAfterRowWrite();
  return useMutation({
    mutationFn: (row: RowChanges) => client.create<OrderRow>(orderRowsPath(orderId), row),
    onSuccess: refresh,
  });
}

export function useDeleteOrderRow(orderId: string) {
  const { client } = useApi();
  const refresh = useRefreshAfterRowWrite();
  return useMutation({
    mutationFn: (rowId: string) => client.remove(orderRowsPath(orderId), rowId),
    // Also after a failure: a 404 means another window deleted it first.
    onSettled: refresh,
  });
}

/**
 * Writes several rows in one transaction: a PUT of the order with `order_rows`, keeping the
 * rows it leaves out. Rows with an id are updated, rows without one are created; a problem
 * with any of them refuses all of them, with paths like `order_rows.1.quantity`.
 */
export function useWriteOrderRows(orderId: string) {
  const { transport } = useApi();
  const refresh = useRefreshAfterRowWrite();
  return useMutation({
    mutationFn: (rows: RowChanges[]) => putRowsKeepingOthers(transport, orderId, rows),
    onSuccess: refresh,
  });
}

// The client's update() sends no query parameters, and this write needs one; `send` reads a
// non-2xx answer as the client does (an ApiRequestError).
async function putRowsKeepingOthers(transport: Transport, orderId: string, rows: RowChanges[]): Promise<void> {
  await send<unknown>(transport, {
    method: 'PUT',
    path: apiPath`/v1/order/${orderId}`,
    query: { update_without_delete_nested: 'true' },
    body: { order_rows: rows },
  });
}
