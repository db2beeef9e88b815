/**
 * Computed extras of cards, filled for a whole page at once: whether a timer runs on it, and
 * with `include=`: `time_tracking_total` (minutes tracked), `resource_type_count` (assigned
 * resources per type) and `resource_type_time` (activity minutes per resource type).
 */
import type { RequestContext } from '../resource.js';
import { trackedMinutesOf } from './tracked-time.js';
import { tables } from '../tables.js';

const types = ['machine', 'cell', 'employee'] as const;
const perType = (): Record<string, number> => Object.fromEntries(types.map((t) => [t, 0] as const));

/** `cards`: a page of card records as presented (each has its id), filled in place. */
export async function cardTotals(
  ctx: RequestContext,
  cards: (Record<string, unknown> & { id: string })[],
  include: readonly string[],
): Promise<void> {
  const ids = cards.map((c) => c.id);
  const tracked = await trackedMinutesOf(ctx, ids);
  for (const card of cards) card.time_tracking_running = tracked.running.has(card.id);
  if (include.includes('time_tracking_total')) {
    for (const card of cards) card.time_tracking_total = tracked.total.get(card.id) ?? 0;
  }
  if (include.includes('resource_type_count')) {
    const links = await ctx.records.getWhereIn(tables.card_resource, 'card_id', ids);
    const resources = await ctx.records.getWhereIn(
      tables.resource,
      'id',
      links.map((l) => l.resource_id),
    );
    const typeOf = new Map(resources.map((r) => [r.id, r.type]));
    for (const card of cards) {
      const counts = perType();
      for (const l of links) if (l.card_id === card.id && typeOf.has(l.resource_id)) counts[typeOf.get(l.resource_id)!]!++;
      card.resource_type_count = counts;
    }
  }
  if (include.includes('resource_type_time')) {
    const links = await ctx.records.getWhereIn(tables.card_activity, 'card_id', ids);
    const activities = await ctx.records.getWhereIn(
      tables.activity,
      'id',
      links.map((l) => l.activity_id),
    );
    const typeOf = new Map(activities.map((a) => [a.id, a.resource_type]));
    for (const card of cards) {
      const minutes = perType();
      for (const l of links) if (l.card_id === card.id && typeOf.has(l.activity_id)) minutes[typeOf.get(l.activity_id)!]! += l.time;
      card.resource_type_time = minutes;
    }
  }
}
