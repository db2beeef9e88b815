/**
 * Planning a collection onto a board (`POST /v1/collection/{id}/board/{board_id}`) and moving
 * it back to the backlog (`POST /v1/collection/{id}/backlog`). Cards are made here, at once,
 * in the same transaction, and sync as ordinary records (docs/architecture.md "Sync": effects are
 * expanded where the write happens). The arithmetic is in plan.ts.
 *
 * Each planning is a new plan (`plan_id` on the collection and on every card it makes), so the
 * remote can keep a collection to one plan when two replicas plan it while apart (one-plan.ts).
 * The old cards go and the collection is written once, after the new cards: the collection's
 * side of a plan is that one write, with no steps in between that could land without the rest.
 *
 * The options (PlanOptions, read from the body by plan-routes.ts): start (default today), end
 * (for reverse, default the due date), reverse, force_stages, resources (assigned to every
 * card), stage_id (plan everything on that stage), status_id (default: the board's entry
 * status), before / after (a card or collection id: where the new cards go in their stage's
 * order; default at the end).
 */
import { isUuid, uuidv7 } from '../../../shared/ids.js';
import { daysBetween, today } from '../../../shared/dates.js';
import type { StoredRecord } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { cardFields, lastRank } from './card-fields.js';
import { defaultStatus } from './card-status.js';
import { recomputeCollection } from './collection-state.js';
import { groupCards, planCards, type PlanActivity, type PlannedCard, type PlanResult, type PlanStage } from './plan.js';
import type { ActivityNeed } from '../../../shared/skills.js';
import { CrewError, needsOf, readActivityNeeds } from './skill-candidates.js';
import {
  chooseForCards,
  inWindows,
  latestGate,
  lastFiniteStart,
  NoCapacityError,
  planFinite,
  readFiniteBoard,
  spokenDate,
  TooEarlyError,
} from './finite-plan.js';
import { rankBetween } from './rank.js';
import {
  awaitedMaterial,
  cardsBeforeMaterial,
  materialGates,
  unknownMaterialMessage,
  waitingMessage,
  type MaterialGates,
} from './material.js';
import { countsFor } from './who-does-it.js';
import { readCalendarsOf, scheduleDay } from './schedule.js';
import { CalendarError, maxPlanDays } from './workdays.js';
import { readStageWeeks, resourcesOnBoard, type StageWeeks } from './stage-workdays.js';
import { deleteWithRules } from '../write-plan.js';
import { moduleNamed } from '../registry.js';
import { tables, type Stored } from '../tables.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';

/** Minutes one workday gives a card when no resource is assigned. */
export const minutesPerWorkdayWithoutResources = 480;

/**
 * How to plan, as the route read it from the body (plan-routes.ts): ids are lower case and name
 * stages and statuses of the board being planned on, resources, and cards or collections.
 */
export interface PlanOptions {
  start?: string;
  end?: string;
  reverse: boolean;
  force_stages: string[];
  resources: string[];
  stage_id?: string;
  status_id?: string;
  before?: string;
  after?: string;
  /** `finite` plans into the free capacity (finite-plan.ts); default `infinite`. */
  capacity?: 'finite' | 'infinite';
  /** Plan and answer, then roll everything back (plan-routes.ts). */
  dry_run?: boolean;
}

/** A plan made: the collection as it is now, and the cards as planned (with their minutes). */
export interface PlanOutcome {
  collection: StoredRecord;
  cards: PlannedCard[];
  /** The board's workdays and each stage's (stage-workdays.ts). */
  weeks: StageWeeks;
  /** The setup minutes of the board's stages, by id (docs/API.md "Setup times"). */
  stageSetup: Map<string, number>;
  /** An infinite plan's warnings of material whose date is unknown (material.ts). */
  materialWarnings: string[];
}

/** The collection and the board of a plan; 404 when either is not there. */
export interface PlanTarget {
  collection: StoredRecord;
  board: StoredRecord;
}

export async function planTarget(reads: RecordReads, collectionId: string, boardId: string): Promise<PlanTarget> {
  const collection = isUuid(collectionId) ? await reads.get(tables.collection, collectionId.toLowerCase()) : undefined;
  if (!collection) throw ApiError.notFound('No Collection with that id.');
  const board = isUuid(boardId) ? await reads.get(tables.board, boardId.toLowerCase()) : undefined;
  if (!board) throw ApiError.notFound('No Board with that id.');
  return { collection, board };
}

/** Percentage a resource works on a stage: its own setting there, else the stage default. */
function percentage(resource: Stored<'resource'>, board: Stored<'board'>, stage: Stored<'stage'>): number {
  const entry = resource.boards.find((b) => b.id === board.id);
  const link = entry?.active ? entry.stages.find((s) => s.id === stage.id && s.active) : undefined;
  return link ? link.percentage : stage.default_percentage;
}

/** The rank a new card gets in its stage: at the end, or next to the card `before`/`after` names. */
async function rankFor(tx: RecordWrites, stageId: string, body: PlanOptions, collectionId: string): Promise<string> {
  const anchorId = body.before ?? body.after;
  if (anchorId === undefined) return lastRank(tx, stageId);
  const siblings = (await tx.getWhereIn(tables.card, 'stage_id', [stageId]))
    .filter((c) => c.collection_id !== collectionId)
    .map((c) => ({ id: c.id, collection: c.collection_id, rank: c.rank }))
    .sort((a, b) => (a.rank < b.rank ? -1 : 1));
  const index = siblings.findIndex((c) => c.id === anchorId || c.collection === anchorId);
  if (index === -1) return rankBetween(siblings[siblings.length - 1]?.rank ?? null, null);
  if (body.before !== undefined) return rankBetween(siblings[index - 1]?.rank ?? null, siblings[index]!.rank);
  return rankBetween(siblings[index]!.rank, siblings[index + 1]?.rank ?? null);
}

/**
 * Removes a collection's cards for a new plan or the backlog, without the card's own
 * after-delete refresh of the collection: the caller writes the collection once, afterwards.
 */
async function removeCards(ctx: RequestContext, tx: RecordWrites, collectionId: string): Promise<void> {
  const cards = moduleNamed('card');
  const { afterDelete: _refresh, ...rules } = cards.rules ?? {};
  const quietly: ResourceModule = { ...cards, rules };
  for (const card of await tx.getWhereIn(tables.card, 'collection_id', [collectionId])) await deleteWithRules(ctx, tx, quietly, card);
}

/**
 * A finite plan (finite-plan.ts) from `start` (default today). Reverse, it ends on `anchor` at
 * the latest; when no reverse plan fits after `start` but the forward one ends by `anchor`,
 * that one is the plan; else a 422 on `end` that names the earliest end that fits.
 */
async function finiteResult(
  tx: RecordWrites,
  board: Stored<'board'>,
  stages: Stored<'stage'>[],
  input: Parameters<typeof groupCards>[0],
  body: PlanOptions,
  anchor: string,
  material: MaterialGates,
  needs: ReadonlyMap<string, ActivityNeed>,
  weeks: StageWeeks,
): Promise<PlanResult> {
  const start = body.start ?? today();
  // The horizon (three years on) must stay within four-digit years.
  if (start > lastFiniteStart) throw ApiError.rule('start', `a finite plan starts by ${lastFiniteStart}`);
  if (body.reverse && daysBetween(start, anchor) > maxPlanDays)
    throw ApiError.rule('end', `end may be at most ${maxPlanDays} days after start`);
  const { groups, unplaced } = groupCards(input);
  const names = new Map(stages.map((s) => [s.id, s.name]));
  const read = (last: string) => readFiniteBoard(tx, board, stages, weeks, body.resources, start, last);
  const common = {
    groups,
    unplaced,
    resourceIds: body.resources,
    earliest: start,
    stageName: (id: string) => names.get(id) ?? id,
    gates: material.gates,
    needs,
  };
  const forward = async () => {
    try {
      return await inWindows(
        start,
        read,
        (free) => planFinite(free, { ...common, reverse: false, anchor: start }),
        latestGate(material.gates),
      );
    } catch (error) {
      if (error instanceof NoCapacityError) throw ApiError.rule('capacity', error.message);
      throw error;
    }
  };
  if (!body.reverse) return forward();
  if (anchor >= start) {
    const free = await read(anchor);
    try {
      return planFinite(free, { ...common, reverse: true, anchor });
    } catch (error) {
      if (!(error instanceof TooEarlyError)) throw error;
    }
  }
  return endingBy(await forward(), anchor, start, material);
}

/**
 * A forward plan that stands in for a reverse one that did not fit: it is the plan when it ends
 * by `anchor`; else a 422 on `end` naming the earliest end that fits, and the material the
 * plan waited for, if any.
 */
function endingBy(plan: PlanResult, anchor: string, start: string, material: MaterialGates): PlanResult {
  const end = plan.cards.reduce((max, c) => (c.end_date > max ? c.end_date : max), start);
  if (end <= anchor) return plan;
  const waits = [...material.waiting.values()].map(waitingMessage);
  const because = waits.length > 0 ? ` (${waits.join('; ')})` : '';
  throw new ApiError('unprocessable', [
    {
      field: 'end',
      description: `No plan fits before ${spokenDate(anchor)}; the earliest end that fits is ${end}${because}.`,
      earliest_end: end,
    },
  ]);
}

/** The board's stages (in priority order) as planning sees them, with the activities each allows. */
export async function planStagesOf(reads: RecordReads, stages: readonly Stored<'stage'>[]): Promise<PlanStage[]> {
  const allowed = await reads.getWhereIn(
    tables.stage_activity,
    'stage_id',
    stages.map((s) => s.id),
  );
  return stages.map((s) => ({
    id: s.id,
    delay_day: s.delay_day,
    independent: s.independent,
    activityIds: allowed
      .filter((l) => l.stage_id === s.id)
      .sort((a, b) => a.priority - b.priority)
      .map((l) => l.activity_id),
  }));
}

/**
 * Plans the collection (see the file head) in the transaction `tx`, on either engine, and tells
 * what it planned. The caller opens the transaction: as a command (plan-routes.ts, the replan
 * command, the sample workshop), or to roll it back (a dry run).
 */
export async function planCollection(tx: RecordWrites, ctx: RequestContext, target: PlanTarget, body: PlanOptions): Promise<PlanOutcome> {
  // Records of tables.collection and tables.board: planTarget reads them there, and so do the
  // commands and the sample workshop that pass their own.
  const collection = target.collection as Stored<'collection'>;
  const board = target.board as Stored<'board'>;
  // A finite plan reads the board's free minutes and then takes some. Two at once (on two nodes
  // of a team server) would each see the other's as free: the board's record is locked first,
  // before anything else, to the end of the transaction, so they take turns and never hold
  // each other's records in a circle (a SQLite transaction holds the whole file already).
  if (body.capacity === 'finite') await tx.sync.getForSync(tables.board, board.id, { lock: true });
  const stages = (await tx.getWhereIn(tables.stage, 'board_id', [board.id])).sort((a, b) => a.priority - b.priority);
  if (stages.length === 0) throw ApiError.rule('board_id', 'the board has no stages to plan on');
  const status = body.status_id ? await tx.get(tables.status, body.status_id) : await defaultStatus(tx, board.id);
  if (!status) throw ApiError.rule('status_id', 'the board has no statuses; add one before planning');
  const planStages = await planStagesOf(tx, stages);
  const activities = (await tx.getWhereIn(tables.collection_activity, 'collection_id', [collection.id])).map((l) => ({
    id: l.activity_id,
    time: l.time,
  }));
  const anchor = body.reverse ? (body.end ?? collection.due_date) : (body.start ?? today());
  if (!anchor) throw ApiError.rule('end', 'reverse planning needs an end date or a due date on the collection');

  const resources = body.resources.length > 0 ? await tx.getWhereIn(tables.resource, 'id', body.resources) : [];
  const calendars = await readCalendarsOf(tx, resources);
  const stageById = new Map(stages.map((s) => [s.id, s]));
  // Re-planning replaces the cards the collection had; a finite plan counts the board without them.
  await removeCards(ctx, tx, collection.id);
  let result: PlanResult;
  // The board's workdays and each stage's (stage-workdays.ts): a board with none is a 422 below.
  let weeks: StageWeeks;
  const grouping = {
    stages: planStages,
    activities,
    splitByActivity: board.split_cards_by_activity,
    forceStages: body.force_stages,
    ...(body.stage_id ? { onlyStage: body.stage_id } : {}),
  };
  // The material the collection waits for (material.ts): a finite plan needs every date.
  const awaited = (await awaitedMaterial(tx, [collection.id])).get(collection.id) ?? [];
  const material = materialGates(awaited, groupCards(grouping).groups);
  if (material.unknown.length > 0 && body.capacity === 'finite') throw ApiError.rule('material', unknownMaterialMessage(material.unknown));
  const materialWarnings = material.unknown.length > 0 ? [unknownMaterialMessage(material.unknown)] : [];
  // Each activity's skill and crew (docs/API.md "Skills and crews").
  const needs = await readActivityNeeds(
    tx,
    activities.map((a) => a.id),
  );
  try {
    weeks = await readStageWeeks(tx, board);
    if (body.capacity === 'finite') result = await finiteResult(tx, board, stages, grouping, body, anchor, material, needs, weeks);
    else {
      const infinite = (reverse: boolean, from: string) =>
        planCards({
          ...grouping,
          reverse,
          anchor: from,
          calendarOf: weeks.calendarOf,
          gates: material.gates,
          // Without resources named, a crew of n gets n people's days (docs/API.md "Skills and crews").
          ...(calendars.length === 0 ? { crew: (planned: readonly PlanActivity[]) => needsOf(planned, needs).crew } : {}),
          dayCapacity(stageId, date) {
            if (calendars.length === 0) return minutesPerWorkdayWithoutResources;
            const stage = stageById.get(stageId)!;
            return calendars.reduce(
              (sum, c) => sum + (scheduleDay(c, date).available * percentage(c.resource, board, stage) * stage.efficiency) / 10_000,
              0,
            );
          },
        });
      result = infinite(body.reverse, anchor);
      // A reverse plan that would start a stage before its material: as a finite one, the
      // forward plan from `start` stands in when it still ends in time (docs/API.md "Material").
      if (body.reverse && cardsBeforeMaterial(result.cards, material.gates).length > 0) {
        const start = body.start ?? today();
        result = endingBy(infinite(false, start), anchor, start, material);
      }
    }
  } catch (error) {
    if (error instanceof CalendarError) throw ApiError.rule('board_id', error.message);
    if (error instanceof CrewError) throw ApiError.rule('skill', error.message);
    throw error;
  }
  // Without resources named, planning gives each card the people whose capacity it counts
  // (who-does-it.ts): a finite plan chose them as it placed the cards; an infinite one chooses
  // now, by their free time over each card's days.
  // A board where no planned stage has anyone reads nothing more.
  const onBoard = body.capacity !== 'finite' && body.resources.length === 0 ? await resourcesOnBoard(tx, board.id) : [];
  if (result.cards.some((card) => onBoard.some((r) => countsFor(r, board.id, card.stageId)))) {
    const days = result.cards.flatMap((c) => [c.start_date, c.end_date]).sort();
    const free = await readFiniteBoard(tx, board, stages, weeks, [], days[0]!, days[days.length - 1]!, onBoard);
    result = { ...result, cards: chooseForCards(free, result.cards, needs) };
  }

  const planId = uuidv7();
  const names = new Map(
    (
      await tx.getWhereIn(
        tables.activity,
        'id',
        activities.map((a) => a.id),
      )
    ).map((a) => [a.id, a.description]),
  );
  for (const planned of result.cards) {
    const split = board.split_cards_by_activity && planned.activities.length === 1;
    const values: Record<string, unknown> = {
      collection_id: collection.id,
      board_id: board.id,
      stage_id: planned.stageId,
      status_id: status.id,
      name: split ? `${collection.name ?? ''} – ${names.get(planned.activities[0]!.id) ?? ''}`.trim() : collection.name,
      start_date: planned.start_date,
      end_date: planned.end_date,
      rank: await rankFor(tx, planned.stageId, body, collection.id),
      custom_fields: [],
      locked: false,
      plan_id: planId,
    };
    const card = await tx.insert(tables.card, { ...values, ...(await cardFields(tx, values)) });
    for (const activity of planned.activities) {
      await tx.insert(tables.card_activity, { card_id: card.id, activity_id: activity.id, time: activity.time });
    }
    for (const resourceId of planned.resourceIds ?? body.resources) {
      await tx.insert(tables.card_resource, { card_id: card.id, resource_id: resourceId });
    }
  }
  await recomputeCollection(tx, collection.id, { board_id: board.id, status: 'planned', plan_id: planId });
  return {
    collection: (await tx.get(tables.collection, collection.id))!,
    cards: result.cards,
    weeks,
    stageSetup: new Map(stages.map((s) => [s.id, s.setup_minutes])),
    materialWarnings,
  };
}

/** The collection back in the backlog, its cards removed, in the transaction `tx` (either engine). */
export async function moveCollectionToBacklog(ctx: RequestContext, tx: RecordWrites, collectionId: string): Promise<StoredRecord> {
  const collection = isUuid(collectionId) ? await tx.get(tables.collection, collectionId.toLowerCase()) : undefined;
  if (!collection) throw ApiError.notFound('No Collection with that id.');
  await removeCards(ctx, tx, collection.id);
  await recomputeCollection(tx, collection.id, { status: 'not_planned', plan_id: null });
  return (await tx.get(tables.collection, collection.id))!;
}
