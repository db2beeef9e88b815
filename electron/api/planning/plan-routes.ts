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
import { isValidDate } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import type { StoredRecord } from '../../store/environment-store.js';
import type { QueryString } from '../conventions/list-query.js';
import { optionalBody } from '../conventions/request-body.js';
import { ApiError } from '../errors.js';
import { present, shapeOptionsFor } from '../records.js';
import type { RequestContext } from '../resource.js';
import { collectionModule } from '../resources/collection.js';
import { tables } from '../tables.js';
import { addedLoad } from './finite-plan.js';
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

export function registerPlanRoutes(app: FastifyInstance): void {
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
