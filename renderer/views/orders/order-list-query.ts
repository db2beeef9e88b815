/**
 * What the order list asks the API for: the planner's filters and sort turned into the list
 * conventions of docs/API.md (`filter=…`, `sort=field:dir`, pages of `limit`/`offset`).
 */
import type { ListQuery } from '../../api/client.js';
import { quoteFreePieces, textSearchFilter } from '../../../shared/filter.js';
import type { orderTypes } from '../../../shared/resources/order.js';

export type OrderType = (typeof orderTypes)[number];

/** Orders are fetched in pages of this size as the list scrolls. */
export const orderPageSize = 500;

export type OrderDateField = 'date' | 'promised_date';

export interface OrderFilters {
  /** '' means every type. */
  type: OrderType | '';
  status: string;
  relationId: string;
  dateField: OrderDateField;
  /** `YYYY-MM-DD`, '' for an open end. */
  from: string;
  to: string;
  /** Matched against code and description. */
  search: string;
}

export const noOrderFilters: OrderFilters = {
  type: '',
  status: '',
  relationId: '',
  dateField: 'date',
  from: '',
  to: '',
  search: '',
};

/** The order's own fields, and its collection's planned end (docs/API.md "Lists", `sort`). */
export type OrderSortField = 'code' | 'description' | 'type' | 'status' | 'date' | 'promised_date' | 'quantity' | 'collection.end';

export interface OrderSort {
  field: OrderSortField;
  direction: 'asc' | 'desc';
}

export const defaultOrderSort: OrderSort = { field: 'date', direction: 'desc' };

/** A header click: the same column flips direction, another column starts ascending. */
export function toggledSort(current: OrderSort, field: OrderSortField): OrderSort {
  if (current.field !== field) return { field, direction: 'asc' };
  return { field, direction: current.direction === 'asc' ? 'desc' : 'asc' };
}

/** The `filter` parameter for these filters, or undefined when nothing is filtered. */
export function orderFilterText(filters: OrderFilters): string | undefined {
  const conditions: string[] = [];
  if (filters.type) conditions.push(`type:eq:${filters.type}`);
  for (const piece of quoteFreePieces(filters.status)) conditions.push(`status:eq:'${piece}'`);
  if (filters.relationId) conditions.push(`relation_id:eq:${filters.relationId}`);
  if (filters.from) conditions.push(`${filters.dateField}:gte:${filters.from}`);
  if (filters.to) conditions.push(`${filters.dateField}:lte:${filters.to}`);
  const search = textSearchFilter(filters.search, ['code', 'description']);
  if (search) conditions.push(search);
  return conditions.length > 0 ? conditions.join(',and,') : undefined;
}

export function orderSortText(sort: OrderSort): string {
  return `${sort.field}:${sort.direction}`;
}

/** One page of the list; the relation comes along for its name, the collection for its planned end. */
export function orderPageQuery(filter: string | undefined, sort: string, page: number): ListQuery {
  return { filter, sort, limit: orderPageSize, offset: page * orderPageSize, with: 'relation,collection' };
}
