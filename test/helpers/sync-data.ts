/**
 * Records the sync tests make through a replica's API: a board to plan on, collections with
 * minutes, planning, orders with rows, projects. Every call must succeed (or the test fails
 * with the answer), so a test reads as a list of what the planner did on which replica.
 */
import { call, ok, type Node } from './sync-cluster.js';
import { nowMs } from '../../shared/clock.js';

type Target = Pick<Node, 'url' | 'headers' | 'name'>;

export interface PlanningBase {
  boardId: string;
  activityId: string;
  /** Stage ids in priority order: [Prep, Build, Ship]. */
  stages: string[];
  statuses: { ready: string; done: string };
}

/** An activity and a board with three stages that all allow it, and two statuses. */
export async function createPlanningBase(node: Target, name = 'Board'): Promise<PlanningBase> {
  const activity = await ok(node, 'POST', '/v1/activity', { description: `${name} work`, resource_type: 'employee' });
  const board = await ok(node, 'POST', '/v1/board?with=stages,statuses', {
    name,
    statuses: [
      { name: 'Ready', priority: 0, entry: true, exit: false },
      { name: 'Done', priority: 1, entry: false, exit: true },
    ],
    stages: ['Prep', 'Build', 'Ship'].map((stage, priority) => ({ name: stage, priority, activities: [{ id: activity.id, priority: 0 }] })),
  });
  const stages = [...board.stages].sort((a: any, b: any) => a.priority - b.priority).map((s: any) => s.id as string);
  const status = (n: string) => board.statuses.find((s: any) => s.name === n).id as string;
  return { boardId: board.id, activityId: activity.id, stages, statuses: { ready: status('Ready'), done: status('Done') } };
}

/** A collection in the backlog of the base's board with `minutes` of its activity. */
export async function createCollection(
  node: Target,
  base: PlanningBase,
  name: string,
  minutes = 600,
  extra: Record<string, unknown> = {},
): Promise<any> {
  return ok(node, 'POST', '/v1/collection', {
    name,
    board_id: base.boardId,
    activities: [{ id: base.activityId, time: minutes }],
    ...extra,
  });
}

/** Plans a collection on the base's board (cards are made on this replica); returns its cards. */
export async function plan(node: Target, base: PlanningBase, collectionId: string, start = '2026-12-07'): Promise<any[]> {
  const planned = await ok(node, 'POST', `/v1/collection/${collectionId}/board/${base.boardId}?with=cards`, { start }, 200);
  return planned.cards as any[];
}

/** The cards of a collection. */
export async function cardsOf(node: Target, collectionId: string): Promise<any[]> {
  return (await ok(node, 'GET', `/v1/collection/${collectionId}/card?limit=1000`, undefined, 200)).data as any[];
}

/** Moves a card to another stage and dates (what a drag on the planboard sends). */
export async function moveCard(node: Target, card: any, change: Record<string, unknown>): Promise<any> {
  return ok(node, 'PUT', `/v1/collection/${card.collection_id}/card/${card.id}`, change, 200);
}

/** An order (with its rows inline); `code` names it. */
export async function createOrder(
  node: Target,
  code: string,
  rows: Record<string, unknown>[] = [{ quantity: 1 }],
  extra: Record<string, unknown> = {},
): Promise<any> {
  return ok(node, 'POST', '/v1/order?with=order_rows', { code, description: `Order ${code}`, order_rows: rows, ...extra });
}

export async function createProject(node: Target, name: string, extra: Record<string, unknown> = {}): Promise<any> {
  return ok(node, 'POST', '/v1/project', { name, ...extra });
}

export async function update(node: Target, path: string, body: Record<string, unknown>): Promise<any> {
  return ok(node, 'PUT', path, body, 200);
}

export async function remove(node: Target, path: string): Promise<void> {
  await ok(node, 'DELETE', path, undefined, 204);
}

/** GET that may answer 404: the record, or undefined. */
export async function find(node: Target, path: string): Promise<any> {
  const res = await call(node, 'GET', path);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`${node.name}: GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Open conflicts of a client. */
export async function conflicts(node: Target): Promise<any[]> {
  return (await ok(node, 'GET', '/v1/sync/conflict?limit=1000', undefined, 200)).data as any[];
}

/** Resolves when the wall clock has moved to the next whole second (timestamps have seconds). */
export async function nextSecond(): Promise<void> {
  // The process clock's second (shared/clock.ts), which the suite may have fixed: its seconds
  // need not turn with the machine's.
  const start = Math.floor(nowMs() / 1000);
  while (Math.floor(nowMs() / 1000) === start) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Resolves once the wall clock has passed the current millisecond, so that an edit made after
 * it has a later hybrid clock than one made before it on any replica of this machine.
 */
export async function nextMillisecond(): Promise<void> {
  const start = nowMs();
  while (nowMs() <= start + 1) await new Promise((r) => setTimeout(r, 1));
}
