/**
 * Planning a collection onto a board and moving it back to the backlog (docs/API.md):
 *
 *   POST /v1/collection/{id}/board/{board_id}   plan it (plan-collection.ts)
 *   POST /v1/collection/{id}/backlog            back to the backlog: its cards are removed
 *   POST /v1/board/{id}/promise_dates           when collections could be done (promise-dates.ts)
 *
 * Their bodies are declared in shared/operations/planning.ts and checked by operationRoute; the
 * checks here are those that need the store. The planning itself is plan-collection.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import type { BodyOf } from '../../../shared/operation.js';
import { moveToBacklogOperation, planCollectionOperation, promiseDatesOperation } from '../../../shared/operations/planning.js';
import type { StoredRecord } from '../../store/environment-store.js';
import { operationRoute, type Partly } from '../conventions/operation-route.js';
import { pieceUnit } from '../../../shared/resources/order-row.js';
import { pieceMinutesOf, rowMinutes } from '../resources/order-collection.js';
import { onRecords, onStore } from '../store-steps.js';
import { boardModule } from '../resources/board.js';
import type { PlanActivity } from './plan.js';
import { promiseDates, type PromiseSubject } from './promise-dates.js';
import { findRecord, presentOne, shapeOptionsFor } from '../records.js';
import { readingThrough } from '../../store/record-store.js';
import type { RequestContext } from '../resource.js';
import { collectionModule } from '../resources/collection.js';
import { tables } from '../tables.js';
import { addedLoad, lastFiniteStart } from './finite-plan.js';
import { backlogSteps, planCollectionWith, planTarget, type PlanOptions } from './plan-collection.js';
import { asCommandOnRecords } from '../commands/request-command.js';

/** Thrown to roll a dry run's transaction back, carrying its answer out. */
class RolledBack<T> {
  constructor(readonly answer: T) {}
}

/**
 * Runs `fn` in a transaction that is always rolled back, and answers what it returned. `fn`
 * gets a context whose `records` reads inside that transaction, so that it can present what it
 * wrote before it is gone; it writes through the synchronous store, which on SQLite lands in
 * the same transaction (docs/architecture.md "Moving the API onto the boundary").
 */
export async function dryRun<T>(ctx: RequestContext, fn: (inside: RequestContext) => Promise<T>): Promise<T> {
  try {
    await ctx.records.transaction(async (tx) => {
      throw new RolledBack(await fn({ ...ctx, records: readingThrough(tx, ctx.records) }));
    });
  } catch (error) {
    // RolledBack carries what fn returned, which is a T.
    if (error instanceof RolledBack) return error.answer as T;
    throw error;
  }
  throw new Error('unreachable: a dry run always rolls back');
}

type PlanInput = BodyOf<typeof planCollectionOperation>;

/** The plan body's ids that must name records of the store: every one that does not is a 422 item. */
function planProblems(ctx: RequestContext, board: StoredRecord, input: Partly<PlanInput>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const stageIds = new Set(ctx.store.getWhereIn(tables.stage, 'board_id', [board.id]).map((s) => s.id));
  const cardOrCollection = (id: string) => !!(ctx.store.get(tables.card, id) ?? ctx.store.get(tables.collection, id));
  const idList = (field: 'force_stages' | 'resources', exists: (id: string) => boolean, what: string) =>
    input[field]?.forEach((id, i) => {
      // An id the shape refused is named by the shape already.
      if (id !== undefined && !exists(id)) problems.push({ field: `${field}.${i}`, description: `${field}.${i} names no ${what}` });
    });
  idList('force_stages', (id) => stageIds.has(id), 'stage of this board');
  idList('resources', (id) => ctx.store.get(tables.resource, id) !== undefined, 'resource');
  for (const [field, exists, what] of [
    ['stage_id', (id: string) => stageIds.has(id), 'stage of this board'],
    ['status_id', (id: string) => ctx.store.get(tables.status, id)?.board_id === board.id, 'status of this board'],
    ['before', cardOrCollection, 'card or collection'],
    ['after', cardOrCollection, 'card or collection'],
  ] as const) {
    const id = input[field];
    if (id !== undefined && !exists(id)) problems.push({ field, description: `${field} names no ${what}` });
  }
  return problems;
}

/** The plan body as the planning takes it: lists left out are empty, reverse left out is false. */
function planOptions(input: PlanInput): PlanOptions {
  return { ...input, reverse: input.reverse ?? false, force_stages: input.force_stages ?? [], resources: input.resources ?? [] };
}

type PromiseInput = BodyOf<typeof promiseDatesOperation>;

/** A draft order row's minutes: its `duration`, else its quantity in its unit, as an order row counts (order-collection.ts). */
function draftRowMinutes(ctx: RequestContext, row: NonNullable<PromiseInput['drafts']>[number]['rows'][number]): number {
  if (row.duration !== undefined) return row.duration;
  const pieces = row.unit !== undefined && row.unit.toLowerCase() === pieceUnit;
  return rowMinutes(row.unit, row.quantity, pieces ? onStore(ctx.store, pieceMinutesOf(row.activity_id)) : 0);
}

/** The promise_dates body's ids that must name records, and its start within the finite calendar. */
function promiseProblems(ctx: RequestContext, input: Partly<PromiseInput>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (input.start !== undefined && input.start > lastFiniteStart)
    problems.push({ field: 'start', description: `start must be a date (YYYY-MM-DD) up to ${lastFiniteStart}` });
  const ids = input.collection_ids ?? [];
  const found = new Set(
    ctx.store
      .getWhereIn(
        tables.collection,
        'id',
        ids.filter((id) => id !== undefined),
      )
      .map((c) => c.id),
  );
  ids.forEach((id, i) => {
    if (id !== undefined && !found.has(id))
      problems.push({ field: `collection_ids.${i}`, description: `collection_ids.${i} names no collection` });
  });
  input.drafts?.forEach((draft, i) =>
    draft?.rows?.forEach((row, r) => {
      const at = `drafts.${i}.rows.${r}.activity_id`;
      if (row?.activity_id !== undefined && !ctx.store.get(tables.activity, row.activity_id))
        problems.push({ field: at, description: `${at} names no activity` });
    }),
  );
  return problems;
}

export function registerPlanRoutes(app: FastifyInstance): void {
  operationRoute(
    app,
    promiseDatesOperation,
    (request, _reply, input) => {
      const { ctx } = request;
      const board = findRecord(ctx, boardModule, request.params.id ?? '');
      const ids = input.collection_ids ?? [];
      const byId = new Map(ctx.store.getWhereIn(tables.collection, 'id', ids).map((c) => [c.id, c]));
      // promiseProblems found every id, so each names a collection (a repeated id is asked twice).
      const collections = ids.flatMap((id) => byId.get(id) ?? []);
      const drafts = (input.drafts ?? []).map((draft) => {
        const minutes = new Map<string, number>();
        for (const row of draft.rows) minutes.set(row.activity_id, (minutes.get(row.activity_id) ?? 0) + draftRowMinutes(ctx, row));
        return { key: draft.key, activities: [...minutes].map(([id, time]): PlanActivity => ({ id, time: Math.round(time) })) };
      });
      const own = new Map<string, string[]>();
      for (const card of ctx.store.getWhereIn(
        tables.card,
        'collection_id',
        collections.map((c) => c.id),
      )) {
        // A stored card's collection_id is a uuid: the cards were read by it.
        own.set(card.collection_id as string, [...(own.get(card.collection_id as string) ?? []), card.id]);
      }
      const activitiesOf = new Map<string, PlanActivity[]>();
      for (const link of ctx.store.getWhereIn(
        tables.collection_activity,
        'collection_id',
        collections.map((c) => c.id),
      )) {
        // Stored collection_activity links: ids are uuids and time is minutes (shared/resources), read through a broad record.
        const list = activitiesOf.get(link.collection_id as string) ?? [];
        list.push({ id: link.activity_id as string, time: link.time as number });
        // The same stored link as above.
        activitiesOf.set(link.collection_id as string, list);
      }
      const subjects: PromiseSubject[] = [
        ...collections.map((c) => ({ activities: activitiesOf.get(c.id) ?? [], leaveOut: own.get(c.id) ?? [] })),
        ...drafts.map((d) => ({ activities: d.activities, leaveOut: [] })),
      ];
      const dates = promiseDates(ctx, board, subjects, {
        capacity: input.capacity ?? 'finite',
        ...(input.start ? { start: input.start } : {}),
      });
      return {
        data: dates.map((date, i) =>
          i < collections.length ? { collection_id: collections[i]!.id, ...date } : { key: drafts[i - collections.length]!.key, ...date },
        ),
      };
    },
    // An unknown board is a 404 before anything in the body is looked at.
    (request) => findRecord(request.ctx, boardModule, request.params.id ?? ''),
    (request, input) => promiseProblems(request.ctx, input),
  );
  operationRoute(
    app,
    planCollectionOperation,
    async (request, _reply, input) => {
      const shape = shapeOptionsFor(collectionModule, request.query);
      const { ctx } = request;
      const answerShape = { ...shape, with: shape.with.length > 0 ? shape.with : ['cards'] };
      const plan = () =>
        planCollectionWith(ctx, planTarget(ctx, request.params.id ?? '', request.params.board_id ?? ''), planOptions(input));
      if (input.dry_run) {
        // The plan is made and answered inside the transaction, which is then rolled back: no
        // card, change-log row, outbox row, webhook, change event or command outlives it.
        return dryRun(ctx, async (inside) => {
          const outcome = plan();
          return {
            ...(await presentOne(inside, collectionModule, outcome.collection, answerShape)),
            dry_run: true,
            added_load: addedLoad(outcome.cards, outcome.workdays),
          };
        });
      }
      const collection = ctx.store.transaction(() => plan().collection);
      return await presentOne(request.ctx, collectionModule, collection, answerShape);
    },
    // Not found comes before a bad body: the body's ids are checked against the board.
    (request) => planTarget(request.ctx, request.params.id ?? '', request.params.board_id ?? ''),
    (request, input) => {
      const { board } = planTarget(request.ctx, request.params.id ?? '', request.params.board_id ?? '');
      return planProblems(request.ctx, board, input);
    },
  );
  operationRoute(
    app,
    moveToBacklogOperation,
    async (request, reply) => {
      const shape = shapeOptionsFor(collectionModule, request.query);
      const collection = await asCommandOnRecords(request, reply, moveToBacklogOperation.summary, (tx) =>
        onRecords(tx, backlogSteps(request.ctx, request.params.id ?? '')),
      );
      return await presentOne(request.ctx, collectionModule, collection, shape);
    },
    undefined,
    undefined,
    { commandOnRecords: true },
  );
}
