/** The tables a replica merges pulled records into: one per declared resource. */
import { resourceSpecs } from '../../shared/resources/index.js';
import type { TableDef } from '../store/table-def.js';
import { tableNamed } from '../store/tables.js';

/** The same handles the API writes through (store/tables.ts), so both read one declaration. */
export function syncTables(): Map<string, TableDef> {
  return new Map(Object.values(resourceSpecs).map((spec) => [spec.name, tableNamed(spec.name)!]));
}
