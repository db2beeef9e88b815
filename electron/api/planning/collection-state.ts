/**
 * What a collection's cards say about it, recomputed after every card change:
 *
 *  - start / end: the first start and last end of its cards;
 *  - progress: `done` when every card is in an exit status, `partial` when some are, else `open`;
 *  - status: `planned` while it has cards; back to `not_planned` when its last card goes
 *    (an `ignored` collection stays ignored), and then its `plan_id` goes too;
 *  - warnings: a dependent stage that starts before the previous stage is done (plus its
 *    delay days), an end after the due date, and activities that no stage of the board allows.
 */
import { endsLate } from '../../../shared/late.js';
import { own } from '../../../shared/fields.js';
import type { StoredRecord } from '../../../shared/fields.js';
import { shiftWorkdays, workdayFrom } from './workdays.js';
import { readStageWeeks, type StageWeeks } from './stage-workdays.js';
import type { Card, DatedCard } from './card-fields.js';
import { tables, type Stored } from '../tables.js';
import type { RequestContext } from '../resource.js';
import type { RecordWrites } from '../../store/record-store.js';

/** A dependent stage whose cards start before the stage before it is done (plus its delay days). */
/** What the rule reads of a card: its stage and dates. */
export type PlacedCard = Pick<Card, 'stage_id' | 'start_date' | 'end_date'>;
type Placed<C> = C & { start_date: string; end_date: string };

export interface BrokenDependency<C extends { start_date: string; end_date: string } = DatedCard> {
  stage: Stored<'stage'>;
  previous: Stored<'stage'>;
  /** The stage's first start, and the earliest day it may start. */
  start: string;
  earliest: string;
  /** The stage's cards that start too early, and the previous stage's cards. */
  early: C[];
  before: C[];
}

/**
 * Where a collection's dependency order is broken: its dependent stages in priority order, each
 * against the one before it. The one rule behind the collection's warnings and the exception
 * inbox; `stages` are the board's.
 */
export function brokenDependencies<C extends PlacedCard>(
  weeks: StageWeeks,
  boardStages: readonly Stored<'stage'>[],
  cards: readonly C[],
): BrokenDependency<Placed<C>>[] {
  const stages = new Map(boardStages.map((s) => [s.id, s]));
  const dated = cards.filter((c): c is Placed<C> => !!c.start_date && !!c.end_date && stages.has(c.stage_id));
  const byStage = new Map<string, Placed<C>[]>();
  for (const card of dated) byStage.set(card.stage_id, [...(byStage.get(card.stage_id) ?? []), card]);
  const chain = [...byStage.keys()]
    .map((id) => stages.get(id)!)
    .filter((s) => !s.independent)
    .sort((a, b) => a.priority - b.priority);
  const broken: BrokenDependency<Placed<C>>[] = [];
  for (let i = 1; i < chain.length; i++) {
    const previous = chain[i - 1]!;
    const stage = chain[i]!;
    const before = byStage.get(previous.id)!;
    const previousEnd = before.reduce((m, c) => (c.end_date > m ? c.end_date : m), '');
    // Counted by the later stage's workdays (stage-workdays.ts): its first after the delay days.
    const calendar = weeks.calendarOf(stage.id);
    const earliest = shiftWorkdays(calendar, workdayFrom(calendar, previousEnd, -1), previous.delay_day + 1);
    const own = byStage.get(stage.id)!;
    const start = own.reduce((m, c) => (c.start_date < m ? c.start_date : m), '9999');
    if (start < earliest) broken.push({ stage, previous, start, earliest, early: own.filter((c) => c.start_date < earliest), before });
  }
  return broken;
}

/** How a dependency warning starts, and no other warning: the exception inbox reads the cards of those collections only. */
export const dependencyWarningStart = 'Stage ';

async function dependencyWarnings(tx: RecordWrites, board: Stored<'board'>, cards: Card[]): Promise<string[]> {
  const stages = await tx.getWhereIn(tables.stage, 'board_id', [board.id]);
  return brokenDependencies(await readStageWeeks(tx, board), stages, cards).map(
    ({ stage, previous, start, earliest }) =>
      `${dependencyWarningStart}${stage.name} starts on ${start}, before stage ${previous.name} is done (earliest ${earliest})`,
  );
}

async function unplacedActivities(
  tx: RecordWrites,
  collection: StoredRecord,
  board: StoredRecord,
  cards: StoredRecord[],
): Promise<string[]> {
  if (cards.length === 0) return [];
  const wanted = await tx.getWhereIn(tables.collection_activity, 'collection_id', [collection.id]);
  const stageIds = (await tx.getWhereIn(tables.stage, 'board_id', [board.id])).map((s) => s.id);
  const allowed = new Set((await tx.getWhereIn(tables.stage_activity, 'stage_id', stageIds)).map((l) => l.activity_id));
  const missing = wanted.filter((link) => !allowed.has(link.activity_id));
  if (missing.length === 0) return [];
  const names = await tx.getWhereIn(
    tables.activity,
    'id',
    missing.map((l) => l.activity_id),
  );
  return names.map((a) => `Activity ${a.description} is not allowed in any stage of the board, so it was not planned`);
}

/**
 * Writes what the collection's cards say about it, when that changed. `set`: fields written in
 * the same write (planning's board, status and plan: one write, so the remote takes or refuses
 * a plan's collection change whole). In the transaction `tx`, on either engine.
 */
export async function recomputeCollection(tx: RecordWrites, collectionId: string, set: Record<string, unknown> = {}): Promise<void> {
  const stored = await tx.get(tables.collection, collectionId);
  if (!stored) return;
  const collection = { ...stored, ...set };
  const cards = await tx.getWhereIn(tables.card, 'collection_id', [collectionId]);
  const starts = cards
    .map((c) => c.start_date)
    .filter((d): d is string => d !== null)
    .sort();
  const ends = cards
    .map((c) => c.end_date)
    .filter((d): d is string => d !== null)
    .sort();
  const statuses = await tx.getWhereIn(
    tables.status,
    'id',
    cards.map((c) => c.status_id),
  );
  const exits = new Set(statuses.filter((s) => s.exit).map((s) => s.id));
  const done = cards.filter((c) => exits.has(c.status_id)).length;
  const end = ends[ends.length - 1] ?? null;
  const changes: Record<string, unknown> = {
    ...set,
    start: starts[0] ?? null,
    end,
    progress: cards.length > 0 && done === cards.length ? 'done' : done > 0 ? 'partial' : 'open',
  };
  if (cards.length > 0 && collection.status !== 'planned') changes.status = 'planned';
  if (cards.length === 0 && collection.status === 'planned') Object.assign(changes, { status: 'not_planned', plan_id: null });

  const warnings: string[] = [];
  const board = typeof collection.board_id === 'string' ? await tx.get(tables.board, collection.board_id) : undefined;
  if (board) {
    warnings.push(...(await dependencyWarnings(tx, board, cards)));
    warnings.push(...(await unplacedActivities(tx, collection, board, cards)));
  }
  if (typeof collection.due_date === 'string' && endsLate(end, collection.due_date)) {
    warnings.push(`Planned to end on ${end}, after the due date ${collection.due_date}`);
  }
  changes.warnings = warnings;

  const differs = Object.entries(changes).some(([k, v]) => JSON.stringify(own(stored, k)) !== JSON.stringify(v));
  if (differs) await tx.update(tables.collection, collectionId, changes);
}

/**
 * The refresh after a card or the collection changed. On the remote, applying a replica's
 * action, it waits until the whole action is applied (sync/action-checks.ts), once per
 * collection: the action's changes arrive one by one, and a summary of the state between two of
 * them is nobody's. An undo of a re-plan deletes the new plan's cards before it restores the
 * old one's; refreshed in between, the collection would read "no cards", and lose its plan
 * with the remote's own, later clock.
 */
export function refreshCollection(ctx: RequestContext, tx: RecordWrites, collectionId: string): Promise<void> | undefined {
  if (!ctx.syncAction) return recomputeCollection(tx, collectionId);
  ctx.syncAction.afterAction(`summary of collection ${collectionId}`, (tx) => recomputeCollection(tx, collectionId));
  return undefined;
}
