import { stageActivitySpec, stageSpec } from '../../../shared/resources/stage.js';
import { tableFor } from '../../store/environment-store.js';
import type { ResourceModule } from '../resource.js';
import { activityModule } from './activity.js';
import { boardModule } from './board.js';

export const stageActivityModule: ResourceModule = { spec: stageActivitySpec, table: tableFor(stageActivitySpec) };

export const stageModule: ResourceModule = {
  spec: stageSpec,
  table: tableFor(stageSpec),
  path: '/stage',
  relations: {
    board: { kind: 'belongsTo', target: () => boardModule, foreignKey: 'board_id' },
    activities: {
      kind: 'manyToMany',
      target: () => activityModule,
      link: () => stageActivityModule,
      ownerKey: 'stage_id',
      targetKey: 'activity_id',
      pivot: ['priority'],
    },
  },
};
