import { projectSpec } from '../../../shared/resources/project.js';
import type { ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

/** Projects have no rules beyond their fields. */
export const projectModule: ResourceModule = {
  spec: projectSpec,
  table: tables.project,
  path: '/project',
};
