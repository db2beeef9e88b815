/**
 * A user's handling of the exception inbox syncs (docs/API.md "Exceptions"): what Anna snoozes
 * on replica A is left out of her inbox on replica B and on the remote once they synced, and
 * stays in Ben's. Real SQLite, real HTTP on 127.0.0.1: an in-process remote (from PostgreSQL in
 * the `postgres` project) and two in-process replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '../../shared/clock.js';
import { addDays } from '../../shared/dates.js';
import { ok } from '../helpers/sync-cluster.js';
import type { PlanningBase } from '../helpers/sync-data.js';
import type { InProcessClient, InProcessRemote } from '../helpers/sync-inprocess.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let replicas: TwoReplicas;
let remote: InProcessRemote;
let a: InProcessClient;
let b: InProcessClient;
let base: PlanningBase;

beforeAll(async () => {
  replicas = await startTwoReplicas();
  ({ remote, a, b, base } = replicas);
});

afterAll(async () => {
  await replicas?.close();
});

describe('snoozing an exception on one replica', () => {
  it('leaves it out of that user’s inbox on the other replica and on the remote, and in no one else’s', async () => {
    const today = new Date(nowMs()).toISOString().slice(0, 10);
    const order = await ok(a, 'POST', '/v1/collection', { name: 'SO-77', board_id: base.boardId, due_date: addDays(today, 1) });
    for (const email of ['anna@example.com', 'ben@example.com']) await ok(a, 'POST', '/v1/user', { email, role: 'member' }, 201);
    const users = (await ok(a, 'GET', '/v1/user?limit=100', undefined, 200)).data;
    const anna = users.find((u: any) => u.email === 'anna@example.com').id;
    const ben = users.find((u: any) => u.email === 'ben@example.com').id;
    const key = `unplanned_due:${order.id}`;
    await ok(a, 'POST', '/v1/exception_handling', { user_id: anna, exception_key: key, snoozed_until: addDays(today, 3) }, 201);
    await runSync(a);
    await runSync(b);

    const keys = async (node: InProcessClient | InProcessRemote, userId: string) =>
      (await ok(node, 'GET', `/v1/exception?kind=unplanned_due&user_id=${userId}`, undefined, 200)).data.map((item: any) => item.key);
    for (const node of [b, remote, a]) {
      expect(await keys(node, anna), node.name).not.toContain(key);
      expect(await keys(node, ben), node.name).toContain(key);
    }
  });
});
