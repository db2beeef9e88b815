/**
 * When a planner moves or resizes a card, the collection's later stages follow the board's
 * `dependency_behavior`:
 *
 *  - notify:   nothing moves; the collection gets a warning when a later stage now starts too
 *              early (collection-state.ts computes warnings after every change);
 *  - push:     later dependent stages that would start too early move forward just enough
 *              (the previous stage's end, plus its delay days), keeping their lengths in workdays;
 *  - maintain: later dependent stages move by the same number of workdays as the card's end
 *              did, forward or back, keeping the gaps between cards.
 *
 * Cards moved this way are written directly (not as new moves), so a push never cascades into
 * itself; their derived fields are refreshed.
 */
import { shiftWorkdays, workdayDelta, workdayFrom, type BoardCalendar } from './workdays.js';
import { readStageWeeks } from './stage-workdays.js';
import { isDated, refreshCardFields, type Card, type DatedCard } from './card-fields.js';
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

export async function shiftCard(tx: RecordWrites, calendar: BoardCalendar, card: Card, workdays: number): Promise<void> {
  if (workdays === 0 || !card.start_date || !card.end_date) return;
  const start = shiftWorkdays(calendar, workdayFrom(calendar, card.start_date), workdays);
  const end = shiftWorkdays(calendar, workdayFrom(calendar, card.end_date), workdays);
  // A live card of this collection, read in this transaction.
  const moved = (await tx.update(tables.card, card.id, { start_date: start, end_date: end }))!;
  await refreshCardFields(tx, moved);
}

/**
 * Pushes a stage's cards later, all by the same number of workdays, so that the earliest of
 * them starts no sooner than `earliest`; cards already later stay. Returns the latest end
 * among them afterwards, where the next stage's cards may start from.
 */
export async function pushStageAfter(
  tx: RecordWrites,
  calendar: BoardCalendar,
  cards: readonly DatedCard[],
  earliest: string,
): Promise<string> {
  const start = cards.reduce((m, c) => (c.start_date < m ? c.start_date : m), '9999');
  const delta = start < earliest ? workdayDelta(calendar, workdayFrom(calendar, start), earliest) : 0;
  for (const c of cards) await shiftCard(tx, calendar, c, delta);
  return await latestEnd(tx, cards);
}

/** The latest end date among these cards as they are stored now. */
export async function latestEnd(tx: RecordWrites, cards: readonly Card[]): Promise<string> {
  const stored = await tx.getWhereIn(
    tables.card,
    'id',
    cards.map((c) => c.id),
  );
  // A card without an end (none of those passed in has one) cannot be the latest.
  return stored.reduce((m, c) => (c.end_date !== null && c.end_date > m ? c.end_date : m), '');
}

export async function followDependencies(tx: RecordWrites, card: Card, previous: Card): Promise<void> {
  const moved = card.start_date !== previous.start_date || card.end_date !== previous.end_date || card.stage_id !== previous.stage_id;
  if (!moved || !card.end_date || !card.board_id) return;
  const board = await tx.get(tables.board, card.board_id);
  if (!board || board.dependency_behavior === 'notify') return;
  // Each card counts its stage's workdays (stage-workdays.ts).
  const weeks = await readStageWeeks(tx, board);
  const calendar = weeks.calendarOf(card.stage_id);
  const stages = new Map((await tx.getWhereIn(tables.stage, 'board_id', [board.id])).map((s) => [s.id, s]));
  const own = stages.get(card.stage_id);
  // An independent stage is outside the chain: moving its card moves nothing else.
  if (!own || own.independent) return;
  const later = (await tx.getWhereIn(tables.card, 'collection_id', [card.collection_id]))
    .filter((c): c is DatedCard => c.id !== card.id && isDated(c))
    .filter((c) => {
      const stage = stages.get(c.stage_id);
      return stage && !stage.independent && stage.priority > own.priority;
    });
  if (later.length === 0) return;

  if (board.dependency_behavior === 'maintain') {
    const delta = previous.end_date
      ? workdayDelta(calendar, workdayFrom(calendar, previous.end_date), workdayFrom(calendar, card.end_date))
      : 0;
    for (const c of later) await shiftCard(tx, weeks.calendarOf(c.stage_id), c, delta);
    return;
  }

  // push: stage by stage, each must start after the previous stage (plus its delay) is done.
  const byStage = new Map<string, DatedCard[]>();
  for (const c of later) byStage.set(c.stage_id, [...(byStage.get(c.stage_id) ?? []), c]);
  const order = [...byStage.keys()].sort((a, b) => stages.get(a)!.priority - stages.get(b)!.priority);
  let previousStage = own;
  let previousEnd = card.end_date;
  for (const stageId of order) {
    const next = weeks.calendarOf(stageId);
    const earliest = shiftWorkdays(next, workdayFrom(next, previousEnd, -1), previousStage.delay_day + 1);
    previousEnd = await pushStageAfter(tx, next, byStage.get(stageId)!, earliest);
    previousStage = stages.get(stageId)!;
  }
}
