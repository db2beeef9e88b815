import { activitySpec } from '../../../shared/resources/activity.js';
import type { ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const activityModule: ResourceModule = {
  spec: activitySpec,
  table: tables.activity,
  path: '/activity',
  relations: {
    item: { kind: 'belongsTo', target: 'item', foreignKey: 'item_id' },
    stages: {
      kind: 'manyToMany',
      target: 'stage',
      link: 'stage_activity',
      ownerKey: 'activity_id',
      targetKey: 'stage_id',
      pivot: ['priority'],
    },
    time_tracking: { kind: 'hasMany', target: 'time_tracking', foreignKey: 'activity_id' },
  },
};
