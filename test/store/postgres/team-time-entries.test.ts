/**
 * Time entries on a team server (docs/API.md "Time tracking"): a user's entries written at the
 * same moment through two nodes. The day limit (24 hours on a day) and the one running timer
 * per user are decided on the user's other entries; the user's record is locked for that, so
 * the second write waits for the first and sees it. Entries that replicas push are locked the
 * same way (docs/architecture.md "Races between nodes").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridClock } from '../../../shared/hlc.js';
import { uuidv7 } from '../../../shared/ids.js';
import { call as callWith } from '../../helpers/instance.js';
import { startKeyedTeam, type KeyedTeam } from '../../helpers/team-nodes.js';

let keyed: KeyedTeam | undefined;
const ids: Record<string, string> = {};

const call = (base: string, method: string, path: string, body?: unknown) => callWith(base, method, path, keyed!.headers, body);

beforeAll(async () => {
  keyed = await startKeyedTeam('hours', 'hours', 'team-hours-key-1234');
  const [a] = keyed.nodes.urls as [string];
  ids.activity = (await call(a, 'POST', '/v1/activity', { description: 'Welding' })).body.id;
  expect((await call(a, 'POST', '/v1/user', { email: 'ruth@example.com', role: 'member' })).status).toBe(201);
  ids.user = (await call(a, 'GET', '/v1/user')).body.data[0].id;
}, 120_000);

afterAll(async () => {
  await keyed?.stop();
});

describe("a user's entries written at once on two nodes", () => {
  it('book no more than 24 hours on a day: of two 14-hour entries one is refused with dayLimit', async () => {
    const [a, b] = keyed!.nodes.urls as [string, string];
    for (let day = 1; day <= 6; day++) {
      const date = `2027-04-0${day}`;
      const answers = await Promise.all(
        [a, b].map((node, i) =>
          call(node, 'POST', '/v1/time_tracking', {
            activity_id: ids.activity,
            user_id: ids.user,
            start: `${date}T0${i * 5}:00:00Z`,
            duration: 14 * 60,
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body))).toEqual([201, 422]);
      expect(answers.find((answer) => answer.status === 422)!.body.errors[0]).toMatchObject({ rule: 'dayLimit' });
    }
    const entries = await call(a, 'GET', `/v1/time_tracking?filter=user_id:eq:${ids.user}&limit=100`);
    expect(entries.body.count).toBe(6);
  });

  it('keep one running timer: of two timers started at once, the later start stops the other', async () => {
    const [a, b] = keyed!.nodes.urls as [string, string];
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        [a, b].map((node) => call(node, 'POST', '/v1/time_tracking/start', { activity_id: ids.activity, user_id: ids.user })),
      );
      const running = await call(a, 'GET', `/v1/time_tracking?filter=user_id:eq:${ids.user},and,running:eq:true&limit=100`);
      expect(running.body.count, `round ${round}`).toBe(1);
      expect((await call(b, 'POST', '/v1/time_tracking/stop', { user_id: ids.user })).status).toBe(200);
    }
  });

  it('take turns when replicas push them too: of two 14-hour entries pushed at once, one is rejected with dayLimit', async () => {
    const [a, b] = keyed!.nodes.urls as [string, string];
    for (let day = 1; day <= 6; day++) {
      const date = `2027-06-0${day}`;
      const answers = await Promise.all(
        [a, b].map((node, i) =>
          call(node, 'POST', '/v1/sync/push', {
            client_id: `hours-replica-${day}-${i}`,
            mutations: [
              {
                mutation_id: 1,
                resource: 'time_tracking',
                id: uuidv7(),
                op: 'create',
                fields: {
                  activity_id: ids.activity,
                  user_id: ids.user,
                  start: `${date}T0${i * 5}:00:00Z`,
                  end: `${date}T${String(i * 5 + 14).padStart(2, '0')}:00:00Z`,
                },
                hlc: new HybridClock(`hours${day}${i}000000`.slice(0, 12)).now(),
              },
            ],
          }),
        ),
      );
      for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const results = answers.map((answer) => answer.body.results[0]);
      expect(results.map((r) => r.status).sort(), `day ${day}: ${JSON.stringify(results)}`).toEqual(['applied', 'rejected']);
      expect(JSON.stringify(results.find((r) => r.status === 'rejected'))).toContain('dayLimit');
    }
    const entries = await call(a, 'GET', `/v1/time_tracking?filter=user_id:eq:${ids.user},and,start:gte:2027-06-01T00:00:00Z&limit=100`);
    expect(entries.body.count).toBe(6);
  });
});
