/**
 * The table handle of every stored resource, built once from the shared declarations. Domain
 * code (planning, time tracking) and sync read and write through these handles, never through
 * a resource module, so the dependency runs one way: route plugins → resource modules →
 * domain services → these tables and the store; sync merges into the same handles.
 */
import { kpiSnapshotSpec, resourceSpecs, webhookDeliverySpec, webhookSpec } from '../../shared/resources/index.js';
import { tableFor, type TableDef } from './table-def.js';

type Specs = typeof resourceSpecs & {
  webhook: typeof webhookSpec;
  webhook_delivery: typeof webhookDeliverySpec;
  kpi_snapshot: typeof kpiSnapshotSpec;
};

const specs: Specs = { ...resourceSpecs, webhook: webhookSpec, webhook_delivery: webhookDeliverySpec, kpi_snapshot: kpiSnapshotSpec };

export type TableName = keyof Specs;

export const tables = Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, tableFor(spec)])) as {
  // Object.fromEntries loses the key → handle pairing that the map above keeps.
  readonly [K in TableName]: TableDef<Specs[K]>;
};

/** The handle of a resource named at run time (a field's `references`, a change-log row). */
export function tableNamed(name: string): TableDef | undefined {
  return Object.hasOwn(tables, name) ? tables[name as TableName] : undefined;
}
