/**
 * Capacity of a board: per bucket (day, week, month, quarter, year) the minutes available and
 * the minutes planned, by stage, by resource, by resource type within a stage, or by group.
 *
 * Available minutes of a resource on a stage on a day:
 *
 *   schedule(resource, day).available × percentage / 100 × stage.efficiency / 100
 *
 * counted when the resource's board entry and its stage entry are active, and 0 on a day the
 * board does not work. A bucket sums its days and rounds to whole minutes at the end.
 *
 * Planned minutes are the minutes of the cards' activities, spread evenly over each card's
 * workdays; a card's minutes count for each resource assigned to it in equal shares.
 * The board's capacity_method decides what counts:
 *   none            nothing: available and planned are 0
 *   individual      as above
 *   estimated_time  as above (the estimate is the card's activity minutes)
 *   remaining_time  planned is the estimate minus the minutes tracked on the card, never
 *                   below 0, spread over the card's days from today on
 */
import { buckets, isoWeekday, type TimeFrame } from '../../../shared/dates.js';
import type { StoredRecord } from '../../store/environment-store.js';
import type { RequestContext } from '../resource.js';
import { groupModule, groupResourceModule } from '../resources/group.js';
import { resourceModule } from '../resources/resource.js';
import { stageModule } from '../resources/stage.js';
import { plannedWork, type PlannedWork } from './planned-work.js';
import { loadCalendars, scheduleDay } from './schedule.js';

export type CapacityView = 'stage' | 'resource' | 'resource_type/stage' | 'group';

export interface CapacityQuery {
  start: string;
  end: string;
  frame: TimeFrame;
  stageId?: string;
}

interface Assignment {
  resource: StoredRecord;
  stage: StoredRecord;
  /** percentage × efficiency as a fraction. */
  share: number;
}

interface Figures {
  time_available: number;
  time_planned: number;
}

function assignments(board: StoredRecord, stages: StoredRecord[], resources: StoredRecord[]): Assignment[] {
  const stageById = new Map(stages.map((s) => [s.id, s]));
  const out: Assignment[] = [];
  for (const resource of resources) {
    const entry = (resource.boards as { id: string; active: boolean; stages: { id: string; percentage: number; active: boolean }[] }[]).find(
      (b) => b.id === board.id,
    );
    if (!entry || !entry.active) continue;
    for (const link of entry.stages) {
      const stage = stageById.get(link.id);
      if (!stage || !link.active) continue;
      out.push({ resource, stage, share: (link.percentage / 100) * ((stage.efficiency as number) / 100) });
    }
  }
  return out;
}

/** Adds minutes to a keyed figure. */
function add(map: Map<string, Figures>, key: string, field: keyof Figures, minutes: number) {
  const figures = map.get(key) ?? { time_available: 0, time_planned: 0 };
  figures[field] += minutes;
  map.set(key, figures);
}

function rounded(figures: Figures | undefined): Figures {
  return { time_available: Math.round(figures?.time_available ?? 0), time_planned: Math.round(figures?.time_planned ?? 0) };
}

export function boardCapacity(ctx: RequestContext, board: StoredRecord, view: CapacityView, query: CapacityQuery) {
  let stages = ctx.store
    .getWhereIn(stageModule.table, 'board_id', [board.id])
    .sort((a, b) => (a.priority as number) - (b.priority as number));
  if (query.stageId) stages = stages.filter((s) => s.id === query.stageId);
  const method = board.capacity_method as string;
  const periods = buckets(query.start, query.end, query.frame);
  const counts = method !== 'none';

  const resources = ctx.store.list(resourceModule.table, {
    match: { archived_at: null },
    filter: { kind: 'atom', field: 'boards', operator: 'has', not: false, value: board.id },
    limit: 1_000_000,
    offset: 0,
  }).rows;
  const calendars = new Map(loadCalendars(ctx, resources.map((r) => r.id)).map((c) => [c.resource.id, c]));
  const links = assignments(board, stages, resources);
  const workdays = board.workdays as Record<string, boolean>;
  const work: PlannedWork[] = counts ? plannedWork(ctx, board, query.start, query.end, method === 'remaining_time') : [];

  // Minutes per bucket, keyed by the row the view reports ("stage id", "resource id", …).
  const keyOf = (a: { stage: StoredRecord; resource: StoredRecord }): string[] => {
    switch (view) {
      case 'stage':
        return [a.stage.id];
      case 'resource':
        return [a.resource.id];
      case 'resource_type/stage':
        return [`${a.stage.id}|${a.resource.type as string}`];
      case 'group':
        return groupsOf.get(a.resource.id) ?? [];
    }
  };
  const groupsOf = new Map<string, string[]>();
  let groups: StoredRecord[] = [];
  if (view === 'group') {
    groups = ctx.store.list(groupModule.table, { limit: 1_000_000, offset: 0 }).rows;
    for (const link of ctx.store.getWhereIn(groupResourceModule.table, 'group_id', groups.map((g) => g.id))) {
      groupsOf.set(link.resource_id as string, [...(groupsOf.get(link.resource_id as string) ?? []), link.group_id as string]);
    }
  }

  // A resource's day is the same for every stage it works on: compute it once per date.
  const availableOn = (resourceId: string, date: string, cache: Map<string, number>) => {
    let minutes = cache.get(resourceId);
    if (minutes === undefined) {
      minutes = scheduleDay(calendars.get(resourceId)!, date).available;
      cache.set(resourceId, minutes);
    }
    return minutes;
  };

  const data = periods.map((period) => {
    const figures = new Map<string, Figures>();
    if (counts) {
      for (const date of period.dates) {
        if (!workdays[String(isoWeekday(date))]) continue;
        const today = new Map<string, number>();
        for (const a of links) {
          const available = availableOn(a.resource.id, date, today) * a.share;
          for (const key of keyOf(a)) add(figures, key, 'time_available', available);
        }
      }
      for (const item of work) {
        const days = item.dates.filter((d) => d >= period.start && d <= period.end).length;
        if (days === 0) continue;
        const minutes = item.minutesPerDay * days;
        const stage = stages.find((s) => s.id === item.stageId);
        if (!stage) continue;
        if (view === 'stage') add(figures, stage.id, 'time_planned', minutes);
        else if (view === 'resource_type/stage') add(figures, `${stage.id}|${item.resourceType}`, 'time_planned', minutes);
        else {
          const share = item.resourceIds.length > 0 ? minutes / item.resourceIds.length : 0;
          for (const id of item.resourceIds) {
            for (const key of view === 'resource' ? [id] : groupsOf.get(id) ?? []) add(figures, key, 'time_planned', share);
          }
        }
      }
    }
    const row: Record<string, unknown> = { date: period.start, end_date: period.end };
    if (view === 'stage') row.stage = stages.map((s) => ({ id: s.id, name: s.name, ...rounded(figures.get(s.id)) }));
    if (view === 'resource') row.resource = resources.map((r) => ({ id: r.id, name: r.name, type: r.type, ...rounded(figures.get(r.id)) }));
    if (view === 'group') row.group = groups.map((g) => ({ id: g.id, name: g.name, ...rounded(figures.get(g.id)) }));
    if (view === 'resource_type/stage') {
      row.stage = stages.map((s) => ({
        id: s.id,
        name: s.name,
        resource_type: (['machine', 'cell', 'employee'] as const).map((type) => ({ type, ...rounded(figures.get(`${s.id}|${type}`)) })),
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
