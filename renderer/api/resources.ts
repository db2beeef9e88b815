/**
 * Where each resource lives in the API, and the record and input types the renderer uses
 * for it, derived from the declarations in `shared/resources` so they cannot drift.
 *
 * `satisfies Record<ResourceName, …>` makes adding a resource in `shared/` a compile error
 * here until its path is given. Nested resources (order rows under an order) will need
 * their parent id; that arrives with the first of them.
 */
import type { InputOf, RecordOf } from '../../shared/fields.js';
import type { ResourceName, resourceSpecs } from '../../shared/resources/index.js';

export type { ResourceName };

export const resourcePaths = {
  project: '/v1/project',
} as const satisfies Record<ResourceName, string>;

export type RecordFor<R extends ResourceName> = RecordOf<(typeof resourceSpecs)[R]>;
export type InputFor<R extends ResourceName> = InputOf<(typeof resourceSpecs)[R]>;
