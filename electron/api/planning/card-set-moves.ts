/**
 * The board's `dependency_behavior` (card-moves.ts) for a set of cards moved in one command
 * (`POST /v1/command/move_cards`, docs/API.md "Commands and undo"): applied once for the
 * whole set, after every card of it is where the planner put it, not once per card. Per card
 * it would move the later cards again for every selected card before them (moving three
 * stages of a collection two days would push the last one six), and it would move selected
 * cards away from where they were dropped.
 *
 * Cards of the set stay where they were sent; only the others follow:
 *  - maintain: a later card moves by as many workdays as the end of the nearest moved card in
 *    an earlier stage of its chain did;
 *  - push: from the first moved stage on, each later stage's unmoved cards move forward just
 *    enough to start after the stage before it (plus its delay days) is done.
 */
import type { StoredRecord } from '../../../shared/fields.js';
import { tables } from '../tables.js';
import { latestEnd, pushStageAfter, shiftCard } from './card-moves.js';
import { isDated, type Card, type DatedCard } from './card-fields.js';
import { shiftWorkdays, workdayDelta, workdayFrom } from './workdays.js';
import { readStageWeeks } from './stage-workdays.js';
import type { RecordWrites } from '../../store/record-store.js';

export interface CardMoved {
  card: Card;
  previous: Card;
}

function hasMoved({ card, previous }: CardMoved): boolean {
  return card.start_date !== previous.start_date || card.end_date !== previous.end_date || card.stage_id !== previous.stage_id;
}

/** Follows the dependencies of every collection the moved cards are in, once each (in the transaction `tx`, either engine). */
export async function followDependenciesOfSet(
  tx: RecordWrites,
  collected: readonly { card: StoredRecord; previous: StoredRecord }[],
): Promise<void> {
  // The card module collects these (RequestContext.cardMoves): cards as the store keeps them.
  const moves = collected as readonly CardMoved[];
  const byCollection = new Map<string, CardMoved[]>();
  for (const move of moves) {
    if (!hasMoved(move) || !move.card.end_date || !move.card.board_id) continue;
    const key = move.card.collection_id;
    byCollection.set(key, [...(byCollection.get(key) ?? []), move]);
  }
  const selected = new Set(moves.map((m) => m.card.id));
  for (const [collectionId, moved] of byCollection) await followInCollection(tx, collectionId, moved, selected);
}

async function followInCollection(
  tx: RecordWrites,
  collectionId: string,
  moved: CardMoved[],
  selected: ReadonlySet<string>,
): Promise<void> {
  // The cards as they are now, after the whole set was written.
  const cards = await tx.getWhereIn(tables.card, 'collection_id', [collectionId]);
  const current = new Map(cards.map((c) => [c.id, c]));
  const boardId = current.get(moved[0]!.card.id)?.board_id;
  const board = boardId ? await tx.get(tables.board, boardId) : undefined;
  if (!board || board.dependency_behavior === 'notify') return;
  // Each card counts its stage's workdays (stage-workdays.ts).
  const weeks = await readStageWeeks(tx, board);
  const stages = new Map((await tx.getWhereIn(tables.stage, 'board_id', [board.id])).map((s) => [s.id, s]));
  const priorityOf = (card: Card): number | undefined => {
    const stage = stages.get(card.stage_id);
    // An independent stage is outside the chain: its cards neither lead nor follow.
    return stage && !stage.independent ? stage.priority : undefined;
  };
  const leads = moved
    .map((m) => ({ ...m, card: current.get(m.card.id) ?? m.card }))
    .filter((m) => m.card.board_id === board.id && m.card.end_date && priorityOf(m.card) !== undefined)
    .sort((a, b) => priorityOf(a.card)! - priorityOf(b.card)!);
  if (leads.length === 0) return;
  const followers = cards.filter((c) => !selected.has(c.id) && isDated(c) && priorityOf(c) !== undefined);

  if (board.dependency_behavior === 'maintain') {
    for (const follower of followers) {
      const lead = leads.filter((m) => priorityOf(m.card)! < priorityOf(follower)!).at(-1);
      if (!lead?.previous.end_date) continue;
      // Leads all have an end (filtered above); the check narrows it for the types.
      if (!lead.card.end_date) continue;
      const calendar = weeks.calendarOf(lead.card.stage_id);
      const delta = workdayDelta(calendar, workdayFrom(calendar, lead.previous.end_date), workdayFrom(calendar, lead.card.end_date));
      await shiftCard(tx, weeks.calendarOf(follower.stage_id), follower, delta);
    }
    return;
  }

  // push: stage by stage from the first moved one, each after the previous stage (plus its delay).
  const first = leads[0]!;
  const firstPriority = priorityOf(first.card)!;
  let previousStage = stages.get(first.card.stage_id)!;
  let previousEnd = leads
    .filter((m) => priorityOf(m.card) === firstPriority)
    .reduce((m, c) => (c.card.end_date !== null && c.card.end_date > m ? c.card.end_date : m), '');
  const laterStages = [...stages.values()]
    .filter((s) => !s.independent && s.priority > firstPriority)
    .sort((a, b) => a.priority - b.priority);
  for (const stage of laterStages) {
    const inStage = cards.filter((c): c is DatedCard => c.stage_id === stage.id && isDated(c));
    if (inStage.length === 0) continue;
    const calendar = weeks.calendarOf(stage.id);
    const earliest = shiftWorkdays(calendar, workdayFrom(calendar, previousEnd, -1), previousStage.delay_day + 1);
    // The cards sent stay where they were sent; only the others of the stage follow.
    const following = inStage.filter((c) => !selected.has(c.id));
    if (following.length > 0) await pushStageAfter(tx, calendar, following, earliest);
    previousEnd = await latestEnd(tx, inStage);
    previousStage = stage;
  }
}
