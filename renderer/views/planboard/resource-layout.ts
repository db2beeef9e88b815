/**
 * The planboard's resource view: one row per resource instead of per stage, each holding the
 * cards assigned to that resource, packed in lanes and placed by date exactly as the stage
 * rows are (board-layout.ts, lanes.ts). A card with two resources sits in both rows, so a
 * placement is keyed by row and card, not by card alone. Pure.
 */
import { spanDays, type DayRange, type Timeline } from './date-geometry.js';
import { packLanes } from './lanes.js';
import type { LayoutDimensions } from './board-layout.js';
import type { PlanCard } from './plan-card.js';

/** What a row stands for: a resource, or (id null) the cards no resource is assigned to. */
export interface ResourceRowSource {
  id: string | null;
  name: string;
  type?: string | undefined;
  /** What the person is qualified for (docs/API.md "Skills and crews"), shown beside the name. */
  skills?: readonly string[] | undefined;
}

/** A resource as the resource list reads it: its board entries say where it works. */
export interface BoardResource {
  id: string;
  name: string;
  type?: string | undefined;
  archived_at?: string | null | undefined;
  /** Names, as the API sends them (shared/resources/resource.ts). */
  skills?: readonly unknown[] | undefined;
  /** `[{id, active, stages}]` as the API sends it (shared/resources/resource.ts). */
  boards?: readonly unknown[] | undefined;
}

export interface ResourcePlacement {
  /** Row and card: unique, where the card id alone is not. */
  key: string;
  card: PlanCard;
  row: number;
  lane: number;
  first: number;
  last: number;
  left: number;
  top: number;
  width: number;
}

export interface ResourceRow {
  source: ResourceRowSource;
  index: number;
  top: number;
  height: number;
  laneCount: number;
  placed: readonly ResourcePlacement[];
}

export interface ResourceLayout {
  rows: readonly ResourceRow[];
  height: number;
  timeline: Timeline;
  dims: LayoutDimensions;
}

/**
 * The rows to show: the resources active on the board (not archived), by name; then any
 * resource a loaded card names that is not (so no card goes missing); then "no resource" when
 * some card has none.
 */
export function resourceRowsFor(
  boardId: string,
  resources: readonly BoardResource[],
  cards: readonly PlanCard[],
  noResourceName: string,
): ResourceRowSource[] {
  const rows: ResourceRowSource[] = [];
  const shown = new Set<string>();
  const byName = [...resources].sort((a, b) => a.name.localeCompare(b.name));
  for (const resource of byName) {
    if (resource.archived_at) continue;
    if (!resource.boards?.some((entry) => isActiveEntryOf(entry, boardId))) continue;
    rows.push({
      id: resource.id,
      name: resource.name,
      type: resource.type,
      skills: (resource.skills ?? []).filter((s) => typeof s === 'string'),
    });
    shown.add(resource.id);
  }
  const byId = new Map(resources.map((resource) => [resource.id, resource]));
  const others = new Set<string>();
  let unassigned = false;
  for (const card of cards) {
    if (card.resources.length === 0) unassigned = true;
    for (const { id } of card.resources) if (!shown.has(id)) others.add(id);
  }
  const extra = [...others].map((id) => ({ id, name: byId.get(id)?.name ?? '?', type: byId.get(id)?.type }));
  rows.push(...extra.sort((a, b) => a.name.localeCompare(b.name)));
  if (unassigned) rows.push({ id: null, name: noResourceName });
  return rows;
}

export function layoutResources(
  sources: readonly ResourceRowSource[],
  cards: readonly PlanCard[],
  timeline: Timeline,
  dims: LayoutDimensions,
): ResourceLayout {
  const groups = new Map<string | null, PlanCard[]>(sources.map((source) => [source.id, []]));
  for (const card of cards) {
    if (card.resources.length === 0) groups.get(null)?.push(card);
    for (const { id } of card.resources) groups.get(id)?.push(card);
  }
  const rows: ResourceRow[] = [];
  let top = 0;
  sources.forEach((source, index) => {
    const group = groups.get(source.id)!.sort(byStartThenRank);
    const spans = group.map((card) => ({ id: card.id, ...spanDays(timeline, card.start_date, card.end_date) }));
    const packing = packLanes(spans);
    const placed = group.map((card, i): ResourcePlacement => {
      const span = spans[i]!;
      const lane = packing.laneOf.get(card.id) ?? 0;
      return {
        key: `${source.id ?? ''}:${card.id}`,
        card,
        row: index,
        lane,
        first: span.first,
        last: span.last,
        left: span.first * timeline.dayWidth,
        width: (span.last - span.first + 1) * timeline.dayWidth,
        top: top + dims.capacityHeight + lane * dims.laneHeight,
      };
    });
    const height = dims.capacityHeight + Math.max(1, packing.laneCount) * dims.laneHeight + dims.rowPadding;
    rows.push({ source, index, top, height, laneCount: packing.laneCount, placed });
    top += height;
  });
  return { rows, height: top, timeline, dims };
}

/** The placements inside the rendered days and within `[top, bottom]` pixels; rows outside are skipped whole. */
export function placementsInWindow(layout: ResourceLayout, days: DayRange, top: number, bottom: number): ResourcePlacement[] {
  const out: ResourcePlacement[] = [];
  for (const row of layout.rows) {
    if (row.top + row.height < top || row.top > bottom) continue;
    for (const p of row.placed) {
      if (p.last < days.first || p.first > days.last) continue;
      if (p.top + layout.dims.laneHeight < top || p.top > bottom) continue;
      out.push(p);
    }
  }
  return out;
}

function isActiveEntryOf(entry: unknown, boardId: string): boolean {
  const { id, active } = (entry ?? {}) as { id?: unknown; active?: unknown };
  return id === boardId && active !== false;
}

function byStartThenRank(a: PlanCard, b: PlanCard): number {
  if (a.start_date !== b.start_date) return a.start_date < b.start_date ? -1 : 1;
  if (a.rank !== b.rank) return a.rank < b.rank ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
