/**
 * Resource modules by name, so generic code can follow a field's `references` to the module
 * it names without importing every module (which would make import cycles). Modules are
 * registered by `resources/index.ts`.
 */
import type { ResourceModule } from './resource.js';

const modules = new Map<string, ResourceModule>();

/** The first module of a name wins: a second view of the same records (`/card`) is not its owner. */
export function registerModules(list: readonly ResourceModule[]): void {
  for (const module of list) if (!modules.has(module.spec.name)) modules.set(module.spec.name, module);
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
