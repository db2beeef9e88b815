/**
 * Minutes tracked on cards, and which cards have a running timer. Time tracking arrives with
 * its own resource; until it is registered no time has been tracked, so totals are 0.
 */
import { moduleNamedOrNone } from '../registry.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';

export function trackedMinutes(ctx: RequestContext, cardIds: readonly string[]) {
  const total = new Map<string, number>();
  const running = new Set<string>();
  const timeTracking = moduleNamedOrNone('time_tracking');
  if (!timeTracking || cardIds.length === 0) return { total, running };
  // The module's table is tables.time_tracking; read through the typed handle.
  for (const entry of ctx.store.getWhereIn(tables.time_tracking, 'card_id', cardIds)) {
    const card = entry.card_id;
    // Every entry read has one of these cards (the query matched on it).
    if (card === null) continue;
    total.set(card, (total.get(card) ?? 0) + (entry.duration ?? 0));
    if (entry.running) running.add(card);
  }
  return { total, running };
}
