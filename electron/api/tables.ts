/**
 * The table handle of every stored resource (built once in the store from the shared
 * declarations). Domain code (planning, time tracking) reads and writes through these handles,
 * never through a resource module, so the dependency runs one way: route plugins → resource
 * modules → domain services → these tables and the store.
 */
import type { StoredOf } from '../../shared/fields.js';
import type { TableDef } from '../store/table-def.js';
import type { tables, TableName } from '../store/tables.js';

export { tableNamed, tables, type TableName } from '../store/tables.js';

/** A record of one table as the store keeps it, with its declared field types: `Stored<'card'>`. */
export type Stored<N extends TableName> = (typeof tables)[N] extends TableDef<infer S> ? StoredOf<S> : never;
