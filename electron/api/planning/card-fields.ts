/**
 * A card's server-owned fields, derived from what it is now: its board (from its stage), its
 * length in calendar days and in its stage's workdays, when it was completed (reaching an exit
 * status) and its rank (new cards go to the end of their stage).
 */
import { daysBetween } from '../../../shared/dates.js';
import { nowTimestamp } from '../../../shared/ids.js';
import { rankBetween } from './rank.js';
import { countWorkdays } from './workdays.js';
import { readStageWeeks } from './stage-workdays.js';
import { tables, type Stored } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

/** A card as the store keeps it. */
export type Card = Stored<'card'>;

/** A card placed on the planboard: both its dates are set. */
export type DatedCard = Card & { start_date: string; end_date: string };

/** Whether a card has both dates (a type guard, so the filters that ask need no casts). */
export function isDated(card: Card): card is DatedCard {
  return !!card.start_date && !!card.end_date;
}

/** The rank after the last card of a stage. */
export async function lastRank(tx: RecordWrites, stageId: string): Promise<string> {
  // rank is a string column (shared/resources/card.ts); the max over no cards is null.
  return rankBetween(((await tx.max(tables.card, 'rank', { stage_id: stageId })) as string | null) ?? null, null);
}

/**
 * The server-owned fields of a card as it is (or is about to be written: planning makes each
 * card with them, in one write, so a plan refused by the remote leaves no stray card edits).
 */
export async function cardFields(tx: RecordWrites, card: Record<string, unknown>): Promise<Record<string, unknown>> {
  // The card is stored, or values that passed the card's field checks (resources/card.ts) or
  // that planning made: a field that is set has its declared type (a uuid or a date).
  const stage = await tx.get(tables.stage, card.stage_id as string);
  const board = stage ? await tx.get(tables.board, stage.board_id) : undefined;
  // Dates and status id as declared, for the same reason.
  const start = card.start_date as string | null;
  const end = card.end_date as string | null;
  // A stored card's status_id is a uuid or null (shared/resources/card.ts).
  const status = card.status_id ? await tx.get(tables.status, card.status_id as string) : undefined;
  const changes: Record<string, unknown> = {
    board_id: stage?.board_id ?? card.board_id ?? null,
    days_diff: start && end ? daysBetween(start, end) : null,
    // Counted by the stage's workdays: the board's and the days its people add (stage-workdays.ts).
    days_active: start && end && board && stage ? countWorkdays((await readStageWeeks(tx, board)).calendarOf(stage.id), start, end) : null,
    completed_at: status?.exit ? (card.completed_at ?? nowTimestamp()) : null,
  };
  if (!card.rank && stage) changes.rank = await lastRank(tx, stage.id);
  return changes;
}

export async function refreshCardFields(tx: RecordWrites, card: Card): Promise<Card> {
  const fields: Record<string, unknown> = card;
  const changes = await cardFields(tx, card);
  const differs = Object.entries(changes).some(([k, v]) => fields[k] !== v);
  // The card is live: it was just read or written in this transaction.
  return differs ? (await tx.update(tables.card, card.id, changes))! : card;
}
