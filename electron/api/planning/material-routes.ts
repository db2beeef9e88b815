/**
 * GET /v1/material?collection_ids=… (or ?board_id=…): what each collection waits for and from
 * when it may start (docs/API.md "Material"), worked out on every read, so a purchase order
 * whose date moves moves the earliest start of the orders it feeds with it. The backlog and the
 * order screen read it by collection, the board by board.
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { readRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { boardModule } from '../resources/board.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables } from '../tables.js';
import { maxMaterialCollections, type CollectionMaterial, type MaterialWait } from '../../../shared/material.js';
import { awaitedMaterial, cardsBeforeMaterial, materialGates } from './material.js';
import { groupCards, type PlanActivity } from './plan.js';
import { planStagesOf } from './plan-collection.js';

/** The collections asked for: `board_id`'s planned collections, or the `collection_ids` listed. */
async function collectionIdsOf(ctx: RequestContext, query: QueryString): Promise<{ ids: string[]; onBoard: boolean }> {
  const boardId = single(query, 'board_id');
  if (boardId !== undefined && boardId !== '') {
    if (single(query, 'collection_ids') !== undefined) throw ApiError.badRequest('name either board_id or collection_ids, not both');
    if (!isUuid(boardId)) throw ApiError.badRequest(`board_id must be a uuid, got '${boardId}'`);
    // Answers the 404 for a board that is not there.
    await readRecord(ctx, boardModule, boardId.toLowerCase());
    const planned = await ctx.records.getWhereIn(tables.collection, 'board_id', [boardId.toLowerCase()]);
    return { ids: planned.filter((c) => c.status === 'planned').map((c) => c.id), onBoard: true };
  }
  const text = single(query, 'collection_ids') ?? '';
  const ids = text.split(',').filter((id) => id !== '');
  if (ids.length === 0) throw ApiError.badRequest('collection_ids must name at least one collection');
  if (ids.length > maxMaterialCollections) throw ApiError.badRequest(`collection_ids names at most ${maxMaterialCollections} collections`);
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw ApiError.badRequest(`collection_ids must be uuids, got '${bad}'`);
  return { ids: [...new Set(ids.map((id) => id.toLowerCase()))], onBoard: false };
}

/**
 * The material of each collection, in the order asked. A collection on no board waits on no
 * stage in particular (`stage_id` null): its plan's first dependent stage, wherever it is planned.
 */
export async function collectionMaterial(reads: RecordReads, collectionIds: readonly string[]): Promise<CollectionMaterial[]> {
  const collections = new Map((await reads.getWhereIn(tables.collection, 'id', collectionIds)).map((c) => [c.id, c]));
  const awaited = await awaitedMaterial(reads, [...collections.keys()]);
  const waiting = [...collections.values()].filter((c) => (awaited.get(c.id) ?? []).length > 0);
  const boardIds = [...new Set(waiting.flatMap((c) => (typeof c.board_id === 'string' ? [c.board_id] : [])))];
  const stages = await reads.getWhereIn(tables.stage, 'board_id', boardIds);
  const planStages = new Map<string, Awaited<ReturnType<typeof planStagesOf>>>();
  for (const boardId of boardIds) {
    const own = stages.filter((s) => s.board_id === boardId).sort((a, b) => a.priority - b.priority);
    planStages.set(boardId, await planStagesOf(reads, own));
  }
  const ids = waiting.map((c) => c.id);
  const activities = new Map<string, PlanActivity[]>();
  for (const link of await reads.getWhereIn(tables.collection_activity, 'collection_id', ids))
    activities.set(link.collection_id, [...(activities.get(link.collection_id) ?? []), { id: link.activity_id, time: link.time }]);
  const cards = await reads.getWhereIn(tables.card, 'collection_id', ids);
  const boards = new Map((await reads.getWhereIn(tables.board, 'id', boardIds)).map((b) => [b.id, b]));

  return collectionIds.flatMap((id): CollectionMaterial[] => {
    const collection = collections.get(id);
    if (!collection) return [];
    const mine = awaited.get(id) ?? [];
    const boardId = typeof collection.board_id === 'string' ? collection.board_id : undefined;
    const board = boardId ? boards.get(boardId) : undefined;
    const groups =
      board && boardId
        ? groupCards({
            stages: planStages.get(boardId) ?? [],
            activities: activities.get(id) ?? [],
            splitByActivity: board.split_cards_by_activity,
            forceStages: [],
          }).groups
        : [];
    const { gates, waiting: byStage, unknown } = materialGates(mine, groups);
    const waits: MaterialWait[] = [...gates].map(([stageId, date]) => ({
      stage_id: stageId,
      earliest_start: date,
      waiting_for: byStage.get(stageId) ?? [],
    }));
    // Without a board there is no stage to name: one wait for all the dated material.
    const dated = mine.filter((m) => m.expected !== null).sort((a, b) => (a.expected! < b.expected! ? 1 : -1));
    if (groups.length === 0 && dated.length > 0) waits.push({ stage_id: null, earliest_start: dated[0]!.expected!, waiting_for: dated });
    waits.sort((a, b) => (a.earliest_start < b.earliest_start ? -1 : a.earliest_start > b.earliest_start ? 1 : 0));
    const early = cardsBeforeMaterial(
      cards
        .filter((c) => c.collection_id === id && c.start_date !== null)
        .map((c) => ({ card_id: c.id, stageId: c.stage_id, start_date: c.start_date! })),
      gates,
    );
    return [
      {
        collection_id: id,
        waits,
        date_unknown: unknown,
        early_cards: early.map((c) => ({
          card_id: c.card_id,
          stage_id: c.stageId,
          start_date: c.start_date,
          earliest_start: gates.get(c.stageId)!,
        })),
      },
    ];
  });
}

export function registerMaterialRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: QueryString }>(
    '/material',
    {
      config: {
        doc: {
          summary: 'What collections wait for: material expected, its date, and planned cards that start before it',
          tag: 'Collection',
          query: {
            collection_ids: `Comma-separated collection ids (1 to ${maxMaterialCollections}); unknown ids are left out.`,
            board_id: 'Instead: the collections planned on this board that wait for material.',
          },
        },
      },
    },
    async (request) => {
      const { ids, onBoard } = await collectionIdsOf(request.ctx, request.query);
      const data = await collectionMaterial(request.ctx.records, ids);
      // A board's read lists only the collections that wait for something.
      return { data: onBoard ? data.filter((m) => m.waits.length > 0 || m.date_unknown.length > 0) : data };
    },
  );
}
