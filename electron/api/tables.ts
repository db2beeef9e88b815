/**
 * The table handle of every stored resource (built once in the store from the shared
 * declarations). Domain code (planning, time tracking) reads and writes through these handles,
 * never through a resource module, so the dependency runs one way: route plugins → resource
 * modules → domain services → these tables and the store.
 */
export { tableNamed, tables, type TableName } from '../store/tables.js';
