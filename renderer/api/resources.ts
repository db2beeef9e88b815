/**
 * Where each resource lives in the API, and the record and input types the renderer uses
 * for it, derived from the declarations in `shared/resources` so they cannot drift.
 */
import type { InputOf, RecordOf } from '../../shared/fields.js';
import type { ResourceName, resourceSpecs } from '../../shared/resources/index.js';

export type { ResourceName };

/**
 * The collection path of a top-level resource. Nested resources (order rows under an order)
 * will need their parent's id here; that arrives with the first screen that shows one.
 */
export function resourcePath(resource: ResourceName): string {
  return `/v1/${resource}`;
}

export type RecordFor<R extends ResourceName> = RecordOf<(typeof resourceSpecs)[R]>;
export type InputFor<R extends ResourceName> = InputOf<(typeof resourceSpecs)[R]>;
