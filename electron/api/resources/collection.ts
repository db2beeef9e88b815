/**
 * Collections: jobs in the backlog or planned on a board as cards. Beside the generic routes
 * are planning (planning/plan-routes.ts: onto a board, back to the backlog) and one custom field
 * by name (collection-routes.ts).
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { collectionActivitySpec, collectionSpec } from '../../../shared/resources/collection.js';
import { collectionFollowerSpec, collectionLabelSpec } from '../../../shared/resources/card.js';
import { refreshCollection, recomputeCollection } from '../planning/collection-state.js';
import { checkSyncedCollection } from '../planning/one-plan.js';
import type { ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

/** The status rule a client must follow; `planned` is set only by planning. */
export const statusRule = 'status may only be switched between not_planned and ignored; planned is set by planning the collection';

/**
 * A client may only switch between not_planned and ignored. A replica's synced change may
 * also carry what its planning did (to planned, and back to not_planned), but never ignore
 * a collection that is planned here.
 */
function checkStatus(values: Record<string, unknown>, current: Record<string, unknown> | undefined, fromSync: boolean): FieldProblem[] {
  if (!('status' in values)) return [];
  const next = values.status;
  const now = current?.status;
  if (next === now) return [];
  const allowed = fromSync
    ? next !== 'ignored' || now === undefined || now === 'not_planned'
    : current
      ? (now === 'not_planned' || now === 'ignored') && (next === 'not_planned' || next === 'ignored')
      : next !== 'planned';
  return allowed ? [] : [{ field: 'status', description: statusRule }];
}

export const collectionActivityModule: ResourceModule = { spec: collectionActivitySpec, table: tables.collection_activity };
export const collectionLabelModule: ResourceModule = { spec: collectionLabelSpec, table: tables.collection_label };
export const collectionFollowerModule: ResourceModule = { spec: collectionFollowerSpec, table: tables.collection_follower };

export const collectionModule: ResourceModule = {
  spec: collectionSpec,
  table: tables.collection,
  path: '/collection',
  relations: {
    activities: {
      kind: 'manyToMany',
      target: 'activity',
      link: 'collection_activity',
      ownerKey: 'collection_id',
      targetKey: 'activity_id',
      pivot: ['time'],
    },
    labels: { kind: 'manyToMany', target: 'label', link: 'collection_label', ownerKey: 'collection_id', targetKey: 'label_id' },
    followers: { kind: 'manyToMany', target: 'user', link: 'collection_follower', ownerKey: 'collection_id', targetKey: 'user_id' },
    cards: { kind: 'hasMany', target: 'card', foreignKey: 'collection_id', owned: true },
    checklists: { kind: 'hasMany', target: 'checklist', foreignKey: 'collection_id', owned: true },
    comments: { kind: 'hasMany', target: 'comment', foreignKey: 'collection_id', owned: true },
    attachments: { kind: 'hasMany', target: 'attachment', foreignKey: 'collection_id', owned: true },
    order: { kind: 'hasOne', target: 'order', foreignKey: 'collection_id' },
  },
  rules: {
    check: (ctx, _tx, values, current) => checkStatus(values, current, ctx.origin === 'sync'),
    // A new due date can add or clear the "ends after the due date" warning.
    afterWrite: (_ctx, tx, collection) => recomputeCollection(tx, collection.id),
    checkSynced: checkSyncedCollection,
    afterSynced: (ctx, tx, collection) => refreshCollection(ctx, tx, collection.id),
  },
};
