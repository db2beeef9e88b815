/**
 * Loading and removing the sample workshop (docs/API.md "Sample workshop"). Both are one
 * transaction inside the request's command, so the sample arrives whole or not at all, and
 * leaves in one undo step. Records are written through their resource modules: the sample obeys
 * the rules of the planner's own data, and syncs like it.
 *
 * A sample record is one whose `external_ref` starts with `sample:`. Removal deletes exactly
 * those (with what they own: a board's stages, a resource's absences, an order's rows, a
 * collection's cards), also when the planner edited them, and nothing else.
 */
import { addDays, today } from '../../../shared/dates.js';
import { parseFilter } from '../../../shared/filter.js';
import { uuidv7 } from '../../../shared/ids.js';
import type { StoredRecord } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import { planCollection } from '../planning/plan-collection.js';
import { createRecord, deleteRecord, updateRecord, type Scope } from '../records.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { activityModule } from '../resources/activity.js';
import { boardModule } from '../resources/board.js';
import { collectionModule } from '../resources/collection.js';
import { orderModule } from '../resources/order.js';
import { resourceModule, scheduleDeviationModule } from '../resources/resource.js';
import { timeTrackingModule } from '../resources/time-tracking.js';
import { tables } from '../tables.js';
import {
  sampleAbsence,
  sampleActivities,
  sampleBoard,
  sampleOrders,
  sampleRefPrefix,
  sampleResources,
  sampleTimeEntries,
} from './workshop.js';

/** What the sample holds, by resource, as the API answers it. */
export interface SampleWorkshopSummary {
  loaded: boolean;
  activities: number;
  boards: number;
  resources: number;
  orders: number;
  time_entries: number;
  /** The sample board, to open after loading. */
  board_id: string | null;
}

/** The modules whose records carry the sample mark, in the order removal deletes them. */
const markedModules: readonly ResourceModule[] = [
  timeTrackingModule,
  orderModule,
  collectionModule,
  resourceModule,
  boardModule,
  activityModule,
];

const sampleFilter = parseFilter(`external_ref:starts_with:'${sampleRefPrefix}'`);

async function sampleRecords(reads: RecordReads, module: ResourceModule): Promise<StoredRecord[]> {
  return (await reads.list(module.table, { filter: sampleFilter, limit: 1000, offset: 0 })).rows;
}

/** What of the sample is there, read through `reads`: a request's records, or a transaction's. */
export async function sampleWorkshopSummary(reads: RecordReads): Promise<SampleWorkshopSummary> {
  const count = async (module: ResourceModule) => (await reads.list(module.table, { filter: sampleFilter, limit: 0, offset: 0 })).count;
  const boards = await sampleRecords(reads, boardModule);
  const summary = {
    activities: await count(activityModule),
    boards: boards.length,
    resources: await count(resourceModule),
    orders: await count(orderModule),
    time_entries: await count(timeTrackingModule),
    board_id: boards[0]?.id ?? null,
  };
  return { loaded: summary.activities + summary.boards + summary.resources + summary.orders + summary.time_entries > 0, ...summary };
}

/**
 * Writes the sample workshop. A sample that is there already is a 409: loading it twice would
 * double every order. Each load's marks carry a load id of their own, since `external_ref` is
 * unique also among deleted records (docs/API.md "external_ref") and a removed sample may be
 * loaded again. Written in `tx`, the request's command, on either engine.
 */
export async function loadSampleWorkshop(ctx: RequestContext, tx: RecordWrites): Promise<SampleWorkshopSummary> {
  const create = (module: ResourceModule, body: unknown, scope?: Scope) => createRecord(ctx, tx, module, body, scope);
  if ((await sampleWorkshopSummary(tx)).loaded) throw ApiError.conflict('The sample workshop is loaded already; remove it first.');
  const load = uuidv7().slice(-12);
  const ref = (kind: string, key: string) => `${sampleRefPrefix}${load}:${kind}:${key}`;
  const day = today();

  const activityIds = new Map<string, string>();
  for (const a of sampleActivities) {
    const { key, ...fields } = a;
    const record = await create(activityModule, { ...fields, billable: true, external_ref: ref('activity', key) });
    activityIds.set(key, record.id);
  }

  const board = await create(boardModule, {
    name: sampleBoard.name,
    external_ref: ref('board', 'workshop'),
    capacity_method: 'individual',
    statuses: [
      { name: 'To do', priority: 0, entry: true, exit: false },
      { name: 'In progress', priority: 1, entry: false, exit: false },
      { name: 'Done', priority: 2, entry: false, exit: true },
    ],
    stages: sampleBoard.stages.map((s, priority) => ({
      name: s.name,
      priority,
      delay_day: s.delay_day ?? 0,
      activities: [{ id: activityIds.get(s.activity)!, priority: 0 }],
    })),
  });
  const stageIds = new Map((await tx.getWhereIn(tables.stage, 'board_id', [board.id])).map((s) => [s.name, s.id]));

  const resourceIds = new Map<string, string>();
  for (const r of sampleResources) {
    const record = await create(resourceModule, {
      name: r.name,
      type: r.type,
      workdays: r.workdays,
      external_ref: ref('resource', r.key),
      boards: [
        { id: board.id, active: true, stages: r.stages.map((name) => ({ id: stageIds.get(name)!, percentage: 100, active: true })) },
      ],
    });
    resourceIds.set(r.key, record.id);
  }
  await create(
    scheduleDeviationModule,
    {
      type: sampleAbsence.type,
      description: sampleAbsence.description,
      start_date: addDays(day, sampleAbsence.fromDay),
      end_date: addDays(day, sampleAbsence.toDay),
      time: null,
    },
    { resource_id: resourceIds.get(sampleAbsence.resource)! },
  );

  const planned = new Map<string, string>();
  for (const o of sampleOrders) {
    const order = await create(orderModule, {
      code: o.code,
      description: o.description,
      type: 'Production',
      sub_type: 'none',
      promised_date: addDays(day, o.promisedInDays),
      board_id: board.id,
      external_ref: ref('order', o.key),
      order_rows: o.rows.map((row, position) => ({
        activity_id: activityIds.get(row.activity)!,
        description: row.description,
        quantity: row.quantity,
        unit: row.unit,
        position,
        external_ref: ref('order_row', `${o.key}-${position + 1}`),
      })),
    });
    // An order written with its collection (createOrderCollection) names it.
    const collectionId = order.collection_id as string;
    const collection = await updateRecord(ctx, tx, collectionModule, collectionId, { external_ref: ref('collection', o.key) });
    if (o.planInDays === undefined) continue;
    await planCollection(
      tx,
      ctx,
      { collection, board },
      { start: addDays(day, o.planInDays), reverse: false, force_stages: [], resources: [] },
    );
    planned.set(o.key, collectionId);
  }

  for (const [index, entry] of sampleTimeEntries.entries()) {
    const collectionId = planned.get(entry.order)!;
    const activityId = activityIds.get(entry.activity)!;
    const card = (await tx.getWhereIn(tables.card, 'collection_id', [collectionId])).find(
      (c) => c.stage_id === stageIds.get(sampleBoard.stages.find((s) => s.activity === entry.activity)!.name),
    );
    const start = new Date(`${addDays(day, -1)}T00:00:00`);
    start.setHours(Math.floor(entry.startHour), (entry.startHour % 1) * 60);
    await create(timeTrackingModule, {
      card_id: card?.id ?? null,
      activity_id: activityId,
      start: start.toISOString(),
      duration: Math.round(entry.hours * 60),
      note: entry.note,
      external_ref: ref('time', String(index + 1)),
    });
  }
  return sampleWorkshopSummary(tx);
}

/**
 * Removes every sample record, edited or not. Planner's own collections planned on the sample
 * board would lose their board with it: then nothing is removed (409) until they are moved.
 */
export async function removeSampleWorkshop(ctx: RequestContext, tx: RecordWrites): Promise<SampleWorkshopSummary> {
  if (!(await sampleWorkshopSummary(tx)).loaded) throw ApiError.notFound('No sample workshop is loaded.');
  const boardIds = (await sampleRecords(tx, boardModule)).map((b) => b.id);
  const ownOnBoard = (await tx.getWhereIn(tables.collection, 'board_id', boardIds)).filter(
    (c) => !String(c.external_ref ?? '').startsWith(sampleRefPrefix),
  );
  if (ownOnBoard.length > 0) {
    throw ApiError.conflict(
      `Move ${ownOnBoard.map((c) => c.name ?? c.id).join(', ')} off the sample board first: removing the sample would take the board away from it.`,
    );
  }
  for (const module of markedModules) {
    for (const record of await sampleRecords(tx, module)) {
      // An order's collection may be gone with nothing else: only what is still there is deleted.
      // A record's id is a string (shared/fields.ts); the broad record types it unknown.
      const id = record.id as string;
      if (await tx.get(module.table, id)) await deleteRecord(ctx, tx, module, id);
    }
  }
  const left = await sampleWorkshopSummary(tx);
  if (left.loaded) throw ApiError.conflict('The sample workshop could not be removed whole.');
  return left;
}
