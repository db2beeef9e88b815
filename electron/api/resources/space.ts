import { spaceSpec } from '../../../shared/resources/space.js';
import { tableFor } from '../../store/environment-store.js';
import type { ResourceModule } from '../resource.js';
import { boardModule } from './board.js';

export const spaceModule: ResourceModule = {
  spec: spaceSpec,
  table: tableFor(spaceSpec),
  path: '/space',
  relations: { boards: { kind: 'hasMany', target: () => boardModule, foreignKey: 'space_id' } },
};
