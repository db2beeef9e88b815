/**
 * Surcharge rules and hour codes are base data that syncs (docs/API.md "Surcharge rules"): a
 * rule and an activity's hour code made on replica A split the hours in replica B's time report
 * and the remote's once both synced, and a change on B comes back to A. Real SQLite, real HTTP
 * on 127.0.0.1: an in-process remote (from PostgreSQL in the `postgres` project) and two
 * in-process replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/sync-cluster.js';
import type { InProcessClient, InProcessRemote } from '../helpers/sync-inprocess.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';
import { fixTheClock } from '../helpers/test-clock.js';

// The entry lies before the run's fixed day, whatever the machine's date.
fixTheClock();

let replicas: TwoReplicas;
let remote: InProcessRemote;
let a: InProcessClient;
let b: InProcessClient;

beforeAll(async () => {
  replicas = await startTwoReplicas();
  ({ remote, a, b } = replicas);
});

afterAll(async () => {
  await replicas?.close();
});

describe('a surcharge rule made on one replica', () => {
  it('splits the hours on the other replica and on the remote, and a change comes back', async () => {
    const activity = await ok(a, 'POST', '/v1/activity', { description: 'Grinding', hour_code: 'ORD' }, 201);
    const rule = await ok(a, 'POST', '/v1/surcharge_rule', { name: 'Saturday', weekdays: [6], percentage: 150, hour_code: 'SAT' }, 201);
    // Saturday 28 November 2026, 10:00–12:00 CET; no user: split in Europe/Amsterdam.
    await ok(a, 'POST', '/v1/time_tracking', { activity_id: activity.id, start: '2026-11-28T09:00:00Z', end: '2026-11-28T11:00:00Z' }, 201);
    await runSync(a);
    await runSync(b);
    const split = async (node: InProcessClient | InProcessRemote) =>
      (await ok(node, 'GET', '/v1/time_tracking/export?start=2026-11-28&end=2026-11-28&timezone=Europe/Amsterdam', undefined, 200))
        .hour_codes;
    for (const node of [b, remote]) expect(await split(node), node.name).toEqual([{ hour_code: 'SAT', percentage: 150, minutes: 120 }]);

    await ok(b, 'PUT', `/v1/surcharge_rule/${rule.id as string}`, { percentage: 175 }, 200);
    await runSync(b);
    await runSync(a);
    expect(await split(a)).toEqual([{ hour_code: 'SAT', percentage: 175, minutes: 120 }]);
  });
});
