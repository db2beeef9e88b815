/**
 * Query parameters beside the list conventions (docs/API.md "Lists", "Compatibility").
 *
 * Clients of the public API send filters as plain parameters too (`GET /card?collection_id=…`).
 * Ignoring them would answer every record as if it matched, so a list reads each parameter that
 * names one of the record's own fields as `field:eq:value`, and-ed with `filter`; a parameter
 * sent more than once matches any of its values; an empty value means "no value" (null). Any
 * other parameter a list does not know is a 400 naming it, never silently dropped.
 */
import { own, type FieldSpec } from '../../../shared/fields.js';
import type { FilterAtom, FilterNode } from '../../../shared/filter.js';
import { ApiError } from '../errors.js';
import { parseListOptions, type ListOptions, type QueryString } from './list-query.js';

/**
 * What every list reads: the conventions, `archived` (on records without an archive it lists
 * everything either way) and `enrich_custom_fields`, which the public API's card list takes to
 * resolve custom field values to their choices' names; values here carry those names already
 * (`selected`), so it changes nothing.
 */
export const listParameters: readonly string[] = [
  'limit',
  'offset',
  'sort',
  'filter',
  'show',
  'hide',
  'with',
  'include',
  'archived',
  'enrich_custom_fields',
];

/**
 * The query with array-style names read as the plain name: `with[]=a&with[]=b` and
 * `status[0]=a` are `with=a&with=b` and `status=a`, as form-style clients spell a list (the
 * public docs render `with` as an array).
 */
export function plainNames(query: QueryString): QueryString {
  if (!Object.keys(query).some((name) => name.endsWith(']'))) return query;
  const out: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(query)) {
    const plain = /^([^[\]]+)\[\d*\]$/.exec(name)?.[1] ?? name;
    (out[plain] ??= []).push(...valuesOf(raw));
  }
  return Object.fromEntries(Object.entries(out).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}

function valuesOf(raw: string | string[] | undefined): string[] {
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** The filter the query's field parameters make; undefined when there are none. */
export function parameterFilter(
  query: QueryString,
  fields: Readonly<Record<string, FieldSpec>>,
  known: readonly string[] = listParameters,
): FilterNode | undefined {
  const conditions: FilterNode[] = [];
  for (const [name, raw] of Object.entries(query)) {
    if (known.includes(name)) continue;
    const field = own(fields, name);
    if (!field || field.writeOnly) {
      throw ApiError.badRequest(
        `Unknown query parameter: ${name}. Filter with filter=field:op:value; a parameter may name one of the record's own fields.`,
      );
    }
    const atoms = valuesOf(raw).map((text): FilterAtom => ({
      kind: 'atom',
      field: name,
      operator: 'eq',
      not: false,
      // Ids compare as stored, in lower case, however a client wrote them.
      value: text === '' ? null : field.type === 'uuid' ? text.toLowerCase() : text,
    }));
    if (atoms.length > 0) conditions.push(atoms.length === 1 ? atoms[0]! : { kind: 'or', items: atoms });
  }
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0]! : { kind: 'and', items: conditions };
}

/** `options` with the query's field parameters and-ed into its filter. */
export function withParameterFilter<T extends ListOptions>(
  options: T,
  query: QueryString,
  fields: Readonly<Record<string, FieldSpec>>,
  known?: readonly string[],
): T {
  const extra = parameterFilter(query, fields, known);
  if (!extra) return options;
  return { ...options, filter: options.filter ? { kind: 'and', items: [options.filter, extra] } : extra };
}

/** The list options of a query: its conventions, array-style names read plainly, field parameters as filters. */
export function listOptionsOf(query: QueryString, fields: Readonly<Record<string, FieldSpec>>, known?: readonly string[]): ListOptions {
  const plain = plainNames(query);
  return withParameterFilter(parseListOptions(plain), plain, fields, known);
}
