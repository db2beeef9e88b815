/**
 * Where every card of the board sits: stage rows stacked top to bottom, each as tall as its
 * lanes need, and each card's box inside its row. Computed once per change of the cards, the
 * stages or the zoom; the grid then only picks the cards inside the visible window.
 *
 * Packing is per stage, and a stage whose cards did not change keeps its previous packing
 * (`previous`), so moving one card repacks one row, not the board.
 */
import { spanDays, type DayRange, type Timeline } from './date-geometry.js';
import { packLanes } from './lanes.js';
import { sharedStart, type PlanCard } from './plan-card.js';

export interface LayoutDimensions {
  /** Height of a lane; a card is a little shorter. */
  laneHeight: number;
  /** Height of the capacity strip on top of each row (0 when hidden). */
  capacityHeight: number;
  /** Space under the last lane of a row. */
  rowPadding: number;
}

export interface PlacedCard {
  card: PlanCard;
  stage: number;
  lane: number;
  first: number;
  last: number;
  left: number;
  top: number;
  width: number;
}

export interface StageRow {
  stageId: string;
  index: number;
  top: number;
  height: number;
  laneCount: number;
  /** Cards of the stage in rank order, as given to the packing (compared to reuse it). */
  cards: readonly PlanCard[];
  /** The start its cards' collection names share ("SO-"): a narrow card leaves it out (plan-card.ts). */
  shared: string;
  placed: readonly PlacedCard[];
}

export interface BoardLayout {
  rows: readonly StageRow[];
  height: number;
  timeline: Timeline;
  dims: LayoutDimensions;
  byId: ReadonlyMap<string, PlacedCard>;
}

export function layoutBoard(
  stageIds: readonly string[],
  cards: readonly PlanCard[],
  timeline: Timeline,
  dims: LayoutDimensions,
  previous?: BoardLayout,
): BoardLayout {
  const groups = new Map<string, PlanCard[]>(stageIds.map((id) => [id, []]));
  for (const card of cards) groups.get(card.stage_id)?.push(card);
  const reusable =
    previous &&
    previous.timeline === timeline &&
    previous.dims.laneHeight === dims.laneHeight &&
    previous.dims.capacityHeight === dims.capacityHeight;

  const rows: StageRow[] = [];
  const byId = new Map<string, PlacedCard>();
  let top = 0;
  stageIds.forEach((stageId, index) => {
    const group = groups.get(stageId)!;
    group.sort(byStartThenRank);
    const before = reusable ? previous.rows.find((row) => row.stageId === stageId) : undefined;
    let placed: PlacedCard[];
    let laneCount: number;
    let shared: string;
    if (before && before.index === index && sameItems(before.cards, group)) {
      laneCount = before.laneCount;
      shared = before.shared;
      // The same cards in the same place when the rows above kept their heights.
      placed =
        before.top === top
          ? (before.placed as PlacedCard[])
          : before.placed.map((p) => ({ ...p, top: top + dims.capacityHeight + p.lane * dims.laneHeight }));
    } else {
      const spans = group.map((card) => ({ id: card.id, ...spanDays(timeline, card.start_date, card.end_date) }));
      const packing = packLanes(spans);
      laneCount = packing.laneCount;
      shared = sharedStart(group.map((card) => card.collection?.name ?? ''));
      placed = group.map((card, i) => {
        const span = spans[i]!;
        const lane = packing.laneOf.get(card.id) ?? 0;
        return {
          card,
          stage: index,
          lane,
          first: span.first,
          last: span.last,
          left: span.first * timeline.dayWidth,
          width: (span.last - span.first + 1) * timeline.dayWidth,
          top: top + dims.capacityHeight + lane * dims.laneHeight,
        };
      });
    }
    const height = dims.capacityHeight + Math.max(1, laneCount) * dims.laneHeight + dims.rowPadding;
    for (const p of placed) byId.set(p.card.id, p);
    rows.push({ stageId, index, top, height, laneCount, cards: group, shared, placed });
    top += height;
  });
  return { rows, height: top, timeline, dims, byId };
}

/**
 * The cards to render: inside the rendered days and within `[top, bottom]` pixels of the
 * body. Rows outside are skipped whole.
 */
export function cardsInWindow(layout: BoardLayout, days: DayRange, top: number, bottom: number): PlacedCard[] {
  const out: PlacedCard[] = [];
  const laneHeight = layout.dims.laneHeight;
  for (const row of layout.rows) {
    if (row.top + row.height < top || row.top > bottom) continue;
    for (const p of row.placed) {
      if (p.last < days.first || p.first > days.last) continue;
      if (p.top + laneHeight < top || p.top > bottom) continue;
      out.push(p);
    }
  }
  return out;
}

/** The stage row at a y of the body, or undefined below the last one. */
export function rowAtY(layout: BoardLayout, y: number): StageRow | undefined {
  return layout.rows.find((row) => y >= row.top && y < row.top + row.height);
}

/** The lane of a row at a y (clamped to the row's lanes). */
export function laneAtY(layout: BoardLayout, row: StageRow, y: number): number {
  const lane = Math.floor((y - row.top - layout.dims.capacityHeight) / layout.dims.laneHeight);
  return Math.min(Math.max(0, row.laneCount - 1), Math.max(0, lane));
}

function byStartThenRank(a: PlanCard, b: PlanCard): number {
  if (a.start_date !== b.start_date) return a.start_date < b.start_date ? -1 : 1;
  if (a.rank !== b.rank) return a.rank < b.rank ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
