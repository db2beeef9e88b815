/**
 * The board's non-workdays and the cards on them (docs/API.md "Cards on non-workdays"). The
 * API lets a card sit on any date; the planboard asks first: a move or resize whose new start
 * or end falls on a day the board does not work is refused, unless the planner overrides it
 * (Shift while dropping, or "Move anyway" in the message). A card spanning a weekend in its
 * middle is a normal card, and a move that leaves a card's dates as they were is never refused.
 */
import { isWorkday, type Workdays } from './date-geometry.js';

interface Span {
  start_date: string;
  end_date: string;
}

/** A card starts or ends on a day the board does not work: the planboard flags it. */
export function onNonWorkday(card: Span, workdays: Workdays): boolean {
  return !isWorkday(card.start_date, workdays) || !isWorkday(card.end_date, workdays);
}

/** Where a card would go (the card with its current dates, and the new ones). */
export interface DatedMove {
  card: Span;
  start_date: string;
  end_date: string;
}

/**
 * The first non-workday a set of moves lands a card's start or end on (a date that changed),
 * with its move; undefined when every changed start and end is a workday.
 */
export function nonWorkdayLanding<M extends DatedMove>(moves: readonly M[], workdays: Workdays): { move: M; date: string } | undefined {
  for (const move of moves) {
    if (move.start_date !== move.card.start_date && !isWorkday(move.start_date, workdays)) return { move, date: move.start_date };
    if (move.end_date !== move.card.end_date && !isWorkday(move.end_date, workdays)) return { move, date: move.end_date };
  }
  return undefined;
}
