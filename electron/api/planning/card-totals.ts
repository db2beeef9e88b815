/**
 * Computed extras of cards, filled for a whole page at once: whether a timer runs on it and
 * who booked on it last and when (the board shows who started or finished it), and
 * with `include=`: `time_tracking_total` (minutes tracked), `resource_type_count` (assigned
 * resources per type) and `resource_type_time` (activity minutes per resource type).
 */
import type { RequestContext } from '../resource.js';
import { trackedMinutesOf } from './tracked-time.js';
import { userName } from '../time-tracking/report-names.js';
import { tables } from '../tables.js';

const types: readonly string[] = ['machine', 'cell', 'employee'];
const perType = (): Record<string, number> => Object.fromEntries(types.map((t) => [t, 0]));

/**
 * Each card's links added up by the resource type of what they name, every type present (0
 * when none); a link to a deleted record, or to one without a type, counts for none.
 */
function sumsByType(links: readonly { card: string; type: string | null | undefined; amount: number }[]) {
  const sums = new Map<string, Record<string, number>>();
  for (const { card, type, amount } of links) {
    if (!type || !types.includes(type)) continue;
    let perCard = sums.get(card);
    if (!perCard) sums.set(card, (perCard = perType()));
    perCard[type] = perCard[type]! + amount;
  }
  return (card: string) => sums.get(card) ?? perType();
}

/** `cards`: a page of card records as presented (each has its id), filled in place. */
export async function cardTotals(
  ctx: RequestContext,
  cards: (Record<string, unknown> & { id: string })[],
  include: readonly string[],
): Promise<void> {
  const ids = cards.map((c) => c.id);
  const tracked = await trackedMinutesOf(ctx.records, ids);
  for (const card of cards) card.time_tracking_running = tracked.running.has(card.id);
  const users = await ctx.records.getWhereIn(tables.user, 'id', [
    ...new Set([...tracked.latest.values()].map((entry) => entry.user_id).filter((id): id is string => id !== null)),
  ]);
  const nameOf = new Map(users.map((user) => [user.id, userName(user) || null]));
  for (const card of cards) {
    const entry = tracked.latest.get(card.id);
    card.time_tracking_last = entry
      ? {
          user_id: entry.user_id,
          user_name: entry.user_id ? (nameOf.get(entry.user_id) ?? null) : null,
          start: entry.start,
          end: entry.end,
        }
      : null;
  }
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
    const counts = sumsByType(links.map((l) => ({ card: l.card_id, type: typeOf.get(l.resource_id), amount: 1 })));
    for (const card of cards) card.resource_type_count = counts(card.id);
  }
  if (include.includes('resource_type_time')) {
    const links = await ctx.records.getWhereIn(tables.card_activity, 'card_id', ids);
    const activities = await ctx.records.getWhereIn(
      tables.activity,
      'id',
      links.map((l) => l.activity_id),
    );
    const typeOf = new Map(activities.map((a) => [a.id, a.resource_type]));
    const minutes = sumsByType(links.map((l) => ({ card: l.card_id, type: typeOf.get(l.activity_id), amount: l.time })));
    for (const card of cards) card.resource_type_time = minutes(card.id);
  }
}
