/**
 * A company holiday syncs as one record and holds on every replica for every resource, one
 * made there too (docs/API.md "Absences and holidays", "Sync"): a holiday entered on replica A
 * and a resource made on replica B while they had not synced meet on B, on A and on the
 * remote, in the resource's schedule, its deviation list and the board's capacity. Real
 * SQLite, real HTTP on 127.0.0.1: an in-process remote (from PostgreSQL in the `postgres`
 * project) and two in-process replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/sync-cluster.js';
import type { PlanningBase } from '../helpers/sync-data.js';
import type { InProcessClient, InProcessRemote } from '../helpers/sync-inprocess.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';

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

const fullWeek = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };

/** The resource's available minutes on each day from `start` to `end`, as `node` has them. */
async function available(node: InProcessClient | InProcessRemote, resourceId: string, start: string, end: string): Promise<number[]> {
  const days = await ok(node, 'GET', `/v1/resource/${resourceId}/schedule?filter=date:gte:${start},and,date:lte:${end}`, undefined, 200);
  return days.data.map((day: any) => day.available);
}

describe('a company holiday made on one replica', () => {
  it('holds on another replica for a resource made there before they synced, and on the remote', async () => {
    // Fri 2027-12-24 … Mon 2027-12-27: Christmas is Sat 25 and Sun 26, so the second
    // Christmas day of the Dutch calendar, Mon 27, is the one that takes a workday here.
    const added = await ok(
      a,
      'POST',
      '/v1/schedule_deviation/holidays',
      { description: 'Second Christmas Day', start_date: '2027-12-27' },
      201,
    );
    const cees = await ok(b, 'POST', '/v1/resource', {
      name: 'Cees',
      workdays: fullWeek,
      boards: [{ id: base.boardId, stages: [{ id: base.stages[0] }] }],
    });
    expect(await available(b, cees.id, '2027-12-27', '2027-12-27')).toEqual([480]);
    await runSync(a);
    await runSync(b);
    await runSync(a);

    for (const node of [b, a, remote]) {
      expect(await available(node, cees.id, '2027-12-24', '2027-12-28'), node.name).toEqual([480, 0, 0, 0, 480]);
      const deviations = await ok(node, 'GET', `/v1/resource/${cees.id}/schedule_deviation`, undefined, 200);
      expect(deviations.data, node.name).toEqual([
        expect.objectContaining({ type: 'holiday', description: 'Second Christmas Day', company_holiday_id: added.company_holidays[0].id }),
      ]);
      const capacity = await ok(
        node,
        'GET',
        `/v1/board/${base.boardId}/capacity/resource?date_range_start=2027-12-27&date_range_end=2027-12-28&time_frame=day`,
        undefined,
        200,
      );
      const cees_ = (day: number) => capacity.data[day].resource.find((r: any) => r.id === cees.id).time_available;
      expect([cees_(0), cees_(1)], node.name).toEqual([0, 480]);
    }
    // One record synced, not a copy per resource: the same id everywhere, the same derived deviation id.
    const ids = async (node: InProcessClient | InProcessRemote) =>
      (await ok(node, 'GET', `/v1/resource/${cees.id}/schedule_deviation`, undefined, 200)).data.map((d: any) => d.id);
    expect(await ids(a)).toEqual(await ids(b));
    expect(await ids(remote)).toEqual(await ids(b));
  });

  it('of a group holds for someone added to the group on another replica', async () => {
    const group = await ok(a, 'POST', '/v1/group', { name: 'Night shift' });
    await ok(
      a,
      'POST',
      '/v1/schedule_deviation/holidays',
      { description: 'Shift outing', start_date: '2027-06-02', group_id: group.id },
      201,
    );
    const dora = await ok(b, 'POST', '/v1/resource', { name: 'Dora', workdays: fullWeek });
    await runSync(a);
    await runSync(b);
    expect(await available(b, dora.id, '2027-06-02', '2027-06-02')).toEqual([480]);
    await ok(b, 'PUT', `/v1/group/${group.id}`, { resources: [{ id: dora.id }] }, 200);
    expect(await available(b, dora.id, '2027-06-02', '2027-06-02')).toEqual([0]);
    await runSync(b);
    await runSync(a);
    expect(await available(a, dora.id, '2027-06-01', '2027-06-03')).toEqual([480, 0, 480]);
    expect(await available(remote, dora.id, '2027-06-01', '2027-06-03')).toEqual([480, 0, 480]);
  });
});
