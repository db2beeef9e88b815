/**
 * The work planned on a board, as capacity needs it: for each card and each of its activities,
 * the card's stage and resources, the activity's resource type, the card's workdays inside the
 * range and the minutes per workday (the activity's share of what the card counts, spread
 * evenly over the card's workdays). What a card counts, and from which day, is the board's
 * capacity_method's (remaining-time.ts: with remaining_time what is left after the tracked
 * minutes, nothing once finished, from today on). A card on a stage with `setup_minutes`
 * carries them once, on its first workday, while its setup counts: docs/API.md "Setup times".
 */
import type { PlannedActivityRow, PlannedCards } from '../../store/planned-cards.js';
import type { RequestContext } from '../resource.js';
import type { Stored } from '../tables.js';
import { cardCounting } from './remaining-time.js';
import { dayNumber, maxPlanDays } from './workdays.js';
import type { StageWeeks, WorksOn } from './stage-workdays.js';

export interface PlannedWork {
  stageId: string;
  resourceIds: string[];
  resourceType: string;
  /** The card's workdays inside the requested range, as day numbers (workdays.ts), in order. */
  days: number[];
  minutesPerDay: number;
}

/** `weeks`: the board's workdays and each stage's (stage-workdays.ts); a card counts its stage's. */
export async function plannedWork(
  ctx: RequestContext,
  board: Stored<'board'>,
  weeks: StageWeeks,
  start: string,
  end: string,
  /** The setup minutes of the board's stages, by id (the caller has read the stages). */
  setupOf: ReadonlyMap<string, number>,
  /**
   * The board's cards over a range holding start…end, read already (the KPIs read them all):
   * those that overlap start…end are taken, in their order, as the read would give them.
   */
  read?: PlannedCards,
): Promise<PlannedWork[]> {
  const planned = read ?? (await ctx.records.plannedCards(board.id, start, end));
  // A card without activities plans nothing, so the cards come with their activities.
  const activitiesOf = new Map<string, PlannedActivityRow[]>();
  for (const row of planned.activities) {
    if (read && (row.start_date > end || row.end_date < start)) continue;
    const links = activitiesOf.get(row.card_id);
    if (links) links.push(row);
    else activitiesOf.set(row.card_id, [row]);
  }
  if (activitiesOf.size === 0) return [];
  const resourcesOf = new Map<string, string[]>();
  for (const { card_id, resource_id } of planned.resources) {
    const ids = resourcesOf.get(card_id);
    if (ids) ids.push(resource_id);
    else resourcesOf.set(card_id, [resource_id]);
  }
  const counting = await cardCounting(
    ctx.records,
    board,
    [...activitiesOf.values()].map((links) => links[0]!),
  );
  const from = counting.from;
  const first = dayNumber(start);
  const last = dayNumber(end);

  const work: PlannedWork[] = [];
  for (const [cardId, links] of activitiesOf) {
    const card = links[0]!;
    // The card's minutes spread over all its workdays (from today on, for remaining time), at
    // most maxPlanDays of them; only those inside the range are counted. A card with no board
    // workday at all (moved onto a weekend) spreads over its own days instead, so its minutes
    // never drop out of the load (docs/API.md "Schedules and capacity").
    let { count: workdayCount, inRange, firstDay } = cardDays(card.start_date, card.end_date, from, first, last, weeks.of(card.stage_id));
    if (workdayCount === 0)
      ({ count: workdayCount, inRange, firstDay } = cardDays(card.start_date, card.end_date, from, first, last, null));
    if (workdayCount === 0) continue;
    // card_activity.time is a whole number of minutes, never null (shared/resources/card.ts);
    // the row type (store/planned-cards.ts) is broader than the column.
    const estimate = links.reduce((sum, l) => sum + (l.time as number), 0);
    const left = counting.minutes(card, estimate);
    const resources = resourcesOf.get(cardId) ?? [];
    for (const link of links) {
      // Never null, as above.
      const minutes = estimate > 0 ? ((link.time as number) / estimate) * left : 0;
      work.push({
        stageId: card.stage_id,
        resourceIds: resources,
        resourceType: link.resource_type ?? 'employee',
        days: inRange,
        minutesPerDay: minutes / workdayCount,
      });
    }
    // The press is set up once, before the work: on the card's first day, as a planner
    // expects, and only for a card with work to set up for. With remaining time, a card with
    // time tracked on it, or finished, has been set up already.
    const setup = setupOf.get(card.stage_id) ?? 0;
    if (setup > 0 && estimate > 0 && counting.setupCounts(card) && firstDay >= first && firstDay <= last) {
      work.push({
        stageId: card.stage_id,
        resourceIds: resources,
        // Setup goes with the card's first activity, whose resource type sets up the job.
        resourceType: links[0]!.resource_type ?? 'employee',
        days: [firstDay],
        minutesPerDay: setup,
      });
    }
  }
  return work;
}

/**
 * The days of a card from `start` to `end` that carry its minutes: its stage's workdays among
 * them (every day when `works` is null), not before `from`, at most maxPlanDays; `count` of
 * them in all, the first of them (`firstDay`, NaN when none) and, in order, those between
 * `first` and `last`.
 */
function cardDays(start: string, end: string, from: number, first: number, last: number, works: WorksOn | null) {
  let count = 0;
  let firstDay = Number.NaN;
  const inRange: number[] = [];
  for (let day = dayNumber(start), cardEnd = dayNumber(end); day <= cardEnd && count < maxPlanDays; day++) {
    if ((works && !works(day)) || day < from) continue;
    if (count === 0) firstDay = day;
    count++;
    if (day >= first && day <= last) inRange.push(day);
  }
  return { count, inRange, firstDay };
}
