/**
 * The days a stage plans on (docs/API.md "A stage's workdays", docs/decisions/shifts.md): the
 * board's workdays, every weekday on which one of the stage's people or machines has a second
 * shift (`second_shift` hours), and every day one of them has overtime (a deviation of type
 * `overtime`). A board that does not work Saturdays still plans a stage's cards on a Saturday
 * when someone of that stage has a shift then; its other stages do not. Hours of the first
 * pattern (`workdays`) on a day the board does not work open nothing, as before: a part-timer's
 * Saturday on a Monday–Friday board was never a workday of it.
 *
 * Who counts: a resource not archived, with an active entry for the board and an active link
 * to the stage: the same links that give the stage its capacity. Its hours on a day go to a
 * board that works that day: when another board it is active on works the day, the day is that
 * board's and adds nothing here (overtime on a Saturday counts on the board that works
 * Saturdays, as before). An absence never takes a day away: a day the board
 * works stays a workday.
 */
import { addDays } from '../../../shared/dates.js';
import { boardCalendar, dayNumber, maxPlanDays, weekdayOfDay, type BoardCalendar } from './workdays.js';
import { isOvertime, patternMinutes, type ResourceCalendar } from './schedule.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';
import { tables, type Stored } from '../tables.js';

/** Whether a stage (or the board) works a day, by day number (workdays.ts). */
export type WorksOn = (day: number) => boolean;

export interface StageWeeks {
  /** The board's own workdays. */
  board: WorksOn;
  /** A stage's workdays: the board's for a stage no one adds a day to (or one not on the board). */
  of(stageId: string): WorksOn;
  /** The same as a calendar of dates, for the walks of workdays.ts. */
  calendarOf(stageId: string): BoardCalendar;
  /** Every day some stage of the board works. */
  any: WorksOn;
}

const weekdays = [1, 2, 3, 4, 5, 6, 7];

/** The days a stage adds to the board's: weekdays by ISO number, and single days by day number. */
interface Added {
  weekdays: boolean[];
  days: Set<number>;
}

function worksOn(board: readonly boolean[], added: Added | undefined): WorksOn {
  if (!added) return (day) => board[weekdayOfDay(day)] === true;
  return (day) => {
    const weekday = weekdayOfDay(day);
    return board[weekday] === true || added.weekdays[weekday] === true || added.days.has(day);
  };
}

const asCalendar = (works: WorksOn): BoardCalendar => ({ isWorkday: (date) => works(dayNumber(date)) });

/**
 * The days a resource adds to the board's: the weekdays of its second shift, its overtime days, but
 * none that `board` (this board's days, or those of any other board the resource is on) works.
 */
function addedBy(calendar: ResourceCalendar, board: readonly boolean[]): Added {
  const { resource } = calendar;
  const from = resource.start_date === null ? -Infinity : dayNumber(resource.start_date);
  const to = resource.end_date === null ? Infinity : dayNumber(resource.end_date);
  const days = new Set<number>();
  for (const deviation of calendar.deviations) {
    if (!isOvertime(deviation) || !deviation.time) continue;
    const first = Math.max(from, dayNumber(deviation.start_date));
    const last = Math.min(to, dayNumber(deviation.end_date), first + maxPlanDays);
    for (let day = first; day <= last; day++) if (!board[weekdayOfDay(day)]) days.add(day);
  }
  // Read through `??`: a record kept from before second shifts may lack the field.
  return { weekdays: weekdays.map((w) => !board[w] && patternMinutes(resource.second_shift ?? null, w) > 0), days };
}

/**
 * The stage weeks of a board from its resources' calendars (resources with an entry for the
 * board; their overtime is read from the deviations, absences do not matter here).
 */
export function stageWeeksOf(
  board: Stored<'board'>,
  calendars: readonly ResourceCalendar[],
  /** The other boards the resources are active on, by id. */
  others: ReadonlyMap<string, Stored<'board'>>,
): StageWeeks {
  // boardCalendar refuses a board with no workdays at all (CalendarError), as before.
  const boardDays = boardCalendar(board.workdays);
  const own = byWeekday(board);
  const byStage = new Map<string, Added>();
  const all: Added = { weekdays: [], days: new Set() };
  for (const calendar of calendars) {
    const { resource } = calendar;
    if (resource.archived_at) continue;
    const entry = resource.boards.find((b) => b.id === board.id);
    if (!entry?.active) continue;
    // The days this board or another of the resource's works: its hours then are theirs.
    const taken = [...own];
    for (const other of resource.boards) {
      const days = other.active && other.id !== board.id ? others.get(other.id) : undefined;
      if (days) byWeekday(days).forEach((works, w) => (taken[w] = taken[w] === true || works));
    }
    const added = addedBy(calendar, taken);
    if (!added.weekdays.some(Boolean) && added.days.size === 0) continue;
    for (const link of entry.stages) {
      if (!link.active) continue;
      let stage = byStage.get(link.id);
      if (!stage) byStage.set(link.id, (stage = { weekdays: [], days: new Set() }));
      for (const into of [stage, all]) {
        added.weekdays.forEach((works, i) => (into.weekdays[i + 1] = into.weekdays[i + 1] === true || works));
        for (const day of added.days) into.days.add(day);
      }
    }
  }
  const stages = new Map([...byStage].map(([id, added]) => [id, worksOn(own, added)]));
  const calendarsOf = new Map([...stages].map(([id, works]) => [id, asCalendar(works)]));
  const board_ = worksOn(own, undefined);
  return {
    board: board_,
    of: (stageId) => stages.get(stageId) ?? board_,
    calendarOf: (stageId) => calendarsOf.get(stageId) ?? boardDays,
    any: byStage.size > 0 ? worksOn(own, all) : board_,
  };
}

/** The days from `start` to `end` (YYYY-MM-DD) the stage works and the board does not. */
export function addedDays(weeks: StageWeeks, stageId: string, start: string, end: string): string[] {
  const works = weeks.of(stageId);
  const days: string[] = [];
  for (let day = dayNumber(start), last = dayNumber(end); day <= last; day++) {
    if (works(day) && !weeks.board(day)) days.push(addDays(start, day - dayNumber(start)));
  }
  return days;
}

/** A board's workdays by ISO weekday (index 1 … 7). */
function byWeekday(board: Stored<'board'>): boolean[] {
  // Read by any key: the stored JSON is an object of the seven weekday keys (shared/resources/board.ts).
  const pattern: Partial<Record<string, boolean>> = board.workdays;
  return [false, ...weekdays.map((w) => pattern[String(w)] === true)];
}

/** The resources with an entry for the board, not archived. */
export async function resourcesOnBoard(reads: RecordReads, boardId: string): Promise<Stored<'resource'>[]> {
  const { rows } = await reads.list(tables.resource, {
    match: { archived_at: null },
    filter: { kind: 'atom', field: 'boards', operator: 'has', not: false, value: boardId },
    limit: 1_000_000,
    offset: 0,
  });
  return rows;
}

/** What a transaction read of a board's stage weeks, and the count of writes it was read at (RecordWrites.writesTo). */
const keptInTransaction = new WeakMap<RecordWrites, Map<string, { at: number; weeks: Promise<StageWeeks> }>>();

const isTransaction = (reads: RecordReads): reads is RecordWrites => 'writesTo' in reads;

/**
 * Reads what the board's stage weeks need and answers them: its resources and their overtime
 * (unless the caller has their calendars, `known`), and the other boards they are on. Inside a
 * transaction they are read once per board and kept until the transaction writes a resource, a
 * deviation or a board: a plan writes every card of it, and each card's length counts its
 * stage's days.
 */
export function readStageWeeks(reads: RecordReads, board: Stored<'board'>, known?: readonly ResourceCalendar[]): Promise<StageWeeks> {
  if (known || !isTransaction(reads)) return readAnew(reads, board, known);
  const at = reads.writesTo(tables.resource) + reads.writesTo(tables.schedule_deviation) + reads.writesTo(tables.board);
  // The board as given: its workdays may be the ones this transaction is about to write.
  const key = `${board.id} ${JSON.stringify(board.workdays)}`;
  let kept = keptInTransaction.get(reads);
  if (!kept) keptInTransaction.set(reads, (kept = new Map()));
  const found = kept.get(key);
  if (found && found.at === at) return found.weeks;
  const weeks = readAnew(reads, board, undefined);
  kept.set(key, { at, weeks });
  return weeks;
}

async function readAnew(reads: RecordReads, board: Stored<'board'>, known?: readonly ResourceCalendar[]): Promise<StageWeeks> {
  let calendars = known;
  if (!calendars) {
    const resources = (await resourcesOnBoard(reads, board.id)).filter((r) => r.boards.some((b) => b.id === board.id && b.active));
    const deviations =
      resources.length > 0
        ? await reads.getWhereIn(
            tables.schedule_deviation,
            'resource_id',
            resources.map((r) => r.id),
          )
        : [];
    calendars = resources.map((resource) => ({ resource, deviations: deviations.filter((d) => d.resource_id === resource.id) }));
  }
  const otherIds = new Set(calendars.flatMap((c) => c.resource.boards.filter((b) => b.active && b.id !== board.id).map((b) => b.id)));
  const others = otherIds.size > 0 ? await reads.getWhereIn(tables.board, 'id', [...otherIds]) : [];
  return stageWeeksOf(board, calendars, new Map(others.map((b) => [b.id, b])));
}
