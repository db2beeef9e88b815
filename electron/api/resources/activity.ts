import { activitySpec } from '../../../shared/resources/activity.js';
import { tableFor } from '../../store/environment-store.js';
import type { ResourceModule } from '../resource.js';
import { itemModule } from './simple.js';

export const activityModule: ResourceModule = {
  spec: activitySpec,
  table: tableFor(activitySpec),
  path: '/activity',
  relations: { item: { kind: 'belongsTo', target: () => itemModule, foreignKey: 'item_id' } },
};
