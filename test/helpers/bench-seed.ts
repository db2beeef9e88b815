/**
 * What the capacity and planning benches in test/bench build their workshop with: a seeded
 * random generator, the workday patterns, and the loop that puts resources on a board's
 * stages. Each bench still chooses its own counts, seeds and patterns, so its data and figures
 * stay what they were; this file lives outside test/bench because `npm run bench` runs every
 * script there.
 */
import { availableParallelism, loadavg } from 'node:os';
import { addDays } from '../../shared/dates.js';
import type { TestApi } from './api.js';
import { benchSize } from './bench-size.js';

/** A small deterministic generator, so every run builds the same data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** An API call that must succeed; its body, untyped, as the benches read only a few fields. */
export async function must(api: Pick<TestApi, 'http'>, method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** How busy the machine was while a bench timed, for its report: the load averages and the cores. */
export function machineLoad(): string {
  return `load average while timing: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${availableParallelism()} cores`;
}

export function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Hours per ISO weekday (1 = Monday); null is a day off. */
export type Workdays = Record<string, number | null>;

export const workdays = {
  fullWeek: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
  shortWeek: { '1': 8, '2': 8, '3': 8, '4': 4, '5': null, '6': null, '7': null },
  withSaturday: { '1': 7.5, '2': 7.5, '3': 7.5, '4': 7.5, '5': 7.5, '6': 3, '7': null },
  roundTheClock: { '1': 24, '2': 24, '3': 24, '4': 24, '5': 24, '6': 24, '7': 24 },
  twoShifts: { '1': 16, '2': 16, '3': 16, '4': 16, '5': 16, '6': null, '7': null },
  tuesdayToSaturday: { '1': null, '2': 6, '3': 6, '4': 6, '5': 6, '6': 6, '7': null },
} satisfies Record<string, Workdays>;

/** The resource types the benches cycle through; each gets one activity for the cards. */
export const resourceTypes = ['employee', 'machine', 'cell'] as const;

/** Up to `count` different items of `list`, drawn with `next`. */
export function picker(next: () => number): <T>(list: readonly T[], count: number) => T[] {
  return (list, count) => [...new Set(Array.from({ length: count }, () => list[Math.floor(next() * list.length)]!))];
}

interface ResourcesOnBoard {
  boardId: string;
  stageIds: string[];
  count: number;
  next: () => number;
  /** The rest of resource r's body: name, type, workdays, dates. */
  body: (r: number) => Record<string, unknown>;
  /** Resource r's percentage on each of its `onStages` stages; by default 100, 50 or 33. */
  percentage?: (r: number, onStages: number) => number;
  /** Runs after resource r is written, in order, for its deviations. */
  after?: (r: number, resourceId: string) => Promise<void>;
}

/**
 * Writes `count` resources one after another, each on 1–3 consecutive stages of the board
 * from a random one. Draws from `next` in the same order as the benches always did: the
 * number of stages, the first stage, then whatever `after` draws.
 */
export async function seedResourcesOnBoard(api: TestApi, options: ResourcesOnBoard): Promise<string[]> {
  const { boardId, stageIds, count, next, body, percentage = (_r, onStages) => [100, 50, 33][onStages - 1]!, after } = options;
  const resourceIds: string[] = [];
  for (let r = 0; r < count; r++) {
    const onStages = 1 + Math.floor(next() * 3);
    const start = Math.floor(next() * stageIds.length);
    const stages = Array.from({ length: onStages }, (_, k) => ({
      id: stageIds[(start + k) % stageIds.length]!,
      percentage: percentage(r, onStages),
    }));
    const resource = await must(api, 'POST', '/v1/resource', { ...body(r), boards: [{ id: boardId, stages }] });
    resourceIds.push(resource.id);
    if (after) await after(r, resource.id);
  }
  return resourceIds;
}

/** The board's entry status (a card needs one) and an activity for each resource type. */
export async function seedStatusAndActivities(api: Pick<TestApi, 'http'>, boardId: string): Promise<string[]> {
  await must(api, 'POST', `/v1/board/${boardId}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  const activities: string[] = [];
  for (const type of resourceTypes)
    activities.push((await must(api, 'POST', '/v1/activity', { description: `Bench ${type}`, resource_type: type })).id);
  return activities;
}

/**
 * Runs a bench and ends the process: 0 once it printed its figures and verdicts, 1 when it
 * broke, so that the smoke run sees a broken bench (the server it started may still hold the
 * event loop open).
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** The size of the card board that the exceptions, KPI and plan check benches read. */
export const cardBoardSize = {
  stageCount: 5,
  resourceCount: benchSize(20, 4),
  cardCount: benchSize(Number(process.env.CARDS ?? 5000), 100),
  cardsPerCollection: 25,
};

/** A card's body on the card board, without its collection. */
export interface BoardCard {
  stage_id: string;
  start_date: string;
  end_date: string;
  activities: { id: string; time: number }[];
  resources: { id: string }[];
}

export interface CardBoard {
  boardId: string;
  stageIds: string[];
  resourceIds: string[];
  activities: string[];
  /** The `i`th card of a collection: on stage i mod 5 from `from`, 0–4 days long, one activity of 1–11 hours, one or two people. */
  card(i: number, from: string): BoardCard;
}

/**
 * The board those benches read: 5 stages, 20 full-time people each on 1–3 stages, the entry
 * status and the activities. Each bench places its collections and cards itself (through
 * `card`), because where they fall is what the bench is about. The draws from `next` keep the
 * order the benches always had, so their data and figures stay comparable with earlier runs.
 */
export async function seedCardBoard(
  api: TestApi,
  options: { name: string; next: () => number; everyDayAWorkday?: boolean; fullTimeOnEachStage?: boolean },
): Promise<CardBoard> {
  const { name, next } = options;
  const board = await must(api, 'POST', '/v1/board?with=stages', {
    name,
    ...(options.everyDayAWorkday ? { workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true } } : {}),
    stages: Array.from({ length: cardBoardSize.stageCount }, (_, i) => ({ name: `Stage ${i + 1}`, priority: i })),
  });
  const stageIds: string[] = board.stages.map((s: { id: string }) => s.id);
  const resourceIds = await seedResourcesOnBoard(api, {
    boardId: board.id,
    stageIds,
    count: cardBoardSize.resourceCount,
    next,
    body: (r) => ({ name: `Person ${r + 1}`, type: 'employee', workdays: workdays.fullWeek }),
    ...(options.fullTimeOnEachStage ? { percentage: () => 100 } : {}),
  });
  const activities = await seedStatusAndActivities(api, board.id);
  const pick = picker(next);
  return {
    boardId: board.id,
    stageIds,
    resourceIds,
    activities,
    card: (i, from) => ({
      stage_id: stageIds[i % cardBoardSize.stageCount]!,
      start_date: from,
      end_date: addDays(from, Math.floor(next() * 5)),
      activities: pick(activities, 1).map((id) => ({ id, time: 60 + Math.floor(next() * 600) })),
      resources: pick(resourceIds, 1 + Math.floor(next() * 2)).map((id) => ({ id })),
    }),
  };
}
