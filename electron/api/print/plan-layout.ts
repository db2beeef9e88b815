/**
 * Where everything goes on the printed plan (docs/API.md "Printing the plan"): pure arithmetic
 * on points, no PDF, so the pages can be tested and counted before anything is drawn.
 *
 * A4 landscape. Stages are rows, days are columns. A period of more than a week is cut into
 * weeks of columns (the first column chunk starts on the period's first day); each chunk
 * runs through every stage, and a page holds as many stage rows as fit under the day header.
 * A stage row is as tall as its lanes: cards that overlap in time go in separate lanes, as on
 * the planboard. A stage with more lanes than fit on one page continues on the next, named
 * "(continued)". A card that runs past the chunk's edge shows in each chunk it touches.
 *
 * Card names are printed in full: each card's box wraps its name over up to `maxNameLines`
 * lines at its width, breaking between words (a word wider than the box is broken where it
 * must). Only a name that needs more lines than that ends in an ellipsis. Under the name come
 * the card's details (what it is for, for how long, by whom), each over up to
 * `maxDetailLines` lines, so a wall plan says who does what for which customer.
 */
import { addDays, daysBetween } from '../../../shared/dates.js';

export const page = { width: 841.89, height: 595.28, margin: 30 } as const;
export const sheet = {
  titleHeight: 34,
  // Two lines: the day, and a company holiday's name under it.
  headerHeight: 26,
  footerHeight: 16,
  stageColumn: 112,
  lineHeight: 8.6,
  nameSize: 7.2,
  boxPadding: 2.5,
  laneGap: 2,
  maxNameLines: 4,
  maxDetailLines: 2,
  daysPerPage: 7,
} as const;

/** Measures a text's width in points at a font size, in the bold face when asked (a card's name). */
export type Measure = (text: string, size: number, bold?: boolean) => number;

export interface PrintCard {
  id: string;
  name: string;
  /** Lines of facts printed under the name: what it is for, for how long, by whom. */
  details?: readonly string[];
  stage_id: string;
  start_date: string;
  end_date: string;
}

export interface PrintStage {
  id: string;
  name: string;
}

export interface PlacedCard {
  id: string;
  name: string;
  /** The name as printed, one entry a line, then the details. */
  lines: string[];
  /** How many of `lines` are the name (printed bold). */
  nameLines: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PlacedStage {
  id: string;
  name: string;
  continued: boolean;
  y: number;
  height: number;
  cards: PlacedCard[];
}

export interface PlanPage {
  /** 1-based. */
  number: number;
  days: string[];
  /** Left edge of each day's column. */
  dayX: number[];
  dayWidth: number;
  stages: PlacedStage[];
}

const tableTop = page.margin + sheet.titleHeight;
const tableBottom = page.height - page.margin - sheet.footerHeight;
const tableLeft = page.margin;
const tableWidth = page.width - 2 * page.margin;
const bodyTop = tableTop + sheet.headerHeight;

/** Splits `text` into lines no wider than `width`; past `maxLines` the last line ends in "…". */
export function wrapName(text: string, width: number, size: number, measure: Measure, maxLines: number = sheet.maxNameLines): string[] {
  const fits = (line: string) => measure(line, size) <= width;
  const lines: string[] = [];
  let line = '';
  const push = () => {
    lines.push(line);
    line = '';
  };
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const joined = line ? `${line} ${word}` : word;
    if (fits(joined)) {
      line = joined;
      continue;
    }
    if (line) push();
    // A word wider than the box goes over several lines, cut where it must be.
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut--;
      line = rest.slice(0, cut);
      push();
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line || lines.length === 0) push();
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1]!;
  while (last.length > 0 && !fits(`${last}…`)) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last}…`;
  return kept;
}

/** Cuts the period into column chunks of at most `sheet.daysPerPage` days. */
export function dayChunks(start: string, end: string): string[][] {
  const chunks: string[][] = [];
  const total = daysBetween(start, end) + 1;
  for (let first = 0; first < total; first += sheet.daysPerPage) {
    const days: string[] = [];
    for (let d = first; d < Math.min(total, first + sheet.daysPerPage); d++) days.push(addDays(start, d));
    chunks.push(days);
  }
  return chunks;
}

interface LaneCard {
  card: PrintCard;
  first: number;
  last: number;
  lines: string[];
  nameLines: number;
}

/** A card's name and its details, each wrapped to the box's width. */
function cardLines(card: PrintCard, width: number, measure: Measure): { lines: string[]; nameLines: number } {
  const name = wrapName(card.name, width, sheet.nameSize, (text, size) => measure(text, size, true));
  const details = (card.details ?? [])
    .filter((detail) => detail.trim())
    .flatMap((detail) => wrapName(detail, width, sheet.nameSize, measure, sheet.maxDetailLines));
  return { lines: [...name, ...details], nameLines: name.length };
}

/** The cards of one stage in one chunk, in lanes: a card goes in the first lane free on its days. */
function lanesOf(cards: readonly PrintCard[], days: readonly string[], dayWidth: number, measure: Measure): LaneCard[][] {
  const from = days[0]!;
  const to = days[days.length - 1]!;
  const inChunk = cards
    .filter((card) => card.start_date <= to && card.end_date >= from)
    .sort((a, b) => a.start_date.localeCompare(b.start_date) || b.end_date.localeCompare(a.end_date) || a.name.localeCompare(b.name));
  const lanes: LaneCard[][] = [];
  const laneEnds: number[] = [];
  for (const card of inChunk) {
    const first = Math.max(0, daysBetween(from, card.start_date));
    const last = Math.min(days.length - 1, daysBetween(from, card.end_date));
    const width = (last - first + 1) * dayWidth - 2 * sheet.boxPadding - 2;
    const placed = { card, first, last, ...cardLines(card, width, measure) };
    const lane = laneEnds.findIndex((end) => end < first);
    if (lane === -1) {
      lanes.push([placed]);
      laneEnds.push(last);
    } else {
      lanes[lane]!.push(placed);
      laneEnds[lane] = last;
    }
  }
  return lanes;
}

/** A lane is as tall as its longest name. */
function laneHeight(lane: readonly LaneCard[]): number {
  const lines = Math.max(1, ...lane.map((card) => card.lines.length));
  return lines * sheet.lineHeight + 2 * sheet.boxPadding + sheet.laneGap;
}

const emptyStageHeight = sheet.lineHeight + 2 * sheet.boxPadding + sheet.laneGap;

/** Every page of the plan, in print order: per column chunk, the stages top to bottom. */
export function layoutPlan(
  stages: readonly PrintStage[],
  cards: readonly PrintCard[],
  start: string,
  end: string,
  measure: Measure,
): PlanPage[] {
  const byStage = new Map<string, PrintCard[]>(stages.map((stage) => [stage.id, []]));
  for (const card of cards) byStage.get(card.stage_id)?.push(card);
  const pages: PlanPage[] = [];
  for (const days of dayChunks(start, end)) {
    const dayWidth = (tableWidth - sheet.stageColumn) / days.length;
    const dayX = days.map((_, i) => tableLeft + sheet.stageColumn + i * dayWidth);
    let current: PlanPage | null = null;
    let y = bodyTop;
    const newPage = (): PlanPage => {
      current = { number: pages.length + 1, days, dayX, dayWidth, stages: [] };
      pages.push(current);
      y = bodyTop;
      return current;
    };
    newPage();
    for (const stage of stages) {
      const lanes = lanesOf(byStage.get(stage.id) ?? [], days, dayWidth, measure);
      const heights = lanes.map(laneHeight);
      const whole = Math.max(
        emptyStageHeight,
        heights.reduce((sum, h) => sum + h, 0),
      );
      // A stage that fits on a fresh page is not split; one that does not fit anywhere is, but
      // starts here only when its first lane fits.
      const firstLane = heights[0] ?? emptyStageHeight;
      if (y > bodyTop && y + whole > tableBottom && (whole <= tableBottom - bodyTop || y + firstLane > tableBottom)) newPage();
      let placed: PlacedStage = { id: stage.id, name: stage.name, continued: false, y, height: 0, cards: [] };
      current!.stages.push(placed);
      if (lanes.length === 0) placed.height = emptyStageHeight;
      lanes.forEach((lane, at) => {
        const height = heights[at]!;
        if (y + placed.height + height > tableBottom && placed.height > 0) {
          y += placed.height;
          newPage();
          placed = { id: stage.id, name: stage.name, continued: true, y, height: 0, cards: [] };
          current!.stages.push(placed);
        }
        for (const { card, first, last, lines, nameLines } of lane) {
          placed.cards.push({
            id: card.id,
            name: card.name,
            lines,
            nameLines,
            x: dayX[first]! + 1,
            y: y + placed.height + 1,
            width: (last - first + 1) * dayWidth - 2,
            height: height - sheet.laneGap,
          });
        }
        placed.height += height;
      });
      y += placed.height;
    }
  }
  return pages;
}

export const printArea = { tableTop, tableBottom, tableLeft, tableWidth, bodyTop } as const;
