/**
 * Finite planning on a team server (docs/API.md "Finite-capacity planning", docs/architecture.md
 * "Races between nodes"): two planners plan collections finite onto one board at the same
 * moment through two nodes. Each plan reads the board's free minutes and takes some; the board's
 * record is locked for it, so the second waits for the first and sees what it took. No day of
 * the board is ever planned over what it has.
 *
 * Board Press (Mon–Fri), one stage allowing Pressing, one operator 8 h a day there: 480 free
 * minutes a workday from Mon 2027-03-01. Two collections of 1,440 minutes (three full days)
 * each, planned finite from that Monday at once: one takes Mon–Wed, the other Thu–Mon.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/instance.js';
import { startKeyedTeam, type KeyedTeam } from '../../helpers/team-nodes.js';

let keyed: KeyedTeam | undefined;
const ids: Record<string, string> = {};

async function ok(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await call(base, method, path, keyed!.headers, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

beforeAll(async () => {
  keyed = await startKeyedTeam('planning', 'press', 'team-planning-key-1234');
  const [a] = keyed.nodes.urls as [string];
  ids.pressing = (await ok(a, 'POST', '/v1/activity', { description: 'Pressing', resource_type: 'employee' })).id;
  const board = await ok(a, 'POST', '/v1/board?with=stages', {
    name: 'Press',
    workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
    statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    stages: [{ name: 'Press', priority: 0, activities: [{ id: ids.pressing, priority: 0 }] }],
  });
  ids.board = board.id;
  await ok(a, 'POST', '/v1/resource', {
    name: 'Operator',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
    boards: [{ id: board.id, active: true, stages: [{ id: board.stages[0].id, percentage: 100, active: true }] }],
  });
  for (const name of ['North', 'South'])
    ids[name] = (await ok(a, 'POST', '/v1/collection', { name, board_id: board.id, activities: [{ id: ids.pressing, time: 1440 }] })).id;
}, 120_000);

afterAll(async () => {
  await keyed?.stop();
});

describe('finite planning on two nodes at once', () => {
  it('never plans a day of the board over what it has: the second plan waits for the first', async () => {
    const [a, b] = keyed!.nodes.urls as [string, string];
    for (let round = 0; round < 6; round++) {
      const plans = await Promise.all(
        (
          [
            [a, 'North'],
            [b, 'South'],
          ] as const
        ).map(([node, name]) =>
          call(node, 'POST', `/v1/collection/${ids[name]}/board/${ids.board}`, keyed!.headers, { start: '2027-03-01', capacity: 'finite' }),
        ),
      );
      for (const plan of plans) expect(plan.status, JSON.stringify(plan.body)).toBe(200);
      const days = plans.map((plan) => plan.body.cards.map((c: { start_date: string; end_date: string }) => [c.start_date, c.end_date]));
      expect(days.sort()).toEqual([[['2027-03-01', '2027-03-03']], [['2027-03-04', '2027-03-08']]].sort());
      const load = await ok(a, 'GET', `/v1/board/${ids.board}/capacity/stage?date_range_start=2027-03-01&date_range_end=2027-03-12`);
      for (const day of load.data as { date: string; stage: { time_available: number; time_planned: number }[] }[])
        expect(day.stage[0]!.time_planned, `${day.date} in round ${round}`).toBeLessThanOrEqual(day.stage[0]!.time_available);
      // Both back to the backlog for the next round, through either node.
      await ok(b, 'POST', `/v1/collection/${ids.North}/backlog`);
      await ok(a, 'POST', `/v1/collection/${ids.South}/backlog`);
    }
  });
});
