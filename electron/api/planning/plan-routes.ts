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
import type { StoredRecord } from '../../../shared/fields.js';
import { operationRoute, type Partly } from '../conventions/operation-route.js';
import type { RequestContext } from '../resource.js';
import { pieceUnit } from '../../../shared/resources/order-row.js';
import { pieceMinutesOf, rowMinutes } from '../resources/order-collection.js';
import { boardModule } from '../resources/board.js';
import type { PlanActivity } from './plan.js';
import { promiseDates, type PromiseSubject } from './promise-dates.js';
import { presentOne, presentWritten, readRecord, shapeOptionsFor } from '../records.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';
import { collectionModule } from '../resources/collection.js';
import { tables } from '../tables.js';
import { addedLoad, lastFiniteStart } from './finite-plan.js';
import { moveCollectionToBacklog, planCollection, planTarget, type PlanOptions, type PlanOutcome } from './plan-collection.js';
import { awaitedMaterial } from './material.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import { dryRun } from './dry-run.js';
import { whyLate } from './why-late.js';

type PlanInput = BodyOf<typeof planCollectionOperation>;

/** The plan body's ids that must name records of the store: every one that does not is a 422 item. */
async function planProblems(reads: RecordReads, board: StoredRecord, input: Partly<PlanInput>): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  const stageIds = new Set((await reads.getWhereIn(tables.stage, 'board_id', [board.id])).map((s) => s.id));
  const asked = (field: 'force_stages' | 'resources') => (input[field] ?? []).filter((id): id is string => id !== undefined);
  const resourceIds = new Set((await reads.getWhereIn(tables.resource, 'id', asked('resources'))).map((r) => r.id));
  const idList = (field: 'force_stages' | 'resources', exists: (id: string) => boolean, what: string) =>
    input[field]?.forEach((id, i) => {
      // An id the shape refused is named by the shape already.
      if (id !== undefined && !exists(id)) problems.push({ field: `${field}.${i}`, description: `${field}.${i} names no ${what}` });
    });
  idList('force_stages', (id) => stageIds.has(id), 'stage of this board');
  idList('resources', (id) => resourceIds.has(id), 'resource');
  const cardOrCollection = async (id: string) => !!((await reads.get(tables.card, id)) ?? (await reads.get(tables.collection, id)));
  for (const [field, exists, what] of [
    ['stage_id', async (id: string) => stageIds.has(id), 'stage of this board'],
    ['status_id', async (id: string) => (await reads.get(tables.status, id))?.board_id === board.id, 'status of this board'],
    ['before', cardOrCollection, 'card or collection'],
    ['after', cardOrCollection, 'card or collection'],
  ] as const) {
    const id = input[field];
    if (id !== undefined && !(await exists(id))) problems.push({ field, description: `${field} names no ${what}` });
  }
  return problems;
}

/** The plan body as the planning takes it: lists left out are empty, reverse left out is false. */
function planOptions(input: PlanInput): PlanOptions {
  return { ...input, reverse: input.reverse ?? false, force_stages: input.force_stages ?? [], resources: input.resources ?? [] };
}

/** An infinite plan's warnings of material without a date, in its answer only when there are some (docs/API.md "Material"). */
function materialWarningsOf(outcome: PlanOutcome): { material_warnings?: string[] } {
  return outcome.materialWarnings.length > 0 ? { material_warnings: outcome.materialWarnings } : {};
}

/**
 * "What would it take?" for the plan a dry run made (docs/API.md "What would it take?"): asked,
 * inside the dry run's transaction, of the very computation the Exceptions screen's offer comes
 * from, so the plan dialog offers the same overtime for the same plan. Null when it would not
 * be late, or when room is not what binds it.
 */
async function wouldTake(inside: RequestContext, collectionId: string) {
  const late = await whyLate(inside, { collectionId });
  return late.data[0]?.what_it_takes ?? null;
}

type PromiseInput = BodyOf<typeof promiseDatesOperation>;

/** A draft order row's minutes: its `duration`, else its quantity in its unit, as an order row counts (order-collection.ts). */
async function draftRowMinutes(reads: RecordReads, row: NonNullable<PromiseInput['drafts']>[number]['rows'][number]): Promise<number> {
  if (row.duration !== undefined) return row.duration;
  const pieces = row.unit !== undefined && row.unit.toLowerCase() === pieceUnit;
  return rowMinutes(row.unit, row.quantity, pieces ? await pieceMinutesOf(reads, row.activity_id) : 0);
}

/** The promise_dates body's ids that must name records, and its start within the finite calendar. */
async function promiseProblems(reads: RecordReads, input: Partly<PromiseInput>): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  if (input.start !== undefined && input.start > lastFiniteStart)
    problems.push({ field: 'start', description: `start must be a date (YYYY-MM-DD) up to ${lastFiniteStart}` });
  const ids = input.collection_ids ?? [];
  const found = new Set(
    (
      await reads.getWhereIn(
        tables.collection,
        'id',
        ids.filter((id) => id !== undefined),
      )
    ).map((c) => c.id),
  );
  ids.forEach((id, i) => {
    if (id !== undefined && !found.has(id))
      problems.push({ field: `collection_ids.${i}`, description: `collection_ids.${i} names no collection` });
  });
  const activityIds = (input.drafts ?? []).flatMap((draft) => (draft?.rows ?? []).flatMap((row) => row?.activity_id ?? []));
  const activities = new Set((await reads.getWhereIn(tables.activity, 'id', activityIds)).map((a) => a.id));
  input.drafts?.forEach((draft, i) =>
    draft?.rows?.forEach((row, r) => {
      const at = `drafts.${i}.rows.${r}.activity_id`;
      if (row?.activity_id !== undefined && !activities.has(row.activity_id))
        problems.push({ field: at, description: `${at} names no activity` });
    }),
  );
  return problems;
}

/** What the promise_dates body asks about: its collections, with their activities and own cards, then its drafts. */
async function promiseSubjects(reads: RecordReads, input: PromiseInput) {
  const ids = input.collection_ids ?? [];
  const byId = new Map((await reads.getWhereIn(tables.collection, 'id', ids)).map((c) => [c.id, c]));
  // promiseProblems found every id, so each names a collection (a repeated id is asked twice).
  const collections = ids.flatMap((id) => byId.get(id) ?? []);
  const drafts = [];
  for (const draft of input.drafts ?? []) {
    const minutes = new Map<string, number>();
    for (const row of draft.rows) minutes.set(row.activity_id, (minutes.get(row.activity_id) ?? 0) + (await draftRowMinutes(reads, row)));
    drafts.push({ key: draft.key, activities: [...minutes].map(([id, time]): PlanActivity => ({ id, time: Math.round(time) })) });
  }
  const collectionIds = collections.map((c) => c.id);
  const own = new Map<string, string[]>();
  for (const card of await reads.getWhereIn(tables.card, 'collection_id', collectionIds)) {
    // A stored card's collection_id is a uuid: the cards were read by it.
    own.set(card.collection_id as string, [...(own.get(card.collection_id as string) ?? []), card.id]);
  }
  const activitiesOf = new Map<string, PlanActivity[]>();
  for (const link of await reads.getWhereIn(tables.collection_activity, 'collection_id', collectionIds)) {
    const list = activitiesOf.get(link.collection_id) ?? [];
    list.push({ id: link.activity_id, time: link.time });
    activitiesOf.set(link.collection_id, list);
  }
  const material = await awaitedMaterial(reads, collectionIds);
  const subjects: PromiseSubject[] = [
    ...collections.map((c) => ({
      activities: activitiesOf.get(c.id) ?? [],
      leaveOut: own.get(c.id) ?? [],
      material: material.get(c.id) ?? [],
    })),
    ...drafts.map((d) => ({ activities: d.activities, leaveOut: [] })),
  ];
  return { collections, drafts, subjects };
}

export function registerPlanRoutes(app: FastifyInstance): void {
  operationRoute(
    app,
    promiseDatesOperation,
    async (request, _reply, input) => {
      const { records } = request.ctx;
      const board = await readRecord(request.ctx, boardModule, request.params.id ?? '');
      const { collections, drafts, subjects } = await promiseSubjects(records, input);
      const dates = await promiseDates(records, board, subjects, {
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
    (request) => readRecord(request.ctx, boardModule, request.params.id ?? ''),
    (request, input) => promiseProblems(request.ctx.records, input),
  );
  operationRoute(
    app,
    planCollectionOperation,
    async (request, reply, input) => {
      const shape = shapeOptionsFor(collectionModule, request.query);
      const { ctx } = request;
      const answerShape = { ...shape, with: shape.with.length > 0 ? shape.with : ['cards'] };
      const plan = async (tx: RecordWrites) =>
        planCollection(tx, ctx, await planTarget(tx, request.params.id ?? '', request.params.board_id ?? ''), planOptions(input));
      if (input.dry_run) {
        // The plan is made and answered inside the transaction, which is then rolled back: no
        // card, change-log row, outbox row, webhook, change event or command outlives it.
        return dryRun(ctx, async (tx, inside) => {
          const outcome = await plan(tx);
          return {
            ...(await presentOne(inside, collectionModule, outcome.collection, answerShape)),
            ...materialWarningsOf(outcome),
            dry_run: true,
            added_load: addedLoad(outcome.cards, outcome.weeks, outcome.stageSetup),
            what_it_takes: await wouldTake(inside, outcome.collection.id),
          };
        });
      }
      return await asCommandOnRecords(request, reply, planCollectionOperation.summary, async (tx) => {
        const outcome = await plan(tx);
        return { ...(await presentWritten(ctx, tx, collectionModule, outcome.collection, answerShape)), ...materialWarningsOf(outcome) };
      });
    },
    // Not found comes before a bad body: the body's ids are checked against the board.
    (request) => planTarget(request.ctx.records, request.params.id ?? '', request.params.board_id ?? ''),
    async (request, input) => {
      const { board } = await planTarget(request.ctx.records, request.params.id ?? '', request.params.board_id ?? '');
      return planProblems(request.ctx.records, board, input);
    },
  );
  operationRoute(app, moveToBacklogOperation, async (request, reply) => {
    const shape = shapeOptionsFor(collectionModule, request.query);
    return await asCommandOnRecords(request, reply, moveToBacklogOperation.summary, async (tx) =>
      presentWritten(request.ctx, tx, collectionModule, await moveCollectionToBacklog(request.ctx, tx, request.params.id ?? ''), shape),
    );
  });
}
