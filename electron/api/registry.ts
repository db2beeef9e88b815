/**
 * Resource modules by name, so generic code can follow a field's `references` to the module
 * it names without importing every module (which would make import cycles). Modules are
 * registered by `resources/index.ts`.
 */
import type { ResourceModule } from './resource.js';

const modules = new Map<string, ResourceModule>();

export function registerModules(list: readonly ResourceModule[]): void {
  for (const module of list) modules.set(module.spec.name, module);
}

export function moduleNamed(name: string): ResourceModule {
  const module = modules.get(name);
  if (!module) throw new Error(`no resource module named ${name}`);
  return module;
}
