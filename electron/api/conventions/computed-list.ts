/**
 * The list conventions for records that are computed rather than stored (schedules, capacity):
 * the same envelope, paging, sort, filter and show/hide, evaluated in memory.
 */
import { own, type FieldSpec } from '../../../shared/fields.js';
import { evaluateFilter, FilterFieldError } from '../../../shared/filter-eval.js';
import type { ListEnvelope } from '../../../shared/list.js';
import { ApiError } from '../errors.js';
import { parseListOptions, type ListOptions, type QueryString } from './list-query.js';
import { applyShape } from './shape.js';

export function listComputed(
  rows: Record<string, unknown>[],
  options: ListOptions,
  fields: Record<string, FieldSpec>,
): ListEnvelope<Record<string, unknown>> {
  if (options.with.length > 0) throw ApiError.badRequest(`Relation not found: ${options.with[0]}`);
  let matches = rows;
  try {
    if (options.filter) matches = rows.filter((row) => evaluateFilter(options.filter!, row, fields));
  } catch (error) {
    if (error instanceof FilterFieldError) throw ApiError.badRequest(error.message);
    throw error;
  }
  for (const key of options.sort) {
    if (!own(fields, key.field)) throw ApiError.badRequest(`Unknown sort field: ${key.field}`);
  }
  if (options.sort.length > 0) {
    matches = [...matches].sort((a, b) => {
      for (const { field, direction } of options.sort) {
        // The sortable fields of a computed list hold numbers, text or null (checked above by name).
        const x = a[field] as number | string | null;
        const y = b[field] as number | string | null;
        if (x === y) continue;
        const order = x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
        return direction === 'desc' ? -order : order;
      }
      return 0;
    });
  }
  return {
    count: matches.length,
    limit: options.limit,
    offset: options.offset,
    data: matches.slice(options.offset, options.offset + options.limit).map((row) => applyShape(row, options)),
  };
}

export { parseListOptions, type QueryString };
