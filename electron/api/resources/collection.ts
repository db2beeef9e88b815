/**
 * Collections: jobs in the backlog or planned on a board as cards. Beside the generic routes:
 *
 *   POST   /v1/collection/{id}/board/{board_id}       plan it (planning/plan-collection.ts)
 *   POST   /v1/collection/{id}/backlog                back to the backlog: cards removed
 *   PUT    /v1/collection/{id}/custom_field/{name}    set one custom field value by name
 *   DELETE /v1/collection/{id}/custom_field/{name}    remove it
 */
import type { FastifyInstance } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { checkCustomFieldValues, customFieldValueSchema } from '../../../shared/custom-fields.js';
import { isPlainObject } from '../../../shared/fields.js';
import { collectionActivitySpec, collectionSpec } from '../../../shared/resources/collection.js';
import { collectionFollowerSpec, collectionLabelSpec } from '../../../shared/resources/card.js';
import type { QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { refreshCollection } from '../planning/collection-state.js';
import { checkSyncedCollection } from '../planning/one-plan.js';
import { moveToBacklog, planCollection } from '../planning/plan-collection.js';
import { findRecord, present, shapeOptionsFor } from '../records.js';
import type { ResourceModule } from '../resource.js';
import { optionalBody } from '../conventions/request-body.js';
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
    check: (ctx, values, current) => checkStatus(values, current, ctx.origin === 'sync'),
    // A new due date can add or clear the "ends after the due date" warning.
    afterWrite: (ctx, collection) => refreshCollection(ctx, collection.id),
    checkSynced: checkSyncedCollection,
    afterSynced: (ctx, collection) => refreshCollection(ctx, collection.id),
  },
  routes: registerCollectionRoutes,
};

/** The body of the by-name route: one value without its name (that is in the path). */
const customFieldBody = {
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(customFieldValueSchema.properties).filter(([key]) => !['id', 'name', 'created_at', 'updated_at'].includes(key)),
  ),
};

function customFieldRoutes(app: FastifyInstance): void {
  app.put<{ Params: { id: string; name: string }; Querystring: QueryString }>(
    '/collection/:id/custom_field/:name',
    { config: { doc: { summary: 'Set one custom field of a collection by name', tag: 'Collection', body: customFieldBody } } },
    (request) => {
      const body = optionalBody(request.body);
      const shape = shapeOptionsFor(collectionModule, request.query);
      const { name } = request.params;
      const record = request.ctx.store.transaction(() => {
        const collection = findRecord(request.ctx, collectionModule, request.params.id);
        const stored = collection.custom_fields as unknown[];
        // Checked exactly as an inline write of the list with this one item sent
        // (shared/custom-fields.ts); problems are named as the body's own fields.
        const found = stored.findIndex((f) => isPlainObject(f) && f.name === name);
        const index = found >= 0 ? found : stored.length;
        const sent = [...stored];
        sent[index] = { ...body, name };
        const { value, problems } = checkCustomFieldValues(sent, { scope: 'collection', previous: stored });
        const own = `${index}.`;
        const strip = (text: string) => (text.startsWith(own) ? text.slice(own.length) : text);
        if (problems.length > 0) throw ApiError.unprocessable(problems.map((p) => ({ field: strip(p.field), description: strip(p.description) })));
        return request.ctx.store.update(tables.collection, collection.id, { custom_fields: value })!;
      });
      return present(request.ctx, collectionModule, [record], shape)[0];
    },
  );
  app.delete<{ Params: { id: string; name: string } }>(
    '/collection/:id/custom_field/:name',
    { config: { doc: { summary: 'Remove one custom field of a collection by name', tag: 'Collection', success: { status: 204, description: 'Removed' } } } },
    async (request, reply) => {
      request.ctx.store.transaction(() => {
        const collection = findRecord(request.ctx, collectionModule, request.params.id);
        const fields = collection.custom_fields as unknown[];
        const named = (f: unknown) => isPlainObject(f) && f.name === request.params.name;
        if (!fields.some(named)) throw ApiError.notFound('The collection has no custom field with that name.');
        request.ctx.store.update(tables.collection, collection.id, { custom_fields: fields.filter((f) => !named(f)) });
      });
      return reply.code(204).send();
    },
  );
}

function registerCollectionRoutes(app: FastifyInstance): void {
  app.post<{ Params: { id: string; board_id: string }; Querystring: QueryString }>(
    '/collection/:id/board/:board_id',
    {
      config: {
        doc: {
          summary: 'Plan the collection onto a board: its cards are made at once',
          tag: 'Collection',
          body: {
            type: 'object',
            properties: {
              start: { type: 'string', format: 'date' },
              end: { type: 'string', format: 'date' },
              reverse: { type: 'boolean' },
              force_stages: { type: 'array', items: { type: 'string', format: 'uuid' } },
              resources: { type: 'array', items: { type: 'string', format: 'uuid' } },
              stage_id: { type: 'string', format: 'uuid' },
              status_id: { type: 'string', format: 'uuid' },
              before: { type: ['string', 'null'], format: 'uuid' },
              after: { type: ['string', 'null'], format: 'uuid' },
            },
          },
        },
      },
    },
    (request) => {
      const shape = shapeOptionsFor(collectionModule, request.query);
      const collection = planCollection(request.ctx, request.params.id, request.params.board_id, request.body);
      return present(request.ctx, collectionModule, [collection], { ...shape, with: shape.with.length > 0 ? shape.with : ['cards'] })[0];
    },
  );
  app.post<{ Params: { id: string }; Querystring: QueryString }>(
    '/collection/:id/backlog',
    { config: { doc: { summary: 'Move the collection back to the backlog (its cards are removed)', tag: 'Collection' } } },
    (request) => {
      const shape = shapeOptionsFor(collectionModule, request.query);
      return present(request.ctx, collectionModule, [moveToBacklog(request.ctx, request.params.id)], shape)[0];
    },
  );
  customFieldRoutes(app);
}
