/**
 * Reading the list conventions from a query string (docs/API.md): `limit`,
 * `offset`, `sort`, `filter`, `show`, `hide`, `with`. Every mistake is a 400 that names the
 * problem; values are never silently clamped.
 */
import { booleanWord } from '../../../shared/boolean-words.js';
import { parseFilter, FilterSyntaxError, type FilterNode } from '../../../shared/filter.js';
import { defaultLimit, maxLimit } from '../../../shared/list.js';
import type { SortKey } from '../../store/record-sql.js';
import { ApiError } from '../errors.js';
import { parsePaths, type PathTree } from './shape.js';

export type QueryString = Record<string, string | string[] | undefined>;

export interface ShapeOptions {
  show?: PathTree;
  hide?: PathTree;
  /** Relations to eager-load, as dotted paths: `order.order_rows.item`. */
  with: string[];
  /** Computed extras a resource offers (`include=time_tracking_total` on cards). */
  include: string[];
}

export interface ListOptions extends ShapeOptions {
  limit: number;
  offset: number;
  sort: SortKey[];
  filter?: FilterNode;
}

/** One value of a query parameter; repeated parameters are joined with commas (`with=a&with=b`). */
export function single(query: QueryString, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) return value.join(',');
  return value;
}

/**
 * A boolean query parameter (`archived`, `all`, `bom`, …): `true`/`1` or `false`/`0` in any
 * case (shared/boolean-words.ts); absent or empty is `fallback`; anything else is a 400.
 */
export function booleanParam(query: QueryString, name: string, fallback = false): boolean {
  const text = single(query, name);
  if (text === undefined || text === '') return fallback;
  const value = booleanWord(text);
  if (value === undefined) throw ApiError.badRequest(`${name} must be true or false, got '${text}'`);
  return value;
}

/** A whole-number query parameter from 0 to `max` (`limit`, `offset`); absent or empty is `fallback`; anything else is a 400. */
export function integerParam(query: QueryString, name: string, fallback: number, max: number): number {
  const text = single(query, name);
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw ApiError.badRequest(`${name} must be a whole number from 0 to ${max}, got '${text}'`);
  const value = Number(text);
  if (value > max) throw ApiError.badRequest(`${name} must be a whole number from 0 to ${max}, got '${text}'`);
  return value;
}

export function parseSort(text: string | undefined): SortKey[] {
  if (!text) return [];
  return text.split(',').map((part) => {
    const [field, direction = 'asc', extra] = part.split(':');
    if (!field || extra !== undefined || (direction !== 'asc' && direction !== 'desc')) {
      throw ApiError.badRequest(`sort takes field[:asc|desc] separated by commas, got '${part}'`);
    }
    return { field, direction };
  });
}

export function parseWith(text: string | undefined): string[] {
  if (!text) return [];
  return [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

export function parseShapeOptions(query: QueryString): ShapeOptions {
  const show = single(query, 'show');
  const hide = single(query, 'hide');
  return {
    ...(show ? { show: parsePaths(show) } : {}),
    ...(hide ? { hide: parsePaths(hide) } : {}),
    with: parseWith(single(query, 'with')),
    include: parseWith(single(query, 'include')),
  };
}

export function parseListOptions(query: QueryString): ListOptions {
  const filterText = single(query, 'filter');
  let filter: FilterNode | undefined;
  if (filterText) {
    try {
      filter = parseFilter(filterText);
    } catch (error) {
      if (error instanceof FilterSyntaxError) throw ApiError.badRequest(`Invalid filter: ${error.message}`);
      throw error;
    }
  }
  return {
    ...parseShapeOptions(query),
    limit: integerParam(query, 'limit', defaultLimit, maxLimit),
    offset: integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER),
    sort: parseSort(single(query, 'sort')),
    ...(filter ? { filter } : {}),
  };
}
