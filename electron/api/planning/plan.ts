/**
 * Planning a collection onto a board, as pure arithmetic: which cards, on which stages, with
 * which activities, from which day to which day. The API gathers the inputs and writes the
 * result (plan-collection.ts).
 *
 * Rules (docs/API.md "Planning"):
 *  - Cards per stage: stages in priority order; each collection activity goes to the first
 *    stage that allows it; a stage gets a card when it got at least one activity or is in
 *    `force_stages`. With `split_cards_by_activity`, one card per activity. With `stage_id`,
 *    everything goes to that one stage. A collection without activities gets one card on
 *    `stage_id` or the first stage. Activities no stage allows are reported, not planned.
 *  - Duration: a card lasts as many board workdays as its minutes need, each workday giving
 *    the day's capacity (from the assigned resources, or 480 minutes without resources, times
 *    the card's crew: docs/API.md "Skills and crews"); a card needs at least one day.
 *  - Dates: a dependent stage starts on the first workday after the previous dependent stage
 *    ends, plus that stage's `delay_day` workdays; an independent stage starts at the
 *    collection's start. Cards of one stage start together.
 *  - Reverse: the same, walked backwards from the end date, so the last stage ends on it.
 */
import { addDays } from '../../../shared/dates.js';
import { CalendarError, maxPlanDays, shiftWorkdays, workdayFrom, type BoardCalendar } from './workdays.js';

export interface PlanStage {
  id: string;
  delay_day: number;
  independent: boolean;
  /** Activities this stage allows. */
  activityIds: readonly string[];
}

export interface PlanActivity {
  id: string;
  time: number;
}

export interface PlanInput {
  /** In priority order. */
  stages: readonly PlanStage[];
  activities: readonly PlanActivity[];
  splitByActivity: boolean;
  forceStages: readonly string[];
  onlyStage?: string;
  reverse: boolean;
  /** Forward: the first day. Reverse: the last day. */
  anchor: string;
  /** A stage's workdays: the board's, and the days its people add (stage-workdays.ts). */
  calendarOf(stageId: string): BoardCalendar;
  /** Minutes a card on this stage gets done on this workday. */
  dayCapacity(stageId: string, date: string): number;
  /**
   * Stage id → the first day its cards may start, as its material is expected (material.ts).
   * Forward only: a reverse plan is checked against them afterwards (plan-collection.ts).
   */
  gates?: ReadonlyMap<string, string>;
  /** How many people do a card's activities at once; its day's capacity counts that many times. Absent: 1. */
  crew?(activities: readonly PlanActivity[]): number;
}

export interface PlannedCard {
  stageId: string;
  activities: PlanActivity[];
  minutes: number;
  start_date: string;
  end_date: string;
  /** Who does it, when planning chose (who-does-it.ts); else the plan's resources. */
  resourceIds?: readonly string[];
}

export interface PlanResult {
  cards: PlannedCard[];
  /** Activities that no stage allows. */
  unplaced: PlanActivity[];
}

export interface CardGroup {
  stage: PlanStage;
  cards: PlanActivity[][];
}

/** The cards per stage of a plan, and the activities no stage allows (the rules above). */
export function groupCards(input: Pick<PlanInput, 'stages' | 'activities' | 'splitByActivity' | 'forceStages' | 'onlyStage'>): {
  groups: CardGroup[];
  unplaced: PlanActivity[];
} {
  const stages = input.onlyStage ? input.stages.filter((s) => s.id === input.onlyStage) : input.stages;
  const left = new Map(input.activities.map((a) => [a.id, a]));
  const groups: CardGroup[] = [];
  for (const stage of stages) {
    const mine = input.onlyStage ? [...left.values()] : stage.activityIds.flatMap((id) => (left.has(id) ? [left.get(id)!] : []));
    for (const activity of mine) left.delete(activity.id);
    if (mine.length === 0 && !input.forceStages.includes(stage.id)) continue;
    groups.push({ stage, cards: input.splitByActivity && mine.length > 1 ? mine.map((a) => [a]) : [mine] });
  }
  if (groups.length === 0 && stages.length > 0) {
    // Nothing fits anywhere: one empty card on the first stage; the activities stay unplaced.
    groups.push({ stage: stages[0]!, cards: [input.onlyStage ? [...input.activities] : []] });
    if (input.onlyStage) left.clear();
  }
  return { groups, unplaced: [...left.values()] };
}

/** Walks workdays from `from` in `direction` until `minutes` are done; returns the last day. */
function span(input: PlanInput, stageId: string, from: string, minutes: number, direction: 1 | -1, crew: number): string {
  let remaining = minutes;
  let day = from;
  for (let i = 0; i < maxPlanDays; i++) {
    if (input.calendarOf(stageId).isWorkday(day)) {
      remaining -= input.dayCapacity(stageId, day) * crew;
      if (remaining <= 0) return day;
    }
    day = addDays(day, direction);
  }
  throw new CalendarError(`the stage has too little capacity to finish ${minutes} minutes within ${maxPlanDays} days`);
}

export function planCards(input: PlanInput): PlanResult {
  const { groups, unplaced } = groupCards(input);
  const cards: PlannedCard[] = [];
  const ordered = input.reverse ? [...groups].reverse() : groups;
  // Forward: the day the previous dependent stage ends, and its delay days. Reverse: the day
  // the following one starts. Each stage counts days by its own workdays.
  let chain: { day: string; delay: number } | null = null;
  for (const { stage, cards: activitySets } of ordered) {
    const cal = input.calendarOf(stage.id);
    let edge: string;
    if (stage.independent || chain === null) edge = workdayFrom(cal, input.anchor, input.reverse ? -1 : 1);
    else if (!input.reverse) edge = shiftWorkdays(cal, workdayFrom(cal, addDays(chain.day, 1)), chain.delay);
    else edge = shiftWorkdays(cal, workdayFrom(cal, addDays(chain.day, -1), -1), -stage.delay_day);
    const gate = input.reverse ? undefined : input.gates?.get(stage.id);
    if (gate !== undefined && gate > edge) edge = workdayFrom(cal, gate, 1);
    const made = activitySets.map((activities) => {
      const minutes = activities.reduce((sum, a) => sum + a.time, 0);
      const other = span(input, stage.id, edge, minutes, input.reverse ? -1 : 1, input.crew?.(activities) ?? 1);
      const [start_date, end_date] = input.reverse ? [other, edge] : [edge, other];
      return { stageId: stage.id, activities, minutes, start_date, end_date };
    });
    cards.push(...made);
    if (stage.independent) continue;
    if (!input.reverse) {
      const end = made.reduce((max, c) => (c.end_date > max ? c.end_date : max), made[0]!.end_date);
      chain = { day: end, delay: stage.delay_day };
    } else {
      chain = { day: made.reduce((min, c) => (c.start_date < min ? c.start_date : min), made[0]!.start_date), delay: 0 };
    }
  }
  if (input.reverse) cards.reverse();
  return { cards, unplaced };
}
