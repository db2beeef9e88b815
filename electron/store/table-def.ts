/**
 * How a resource is stored, the same on either engine: the SQLite store (environment-store.ts),
 * the PostgreSQL one (postgres/record-store.ts) and the SQL they share (record-sql.ts) all take
 * these handles, so the handle lives apart from any one of them.
 */
import type { FieldSpec, ResourceSpec } from '../../shared/fields.js';

/**
 * How a resource is stored: its table, its columns and its uniqueness rules. `S` is the
 * declaration it was built from, so a handle carries its record type for typed reads.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- S is carried for typed reads.
export interface TableDef<S extends ResourceSpec = ResourceSpec> {
  /** Resource name used in the change log and change events. */
  resource: string;
  table: string;
  /** Column fields (the declaration without virtual fields). */
  fields: Record<string, FieldSpec>;
  /** Each entry is a set of columns that must be unique together when none is null. */
  unique: string[][];
}

/** The stored table of a declaration: its columns, and its uniqueness rules from the spec. */
export function tableFor<S extends ResourceSpec>(spec: S, options: { table?: string } = {}): TableDef<S> {
  const fields = Object.fromEntries(Object.entries(spec.fields).filter(([, f]) => !f.virtual));
  return {
    resource: spec.name,
    table: options.table ?? spec.name,
    fields,
    unique: spec.unique?.map((set) => [...set]) ?? ('external_ref' in fields ? [['external_ref']] : []),
  };
}
