/**
 * The non-workdays of the board and of each stage, and the cards on them (docs/API.md "Cards on
 * non-workdays", "A stage's workdays"). The
 * API lets a card sit on any date; the planboard asks first: a move or resize whose new start
 * or end falls on a day the board does not work is refused, unless the planner overrides it
 * (Shift while dropping, or "Move anyway" in the message). A card spanning a weekend in its
 * middle is a normal card, and a move that leaves a card's dates as they were is never refused.
 */
import { isWorkday, type Workdays } from './date-geometry.js';

interface Span {
  start_date: string;
  end_date: string;
  /** Absent: only the board's workdays count. */
  stage_id?: string;
}

/**
 * The days each stage works that the board does not, by stage id (docs/API.md "A stage's
 * workdays": a Saturday shift of its press makes Saturday a workday of that stage alone).
 */
export type StageDays = ReadonlyMap<string, ReadonlySet<string>>;

const noStageDays: StageDays = new Map();

/** A band of a stage row, top and height, as the grid lays it out. */
export interface RowBand {
  top: number;
  height: number;
}

/**
 * The rows open on days the board does not work, by date: each stage row's band on the days
 * its stage works (the grid shades the rest of the day's column).
 */
export function openRows(stageDays: StageDays, rows: readonly (RowBand & { stageId: string })[]): ReadonlyMap<string, RowBand[]> {
  const byDate = new Map<string, RowBand[]>();
  for (const row of rows) {
    for (const date of stageDays.get(row.stageId) ?? []) {
      const bands = byDate.get(date);
      if (bands) bands.push({ top: row.top, height: row.height });
      else byDate.set(date, [{ top: row.top, height: row.height }]);
    }
  }
  for (const bands of byDate.values()) bands.sort((a, b) => a.top - b.top);
  return byDate;
}

/** Whether the stage works the date: a board workday, or a day its people add. */
export function stageWorks(date: string, stageId: string | undefined, workdays: Workdays, stageDays: StageDays = noStageDays): boolean {
  return isWorkday(date, workdays) || (stageId !== undefined && stageDays.get(stageId)?.has(date) === true);
}

/** A card starts or ends on a day its stage does not work: the planboard flags it. */
export function onNonWorkday(card: Span, workdays: Workdays, stageDays?: StageDays): boolean {
  return !stageWorks(card.start_date, card.stage_id, workdays, stageDays) || !stageWorks(card.end_date, card.stage_id, workdays, stageDays);
}

/** Where a card would go (the card with its current dates, and the new ones, and its stage there). */
export interface DatedMove {
  card: Span;
  start_date: string;
  end_date: string;
  /** Where the card goes; absent: its own stage. */
  stage_id?: string;
}

/**
 * The first non-workday a set of moves lands a card's start or end on (a date that changed),
 * with its move; undefined when every changed start and end is a workday.
 */
export function nonWorkdayLanding<M extends DatedMove>(
  moves: readonly M[],
  workdays: Workdays,
  stageDays?: StageDays,
): { move: M; date: string } | undefined {
  for (const move of moves) {
    const works = (date: string) => stageWorks(date, move.stage_id ?? move.card.stage_id, workdays, stageDays);
    if (move.start_date !== move.card.start_date && !works(move.start_date)) return { move, date: move.start_date };
    if (move.end_date !== move.card.end_date && !works(move.end_date)) return { move, date: move.end_date };
  }
  return undefined;
}
