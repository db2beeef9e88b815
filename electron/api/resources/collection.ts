import type { FieldProblem } from '../../../shared/errors.js';
import { collectionActivitySpec, collectionSpec } from '../../../shared/resources/collection.js';
import { tableFor } from '../../store/environment-store.js';
import type { ResourceModule } from '../resource.js';
import { activityModule } from './activity.js';
import { orderModule } from './order.js';

/** The status rule a client must follow; `planned` is set only by planning. */
export const statusRule = 'status may only be switched between not_planned and ignored; planned is set by planning the collection';

function checkStatus(values: Record<string, unknown>, current: Record<string, unknown> | undefined): FieldProblem[] {
  if (!('status' in values)) return [];
  const next = values.status;
  const now = current?.status;
  if (next === now) return [];
  const allowed = current ? (now === 'not_planned' || now === 'ignored') && (next === 'not_planned' || next === 'ignored') : next !== 'planned';
  return allowed ? [] : [{ field: 'status', description: statusRule }];
}

export const collectionActivityModule: ResourceModule = {
  spec: collectionActivitySpec,
  table: tableFor(collectionActivitySpec),
};

export const collectionModule: ResourceModule = {
  spec: collectionSpec,
  table: tableFor(collectionSpec),
  path: '/collection',
  relations: {
    activities: {
      kind: 'manyToMany',
      target: () => activityModule,
      link: () => collectionActivityModule,
      ownerKey: 'collection_id',
      targetKey: 'activity_id',
      pivot: ['time'],
    },
    order: { kind: 'hasOne', target: () => orderModule, foreignKey: 'collection_id' },
  },
  rules: {
    check: (_ctx, values, current) => checkStatus(values, current),
  },
};
