/**
 * A board's backlog (docs/API.md "Board", `boardBacklogFilter` in shared/resources/board.ts):
 * the filter the planboard's backlog lists with, run against the real API over HTTP. A
 * board without its own backlog (`own_backlog: false`) lists its unplanned collections and the
 * shared backlog — unplanned collections on no board, where orders put theirs; a board with
 * `own_backlog: true` lists only its own. Planning a collection from the shared backlog puts it
 * on that board.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardBacklogFilter } from '../../shared/resources/board.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { createActivities, createBoard, createCollection, plan, type Activities, type BoardIds } from '../helpers/planning.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let acts: Activities;
let shared: BoardIds;
let alsoShared: BoardIds;
let own: BoardIds;

beforeAll(async () => {
  api = await startTestApi();
  acts = await createActivities(api);
  shared = await createBoard(api, acts, { name: 'Shared backlog', stages: [{ name: 'Painting', activities: ['Paint'] }] });
  alsoShared = await createBoard(api, acts, { name: 'Also shared', stages: [{ name: 'Painting', activities: ['Paint'] }] });
  own = await createBoard(api, acts, { name: 'Own backlog', stages: [{ name: 'Welding', activities: ['Weld'] }] });
  const res = await api.http('PUT', `/v1/board/${own.id}`, { own_backlog: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(async () => {
  await api.close();
});

async function boardRecord(id: string): Promise<{ id: string; own_backlog: boolean }> {
  const res = await api.http('GET', `/v1/board/${id}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The names in a board's backlog, as the planboard reads it. */
async function backlogOf(board: BoardIds): Promise<string[]> {
  const params = new URLSearchParams({ filter: boardBacklogFilter(await boardRecord(board.id)), limit: '1000' });
  const res = await api.http('GET', `/v1/collection?${params}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((collection: { name: string }) => collection.name);
}

async function orderCollection(code: string): Promise<any> {
  const order = await api.http('POST', '/v1/order', { code, order_rows: [{ activity_id: acts.Paint, quantity: 2, unit: 'hours' }] });
  expect(order.status, JSON.stringify(order.body)).toBe(201);
  const collection = await api.http('GET', `/v1/collection/${order.body.collection_id}`);
  expect(collection.body).toMatchObject({ name: code, board_id: null, status: 'not_planned' });
  return collection.body;
}

describe('the backlog of a board', () => {
  it('a new board shares the backlog of collections on no board', async () => {
    const created = await api.http('POST', '/v1/board', { name: 'Defaults' });
    expect(created.status).toBe(201);
    expect(created.body.own_backlog).toBe(false);
  });

  it('without its own backlog: its unplanned collections and those on no board, nothing planned, ignored or of another board', async () => {
    await orderCollection('ORD-SHARED');
    await createCollection(api, shared.id, acts, { Paint: 60 }, { name: 'Shared own' });
    await createCollection(api, shared.id, acts, { Paint: 60 }, { name: 'Shared ignored', status: 'ignored' });
    await createCollection(api, own.id, acts, { Weld: 60 }, { name: 'Own own' });
    const planned = await createCollection(api, shared.id, acts, { Paint: 60 }, { name: 'Shared planned' });
    await plan(api, planned.id, shared.id, { start: '2025-03-03' });

    const backlog = await backlogOf(shared);
    expect(backlog).toEqual(expect.arrayContaining(['ORD-SHARED', 'Shared own']));
    expect(backlog).not.toContain('Shared ignored');
    expect(backlog).not.toContain('Shared planned');
    expect(backlog).not.toContain('Own own');
    expect(await backlogOf(alsoShared)).toContain('ORD-SHARED');
  });

  it('with its own backlog: only its own unplanned collections', async () => {
    await orderCollection('ORD-NOT-OWN');
    const backlog = await backlogOf(own);
    expect(backlog).toContain('Own own');
    expect(backlog).not.toContain('ORD-NOT-OWN');
    expect(backlog).not.toContain('Shared own');
  });

  it('planning a collection of the shared backlog puts it on that board; sent back, it stays in that board’s backlog only', async () => {
    const collection = await orderCollection('ORD-PLAN');
    const planned = await plan(api, collection.id, alsoShared.id, { start: '2025-03-03' });
    expect(planned).toMatchObject({ board_id: alsoShared.id, status: 'planned' });
    expect(planned.cards).toHaveLength(1);
    expect(planned.cards[0]).toMatchObject({ board_id: alsoShared.id, start_date: '2025-03-03' });
    expect(await backlogOf(shared)).not.toContain('ORD-PLAN');
    expect(await backlogOf(alsoShared)).not.toContain('ORD-PLAN');

    const back = await api.http('POST', `/v1/collection/${collection.id}/backlog`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ board_id: alsoShared.id, status: 'not_planned' });
    expect(await backlogOf(alsoShared)).toContain('ORD-PLAN');
    expect(await backlogOf(shared)).not.toContain('ORD-PLAN');
  });

  it('a board that takes on its own backlog stops listing the shared one', async () => {
    await orderCollection('ORD-SWITCH');
    expect(await backlogOf(alsoShared)).toContain('ORD-SWITCH');
    expect((await api.http('PUT', `/v1/board/${alsoShared.id}`, { own_backlog: true })).status).toBe(200);
    expect(await backlogOf(alsoShared)).not.toContain('ORD-SWITCH');
    expect(await backlogOf(alsoShared)).toContain('ORD-PLAN');
    expect((await api.http('PUT', `/v1/board/${alsoShared.id}`, { own_backlog: false })).status).toBe(200);
  });

  it('refuses an own_backlog that is not true or false with 422, changing nothing', async () => {
    const res = await api.http('PUT', `/v1/board/${shared.id}`, { own_backlog: 'yes' });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((error: { field?: string }) => error.field)).toEqual(['own_backlog']);
    expect((await boardRecord(shared.id)).own_backlog).toBe(false);
  });
});
