import { groupResourceSpec, groupSpec } from '../../../shared/resources/group.js';
import { tableFor } from '../../store/environment-store.js';
import type { ResourceModule } from '../resource.js';
import { resourceModule } from './resource.js';

export const groupResourceModule: ResourceModule = { spec: groupResourceSpec, table: tableFor(groupResourceSpec) };

export const groupModule: ResourceModule = {
  spec: groupSpec,
  table: tableFor(groupSpec),
  path: '/group',
  relations: {
    resources: {
      kind: 'manyToMany',
      target: () => resourceModule,
      link: () => groupResourceModule,
      ownerKey: 'group_id',
      targetKey: 'resource_id',
    },
  },
};
