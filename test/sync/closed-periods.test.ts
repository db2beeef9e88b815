/**
 * A closed payroll period on the remote holds against a replica's offline edits (docs/API.md
 * "Closed periods", "Sync"): A changes and books November time while it does not sync, the
 * remote closes November meanwhile; A's push is refused, each change lands in A's conflict list
 * with the period named and its data kept, the remote's entries stay as they were, and the
 * period reaches A, whose own API then refuses the same writes. Real SQLite, real HTTP on
 * 127.0.0.1: an in-process remote (from PostgreSQL in the `postgres` project) and two
 * in-process replicas. The dates are hard: an entry on 2026-11-20, a period of November 2026.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok } from '../helpers/sync-cluster.js';
import { conflicts, type PlanningBase } from '../helpers/sync-data.js';
import type { InProcessClient, InProcessRemote } from '../helpers/sync-inprocess.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';

let replicas: TwoReplicas;
let remote: InProcessRemote;
let a: InProcessClient;
let base: PlanningBase;

const november = 'The period 2026-11-01 – 2026-11-30 is closed for payroll';

beforeAll(async () => {
  replicas = await startTwoReplicas();
  ({ remote, a, base } = replicas);
});

afterAll(async () => {
  await replicas?.close();
});

describe('a period closed on the remote while a replica was offline', () => {
  it("refuses the replica's edit, new entry and restore inside it: each ends in its conflict list with the reason, nothing is lost or written", async () => {
    const booked = { card_id: null, activity_id: base.activityId, start: '2026-11-20T08:00:00Z', end: '2026-11-20T09:00:00Z' };
    const entry = await ok(a, 'POST', '/v1/time_tracking', booked, 201);
    const dropped = await ok(
      a,
      'POST',
      '/v1/time_tracking',
      { ...booked, start: '2026-11-23T08:00:00Z', end: '2026-11-23T09:00:00Z' },
      201,
    );
    await ok(a, 'DELETE', `/v1/time_tracking/${dropped.id}`, undefined, 204);
    await runSync(a);
    expect((await ok(remote, 'GET', `/v1/time_tracking/${entry.id}`, undefined, 200)).note).toBeNull();

    // Offline on A: an edit of the entry, and one more entry that month.
    await ok(a, 'PUT', `/v1/time_tracking/${entry.id}`, { note: 'welded the frames' }, 200);
    const added = await ok(a, 'POST', '/v1/time_tracking', { ...booked, start: '2026-11-21T08:00:00Z', end: '2026-11-21T10:00:00Z' }, 201);
    await ok(a, 'POST', `/v1/trash/time_tracking/${dropped.id}/restore`, undefined, 200);
    // Meanwhile the remote's admin (its API key) closes November.
    const period = await ok(remote, 'POST', '/v1/time_tracking/period', { start: '2026-11-01', end: '2026-11-30' }, 201);

    const summary = await ok(a, 'POST', '/v1/sync/run', undefined, 200);
    expect(summary).toMatchObject({ rejected: 3, error: null });
    const refused = await conflicts(a);
    expect(refused.map((c) => c.mutation.id).sort()).toEqual([entry.id, added.id, dropped.id].sort());
    for (const conflict of refused) {
      expect(conflict.error.errors[0]).toMatchObject({ code: 10409 });
      expect(conflict.error.errors[0].description).toContain(november);
    }
    // The change is not lost: the conflict holds its data.
    expect(refused.find((c) => c.mutation.id === entry.id).mutation.fields).toMatchObject({ note: 'welded the frames' });
    expect(refused.find((c) => c.mutation.id === added.id).mutation.fields).toMatchObject({ start: '2026-11-21T08:00:00Z' });

    // Nothing of it on the remote.
    expect((await ok(remote, 'GET', `/v1/time_tracking/${entry.id}`, undefined, 200)).note).toBeNull();
    expect((await call(remote, 'GET', `/v1/time_tracking/${added.id}`)).status).toBe(404);
    expect((await call(remote, 'GET', `/v1/time_tracking/${dropped.id}`)).status).toBe(404);

    // The period reached A, whose own API now refuses what the remote refused.
    await runSync(a);
    const onA = await ok(a, 'GET', '/v1/time_tracking/period', undefined, 200);
    expect(onA.data.map((p: any) => p.id)).toEqual([period.id]);
    // With the balances the remote froze when it closed (docs/API.md "Overtime balance").
    expect(period.overtime_closing).toEqual(expect.any(Object));
    expect(onA.data[0].overtime_closing).toEqual(period.overtime_closing);
    const again = await call(a, 'PUT', `/v1/time_tracking/${entry.id}`, { note: 'once more' });
    expect(again.status, JSON.stringify(again.body)).toBe(409);
    expect(again.body.errors[0].description).toContain(november);
  });
});
