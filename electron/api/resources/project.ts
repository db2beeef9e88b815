import { projectSpec } from '../../../shared/resources/project.js';
import { tableFor } from '../../store/environment-store.js';
import type { ResourceModule } from '../resource.js';

/** Projects have no rules beyond their fields. */
export const projectModule: ResourceModule = {
  spec: projectSpec,
  table: tableFor(projectSpec),
  path: '/project',
};
