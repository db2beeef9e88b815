/**
 * A list query (match, range, filter, sort) and its SQL for either store engine: the SQLite
 * store (environment-store.ts) and the PostgreSQL one (postgres/record-store.ts) write the
 * same text but for what their `SqlDialect` names, with `?` for each parameter. The query's
 * shape is declared here, beside the SQL that reads it, so this file needs neither store.
 */
import { own, type FieldSpec } from '../../shared/fields.js';
import type { FilterNode } from '../../shared/filter.js';
import { compileFilter, quoteIdentifier, type RelationJoin, type SqlDialect, type SqlFragment } from './filter-sql.js';
import { QueryError } from './query-error.js';
import type { TableDef } from './table-def.js';

export interface SortKey {
  field: string;
  direction: 'asc' | 'desc';
}

/** A list read of one table on either engine: which live records, in which order, which page. */
export interface ListQuery {
  /** Equality conditions on columns, e.g. `{order_id}` for a nested route. */
  match?: Record<string, unknown>;
  filter?: FilterNode;
  /** Relations the filter may name (`labels:has:…`, `order.code:eq:…`), and a sort (`collection.end`: to-one only). */
  relations?: Record<string, RelationJoin>;
  /**
   * A column strictly between two values, as plain comparisons: an index on the `match`
   * columns and this one serves it. A `filter` cannot (each of its comparisons is wrapped so
   * that a missing value counts as false, which SQLite does not look up in an index).
   */
  range?: { field: string; after?: string | number; before?: string | number };
  sort?: SortKey[];
  limit: number;
  offset: number;
}

/**
 * The SELECT of `eachValues` on either engine: the named fields' columns in that order, then
 * the list query's FROM, ORDER BY and paging. Answers the fields' declarations, for decoding.
 * An undeclared or write-only field is a QueryError, as a list's.
 */
export function valuesSelection(
  table: TableDef,
  query: ListQuery,
  fields: readonly string[],
  dialect: SqlDialect,
): { sql: string; params: unknown[]; columns: FieldSpec[] } {
  const columns = fields.map((name) => {
    const field = own(table.fields, name);
    if (!field || field.writeOnly) throw new QueryError(`Unknown field: ${name}`);
    return field;
  });
  const { from, order, params } = listSelection(table, query, dialect);
  return {
    sql: `SELECT ${fields.map((name) => `t.${quoteIdentifier(name)}`).join(', ')} ${from} ORDER BY ${order} LIMIT ? OFFSET ?`,
    params: [...params, query.limit, query.offset],
    columns,
  };
}

/** The FROM … WHERE and ORDER BY of a list query, and the WHERE's parameters. */
export function listSelection(table: TableDef, query: ListQuery, dialect: SqlDialect): { from: string; order: string; params: unknown[] } {
  // Checked before any query runs, so a bad sort is refused even when the page would be empty.
  const order = (query.sort ?? [])
    .map((key) => `${sortColumn(table, query, key.field)} ${dialect.order(key.direction)}`)
    // Ids are time-ordered (UUIDv7), so this keeps pages stable and in creation order.
    .concat(['t."id" ASC'])
    .join(', ');
  const where = listWhere(table, query, dialect);
  return { from: `FROM ${quoteIdentifier(table.table)} t WHERE ${where.sql}`, order, params: where.params };
}

/**
 * What a sort key orders by: one of the record's own fields, or a field of a record it belongs
 * to (`collection.end` on orders: docs/API.md "Lists"), read by a subquery on the related
 * record's key. A deleted related record counts as none.
 */
function sortColumn(table: TableDef, query: ListQuery, name: string): string {
  const unknown = () => new QueryError(`Unknown sort field: ${name}`);
  const dot = name.indexOf('.');
  if (dot === -1) {
    const field = own(table.fields, name);
    if (!field || field.writeOnly) throw unknown();
    return `t.${quoteIdentifier(name)}`;
  }
  const relation = own(query.relations ?? {}, name.slice(0, dot));
  const fieldName = name.slice(dot + 1);
  const field = relation?.kind === 'belongsTo' ? own(relation.target.fields, fieldName) : undefined;
  if (!relation || !field || field.writeOnly) throw unknown();
  return `(SELECT r.${quoteIdentifier(fieldName)} FROM ${quoteIdentifier(relation.target.table)} r WHERE r."id" = t.${quoteIdentifier(relation.foreignKey!)} AND r."deleted_at" IS NULL)`;
}

/** The WHERE of a list query: live records, its `match`, `range` and `filter`. */
export function listWhere(table: TableDef, query: ListQuery, dialect: SqlDialect): SqlFragment {
  const parts: string[] = ['t."deleted_at" IS NULL'];
  const params: unknown[] = [];
  for (const [field, value] of Object.entries(query.match ?? {})) {
    const spec = own(table.fields, field);
    if (!spec) throw new QueryError(`Unknown field: ${field}`);
    if (value === null) parts.push(`t.${quoteIdentifier(field)} IS NULL`);
    else {
      parts.push(`t.${quoteIdentifier(field)} = ?`);
      params.push(dialect.toColumn(spec, value));
    }
  }
  if (query.range) {
    const { field, after, before } = query.range;
    if (!own(table.fields, field)) throw new QueryError(`Unknown field: ${field}`);
    if (after !== undefined) {
      parts.push(`t.${quoteIdentifier(field)} > ?`);
      params.push(after);
    }
    if (before !== undefined) {
      parts.push(`t.${quoteIdentifier(field)} < ?`);
      params.push(before);
    }
  }
  if (query.filter) {
    const compiled = compileFilter(query.filter, {
      alias: 't',
      fields: table.fields,
      dialect,
      ...(query.relations ? { relations: query.relations } : {}),
    });
    parts.push(compiled.sql);
    params.push(...compiled.params);
  }
  return { sql: parts.join(' AND '), params };
}
