/**
 * Automation rules through sync (docs/API.md "Automation rules"): a rule fires once, on the
 * node whose API took the write. Replica A finishes a card; the rules run in A's command, and
 * their effects (the next stage's status, the lock, the notice) reach the remote and replica B
 * as A's own changes: the remote applying A's push and B applying the pull run no rule again,
 * so there is one notice, not two or three. A write on the remote itself (the team server's
 * own API) runs the rules there, once, and A pulls the result. Real SQLite, real HTTP on
 * 127.0.0.1: an in-process remote (from PostgreSQL in the `postgres` project) and two
 * in-process replicas. Each order has a card per stage on hard dates from Monday 2026-12-07.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/sync-cluster.js';
import { cardsOf, type PlanningBase } from '../helpers/sync-data.js';
import type { InProcessClient, InProcessRemote } from '../helpers/sync-inprocess.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';

let replicas: TwoReplicas;
let remote: InProcessRemote;
let a: InProcessClient;
let b: InProcessClient;
let base: PlanningBase;

type Node = InProcessClient | InProcessRemote;

async function notices(node: Node): Promise<any[]> {
  return (await ok(node, 'GET', '/v1/automation_notice?limit=100', undefined, 200)).data;
}

/** The collection's cards by stage: Prep, Build, Ship. */
async function byStage(node: Node, collectionId: string): Promise<any[]> {
  const cards = await cardsOf(node, collectionId);
  return base.stages.map((stageId) => cards.find((c) => c.stage_id === stageId));
}

/** An order with one card per stage (Prep 7 Dec, Build 8 Dec, Ship 9 Dec), all Ready, made on `node`. */
async function order(node: Node, name: string): Promise<any> {
  const collection = await ok(node, 'POST', '/v1/collection', { name, board_id: base.boardId }, 201);
  for (const [i, stageId] of base.stages.entries()) {
    const day = `2026-12-0${7 + i}`;
    await ok(node, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: stageId, start_date: day, end_date: day }, 201);
  }
  return collection;
}

beforeAll(async () => {
  replicas = await startTwoReplicas();
  ({ remote, a, b, base } = replicas);
  const rules = [
    { board_id: base.boardId, action: 'set_next_status', next_status_id: base.statuses.done },
    { board_id: base.boardId, action: 'notify', notify: 'next_resource' },
    { board_id: base.boardId, action: 'lock' },
  ];
  for (const rule of rules) await ok(a, 'POST', '/v1/automation_rule', rule, 201);
  await runSync(a);
  await runSync(b);
  expect((await ok(remote, 'GET', '/v1/automation_rule', undefined, 200)).count).toBe(3);
  expect((await ok(b, 'GET', '/v1/automation_rule', undefined, 200)).count).toBe(3);
});

afterAll(async () => {
  await replicas?.close();
});

describe('a rule fired on a replica', () => {
  it('runs once: its effects sync as the replica wrote them, and neither the remote nor the other replica fires it again', async () => {
    const collection = await order(a, 'SO-7');
    await runSync(a);
    await runSync(b);
    const [prep] = await byStage(a, collection.id);
    await ok(a, 'PUT', `/v1/collection/${collection.id}/card/${prep.id}`, { status_id: base.statuses.done }, 200);
    const onA = await notices(a);
    expect(onA.length).toBe(1);

    await runSync(a);
    await runSync(b);
    await runSync(a);
    for (const node of [remote, a, b]) {
      const [p, build, ship] = await byStage(node, collection.id);
      // The chain is one step: Build is Done by the rule (and locked), Ship is untouched.
      expect([p.status_id, p.locked, build.status_id, build.locked, ship.status_id, ship.locked]).toEqual([
        base.statuses.done,
        true,
        base.statuses.done,
        true,
        base.statuses.ready,
        false,
      ]);
      const told = await notices(node);
      expect(told.map((n) => n.id)).toEqual(onA.map((n) => n.id));
    }
  });

  it("a write on the remote's own API runs the rules there, once, and the replicas pull the result", async () => {
    const collection = await order(a, 'SO-8');
    await runSync(a);
    const [prep] = await byStage(remote, collection.id);
    const before = (await notices(remote)).length;
    await ok(remote, 'PUT', `/v1/collection/${collection.id}/card/${prep.id}`, { status_id: base.statuses.done }, 200);
    expect((await notices(remote)).length).toBe(before + 1);
    await runSync(a);
    await runSync(b);
    for (const node of [remote, a, b]) {
      const [, build] = await byStage(node, collection.id);
      expect([build.status_id, build.locked]).toEqual([base.statuses.done, true]);
      expect((await notices(node)).length).toBe(before + 1);
    }
  });
});
