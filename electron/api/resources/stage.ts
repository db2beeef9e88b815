import { stageActivitySpec, stageSpec } from '../../../shared/resources/stage.js';
import type { ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const stageActivityModule: ResourceModule = { spec: stageActivitySpec, table: tables.stage_activity };

export const stageModule: ResourceModule = {
  spec: stageSpec,
  table: tables.stage,
  path: '/stage',
  relations: {
    board: { kind: 'belongsTo', target: 'board', foreignKey: 'board_id' },
    activities: {
      kind: 'manyToMany',
      target: 'activity',
      link: 'stage_activity',
      ownerKey: 'stage_id',
      targetKey: 'activity_id',
      pivot: ['priority'],
    },
  },
};
