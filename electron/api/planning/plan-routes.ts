/**
 * Planning a collection onto a board and moving it back to the backlog (docs/API.md):
 *
 *   POST /v1/collection/{id}/board/{board_id}   plan it (plan-collection.ts)
 *   POST /v1/collection/{id}/backlog            back to the backlog: its cards are removed
 *
 * The body is read here into typed options; the planning itself is plan-collection.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { isPlainObject, isValidDate } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import type { StoredRecord } from '../../store/environment-store.js';
import type { QueryString } from '../conventions/list-query.js';
import { optionalBody, requiredBody } from '../conventions/request-body.js';
import { pieceUnit } from '../../../shared/resources/order-row.js';
import { pieceMinutesOf, rowMinutes } from '../resources/order-collection.js';
import { boardModule } from '../resources/board.js';
import type { PlanActivity } from './plan.js';
import { promiseDates, type PromiseSubject } from './promise-dates.js';
import { ApiError } from '../errors.js';
import { findRecord, present, shapeOptionsFor } from '../records.js';
import type { RequestContext } from '../resource.js';
import { collectionModule } from '../resources/collection.js';
import { tables } from '../tables.js';
import { addedLoad, lastFiniteStart } from './finite-plan.js';
import { moveToBacklog, planCollectionWith, planTarget, type PlanOptions } from './plan-collection.js';

/** Thrown to roll a dry run's transaction back, carrying its answer out. */
class RolledBack<T> {
  constructor(readonly answer: T) {}
}

/** Runs `fn` in a transaction that is always rolled back, and answers what it returned. */
export function dryRun<T>(ctx: RequestContext, fn: () => T): T {
  try {
    ctx.store.transaction(() => {
      throw new RolledBack(fn());
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.answer as T;
    throw error;
  }
  throw new Error('unreachable: a dry run always rolls back');
}

function isDryRun(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { dry_run?: unknown }).dry_run === true;
}

/** The plan body (all optional) as PlanOptions; every problem in it is one 422. */
function readPlanOptions(ctx: RequestContext, board: StoredRecord, raw: unknown): PlanOptions {
  const body = optionalBody(raw);
  const problems: FieldProblem[] = [];
  const out: PlanOptions = { reverse: false, force_stages: [], resources: [] };
  const stageIds = new Set(ctx.store.getWhereIn(tables.stage, 'board_id', [board.id]).map((s) => s.id));
  for (const field of ['start', 'end'] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && isValidDate(value)) out[field] = value;
    else problems.push({ field, description: `${field} must be a date (YYYY-MM-DD)` });
  }
  if (body.reverse !== undefined && body.reverse !== null) {
    if (typeof body.reverse === 'boolean') out.reverse = body.reverse;
    else problems.push({ field: 'reverse', description: 'reverse must be true or false' });
  }
  if (body.dry_run !== undefined && body.dry_run !== null) {
    if (typeof body.dry_run === 'boolean') out.dry_run = body.dry_run;
    else problems.push({ field: 'dry_run', description: 'dry_run must be true or false' });
  }
  if (body.capacity !== undefined && body.capacity !== null) {
    if (body.capacity === 'finite' || body.capacity === 'infinite') out.capacity = body.capacity;
    else problems.push({ field: 'capacity', description: 'capacity must be finite or infinite' });
  }
  const idList = (field: 'force_stages' | 'resources', exists: (id: string) => boolean, what: string) => {
    const value = body[field];
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) return problems.push({ field, description: `${field} must be an array of ids` });
    value.forEach((id, i) => {
      if (!isUuid(id) || !exists(id.toLowerCase()))
        problems.push({ field: `${field}.${i}`, description: `${field}.${i} names no ${what}` });
      else out[field].push(id.toLowerCase());
    });
  };
  idList('force_stages', (id) => stageIds.has(id), 'stage of this board');
  idList('resources', (id) => ctx.store.get(tables.resource, id) !== undefined, 'resource');
  for (const [field, check, what] of [
    ['stage_id', (id: string) => stageIds.has(id), 'stage of this board'],
    ['status_id', (id: string) => ctx.store.get(tables.status, id)?.board_id === board.id, 'status of this board'],
    ['before', (id: string) => !!(ctx.store.get(tables.card, id) ?? ctx.store.get(tables.collection, id)), 'card or collection'],
    ['after', (id: string) => !!(ctx.store.get(tables.card, id) ?? ctx.store.get(tables.collection, id)), 'card or collection'],
  ] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (!isUuid(value) || !check(value.toLowerCase())) problems.push({ field, description: `${field} names no ${what}` });
    else out[field] = value.toLowerCase();
  }
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  return out;
}

/** Most collections (and drafts) one promise_dates call takes. */
export const maxPromises = 500;

interface PromiseRequest {
  capacity: 'finite' | 'infinite';
  start?: string;
  collections: StoredRecord[];
  drafts: { key: string; activities: PlanActivity[] }[];
}

/** A draft order row's minutes: its `duration`, else its quantity in its unit, as an order row counts (order-collection.ts). */
function draftRowMinutes(ctx: RequestContext, row: Record<string, unknown>): number {
  if (typeof row.duration === 'number') return row.duration;
  const pieces = typeof row.unit === 'string' && row.unit.toLowerCase() === pieceUnit;
  return rowMinutes(row.unit, row.quantity, pieces ? pieceMinutesOf(ctx, row.activity_id) : 0);
}

/** The promise_dates body; every problem in it is one 422. */
function readPromiseRequest(ctx: RequestContext, raw: unknown): PromiseRequest {
  const body = requiredBody(raw);
  const problems: FieldProblem[] = [];
  const out: PromiseRequest = { capacity: 'finite', collections: [], drafts: [] };
  if (body.capacity !== undefined && body.capacity !== null) {
    if (body.capacity === 'finite' || body.capacity === 'infinite') out.capacity = body.capacity;
    else problems.push({ field: 'capacity', description: 'capacity must be finite or infinite' });
  }
  if (body.start !== undefined && body.start !== null) {
    if (typeof body.start === 'string' && isValidDate(body.start) && body.start <= lastFiniteStart) out.start = body.start;
    else problems.push({ field: 'start', description: `start must be a date (YYYY-MM-DD) up to ${lastFiniteStart}` });
  }
  const ids = body.collection_ids ?? [];
  const drafts = body.drafts ?? [];
  if (!Array.isArray(ids) || ids.length > maxPromises) {
    problems.push({ field: 'collection_ids', description: `collection_ids must be a list of at most ${maxPromises} ids` });
  } else {
    const found = new Map(
      ctx.store
        .getWhereIn(
          tables.collection,
          'id',
          ids.filter(isUuid).map((id) => id.toLowerCase()),
        )
        .map((c) => [c.id, c]),
    );
    ids.forEach((id, i) => {
      const collection = isUuid(id) ? found.get(id.toLowerCase()) : undefined;
      if (collection) out.collections.push(collection);
      else problems.push({ field: `collection_ids.${i}`, description: `collection_ids.${i} names no collection` });
    });
  }
  if (!Array.isArray(drafts) || drafts.length > maxPromises) {
    problems.push({ field: 'drafts', description: `drafts must be a list of at most ${maxPromises} drafts` });
  } else {
    drafts.forEach((draft, i) => {
      const at = `drafts.${i}`;
      if (!isPlainObject(draft)) return problems.push({ field: at, description: `${at} must be an object with key and rows` });
      if (typeof draft.key !== 'string' || draft.key.length === 0 || draft.key.length > 200)
        problems.push({ field: `${at}.key`, description: `${at}.key must be text of 1 to 200 characters` });
      if (!Array.isArray(draft.rows) || draft.rows.length > 1000)
        return problems.push({ field: `${at}.rows`, description: `${at}.rows must be a list of at most 1000 rows` });
      const minutes = new Map<string, number>();
      draft.rows.forEach((row, r) => {
        const rowAt = `${at}.rows.${r}`;
        if (!isPlainObject(row)) return problems.push({ field: rowAt, description: `${rowAt} must be an object` });
        const activityId = isUuid(row.activity_id) ? row.activity_id.toLowerCase() : undefined;
        if (!activityId || !ctx.store.get(tables.activity, activityId))
          return problems.push({ field: `${rowAt}.activity_id`, description: `${rowAt}.activity_id names no activity` });
        for (const field of ['duration', 'quantity'] as const) {
          const value = row[field];
          if (value !== undefined && value !== null && (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1e7))
            problems.push({ field: `${rowAt}.${field}`, description: `${rowAt}.${field} must be a number from 0 to 10,000,000` });
        }
        if (row.unit !== undefined && row.unit !== null && typeof row.unit !== 'string')
          problems.push({ field: `${rowAt}.unit`, description: `${rowAt}.unit must be text` });
        minutes.set(activityId, (minutes.get(activityId) ?? 0) + draftRowMinutes(ctx, { ...row, activity_id: activityId }));
      });
      out.drafts.push({ key: String(draft.key), activities: [...minutes].map(([id, time]) => ({ id, time: Math.round(time) })) });
    });
  }
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  return out;
}

export function registerPlanRoutes(app: FastifyInstance): void {
  app.post<{ Params: { id: string } }>(
    '/board/:id/promise_dates',
    {
      config: {
        doc: {
          summary: 'When collections (or unsaved orders) could be done if each alone were planned now; writes nothing',
          tag: 'Board',
          body: {
            type: 'object',
            properties: {
              collection_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: maxPromises },
              capacity: { type: 'string', enum: ['finite', 'infinite'] },
              start: { type: 'string', format: 'date' },
              drafts: {
                type: 'array',
                maxItems: maxPromises,
                items: {
                  type: 'object',
                  properties: {
                    key: { type: 'string' },
                    rows: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          activity_id: { type: 'string', format: 'uuid' },
                          duration: { type: 'number' },
                          quantity: { type: 'number' },
                          unit: { type: 'string' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    (request) => {
      const { ctx } = request;
      const board = findRecord(ctx, boardModule, request.params.id);
      const input = readPromiseRequest(ctx, request.body);
      const own = new Map<string, string[]>();
      for (const card of ctx.store.getWhereIn(
        tables.card,
        'collection_id',
        input.collections.map((c) => c.id),
      )) {
        own.set(card.collection_id as string, [...(own.get(card.collection_id as string) ?? []), card.id]);
      }
      const activitiesOf = new Map<string, PlanActivity[]>();
      for (const link of ctx.store.getWhereIn(
        tables.collection_activity,
        'collection_id',
        input.collections.map((c) => c.id),
      )) {
        const list = activitiesOf.get(link.collection_id as string) ?? [];
        list.push({ id: link.activity_id as string, time: link.time as number });
        activitiesOf.set(link.collection_id as string, list);
      }
      const subjects: PromiseSubject[] = [
        ...input.collections.map((c) => ({ activities: activitiesOf.get(c.id) ?? [], leaveOut: own.get(c.id) ?? [] })),
        ...input.drafts.map((d) => ({ activities: d.activities, leaveOut: [] })),
      ];
      const dates = promiseDates(ctx, board, subjects, { capacity: input.capacity, ...(input.start ? { start: input.start } : {}) });
      return {
        data: dates.map((date, i) =>
          i < input.collections.length
            ? { collection_id: input.collections[i]!.id, ...date }
            : { key: input.drafts[i - input.collections.length]!.key, ...date },
        ),
      };
    },
  );
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
              capacity: { type: 'string', enum: ['finite', 'infinite'] },
              dry_run: { type: 'boolean' },
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
      const { ctx } = request;
      const answerShape = { ...shape, with: shape.with.length > 0 ? shape.with : ['cards'] };
      // Not found comes before a bad body: the body's ids are checked against the board.
      const plan = () => {
        const target = planTarget(ctx, request.params.id, request.params.board_id);
        return planCollectionWith(ctx, target, readPlanOptions(ctx, target.board, request.body));
      };
      if (isDryRun(request.body)) {
        // The plan is made and answered inside the transaction, which is then rolled back: no
        // card, change-log row, outbox row, webhook, change event or command outlives it.
        return dryRun(ctx, () => {
          const outcome = plan();
          return {
            ...present(ctx, collectionModule, [outcome.collection], answerShape)[0],
            dry_run: true,
            added_load: addedLoad(outcome.cards, outcome.workdays),
          };
        });
      }
      const collection = ctx.store.transaction(() => plan().collection);
      return present(request.ctx, collectionModule, [collection], answerShape)[0];
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
}
