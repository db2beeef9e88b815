import { activitySpec } from '../../../shared/resources/activity.js';
import type { ResourceModule } from '../resource.js';
import { itemModule } from './simple.js';
import { stageActivityModule, stageModule } from './stage.js';
import { timeTrackingModule } from './time-tracking.js';
import { tables } from '../tables.js';

export const activityModule: ResourceModule = {
  spec: activitySpec,
  table: tables.activity,
  path: '/activity',
  relations: {
    item: { kind: 'belongsTo', target: () => itemModule, foreignKey: 'item_id' },
    stages: {
      kind: 'manyToMany',
      target: () => stageModule,
      link: () => stageActivityModule,
      ownerKey: 'activity_id',
      targetKey: 'stage_id',
      pivot: ['priority'],
    },
    time_tracking: { kind: 'hasMany', target: () => timeTrackingModule, foreignKey: 'activity_id' },
  },
};
