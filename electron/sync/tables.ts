/** The tables a replica merges pulled records into: one per declared resource. */
import { resourceSpecs } from '../../shared/resources/index.js';
import { tableFor, type TableDef } from '../store/environment-store.js';

export function syncTables(): Map<string, TableDef> {
  return new Map(Object.values(resourceSpecs).map((spec) => [spec.name, tableFor(spec)]));
}
