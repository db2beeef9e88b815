/**
 * What collections wait for (docs/API.md "Material"), as the material read, the board and the
 * exception inbox use it: the material of each collection (material.ts) against its board's
 * stages and its cards.
 */
import type { CollectionMaterial, MaterialWait } from '../../../shared/material.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables } from '../tables.js';
import { awaitedMaterial, cardsBeforeMaterial, materialGates } from './material.js';
import { groupCards, type PlanActivity } from './plan.js';
import { planStagesOf } from './plan-collection.js';

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
