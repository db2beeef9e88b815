/**
 * Resource modules by name, so generic code can follow a field's `references` to the module
 * it names without importing every module (which would make import cycles). Modules are
 * registered by `resources/index.ts`.
 */
import type { ResourceModule } from './resource.js';

const modules = new Map<string, ResourceModule>();
/** Resource name → the fields of other resources that go with its records (see dependentsOf). */
const dependents = new Map<string, readonly Dependent[]>();

/** The first module of a name wins: a second view of the same records (`/card`) is not its owner. */
export function registerModules(list: readonly ResourceModule[]): void {
  for (const module of list) if (!modules.has(module.spec.name)) modules.set(module.spec.name, module);
  dependents.clear();
}

export interface Dependent {
  module: ResourceModule;
  field: string;
}

/**
 * The `references` fields declared `onDelete: 'cascade'` that name records of `resource`: a
 * record holding one is deleted with the record it names (a card relation with either card).
 */
export function dependentsOf(resource: string): readonly Dependent[] {
  let found = dependents.get(resource);
  if (!found) {
    found = [...modules.values()].flatMap((module) =>
      Object.entries(module.spec.fields)
        .filter(([, field]) => field.references === resource && field.onDelete === 'cascade')
        .map(([field]) => ({ module, field })),
    );
    dependents.set(resource, found);
  }
  return found;
}

export function moduleNamed(name: string): ResourceModule {
  const module = modules.get(name);
  if (!module) throw new Error(`no resource module named ${name}`);
  return module;
}

/** The module of that name, if the API serves it. */
export function moduleNamedOrNone(name: string): ResourceModule | undefined {
  return modules.get(name);
}
