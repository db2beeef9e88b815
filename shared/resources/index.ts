/**
 * Every resource the Planning API serves, declared once. The API turns each declaration
 * into routes, the renderer into typed hooks, the docs into an OpenAPI schema.
 */
import type { ResourceSpec } from '../fields.js';
import { projectSpec } from './project.js';

export { projectSpec, type Project, type ProjectInput } from './project.js';

export const resourceSpecs = {
  project: projectSpec,
} as const satisfies Record<string, ResourceSpec>;

export type ResourceName = keyof typeof resourceSpecs;
