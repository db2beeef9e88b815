/**
 * What a card on the board counts in the load (docs/API.md "Schedules and capacity"): the one
 * rule capacity (planned-work.ts), finite planning and promise dates (finite-plan.ts) all use.
 *
 * With the board's capacity_method `remaining_time` a card counts what is left of it:
 *
 *   remaining = 0                                   when its status is an exit status (finished)
 *             = max(0, estimate − minutes tracked)  otherwise
 *
 * spread over its days from today on, and its stage's setup only while nothing is tracked on it
 * and it is not finished (booked time means the job has been set up). With any other method a
 * card counts its whole estimate over all its days, and its setup.
 */
import { today } from '../../../shared/dates.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables, type Stored } from '../tables.js';
import { trackedMinutesOf } from './tracked-time.js';
import { dayNumber } from './workdays.js';

/** A card as the load reads give it (store/planned-cards.ts, store/card-load.ts). */
export interface CountedCard {
  card_id: string;
  status_id: string | null;
}

export interface CardCounting {
  /** The first day (a day number of workdays.ts) a card's minutes are spread from. */
  from: number;
  /** The minutes a card of `estimate` activity minutes counts. */
  minutes(card: CountedCard, estimate: number): number;
  /** Whether the card's stage's setup still counts for it. */
  setupCounts(card: CountedCard): boolean;
}

/** Whole estimates, from a card's first day: every method but remaining_time. */
const wholeEstimates: CardCounting = { from: -Infinity, minutes: (_card, estimate) => estimate, setupCounts: () => true };

/**
 * How the board's cards count, with what `cards` need read: for remaining_time the minutes
 * tracked on them and which of their statuses are exit statuses, through `reads` (a request's
 * records or a planning transaction's).
 */
export async function cardCounting(reads: RecordReads, board: Stored<'board'>, cards: readonly CountedCard[]): Promise<CardCounting> {
  if (board.capacity_method !== 'remaining_time' || cards.length === 0) return wholeEstimates;
  const ids = [...new Set(cards.map((c) => c.card_id))];
  const statusIds = [...new Set(cards.map((c) => c.status_id).filter((id): id is string => id !== null))];
  const { total } = await trackedMinutesOf(reads, ids);
  const exits = new Set((await reads.getWhereIn(tables.status, 'id', statusIds)).filter((s) => s.exit).map((s) => s.id));
  const finished = (card: CountedCard) => card.status_id !== null && exits.has(card.status_id);
  const tracked = (card: CountedCard) => total.get(card.card_id) ?? 0;
  return {
    from: dayNumber(today()),
    minutes: (card, estimate) => (finished(card) ? 0 : Math.max(0, estimate - tracked(card))),
    setupCounts: (card) => !finished(card) && tracked(card) === 0,
  };
}
