/**
 * The sample workshop (docs/API.md "Sample workshop"): loaded in one call, every record marked
 * `sample:`, removed exactly (the planner's own records stay), refused twice, admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../helpers/api-errors.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { startRolesInstance, type RolesInstance } from '../helpers/signed-in.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

async function list(path: string): Promise<any[]> {
  const res = await api.inject('GET', `${path}${path.includes('?') ? '&' : '?'}limit=1000`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const marked = (records: any[]) => records.filter((r) => String(r.external_ref ?? '').startsWith('sample:'));

describe('the sample workshop', () => {
  it('loads a workshop of activities, a board with four stages, resources with an absence, orders, cards and time, all marked', async () => {
    const mine = await api.inject('POST', '/v1/activity', { description: 'Laser cutting' });
    expect(mine.status).toBe(201);

    const loaded = await api.inject('POST', '/v1/sample_workshop');
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
    expect(loaded.body).toMatchObject({ loaded: true, activities: 4, boards: 1, orders: 5, time_entries: 2 });
    expect(loaded.body.resources).toBeGreaterThanOrEqual(4);

    const activities = marked(await list('/v1/activity'));
    expect(activities.map((a) => a.description).sort()).toEqual(['Assembly', 'Painting', 'Sawing', 'Welding']);
    expect(activities.every((a) => a.hourly_rate > 0)).toBe(true);

    const board = (await api.inject('GET', `/v1/board/${loaded.body.board_id}?with=stages`)).body;
    expect(board.external_ref).toMatch(/^sample:/);
    expect(board.stages).toHaveLength(4);

    const resources = marked(await list('/v1/resource?with=schedule_deviations'));
    expect(resources.length).toBeGreaterThanOrEqual(4);
    expect(resources.length).toBeLessThanOrEqual(6);
    expect(resources.flatMap((r) => r.schedule_deviations).map((d: any) => d.type)).toEqual(['vacation']);

    const orders = marked(await list('/v1/order?with=order_rows'));
    expect(orders).toHaveLength(5);
    expect(orders.every((o) => o.order_rows.length > 0 && marked(o.order_rows).length === o.order_rows.length)).toBe(true);

    const collections = marked(await list('/v1/collection'));
    expect(collections).toHaveLength(5);
    const planned = collections.filter((c) => c.board_id === board.id && c.status !== 'not_planned');
    expect(planned.length).toBeGreaterThanOrEqual(2);
    expect(planned.length).toBeLessThan(5);
    const cards = await list(`/v1/card?filter=board_id:eq:${board.id}`);
    expect(cards.length).toBeGreaterThan(0);

    const entries = marked(await list('/v1/time_tracking'));
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.card_id && e.duration > 0)).toBe(true);

    expect((await api.inject('GET', '/v1/sample_workshop')).body).toMatchObject({ loaded: true, board_id: board.id });
  });

  it('refuses a second load with 409 and changes nothing', async () => {
    const before = (await list('/v1/order')).length;
    const again = await api.inject('POST', '/v1/sample_workshop');
    expect(again.status).toBe(409);
    expectErrorBody(again.body, 10409, 'Conflict');
    expect((await list('/v1/order')).length).toBe(before);
  });

  it("removes exactly the sample records, also one the planner edited, and keeps the planner's own", async () => {
    const ownOrder = await api.inject('POST', '/v1/order', { code: 'MY-1', description: 'My own order' });
    expect(ownOrder.status).toBe(201);
    const sampleActivity = marked(await list('/v1/activity'))[0];
    const edited = await api.inject('PUT', `/v1/activity/${sampleActivity.id}`, { description: 'Sawing (ours now)' });
    expect(edited.status).toBe(200);

    const removed = await api.inject('DELETE', '/v1/sample_workshop');
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toMatchObject({ loaded: false, activities: 0, boards: 0, resources: 0, orders: 0, time_entries: 0 });

    for (const path of ['/v1/activity', '/v1/board', '/v1/resource', '/v1/order', '/v1/collection', '/v1/time_tracking']) {
      expect(marked(await list(path)), path).toEqual([]);
    }
    expect((await list('/v1/activity')).map((a) => a.description)).toEqual(['Laser cutting']);
    expect((await list('/v1/order')).map((o) => o.code)).toEqual(['MY-1']);
    expect((await api.inject('GET', '/v1/sample_workshop')).body.loaded).toBe(false);
  });

  it('answers 404 to removing a sample that is not there, and loads again after a removal', async () => {
    const none = await api.inject('DELETE', '/v1/sample_workshop');
    expect(none.status).toBe(404);
    expectErrorBody(none.body, 10404, 'Not Found');
    const again = await api.inject('POST', '/v1/sample_workshop');
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect((await api.inject('DELETE', '/v1/sample_workshop')).status).toBe(200);
  });

  it("keeps the sample while a planner's own order is planned on its board (409), and changes nothing", async () => {
    const loaded = (await api.inject('POST', '/v1/sample_workshop')).body;
    const own = (await api.inject('POST', '/v1/collection', { name: 'My job', board_id: loaded.board_id })).body;
    const plan = await api.inject('POST', `/v1/collection/${own.id}/board/${loaded.board_id}`, {});
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const refused = await api.inject('DELETE', '/v1/sample_workshop');
    expect(refused.status).toBe(409);
    expectErrorBody(refused.body, 10409, 'Conflict');
    expect((await api.inject('GET', '/v1/sample_workshop')).body).toMatchObject({ loaded: true, orders: 5 });
    expect((await api.inject('DELETE', `/v1/collection/${own.id}`)).status).toBe(204);
    expect((await api.inject('DELETE', '/v1/sample_workshop')).status).toBe(200);
  });
});

describe('who loads the sample workshop', () => {
  let roles: RolesInstance;
  beforeAll(async () => {
    roles = await startRolesInstance('sample');
  });
  afterAll(async () => {
    await roles.stop();
  });

  it('lets an admin load and remove it, and refuses a manager and a member with 403', async () => {
    for (const role of ['manager', 'member']) {
      const user = await roles.signIn(`${role}@example.com`, role);
      const refused = await roles.as(user)('POST', '/v1/sample_workshop');
      expect(refused.status, role).toBe(403);
      expectErrorBody(refused.body, 10403, 'Forbidden');
      expect((await roles.byKey('GET', '/v1/sample_workshop')).body.loaded).toBe(false);
    }
    const admin = await roles.signIn('admin@example.com', 'admin');
    expect((await roles.as(admin)('POST', '/v1/sample_workshop')).status).toBe(201);
    const member = await roles.signIn('member2@example.com', 'member');
    expect((await roles.as(member)('DELETE', '/v1/sample_workshop')).status).toBe(403);
    expect((await roles.as(admin)('DELETE', '/v1/sample_workshop')).status).toBe(200);
  });
});
