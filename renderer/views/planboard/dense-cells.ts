/**
 * Where a month's cards are too dense to read. At month zoom a day is 10 pixels wide, and a
 * stage that has more than `denseLimit` cards on one day stacks that many lanes of slivers
 * (lanes.ts): more than a row of the screen can show. There the grid lays an aggregate over
 * the stage's week instead ("12 cards · 46 h") that opens the list of those cards.
 */
import type { PlacedCard } from './board-layout.js';

/**
 * More cards than this on one day of a stage is dense: four lanes (lanes.ts, 44 px each) fill a
 * row as tall as a fifth of a laptop screen, and a card at month zoom shows no text to tell
 * them apart anyway.
 */
export const denseLimit = 4;

export interface DenseWeek {
  /** Day number (on the axis, whose day 0 is a Monday) of the week's Monday. */
  first: number;
  /** The stage's cards that meet the week, in the row's order. */
  cards: PlacedCard[];
}

/**
 * The weeks (Monday to Sunday) meeting days `first` … `last` in which some day of a stage's
 * row has more than `limit` cards; each with every card of the row that meets the week.
 */
export function denseWeeks(placed: readonly PlacedCard[], first: number, last: number, limit = denseLimit): DenseWeek[] {
  const weeks: DenseWeek[] = [];
  for (let monday = Math.floor(first / 7) * 7; monday <= last; monday += 7) {
    const sunday = monday + 6;
    const cards = placed.filter((p) => p.first <= sunday && p.last >= monday);
    if (cards.length <= limit) continue;
    const perDay = new Array<number>(7).fill(0);
    for (const p of cards) {
      for (let day = Math.max(p.first, monday); day <= Math.min(p.last, sunday); day++) perDay[day - monday]!++;
    }
    if (perDay.some((count) => count > limit)) weeks.push({ first: monday, cards });
  }
  return weeks;
}
