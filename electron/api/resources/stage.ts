import { stageActivitySpec, stageSpec } from '../../../shared/resources/stage.js';
import type { ResourceModule } from '../resource.js';
import { activityModule } from './activity.js';
import { boardModule } from './board.js';
import { tables } from '../tables.js';

export const stageActivityModule: ResourceModule = { spec: stageActivitySpec, table: tables.stage_activity };

export const stageModule: ResourceModule = {
  spec: stageSpec,
  table: tables.stage,
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
