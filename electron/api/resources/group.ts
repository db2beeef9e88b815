import { groupResourceSpec, groupSpec } from '../../../shared/resources/group.js';
import type { ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const groupResourceModule: ResourceModule = { spec: groupResourceSpec, table: tables.group_resource };

export const groupModule: ResourceModule = {
  spec: groupSpec,
  table: tables.group,
  path: '/group',
  relations: {
    resources: {
      kind: 'manyToMany',
      target: 'resource',
      link: 'group_resource',
      ownerKey: 'group_id',
      targetKey: 'resource_id',
    },
  },
};
