/**
 * A replica's scenarios never sync (docs/API.md "Scenarios"): what a planner writes in a
 * scenario on replica A stays there through sync runs, and neither the remote nor replica B
 * has it, nor the scenario itself; once promoted on A, the promote syncs like any command and
 * reaches B. A remote and two replicas in the test's process, over real HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookOf } from '../../electron/api/sync/books.js';
import { ok } from '../helpers/sync-cluster.js';
import { fixTheClock } from '../helpers/test-clock.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';

let replicas: TwoReplicas;

beforeAll(async () => {
  fixTheClock();
  replicas = await startTwoReplicas();
});
afterAll(async () => {
  await replicas?.close();
});

describe("a replica's scenario", () => {
  it('never reaches the remote or another replica; its promote does, as one command', async () => {
    const { a, b, remote, base } = replicas;
    const order = await ok(a, 'POST', '/v1/collection', { name: 'Sync order', board_id: base.boardId });
    const frame = await ok(a, 'POST', `/v1/collection/${order.id}/card`, {
      stage_id: base.stages[0],
      name: 'Frame',
      start_date: '2027-09-06',
      end_date: '2027-09-07',
    });
    await runSync(a);
    await runSync(b);

    const scenario = await ok(a, 'POST', '/v1/scenario', { name: 'Frames later' });
    const inScenario = { ...a, headers: { ...a.headers, 'x-planner-scenario': scenario.id } };
    const cardPath = `/v1/collection/${order.id}/card/${frame.id}`;
    await ok(inScenario, 'PUT', cardPath, { start_date: '2027-09-13', end_date: '2027-09-14' });
    const extra = await ok(inScenario, 'POST', '/v1/collection', { name: 'Only in the scenario', board_id: base.boardId });
    const book = bookOf(a.instance.dataDir.environment(a.instance.environment.id));
    expect(book.pendingCount()).toBe(0);

    await runSync(a);
    await runSync(b);
    for (const node of [remote, b]) {
      expect((await ok(node, 'GET', cardPath)).start_date).toBe('2027-09-06');
      expect((await fetch(`${node.url}/v1/collection/${extra.id}`, { headers: node.headers })).status).toBe(404);
      expect((await ok(node, 'GET', '/v1/scenario')).data).toEqual([]);
    }
    expect((await ok(inScenario, 'GET', cardPath)).start_date).toBe('2027-09-13');

    const promoted = await ok(a, 'POST', `/v1/scenario/${scenario.id}/promote`, {}, 200);
    const queued = book.pending(1000);
    expect(queued.length).toBeGreaterThanOrEqual(2);
    expect(new Set(queued.map((m) => m.group_id))).toEqual(new Set([promoted.command_id]));
    await runSync(a);
    await runSync(b);
    expect((await ok(b, 'GET', cardPath)).start_date).toBe('2027-09-13');
    expect((await ok(b, 'GET', `/v1/collection/${extra.id}`)).name).toBe('Only in the scenario');
  });
});
