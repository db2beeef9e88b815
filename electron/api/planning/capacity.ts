/**
 * Capacity of a board: per bucket (day, week, month, quarter, year) the minutes available and
 * the minutes planned, by stage, by resource, by resource type within a stage, or by group.
 *
 * Available minutes of a resource on a stage on a day:
 *
 *   schedule(resource, day).available × percentage / 100 × stage.efficiency / 100
 *
 * counted when the resource's board entry and its stage entry are active, and 0 on a day the
 * stage does not work (the board's workdays and the days its people add, stage-workdays.ts). A bucket sums its days and rounds to whole minutes at the end.
 *
 * Planned minutes are the minutes of the cards' activities, spread evenly over each card's
 * workdays; a card's minutes count for each resource assigned to it in equal shares, and by
 * resource those of cards with nobody assigned are counted apart (`no_resource`).
 * The board's capacity_method decides what counts:
 *   none            nothing: available and planned are 0
 *   individual      as above
 *   estimated_time  as above (the estimate is the card's activity minutes)
 *   remaining_time  planned is the estimate minus the minutes tracked on the card, never
 *                   below 0, and 0 once the card is in an exit status, spread over the card's
 *                   days from today on (remaining-time.ts, which finite planning shares)
 * A card on a stage with setup_minutes carries them once more, on its first workday (with
 * remaining_time: its first from today on, while nothing is tracked on it and it is not
 * finished); docs/API.md "Setup times".
 */
import { buckets, daysBetween, type TimeFrame } from '../../../shared/dates.js';
import type { RequestContext } from '../resource.js';
import type { PlannedCards } from '../../store/planned-cards.js';
import { plannedWork, type PlannedWork } from './planned-work.js';
import { availableMinutes, readCalendarsOf, type ResourceCalendar } from './schedule.js';
import { dayNumber } from './workdays.js';
import { readStageWeeks, stageWeeksOf, type StageWeeks } from './stage-workdays.js';
import { tables, type Stored } from '../tables.js';

export type CapacityView = 'stage' | 'resource' | 'resource_type/stage' | 'group';

export interface CapacityQuery {
  start: string;
  end: string;
  frame: TimeFrame;
  stageId?: string;
}

interface Assignment {
  resource: Stored<'resource'>;
  stage: Stored<'stage'>;
  /** percentage × efficiency as a fraction. */
  share: number;
}

/** The order the resource_type/stage view lists the types in. */
const resourceTypes: readonly string[] = ['machine', 'cell', 'employee'];

/**
 * Where a view's minutes go. Its rows are numbered, and minutes add up in one array per
 * bucket, `count` long: no keyed object per row and day. By stage (and resource type) a
 * stage's minutes count for its rows; by resource (and group) a resource's do.
 */
interface Rows {
  count: number;
  byStage: boolean;
  stage: Map<string, number>;
  /** Rows for minutes on stage number `stage` of a resource or activity of `type`. */
  ofStage(stage: number, type: string): readonly number[];
  ofResource(resourceId: string): readonly number[];
}

/** The range as day numbers (workdays.ts), the bucket of each of its days, and the stages' workdays. */
interface Range {
  first: number;
  length: number;
  bucketOf: Int32Array;
  weeks: StageWeeks;
}

/**
 * The resources' active stage links on the board. With `once` (the by-resource and by-group
 * views) a person counts at most once, however many stages they work on: when the
 * percentages of their active links on the board add up to more than 100, each is scaled
 * down in proportion so they add up to 100 (docs/API.md "Schedules and capacity"). The
 * by-stage views keep each link's own percentage.
 */
function assignments(
  board: Stored<'board'>,
  stages: Stored<'stage'>[],
  resources: Stored<'resource'>[],
  once?: { boardStageIds: ReadonlySet<string> },
): Assignment[] {
  const stageById = new Map(stages.map((s) => [s.id, s]));
  const out: Assignment[] = [];
  for (const resource of resources) {
    const entry = resource.boards.find((b) => b.id === board.id);
    if (!entry || !entry.active) continue;
    // Over every active link on the board, not only the stages asked for: with stage_id the
    // person's share of that stage is what is left of them for it.
    const total = once
      ? entry.stages.reduce((sum, link) => (link.active && once.boardStageIds.has(link.id) ? sum + link.percentage : sum), 0)
      : 0;
    const scale = total > 100 ? 100 / total : 1;
    for (const link of entry.stages) {
      const stage = stageById.get(link.id);
      if (!stage || !link.active) continue;
      out.push({ resource, stage, share: ((link.percentage * scale) / 100) * (stage.efficiency / 100) });
    }
  }
  return out;
}

/**
 * Available minutes into `into` (per bucket, per row). A resource's day is the same for every
 * stage it works on, so its minutes are worked out once for the whole range (and once for every
 * view read together, `minutesOf`); then days outside, links inside, as the formula sums them.
 */
function addAvailable(
  calendars: ReadonlyMap<string, ResourceCalendar>,
  minutesOf: Map<string, Float64Array>,
  links: Assignment[],
  rows: Rows,
  range: Range,
  into: Float64Array,
): void {
  const counted = links.map((a) => {
    let minutes = minutesOf.get(a.resource.id);
    if (!minutes) minutesOf.set(a.resource.id, (minutes = availableMinutes(calendars.get(a.resource.id)!, range.first, range.length)));
    const to = rows.byStage ? rows.ofStage(rows.stage.get(a.stage.id)!, a.resource.type) : rows.ofResource(a.resource.id);
    return { minutes, share: a.share, rows: to, works: range.weeks.of(a.stage.id) };
  });
  for (let day = 0; day < range.length; day++) {
    if (!range.weeks.any(range.first + day)) continue;
    const offset = range.bucketOf[day]! * rows.count;
    for (const link of counted) {
      if (!link.works(range.first + day)) continue;
      const minutes = link.minutes[day]! * link.share;
      for (const row of link.rows) into[offset + row] = into[offset + row]! + minutes;
    }
  }
}

/**
 * Planned minutes into `into`: each card activity's minutes per workday, times its days in
 * each bucket. By resource (or group), they are shared equally among the card's resources.
 */
function addPlanned(work: PlannedWork[], rows: Rows, range: Range, into: Float64Array, unassigned: Float64Array): void {
  const add = (item: PlannedWork, to: readonly number[], bucket: number, days: number) => {
    const minutes = item.minutesPerDay * days;
    const offset = bucket * rows.count;
    if (rows.byStage) {
      for (const row of to) into[offset + row] = into[offset + row]! + minutes;
      return;
    }
    if (item.resourceIds.length === 0) unassigned[bucket] = unassigned[bucket]! + minutes;
    const share = item.resourceIds.length > 0 ? minutes / item.resourceIds.length : 0;
    for (const id of item.resourceIds) {
      for (const row of rows.ofResource(id)) into[offset + row] = into[offset + row]! + share;
    }
  };
  for (const item of work) {
    const stage = rows.stage.get(item.stageId);
    if (stage === undefined) continue;
    const to = rows.byStage ? rows.ofStage(stage, item.resourceType) : [];
    // The days are in order, so each bucket's days come in one run.
    let bucket = -1;
    let days = 0;
    for (const day of item.days) {
      const next = range.bucketOf[day - range.first]!;
      if (next !== bucket) {
        if (days > 0) add(item, to, bucket, days);
        bucket = next;
        days = 0;
      }
      days++;
    }
    if (days > 0) add(item, to, bucket, days);
  }
}

/** What every view of a board's capacity over a range reads: one read for all the views asked together. */
interface CapacityReads {
  boardStages: Stored<'stage'>[];
  resources: Stored<'resource'>[];
  calendars: ReadonlyMap<string, ResourceCalendar>;
  /** Each resource's available minutes over the range, worked out by the first view that needs them. */
  minutesOf: Map<string, Float64Array>;
  work: PlannedWork[];
  /** The board's workdays and each stage's (stage-workdays.ts). */
  weeks: StageWeeks;
}

async function readCapacity(
  ctx: RequestContext,
  board: Stored<'board'>,
  query: CapacityQuery,
  planned?: PlannedCards,
): Promise<CapacityReads> {
  const boardStages = (await ctx.records.getWhereIn(tables.stage, 'board_id', [board.id])).sort((a, b) => a.priority - b.priority);
  const { rows: resources } = await ctx.records.list(tables.resource, {
    match: { archived_at: null },
    filter: { kind: 'atom', field: 'boards', operator: 'has', not: false, value: board.id },
    limit: 1_000_000,
    offset: 0,
  });
  if (board.capacity_method === 'none') {
    const weeks = stageWeeksOf(board, [], new Map());
    return { boardStages, resources, calendars: new Map(), minutesOf: new Map(), work: [], weeks };
  }
  // Only resources active on the board count (assignments); their days off are read once for all of them.
  const counted = resources.filter((r) => r.boards.some((b) => b.id === board.id && b.active));
  const read = await readCalendarsOf(ctx.records, counted);
  const calendars = new Map(read.map((c) => [c.resource.id, c]));
  const weeks = await readStageWeeks(ctx.records, board, read);
  const setupOf = new Map(boardStages.map((s) => [s.id, s.setup_minutes]));
  const work = await plannedWork(ctx, board, weeks, query.start, query.end, setupOf, planned);
  return { boardStages, resources, calendars, minutesOf: new Map(), work, weeks };
}

export async function boardCapacity(ctx: RequestContext, board: Stored<'board'>, view: CapacityView, query: CapacityQuery) {
  return capacityView(ctx, board, view, query, await readCapacity(ctx, board, query));
}

/**
 * Several views of the same board and range (the KPIs read by stage and by resource), the
 * records read once for all of them; each view is what boardCapacity answers for it. `planned`:
 * the board's cards over a range holding the query's, when the caller read them already.
 */
export async function boardCapacityViews<V extends CapacityView>(
  ctx: RequestContext,
  board: Stored<'board'>,
  views: readonly V[],
  query: CapacityQuery,
  planned?: PlannedCards,
): Promise<Record<V, Awaited<ReturnType<typeof boardCapacity>>>> {
  const reads = await readCapacity(ctx, board, query, planned);
  const answers: Partial<Record<V, Awaited<ReturnType<typeof boardCapacity>>>> = {};
  for (const view of views) answers[view] = await capacityView(ctx, board, view, query, reads);
  // Every view asked for is filled in just above.
  return answers as Record<V, Awaited<ReturnType<typeof boardCapacity>>>;
}

async function capacityView(ctx: RequestContext, board: Stored<'board'>, view: CapacityView, query: CapacityQuery, reads: CapacityReads) {
  const { boardStages, resources } = reads;
  const stages = query.stageId ? boardStages.filter((s) => s.id === query.stageId) : boardStages;
  const method = board.capacity_method;
  const periods = buckets(query.start, query.end, query.frame);

  let groups: Stored<'group'>[] = [];
  if (view === 'group') groups = (await ctx.records.list(tables.group, { limit: 1_000_000, offset: 0 })).rows;

  const rowCount = {
    stage: stages.length,
    resource: resources.length,
    group: groups.length,
    'resource_type/stage': stages.length * resourceTypes.length,
  }[view];
  const available = new Float64Array(periods.length * rowCount);
  const planned = new Float64Array(periods.length * rowCount);
  // By resource: the minutes of cards nobody is assigned to, per bucket, which no row counts.
  const unassigned = new Float64Array(periods.length);
  if (method !== 'none') {
    const resourceRows = new Map<string, number[]>();
    if (view === 'resource') resources.forEach((r, i) => resourceRows.set(r.id, [i]));
    if (view === 'group') {
      const groupRow = new Map(groups.map((g, i) => [g.id, i]));
      const links = await ctx.records.getWhereIn(
        tables.group_resource,
        'group_id',
        groups.map((g) => g.id),
      );
      for (const link of links) {
        const groupRows = resourceRows.get(link.resource_id) ?? [];
        groupRows.push(groupRow.get(link.group_id)!);
        resourceRows.set(link.resource_id, groupRows);
      }
    }
    const rows: Rows = {
      count: rowCount,
      byStage: view === 'stage' || view === 'resource_type/stage',
      stage: new Map(stages.map((s, i) => [s.id, i])),
      ofStage: (stage, type) => {
        if (view === 'stage') return [stage];
        const t = resourceTypes.indexOf(type);
        return t < 0 ? [] : [stage * resourceTypes.length + t];
      },
      ofResource: (resourceId) => resourceRows.get(resourceId) ?? [],
    };
    const length = daysBetween(query.start, query.end) + 1;
    const bucketOf = new Int32Array(length);
    for (let p = 0, day = 0; p < periods.length; p++) bucketOf.fill(p, day, (day += periods[p]!.dates.length));
    const range: Range = { first: dayNumber(query.start), length, bucketOf, weeks: reads.weeks };

    const once = rows.byStage ? undefined : { boardStageIds: new Set(boardStages.map((s) => s.id)) };
    addAvailable(reads.calendars, reads.minutesOf, assignments(board, stages, resources, once), rows, range, available);
    addPlanned(reads.work, rows, range, planned, unassigned);
  }

  const data = periods.map((period, p) => {
    const offset = p * rowCount;
    const figures = (row: number) => ({
      time_available: Math.round(available[offset + row]!),
      time_planned: Math.round(planned[offset + row]!),
    });
    const row: Record<string, unknown> = { date: period.start, end_date: period.end };
    if (view === 'stage') row.stage = stages.map((s, i) => ({ id: s.id, name: s.name, ...figures(i) }));
    if (view === 'resource') {
      row.resource = resources.map((r, i) => ({ id: r.id, name: r.name, type: r.type, ...figures(i) }));
      row.no_resource = { time_planned: Math.round(unassigned[p]!) };
    }
    if (view === 'group') row.group = groups.map((g, i) => ({ id: g.id, name: g.name, ...figures(i) }));
    if (view === 'resource_type/stage') {
      row.stage = stages.map((s, i) => ({
        id: s.id,
        name: s.name,
        resource_type: resourceTypes.map((type, t) => ({ type, ...figures(i * resourceTypes.length + t) })),
      }));
    }
    return row;
  });
  return {
    capacity_method: method,
    time_frame: query.frame,
    date_range_start: query.start,
    date_range_end: query.end,
    data,
  };
}
