import { spaceSpec } from '../../../shared/resources/space.js';
import type { ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const spaceModule: ResourceModule = {
  spec: spaceSpec,
  table: tables.space,
  path: '/space',
  relations: { boards: { kind: 'hasMany', target: 'board', foreignKey: 'space_id' } },
};
