/**
 * Promise dates (docs/API.md "Finite-capacity planning"): when each collection could start and
 * finish if it alone were planned now, forward from `start` — finite against what the board
 * has planned (without the collection's own cards), or infinite as planning without resources
 * would. Nothing is written, and the collections do not take each other's room: each is
 * planned on its own copy of the board's free minutes, read once for all of them.
 */
import { addDays, daysBetween, today } from '../../../shared/dates.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables, type Stored } from '../tables.js';
import { CrewError, needsOf, readActivityNeeds } from './skill-candidates.js';
import { freeWithout, inWindows, latestGate, NoCapacityError, planFinite, readFiniteBoard, type FiniteBoard } from './finite-plan.js';
import { groupCards, planCards, type PlanActivity, type PlanResult } from './plan.js';
import { minutesPerWorkdayWithoutResources, planStagesOf } from './plan-collection.js';
import { materialGates, unknownMaterialMessage, type AwaitedMaterial } from './material.js';
import { CalendarError } from './workdays.js';
import { readStageWeeks, type StageWeeks } from './stage-workdays.js';

/** One thing to promise: a collection (its own cards left out of the load) or a draft's activities. */
export interface PromiseSubject {
  activities: PlanActivity[];
  /** Cards of the board not to count (the collection's own, which a new plan replaces). */
  leaveOut: readonly string[];
  /** The material the collection waits for (material.ts); a draft waits for none. */
  material?: readonly AwaitedMaterial[];
}

/** `warning`: an infinite promise that went ahead without a date for some material. */
export type PromiseDate = { start: string; end: string; warning?: string } | { error: string };

export async function promiseDates(
  reads: RecordReads,
  boardRecord: StoredRecord,
  subjects: readonly PromiseSubject[],
  options: { capacity: 'finite' | 'infinite'; start?: string },
): Promise<PromiseDate[]> {
  // The route finds it with the board module, whose table is tables.board.
  const board = boardRecord as Stored<'board'>;
  const stages = (await reads.getWhereIn(tables.stage, 'board_id', [board.id])).sort((a, b) => a.priority - b.priority);
  if (stages.length === 0) return subjects.map(() => ({ error: 'The board has no stages to plan on.' }));
  // The board's workdays and each stage's (stage-workdays.ts).
  let weeks: StageWeeks;
  try {
    weeks = await readStageWeeks(reads, board);
  } catch (error) {
    if (error instanceof CalendarError) return subjects.map(() => ({ error: 'The board has no workdays.' }));
    throw error;
  }
  const planStages = await planStagesOf(reads, stages);
  const names = new Map(stages.map((s) => [s.id, s.name]));
  const start = options.start ?? today();
  // Each window (windowDays) read once, the first for all, the longer ones only when one needs them.
  const boards = new Map<number, Promise<FiniteBoard>>();
  const read = (days: number) => {
    let found = boards.get(days);
    if (!found) boards.set(days, (found = readFiniteBoard(reads, board, stages, weeks, [], start, addDays(start, days))));
    return found;
  };
  const finiteOn = options.capacity === 'finite';
  const splitByActivity = board.split_cards_by_activity;

  // Each activity's skill and crew (docs/API.md "Skills and crews"), read once for all.
  const needs = await readActivityNeeds(
    reads,
    subjects.flatMap((s) => s.activities.map((a) => a.id)),
  );
  const dates: PromiseDate[] = [];
  for (const subject of subjects) dates.push(await promiseOne(subject));
  return dates;

  async function promiseOne(subject: PromiseSubject): Promise<PromiseDate> {
    const grouping = { stages: planStages, activities: subject.activities, splitByActivity, forceStages: [] };
    const { gates, unknown } = materialGates(subject.material ?? [], groupCards(grouping).groups);
    // Material without a date: a finite promise cannot be made, an infinite one warns (material.ts).
    if (unknown.length > 0 && finiteOn) return { error: `Cannot be planned: ${unknownMaterialMessage(unknown)}.` };
    let result: PlanResult;
    try {
      const finite = (on: FiniteBoard) =>
        planFinite(freeWithout(on, subject.leaveOut), {
          ...groupCards(grouping),
          gates,
          reverse: false,
          anchor: start,
          earliest: start,
          resourceIds: [],
          stageName: (id) => names.get(id) ?? id,
          needs,
        });
      if (finiteOn) result = await inWindows(start, (end) => read(daysBetween(start, end)), finite, latestGate(gates));
      else
        result = planCards({
          ...grouping,
          reverse: false,
          anchor: start,
          calendarOf: weeks.calendarOf,
          gates,
          crew: (activities) => needsOf(activities, needs).crew,
          dayCapacity: () => minutesPerWorkdayWithoutResources,
        });
    } catch (error) {
      if (error instanceof NoCapacityError || error instanceof CalendarError || error instanceof CrewError) {
        return { error: `Cannot be planned: ${error.message}.` };
      }
      throw error;
    }
    const days = result.cards.flatMap((c) => [c.start_date, c.end_date]).sort();
    return { start: days[0]!, end: days[days.length - 1]!, ...(unknown.length > 0 ? { warning: unknownMaterialMessage(unknown) } : {}) };
  }
}
