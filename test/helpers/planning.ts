/**
 * Builders for the planning tests (test/api/planning*.test.ts, card*, collection*): boards with
 * stages and statuses described by name, resources with schedules and deviations, collections
 * with activity minutes, and a readable summary of the cards a plan made — so a test reads as
 * "inputs by name → expected cards by name".
 *
 * Every board gets three statuses: Backlog (priority 0), Ready (priority 1, the entry status)
 * and Done (priority 2, an exit status). The entry status is deliberately not the first one,
 * so a card in Ready proves that planning picked the entry status and not simply the first.
 */
import { expect } from 'vitest';
import type { TestApi } from './api.js';

export type Workdays = Record<'1' | '2' | '3' | '4' | '5' | '6' | '7', boolean>;
export type Hours = Record<'1' | '2' | '3' | '4' | '5' | '6' | '7', number | null>;

export const monToFri: Workdays = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false };
export const monToThu: Workdays = { ...monToFri, '5': false };
export const eightHours: Hours = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };

export interface StageSetup {
  name: string;
  /** Activity names this stage allows, in priority order. */
  activities?: string[];
  delay_day?: number;
  independent?: boolean;
  efficiency?: number;
  default_percentage?: number;
}

export interface BoardSetup {
  name?: string;
  workdays?: Workdays;
  split_cards_by_activity?: boolean;
  dependency_behavior?: 'notify' | 'push' | 'maintain';
  capacity_method?: 'none' | 'individual' | 'estimated_time' | 'remaining_time';
  /** In priority order (priority = index). */
  stages: StageSetup[];
}

export interface BoardIds {
  id: string;
  stages: Record<string, string>;
  statuses: Record<'Backlog' | 'Ready' | 'Done', string>;
  labels: Record<string, string>;
  /** Stage name by id. */
  stageName(id: string): string;
  statusName(id: string): string;
}

export const activityNames = ['Cut', 'Weld', 'Paint', 'Pack', 'Inspect', 'Design'] as const;
export type Activities = Record<string, string>;

async function post(api: Pick<TestApi, 'inject'>, path: string, body: unknown): Promise<any> {
  const res = await api.inject('POST', path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** One activity per name; returns id by name. */
export async function createActivities(api: Pick<TestApi, 'inject'>, names: readonly string[] = activityNames): Promise<Activities> {
  const out: Activities = {};
  for (const name of names) out[name] = (await post(api, '/v1/activity', { description: name, resource_type: 'employee' })).id;
  return out;
}

let boardCounter = 0;

export async function createBoard(
  api: Pick<TestApi, 'inject'>,
  activities: Activities,
  setup: BoardSetup,
  labels: string[] = [],
): Promise<BoardIds> {
  const board = await post(api, '/v1/board?with=stages,statuses,labels', {
    name: setup.name ?? `Board ${++boardCounter}`,
    ...(setup.workdays ? { workdays: setup.workdays } : {}),
    split_cards_by_activity: setup.split_cards_by_activity ?? false,
    dependency_behavior: setup.dependency_behavior ?? 'notify',
    capacity_method: setup.capacity_method ?? 'individual',
    statuses: [
      { name: 'Backlog', priority: 0, entry: false, exit: false },
      { name: 'Ready', priority: 1, entry: true, exit: false },
      { name: 'Done', priority: 2, entry: false, exit: true },
    ],
    labels: labels.map((name, priority) => ({ name, priority })),
    stages: setup.stages.map((s, priority) => ({
      name: s.name,
      priority,
      delay_day: s.delay_day ?? 0,
      independent: s.independent ?? false,
      efficiency: s.efficiency ?? 100,
      default_percentage: s.default_percentage ?? 100,
      activities: (s.activities ?? []).map((name, p) => {
        if (!activities[name]) throw new Error(`no activity ${name}`);
        return { id: activities[name], priority: p };
      }),
    })),
  });
  const stages = Object.fromEntries(board.stages.map((s: any) => [s.name, s.id]));
  const statuses = Object.fromEntries(board.statuses.map((s: any) => [s.name, s.id])) as BoardIds['statuses'];
  const byId = new Map<string, string>([...board.stages, ...board.statuses].map((s: any) => [s.id, s.name]));
  return {
    id: board.id,
    stages,
    statuses,
    labels: Object.fromEntries(board.labels.map((l: any) => [l.name, l.id])),
    stageName: (id) => byId.get(id) ?? `?${id}`,
    statusName: (id) => byId.get(id) ?? `?${id}`,
  };
}

export interface ResourceSetup {
  name: string;
  workdays?: Hours;
  type?: 'machine' | 'cell' | 'employee';
  /** Board entries: percentage per stage name (the stage's default_percentage when absent). */
  board?: { ids: BoardIds; percentages?: Record<string, number> };
  /** Days off: whole day (time null/absent) or minutes. */
  deviations?: { start_date: string; end_date: string; time?: number | null; type?: string }[];
}

export async function createResource(api: TestApi, setup: ResourceSetup): Promise<string> {
  const resource = await post(api, '/v1/resource', {
    name: setup.name,
    type: setup.type ?? 'employee',
    workdays: setup.workdays ?? eightHours,
    boards: setup.board
      ? [
          {
            id: setup.board.ids.id,
            active: true,
            stages: Object.entries(setup.board.percentages ?? {}).map(([stage, percentage]) => ({
              id: setup.board!.ids.stages[stage],
              percentage,
              active: true,
            })),
          },
        ]
      : [],
  });
  for (const d of setup.deviations ?? []) {
    await post(api, `/v1/resource/${resource.id}/schedule_deviation`, { type: 'holiday', time: null, ...d });
  }
  return resource.id;
}

export async function createCollection(
  api: TestApi,
  boardId: string,
  activities: Activities,
  minutes: Record<string, number>,
  extra: Record<string, unknown> = {},
): Promise<any> {
  return post(api, '/v1/collection', {
    name: `Order ${++boardCounter}`,
    board_id: boardId,
    activities: Object.entries(minutes).map(([name, time]) => ({ id: activities[name], time })),
    ...extra,
  });
}

/** Plans and returns the response (200 expected) with `cards.activities` embedded. */
export async function plan(api: TestApi, collectionId: string, boardId: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await api.inject('POST', `/v1/collection/${collectionId}/board/${boardId}?with=cards.activities`, body);
  expect(res.status, `plan: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

export interface CardSummary {
  stage: string;
  start: string | null;
  end: string | null;
  /** Minutes by activity name. */
  minutes: Record<string, number>;
  status: string;
}

/**
 * Cards as {stage, start, end, minutes, status}, by stage priority, then start, then the first
 * activity's name; `activities` must be embedded.
 */
export function summarize(cards: any[], board: BoardIds, activities: Activities): CardSummary[] {
  const nameOf = new Map(Object.entries(activities).map(([name, id]) => [id, name]));
  const order = Object.keys(board.stages);
  return cards
    .map((c) => ({
      stage: board.stageName(c.stage_id),
      start: c.start_date,
      end: c.end_date,
      minutes: Object.fromEntries(
        (c.activities as any[]).map((a) => [nameOf.get(a.id) ?? a.id, a.time]).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      ),
      status: board.statusName(c.status_id),
    }))
    .sort(
      (a, b) =>
        order.indexOf(a.stage) - order.indexOf(b.stage) ||
        (a.start ?? '').localeCompare(b.start ?? '') ||
        (Object.keys(a.minutes)[0] ?? '').localeCompare(Object.keys(b.minutes)[0] ?? ''),
    );
}

/** The cards of a collection, with activities, summarized. */
export async function cardsOf(api: TestApi, collectionId: string, board: BoardIds, activities: Activities): Promise<CardSummary[]> {
  const res = await api.inject('GET', `/v1/collection/${collectionId}/card?with=activities&limit=1000`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return summarize(res.body.data, board, activities);
}

/** Dates of the cards as `stage: start..end`, for compact expectations. */
export function spans(cards: CardSummary[]): string[] {
  return cards.map((c) => `${c.stage}: ${c.start}..${c.end}`);
}
