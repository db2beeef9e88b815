/**
 * Minutes tracked on cards, which cards have a running timer, and each card's latest entry. Time tracking arrives with
 * its own resource; until it is registered no time has been tracked, so totals are 0.
 */
import type { RecordReads } from '../../store/record-store.js';
import { moduleNamedOrNone } from '../registry.js';
import { tables, type Stored } from '../tables.js';

/** Whether there are entries to read for the cards: none while time tracking is not registered, or for no cards. */
function entriesOn(cardIds: readonly string[]): boolean {
  return moduleNamedOrNone('time_tracking') !== undefined && cardIds.length > 0;
}

/**
 * Minutes tracked on each card and the cards with a running timer, through the asynchronous
 * store: a request's records or a planning transaction's.
 */
export async function trackedMinutesOf(reads: RecordReads, cardIds: readonly string[]) {
  return totalsOf(entriesOn(cardIds) ? await reads.getWhereIn(tables.time_tracking, 'card_id', cardIds) : []);
}

/** Minutes per card, the cards with a running timer and each card's latest entry (by start), from their entries. */
function totalsOf(entries: readonly Stored<'time_tracking'>[]) {
  const total = new Map<string, number>();
  const running = new Set<string>();
  const latest = new Map<string, Stored<'time_tracking'>>();
  for (const entry of entries) {
    const card = entry.card_id;
    // Every entry read has one of these cards (the query matched on it).
    if (card === null) continue;
    total.set(card, (total.get(card) ?? 0) + (entry.duration ?? 0));
    if (entry.running) running.add(card);
    const before = latest.get(card);
    if (!before || Date.parse(entry.start) > Date.parse(before.start)) latest.set(card, entry);
  }
  return { total, running, latest };
}
