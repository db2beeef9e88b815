/**
 * Evaluates a parsed filter on plain records, with the same meaning as the SQL the store
 * compiles (electron/store/filter-sql.ts): comparisons with a missing value are false, `not`
 * negates the whole condition, text matching ignores ASCII case. Computed lists (schedules,
 * capacity) use it so they accept the same `filter` grammar as stored ones.
 */
import { booleanWord } from './boolean-words.js';
import { own, type FieldSpec } from './fields.js';
import type { FilterAtom, FilterNode } from './filter.js';

export class FilterFieldError extends Error {}

const lowerAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

function coerce(field: string, spec: FieldSpec, value: string): unknown {
  if (spec.type === 'integer' || spec.type === 'number') {
    const n = Number(value);
    if (!/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value) || !Number.isFinite(n))
      throw new FilterFieldError(`filter value '${value}' for ${field} is not a number`);
    return n;
  }
  if (spec.type === 'boolean') {
    const flag = booleanWord(value);
    if (flag !== undefined) return flag;
    throw new FilterFieldError(`filter value '${value}' for ${field} must be true or false`);
  }
  if (spec.type === 'datetime' && /[T ]\d{2}:\d{2}/.test(value)) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  return value;
}

function atomHolds(atom: FilterAtom, record: Record<string, unknown>, fields: Record<string, FieldSpec>): boolean {
  const spec = own(fields, atom.field);
  if (!spec) throw new FilterFieldError(`Unknown filter field: ${atom.field}`);
  const actual = record[atom.field];
  if (atom.value === null) {
    if (atom.operator !== 'eq') throw new FilterFieldError(`null can only be compared with eq (field ${atom.field})`);
    return actual === null || actual === undefined;
  }
  if (actual === null || actual === undefined) return false;
  if (atom.operator === 'has') {
    if (!Array.isArray(actual)) throw new FilterFieldError(`has works on relations and lists; ${atom.field} is neither`);
    return actual.some(
      (item) => item === atom.value || (typeof item === 'object' && item !== null && (item as { id?: unknown }).id === atom.value),
    );
  }
  if (atom.operator === 'contains' || atom.operator === 'starts_with' || atom.operator === 'ends_with') {
    const text = lowerAscii(String(actual));
    const needle = lowerAscii(atom.value);
    if (atom.operator === 'contains') return text.includes(needle);
    return atom.operator === 'starts_with' ? text.startsWith(needle) : text.endsWith(needle);
  }
  const wanted = coerce(atom.field, spec, atom.value) as number | string | boolean;
  const have = actual as number | string | boolean;
  switch (atom.operator) {
    case 'eq':
      return have === wanted;
    case 'gt':
      return have > wanted;
    case 'gte':
      return have >= wanted;
    case 'lt':
      return have < wanted;
    case 'lte':
      return have <= wanted;
  }
}

export function evaluateFilter(node: FilterNode, record: Record<string, unknown>, fields: Record<string, FieldSpec>): boolean {
  if (node.kind === 'atom') {
    const holds = atomHolds(node, record, fields);
    return node.not ? !holds : holds;
  }
  return node.kind === 'and'
    ? node.items.every((item) => evaluateFilter(item, record, fields))
    : node.items.some((item) => evaluateFilter(item, record, fields));
}

/**
 * The range a filter surely limits `field` to, read from conditions joined by `,and,` at the
 * top level (`date:gte:2026-01-01,and,date:lte:2026-01-31`). Used to know which days to compute.
 */
export function filterRange(node: FilterNode | undefined, field: string): { from?: string; to?: string } {
  const range: { from?: string; to?: string } = {};
  if (!node) return range;
  const atoms = node.kind === 'atom' ? [node] : node.kind === 'and' ? node.items.filter((i): i is FilterAtom => i.kind === 'atom') : [];
  for (const atom of atoms) {
    if (atom.field !== field || atom.not || atom.value === null) continue;
    if (atom.operator === 'eq' || atom.operator === 'gte' || atom.operator === 'gt') {
      if (!range.from || atom.value > range.from) range.from = atom.value;
    }
    if (atom.operator === 'eq' || atom.operator === 'lte' || atom.operator === 'lt') {
      if (!range.to || atom.value < range.to) range.to = atom.value;
    }
  }
  return range;
}
