/**
 * The work planned on a board, as capacity needs it: for each card and each of its activities,
 * the card's stage and resources, the activity's resource type, the card's workdays inside the
 * range and the minutes per workday (the activity's minutes spread evenly over all the card's
 * workdays, or — for remaining time — what is left after the tracked minutes, spread over the
 * card's workdays from today on).
 */
import { addDays, today } from '../../../shared/dates.js';
import type { StoredRecord } from '../../store/environment-store.js';
import type { RequestContext } from '../resource.js';
import { activityModule } from '../resources/activity.js';
import { cardActivityModule, cardModule, cardResourceModule } from '../resources/card.js';
import { trackedMinutes } from './tracked-time.js';
import { boardCalendar } from './workdays.js';

export interface PlannedWork {
  stageId: string;
  resourceIds: string[];
  resourceType: string;
  /** The card's workdays inside the requested range. */
  dates: string[];
  minutesPerDay: number;
}

export function plannedWork(ctx: RequestContext, board: StoredRecord, start: string, end: string, remainingOnly: boolean): PlannedWork[] {
  const calendar = boardCalendar(board.workdays as Record<string, boolean>);
  const cards = ctx.store
    .list(cardModule.table, {
      match: { board_id: board.id },
      filter: {
        kind: 'and',
        items: [
          { kind: 'atom', field: 'start_date', operator: 'lte', not: false, value: end },
          { kind: 'atom', field: 'end_date', operator: 'gte', not: false, value: start },
        ],
      },
      limit: 1_000_000,
      offset: 0,
    })
    .rows;
  if (cards.length === 0) return [];
  const ids = cards.map((c) => c.id);
  const activityLinks = ctx.store.getWhereIn(cardActivityModule.table, 'card_id', ids);
  const resourceLinks = ctx.store.getWhereIn(cardResourceModule.table, 'card_id', ids);
  const typeOf = new Map(ctx.store.getWhereIn(activityModule.table, 'id', activityLinks.map((l) => l.activity_id)).map((a) => [a.id, a.resource_type as string]));
  const tracked = remainingOnly ? trackedMinutes(ctx, ids).total : new Map<string, number>();
  const from = remainingOnly ? today() : '';

  const work: PlannedWork[] = [];
  for (const card of cards) {
    const days: string[] = [];
    for (let day = card.start_date as string; day <= (card.end_date as string) && days.length < 3660; day = addDays(day, 1)) {
      if (calendar.isWorkday(day) && day >= from) days.push(day);
    }
    if (days.length === 0) continue;
    const links = activityLinks.filter((l) => l.card_id === card.id);
    const estimate = links.reduce((sum, l) => sum + (l.time as number), 0);
    const left = remainingOnly ? Math.max(0, estimate - (tracked.get(card.id) ?? 0)) : estimate;
    const resources = resourceLinks.filter((l) => l.card_id === card.id).map((l) => l.resource_id as string);
    for (const link of links) {
      const minutes = estimate > 0 ? ((link.time as number) / estimate) * left : 0;
      work.push({
        stageId: card.stage_id as string,
        resourceIds: resources,
        resourceType: typeOf.get(link.activity_id as string) ?? 'employee',
        dates: days.filter((d) => d >= start && d <= end),
        minutesPerDay: minutes / days.length,
      });
    }
  }
  return work;
}
