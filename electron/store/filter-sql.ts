/**
 * Compiles a parsed `filter` tree (shared/filter.ts) to a parameterised SQL condition.
 * Values only ever travel as parameters. Field names are checked against the resource's
 * declaration, and what reaches the SQL text is the declared column name, quoted.
 *
 * Null semantics, chosen to match what a planner expects: a comparison with a missing value
 * is false, so `status:not:eq:done` includes records without a status. A negated atom is
 * compiled as `NOT ((condition) IS TRUE)`. A plain atom stays `(condition)`: the compiled
 * filter is only ever a WHERE condition (of the list, or of an EXISTS below it), where a
 * missing comparison (NULL) rejects a record just as false does, and only a bare comparison
 * lets the engine search an index by it (a report of one week reads that week, not the
 * whole table).
 *
 * The SQL is the same for both store engines but for what `SqlDialect` names: a text match
 * without regard to case, a JSON list's members, and how a value is stored (docs/architecture.md
 * "Team server on PostgreSQL"). Parameters are `?`; the PostgreSQL engine numbers them.
 */
import { booleanWord } from '../../shared/boolean-words.js';
import { own, type FieldSpec } from '../../shared/fields.js';
import type { FilterAtom, FilterNode } from '../../shared/filter.js';
import { QueryError } from './query-error.js';

/** What the two store engines write differently in a query. */
export interface SqlDialect {
  /** `column` matches the next parameter as a LIKE pattern, without regard to case, with `\` as the escape character. */
  like(column: string): string;
  /** The JSON list in `column` has a member that is, or whose `id` is, the next parameter (given twice). */
  jsonListHas(column: string): string;
  /** A field's value as its column stores it (a boolean, a JSON value). */
  toColumn(field: FieldSpec | undefined, value: unknown): unknown;
  /** ORDER BY's direction with a missing value smallest: first ascending, last descending, on both engines. */
  order(direction: 'asc' | 'desc'): string;
}

/**
 * SQLite: LIKE ignores the case of ASCII letters; booleans are stored as 0 and 1, JSON as its
 * text (environment-store.ts).
 */
export const sqliteDialect: SqlDialect = {
  like: (column) => `${column} LIKE ? ESCAPE '\\'`,
  // json_extract only on an object member: on a plain text member it fails the whole query ("malformed JSON").
  jsonListHas: (column) =>
    `EXISTS (SELECT 1 FROM json_each(${column}) j WHERE j.value = ? OR (CASE WHEN j.type = 'object' THEN json_extract(j.value, '$.id') END) = ?)`,
  toColumn: (field, value) => {
    if (value === null || value === undefined) return null;
    if (field?.type === 'boolean') return value ? 1 : 0;
    if (field?.type === 'json') return JSON.stringify(value);
    return value;
  },
  // SQLite counts NULL as smaller than any value already, and plain ASC and DESC keep its indexes usable for the order.
  order: (direction) => (direction === 'desc' ? 'DESC' : 'ASC'),
};

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/**
 * A relation a filter may name: `labels:has:<id>` (has a related record with that id),
 * `labels:has:*` (has any), or `order.code:eq:…` (has a related record matching).
 */
export interface RelationJoin {
  /** `peers`: other target records that share a link target with this one (through `link`, whose targetKey is what they share). */
  kind: 'belongsTo' | 'hasMany' | 'manyToMany' | 'peers';
  target: { table: string; fields: Record<string, FieldSpec> };
  /** belongsTo: the column on the outer table; hasMany: the column on the target. */
  foreignKey?: string;
  /** hasMany: the outer column the target's foreignKey holds, when not `id` (a resource's `type`). */
  localKey?: string;
  link?: { table: string; ownerKey: string; targetKey: string };
}

function existsSql(outer: string, relation: RelationJoin, inner: SqlFragment): SqlFragment {
  const target = quoteIdentifier(relation.target.table);
  const live = 'r."deleted_at" IS NULL';
  switch (relation.kind) {
    case 'belongsTo':
      return {
        sql: `EXISTS (SELECT 1 FROM ${target} r WHERE r."id" = ${outer}.${quoteIdentifier(relation.foreignKey!)} AND ${live} AND (${inner.sql}))`,
        params: inner.params,
      };
    case 'hasMany':
      return {
        sql: `EXISTS (SELECT 1 FROM ${target} r WHERE r.${quoteIdentifier(relation.foreignKey!)} = ${outer}.${quoteIdentifier(relation.localKey ?? 'id')} AND ${live} AND (${inner.sql}))`,
        params: inner.params,
      };
    case 'manyToMany': {
      const link = relation.link!;
      return {
        sql: `EXISTS (SELECT 1 FROM ${quoteIdentifier(link.table)} l JOIN ${target} r ON r."id" = l.${quoteIdentifier(link.targetKey)} WHERE l.${quoteIdentifier(link.ownerKey)} = ${outer}."id" AND l."deleted_at" IS NULL AND ${live} AND (${inner.sql}))`,
        params: inner.params,
      };
    }
    case 'peers': {
      const link = relation.link!;
      const table = quoteIdentifier(link.table);
      const owner = quoteIdentifier(link.ownerKey);
      const shared = quoteIdentifier(link.targetKey);
      return {
        sql: `EXISTS (SELECT 1 FROM ${table} l JOIN ${table} p ON p.${shared} = l.${shared} AND p."deleted_at" IS NULL JOIN ${target} r ON r."id" = p.${owner} WHERE l.${owner} = ${outer}."id" AND l."deleted_at" IS NULL AND r."id" <> ${outer}."id" AND ${live} AND (${inner.sql}))`,
        params: inner.params,
      };
    }
  }
}

export interface FilterScope {
  alias: string;
  fields: Record<string, FieldSpec>;
  relations?: Record<string, RelationJoin>;
  /** SQLite's unless given. */
  dialect?: SqlDialect;
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Decimal numbers, optionally with an exponent: Number() would also take `0x3` and ` 5`. */
export const decimalPattern = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function coerce(field: string, spec: FieldSpec, value: string, dialect: SqlDialect): unknown {
  switch (spec.type) {
    case 'integer':
    case 'number': {
      const n = Number(value);
      if (!decimalPattern.test(value) || !Number.isFinite(n)) {
        throw new QueryError(`filter value '${value}' for ${field} is not a number`);
      }
      return n;
    }
    case 'boolean': {
      const flag = booleanWord(value);
      if (flag !== undefined) return dialect.toColumn(spec, flag);
      throw new QueryError(`filter value '${value}' for ${field} must be true or false`);
    }
    case 'datetime': {
      // Stored as ISO 8601 UTC with Z; normalise a value given with an offset so that text
      // comparison orders correctly. A bare date compares as a prefix, which also orders.
      if (/[T ]\d{2}:\d{2}/.test(value)) {
        const ms = Date.parse(value);
        if (!Number.isNaN(ms)) return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
      }
      return value;
    }
    default:
      return value;
  }
}

function compareAtom(column: string, field: string, spec: FieldSpec, atom: FilterAtom, dialect: SqlDialect): SqlFragment {
  const { operator, value } = atom;
  if (value === null) {
    if (operator !== 'eq') throw new QueryError(`null can only be compared with eq (field ${field})`);
    return { sql: `${column} IS NULL`, params: [] };
  }
  switch (operator) {
    case 'eq':
      return { sql: `${column} = ?`, params: [coerce(field, spec, value, dialect)] };
    case 'gt':
      return { sql: `${column} > ?`, params: [coerce(field, spec, value, dialect)] };
    case 'gte':
      return { sql: `${column} >= ?`, params: [coerce(field, spec, value, dialect)] };
    case 'lt':
      return { sql: `${column} < ?`, params: [coerce(field, spec, value, dialect)] };
    case 'lte':
      return { sql: `${column} <= ?`, params: [coerce(field, spec, value, dialect)] };
    case 'contains':
      return { sql: dialect.like(column), params: [`%${escapeLike(value)}%`] };
    case 'starts_with':
      return { sql: dialect.like(column), params: [`${escapeLike(value)}%`] };
    case 'ends_with':
      return { sql: dialect.like(column), params: [`%${escapeLike(value)}`] };
    case 'has':
      if (spec.type === 'json' && spec.shape === 'array') {
        // An array of ids or of {id}: true when one element is (or has id) the value.
        return { sql: dialect.jsonListHas(column), params: [value, value] };
      }
      throw new QueryError(`has works on relations and lists; ${field} is neither`);
  }
}

function compileAtom(atom: FilterAtom, scope: FilterScope): SqlFragment {
  const dot = atom.field.indexOf('.');
  let inner: SqlFragment;
  const dialect = scope.dialect ?? sqliteDialect;
  const ownField = dot === -1 ? own(scope.fields, atom.field) : undefined;
  if (ownField) {
    const spec = ownField;
    if (spec.writeOnly) throw new QueryError(`Unknown filter field: ${atom.field}`);
    inner = compareAtom(`${scope.alias}.${quoteIdentifier(atom.field)}`, atom.field, spec, atom, dialect);
  } else {
    const relationName = dot === -1 ? atom.field : atom.field.slice(0, dot);
    const relation = own(scope.relations, relationName);
    if (!relation) throw new QueryError(`Unknown filter field: ${atom.field}`);
    const subField = dot === -1 ? 'id' : atom.field.slice(dot + 1);
    const spec = own(relation.target.fields, subField);
    // Write-only fields (secrets, file checksums) stay unreadable through a relation too.
    if (!spec || spec.writeOnly || subField.includes('.')) throw new QueryError(`Unknown filter field: ${atom.field}`);
    if (dot === -1 && atom.operator !== 'has') {
      throw new QueryError(`${relationName} is a relation: use ${relationName}:has:<id> or ${relationName}.<field>`);
    }
    const condition =
      atom.operator === 'has'
        ? atom.value === null || atom.value === '' || atom.value === '*'
          ? { sql: 'TRUE', params: [] }
          : { sql: `r.${quoteIdentifier(subField)} = ?`, params: [coerce(subField, spec, atom.value, dialect)] }
        : compareAtom(`r.${quoteIdentifier(subField)}`, subField, spec, atom, dialect);
    inner = existsSql(scope.alias, relation, condition);
  }
  return { sql: atom.not ? `NOT (${inner.sql}) IS TRUE` : `(${inner.sql})`, params: inner.params };
}

export function compileFilter(node: FilterNode, scope: FilterScope): SqlFragment {
  if (node.kind === 'atom') return compileAtom(node, scope);
  const parts = node.items.map((item) => compileFilter(item, scope));
  return {
    sql: `(${parts.map((p) => p.sql).join(node.kind === 'and' ? ' AND ' : ' OR ')})`,
    params: parts.flatMap((p) => p.params),
  };
}
