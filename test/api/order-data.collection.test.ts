/**
 * The collection an order creates and keeps in step (docs/API.md "Orders and their collection", the head of
 * electron/api/resources/order-collection.ts), rows supplying rows of other orders, and the
 * collection status rule a client must follow (§4.9).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { countOf, create, createFixtures, expectErrorBody, expectFieldErrors, get, type Fixtures } from '../helpers/order-data.js';
import { cardsOf, createActivities, createBoard, plan } from '../helpers/planning.js';

let api: TestApi;
let fx: Fixtures;
/** Activities the rows point at. */
let cutting: any;
let welding: any;
let packing: any;
/** The board client-created collections name (board_id is required and must name a board). */
let boardId: string;

beforeAll(async () => {
  api = await startTestApi();
  fx = await createFixtures(api);
  cutting = await create(api, '/v1/activity', { description: 'Cutting' });
  welding = await create(api, '/v1/activity', { description: 'Welding' });
  packing = await create(api, '/v1/activity', { description: 'Packing' });
  boardId = (await create(api, '/v1/board', { name: 'Workshop' })).id;
});
afterAll(async () => {
  await api.close();
});

async function collectionOf(order: { collection_id: string }, withs = 'activities'): Promise<any> {
  return get(api, `/v1/collection/${order.collection_id}?with=${withs}`);
}

/** The collection's activity minutes by activity id. */
async function minutesOf(order: { collection_id: string }): Promise<Record<string, number>> {
  const collection = await collectionOf(order);
  return Object.fromEntries(collection.activities.map((a: any) => [a.id, a.time]));
}

describe('creating an order creates its collection', () => {
  it('makes a not-planned order collection named after the code, described as "3x Chair"', async () => {
    const order = await create(api, '/v1/order', { code: 'SO-1', description: 'Chair', quantity: 3 });
    expect(order.collection_id).toEqual(expect.any(String));
    const collection = await collectionOf(order, '');
    expect(collection).toMatchObject({
      id: order.collection_id,
      source_type: 'order',
      status: 'not_planned',
      name: 'SO-1',
      description: '3x Chair',
      due_date: null,
    });
  });

  it('describes it with just the description when the quantity is null', async () => {
    const order = await create(api, '/v1/order', { code: 'SO-2', description: 'Table', quantity: null });
    expect((await collectionOf(order, '')).description).toBe('Table');
  });

  it('takes due_date from promised_date, else from desired_date', async () => {
    const promised = await create(api, '/v1/order', { code: 'SO-3', promised_date: '2026-05-01', desired_date: '2026-04-01' });
    expect((await collectionOf(promised, '')).due_date).toBe('2026-05-01');
    const desired = await create(api, '/v1/order', { code: 'SO-4', desired_date: '2026-04-01' });
    expect((await collectionOf(desired, '')).due_date).toBe('2026-04-01');
  });

  it('fills meta with the order type and status, address (one line), relation and project names and the dates', async () => {
    const order = await create(api, '/v1/order', {
      code: 'SO-5',
      type: 'Sales',
      status: 'open',
      address_id: fx.addressId,
      relation_id: fx.relationId,
      project_id: fx.projectId,
      promised_date: '2026-06-30',
      desired_date: '2026-06-15',
    });
    const { meta } = await collectionOf(order, '');
    expect(meta).toMatchObject({
      order_type: 'Sales',
      order_status: 'open',
      relation: 'Fixture relation',
      project: 'Fixture project',
      promised_date: '2026-06-30',
      desired_date: '2026-06-15',
    });
    expect(typeof meta.address).toBe('string');
    expect(meta.address).toContain('Fixture address');
    expect(meta.address).not.toMatch(/[\r\n]/);
  });

  it('writes the full address on one line', async () => {
    const address = await create(api, '/v1/address', {
      name: 'Acme HQ',
      street1: 'Damrak 1',
      street2: '3rd floor',
      postal_code: '1012 LG',
      city: 'Amsterdam',
      country: 'NL',
    });
    const order = await create(api, '/v1/order', { code: 'SO-6', address_id: address.id });
    const line: string = (await collectionOf(order, '')).meta.address;
    expect(line).not.toMatch(/[\r\n]/);
    for (const part of ['Acme HQ', 'Damrak 1', '3rd floor', '1012 LG', 'Amsterdam', 'NL']) expect(line).toContain(part);
  });

  it('sets meta keys to null when the order has no such data', async () => {
    const order = await create(api, '/v1/order', { code: 'SO-7' });
    expect((await collectionOf(order, '')).meta).toMatchObject({
      order_type: null,
      order_status: null,
      address: null,
      relation: null,
      project: null,
      promised_date: null,
      desired_date: null,
    });
  });

  it('lists the rows’ activities with minutes: minutes × 1, hours × 60, days × 3600, other units 0, summed per activity', async () => {
    const order = await create(api, '/v1/order', {
      code: 'SO-8',
      order_rows: [
        { activity_id: cutting.id, unit: 'minutes', quantity: 45 },
        { activity_id: cutting.id, unit: 'hours', quantity: 1.5 },
        { activity_id: welding.id, unit: 'days', quantity: 2 },
        { activity_id: packing.id, unit: 'boxes', quantity: 10 },
        { unit: 'hours', quantity: 8 },
      ],
    });
    const collection = await collectionOf(order);
    const byId = Object.fromEntries(collection.activities.map((a: any) => [a.id, a]));
    expect(Object.keys(byId).sort()).toEqual([cutting.id, welding.id, packing.id].sort());
    // Each is the activity itself plus its time (merged, and under `pivot`).
    expect(byId[cutting.id]).toEqual({ ...cutting, time: 45 + 90, pivot: { time: 45 + 90 } });
    expect(byId[welding.id]).toEqual({ ...welding, time: 7200, pivot: { time: 7200 } });
    expect(byId[packing.id]).toEqual({ ...packing, time: 0, pivot: { time: 0 } });
  });

  it('rounds an activity’s minutes to whole minutes', async () => {
    const order = await create(api, '/v1/order', {
      code: 'SO-9',
      order_rows: [
        { activity_id: cutting.id, unit: 'hours', quantity: 0.2561 }, // 15.366
        { activity_id: welding.id, unit: 'minutes', quantity: 10.5 },
      ],
    });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 15, [welding.id]: 11 });
  });

  it('rounds the sum of an activity’s rows, not each row (0.4 + 0.4 minutes is 1)', async () => {
    const order = await create(api, '/v1/order', {
      code: 'SO-10',
      order_rows: [
        { activity_id: cutting.id, unit: 'minutes', quantity: 0.4 },
        { activity_id: cutting.id, unit: 'minutes', quantity: 0.4 },
      ],
    });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 1 });
  });

  it('returns the order with the collection (with=order) and the collection with the order (with=collection)', async () => {
    const order = await create(api, '/v1/order', { code: 'SO-11', description: 'Lamp' });
    const collection = await collectionOf(order, 'order');
    expect(collection.order).toEqual(await get(api, `/v1/order/${order.id}`));
    const withCollection = await get(api, `/v1/order/${order.id}?with=collection`);
    expect(withCollection.collection).toEqual(await collectionOf(order, ''));
  });
});

describe("orders sort by a field of their collection (the order list's planned end)", () => {
  it('sorts by collection.end, unplanned ones with no end together, and by another to-one relation', async () => {
    const acts = await createActivities(api, ['Cut']);
    const board = await createBoard(api, acts, { name: 'Sorting', stages: [{ name: 'Cut', activities: ['Cut'] }] });
    const made: any[] = [];
    for (const [code, hours] of [
      ['SORT-A', 24],
      ['SORT-B', 8],
      ['SORT-C', null],
    ] as const) {
      const order = await create(api, '/v1/order', {
        code,
        board_id: board.id,
        order_rows: hours === null ? [] : [{ activity_id: acts.Cut, quantity: hours, unit: 'hours' }],
      });
      if (hours !== null) await plan(api, order.collection_id, board.id, { start: '2031-03-03' });
      made.push(order);
    }
    const listed = async (sort: string) => {
      const res = await api.inject('GET', `/v1/order?filter=code:starts_with:SORT-&sort=${sort}&with=collection`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as any[];
    };
    const ends = (orders: any[]) => orders.map((order) => [order.code, order.collection.end]);
    // Eight hours end on the first day, 24 on the third; the unplanned order has no end.
    const latestFirst = await listed('collection.end:desc');
    expect(ends(latestFirst).slice(0, 2)).toEqual([
      ['SORT-A', '2031-03-05'],
      ['SORT-B', '2031-03-03'],
    ]);
    const earliestFirst = ends(await listed('collection.end:asc')).filter(([, end]) => end !== null);
    expect(earliestFirst).toEqual([
      ['SORT-B', '2031-03-03'],
      ['SORT-A', '2031-03-05'],
    ]);
    expect((await listed('collection.end:asc')).map((order) => order.code)).toContain('SORT-C');
    // Any to-one relation's own field, with the record's own fields after it.
    expect((await listed('collection.name:desc,code:asc')).map((order) => order.code)).toEqual(['SORT-C', 'SORT-B', 'SORT-A']);
  });

  it('refuses a field the relation lacks, a list relation and an unknown relation with 400', async () => {
    for (const sort of ['collection.nope', 'order_rows.code', 'nothing.end']) {
      const res = await api.inject('GET', `/v1/order?sort=${sort}`);
      expect(res.status, sort).toBe(400);
      expect(res.body.description ?? JSON.stringify(res.body), sort).toContain(`Unknown sort field: ${sort}`);
    }
  });
});

describe('updating an order re-syncs its collection', () => {
  it('follows the order’s code, description, quantity and dates while the collection was not changed', async () => {
    const order = await create(api, '/v1/order', { code: 'UP-1', description: 'Chair', quantity: 3, desired_date: '2026-07-01' });
    const res = await api.http('PUT', `/v1/order/${order.id}`, { code: 'UP-1b', quantity: 5, promised_date: '2026-07-10' });
    expect(res.status).toBe(200);
    expect(await collectionOf(order, '')).toMatchObject({ name: 'UP-1b', description: '5x Chair', due_date: '2026-07-10' });
    await api.http('PUT', `/v1/order/${order.id}`, { description: 'Armchair', promised_date: null });
    expect(await collectionOf(order, '')).toMatchObject({ name: 'UP-1b', description: '5x Armchair', due_date: '2026-07-01' });
  });

  it('keeps a name changed on the collection when the order code changes, while other fields still follow', async () => {
    const order = await create(api, '/v1/order', { code: 'UP-2', description: 'Desk', quantity: 1 });
    const renamed = await api.http('PUT', `/v1/collection/${order.collection_id}`, { name: 'Rush job' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    await api.http('PUT', `/v1/order/${order.id}`, { code: 'UP-2b', quantity: 2 });
    expect(await collectionOf(order, '')).toMatchObject({ name: 'Rush job', description: '2x Desk' });
  });

  it('keeps a description and due date changed on the collection', async () => {
    const order = await create(api, '/v1/order', { code: 'UP-3', description: 'Desk', quantity: 1, promised_date: '2026-08-01' });
    await api.http('PUT', `/v1/collection/${order.collection_id}`, { description: 'Custom text', due_date: '2026-09-09' });
    await api.http('PUT', `/v1/order/${order.id}`, { description: 'Bench', promised_date: '2026-08-15' });
    expect(await collectionOf(order, '')).toMatchObject({ name: 'UP-3', description: 'Custom text', due_date: '2026-09-09' });
  });

  it('always updates meta', async () => {
    const order = await create(api, '/v1/order', { code: 'UP-4', type: 'Sales', status: 'open' });
    await api.http('PUT', `/v1/collection/${order.collection_id}`, { name: 'Changed by hand' });
    const other = await create(api, '/v1/relation', { name: 'Other customer' });
    await api.http('PUT', `/v1/order/${order.id}`, {
      type: 'Production',
      status: 'done',
      relation_id: other.id,
      project_id: fx.projectId,
      promised_date: '2026-10-01',
    });
    expect((await collectionOf(order, '')).meta).toMatchObject({
      order_type: 'Production',
      order_status: 'done',
      relation: 'Other customer',
      project: 'Fixture project',
      promised_date: '2026-10-01',
    });
  });

  it('re-syncs the activity minutes when rows are added, changed and deleted through /v1/order/{id}/row', async () => {
    const order = await create(api, '/v1/order', {
      code: 'UP-5',
      order_rows: [{ activity_id: cutting.id, unit: 'minutes', quantity: 30 }],
    });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 30 });

    const added = await create(api, `/v1/order/${order.id}/row`, { activity_id: welding.id, unit: 'hours', quantity: 2 });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 30, [welding.id]: 120 });

    const changed = await api.http('PUT', `/v1/order/${order.id}/row/${added.id}`, { quantity: 3 });
    expect(changed.status).toBe(200);
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 30, [welding.id]: 180 });

    await api.http('PUT', `/v1/order/${order.id}/row/${added.id}`, { activity_id: cutting.id });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 210 });

    expect((await api.http('DELETE', `/v1/order/${order.id}/row/${added.id}`)).status).toBe(204);
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 30 });
  });

  it('re-syncs the activity minutes when rows are replaced inline by a PUT of the order', async () => {
    const order = await create(api, '/v1/order', {
      code: 'UP-6',
      order_rows: [{ activity_id: cutting.id, unit: 'minutes', quantity: 30 }],
    });
    await api.http('PUT', `/v1/order/${order.id}`, { order_rows: [{ activity_id: packing.id, unit: 'minutes', quantity: 5 }] });
    expect(await minutesOf(order)).toEqual({ [packing.id]: 5 });
  });
});

describe("once its collection is planned, an order no longer changes the collection's activities", () => {
  /** A board whose stages take the rows' activities, so planning makes a card per stage. */
  async function workshop(name: string) {
    const activities = { Cutting: cutting.id, Welding: welding.id, Packing: packing.id };
    const board = await createBoard(api, activities, {
      name,
      stages: [
        { name: 'Cut', activities: ['Cutting'] },
        { name: 'Weld', activities: ['Welding', 'Packing'] },
      ],
    });
    return { board, activities };
  }
  const rowPath = (order: { id: string }, id = '') => `/v1/order/${order.id}/row${id ? `/${id}` : ''}`;
  async function ok(method: string, path: string, body?: unknown): Promise<any> {
    const res = await api.http(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(method === 'DELETE' ? 204 : 200);
    return res.body;
  }

  it('follows row edits in the backlog, stops once planned (cards untouched too), and follows again back in the backlog', async () => {
    const { board, activities } = await workshop('Plan shop');
    const order = await create(api, '/v1/order?with=order_rows', {
      code: 'PL-1',
      description: 'Frame',
      quantity: 2,
      status: 'open',
      order_rows: [{ activity_id: cutting.id, unit: 'minutes', quantity: 30 }],
    });
    const cutRow = order.order_rows[0];
    // In the backlog the collection's activities follow the rows.
    const weldRow = await create(api, rowPath(order), { activity_id: welding.id, unit: 'hours', quantity: 2 });
    await ok('PUT', rowPath(order, cutRow.id), { quantity: 45 });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 45, [welding.id]: 120 });

    const planned = await plan(api, order.collection_id, board.id, { start: '2026-03-02' });
    expect(planned).toMatchObject({ status: 'planned', board_id: board.id, plan_id: expect.any(String) });
    const cards = await cardsOf(api, order.collection_id, board, activities);
    expect(cards.map((c) => [c.stage, c.minutes])).toEqual([
      ['Cut', { Cutting: 45 }],
      ['Weld', { Welding: 120 }],
    ]);

    // Every kind of row change: a quantity, an activity, a new row, a deleted row, rows replaced inline.
    await ok('PUT', rowPath(order, cutRow.id), { quantity: 90 });
    await ok('PUT', rowPath(order, weldRow.id), { activity_id: packing.id });
    await create(api, rowPath(order), { activity_id: welding.id, unit: 'minutes', quantity: 15 });
    await ok('DELETE', rowPath(order, weldRow.id));
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 45, [welding.id]: 120 });
    await ok('PUT', `/v1/order/${order.id}`, { order_rows: [{ activity_id: packing.id, unit: 'minutes', quantity: 5 }] });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 45, [welding.id]: 120 });
    // The plan stands: same cards, same minutes, still planned on the board.
    expect(await cardsOf(api, order.collection_id, board, activities)).toEqual(cards);
    expect(await collectionOf(order, '')).toMatchObject({ status: 'planned', board_id: board.id, plan_id: planned.plan_id });

    // The rest of the order still reaches the collection: name (not changed by hand) and meta.
    await ok('PUT', `/v1/order/${order.id}`, { code: 'PL-1b', status: 'released' });
    const renamed = await collectionOf(order);
    expect(renamed).toMatchObject({ name: 'PL-1b', description: '2x Frame', status: 'planned', meta: { order_status: 'released' } });
    expect(Object.fromEntries(renamed.activities.map((a: any) => [a.id, a.time]))).toEqual({ [cutting.id]: 45, [welding.id]: 120 });

    // Back in the backlog the next row change brings the activities in line with the rows again.
    const back = await api.http('POST', `/v1/collection/${order.collection_id}/backlog`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.status).toBe('not_planned');
    const [packRow] = (await get(api, rowPath(order))).data;
    await ok('PUT', rowPath(order, packRow.id), { quantity: 6 });
    expect(await minutesOf(order)).toEqual({ [packing.id]: 6 });
  });

  it('deleting the order of a planned collection leaves the collection, its activities and its cards', async () => {
    const { board, activities } = await workshop('Delete shop');
    const order = await create(api, '/v1/order', {
      code: 'PL-2',
      order_rows: [{ activity_id: cutting.id, unit: 'minutes', quantity: 60 }],
    });
    await plan(api, order.collection_id, board.id, { start: '2026-03-02' });
    const cards = await cardsOf(api, order.collection_id, board, activities);
    expect(cards).toHaveLength(1);
    expect((await api.http('DELETE', `/v1/order/${order.id}`)).status).toBe(204);
    expect((await api.http('GET', `/v1/order/${order.id}/row`)).body).toMatchObject({ count: 0, data: [] });
    expect(await collectionOf(order, '')).toMatchObject({ status: 'planned', board_id: board.id });
    expect(await minutesOf(order)).toEqual({ [cutting.id]: 60 });
    expect(await cardsOf(api, order.collection_id, board, activities)).toEqual(cards);
  });
});

describe('order rows supplying rows of other orders', () => {
  it('links rowA (order A) to rowB (order B) both ways', async () => {
    const a = await create(api, '/v1/order?with=order_rows', { code: 'SUP-A', type: 'Purchase', order_rows: [{ code: 'rowA' }] });
    const b = await create(api, '/v1/order?with=order_rows', { code: 'SUP-B', type: 'Sales', order_rows: [{ code: 'rowB' }] });
    const rowA = a.order_rows[0];
    const rowB = b.order_rows[0];

    const res = await api.http('PUT', `/v1/order/${a.id}/row/${rowA.id}`, { supplies_order_rows: [{ id: rowB.id }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const supplies = (await get(api, `/v1/order/${a.id}?with=supplies_order_rows`)).supplies_order_rows;
    expect(supplies.map((r: any) => r.id)).toEqual([rowB.id]);
    expect(supplies[0]).toMatchObject({ code: 'rowB', order_id: b.id });

    const receives = (await get(api, `/v1/order/${b.id}/row/${rowB.id}?with=receives_order_rows`)).receives_order_rows;
    expect(receives.map((r: any) => r.id)).toEqual([rowA.id]);
    expect(receives[0]).toMatchObject({ code: 'rowA', order_id: a.id });

    const rowSupplies = (await get(api, `/v1/order/${a.id}/row/${rowA.id}?with=supplies_order_rows`)).supplies_order_rows;
    expect(rowSupplies.map((r: any) => r.id)).toEqual([rowB.id]);
  });

  it('refuses a supplied row that does not exist with 422 on supplies_order_rows.0.id', async () => {
    const a = await create(api, '/v1/order?with=order_rows', { code: 'SUP-C', order_rows: [{ code: 'rowC' }] });
    const res = await api.http('PUT', `/v1/order/${a.id}/row/${a.order_rows[0].id}`, {
      supplies_order_rows: [{ id: '01234567-89ab-7def-8123-456789abcdef' }],
    });
    expectFieldErrors(res, ['supplies_order_rows.0.id']);
  });
});

describe('collection status rule', () => {
  it('lets a client create a collection as not_planned (the default) or ignored', async () => {
    expect((await create(api, '/v1/collection', { board_id: boardId })).status).toBe('not_planned');
    expect((await create(api, '/v1/collection', { board_id: boardId, status: 'not_planned' })).status).toBe('not_planned');
    expect((await create(api, '/v1/collection', { board_id: boardId, status: 'ignored' })).status).toBe('ignored');
  });

  it('refuses to create a planned collection with 422 on status, naming the rule, and writes nothing', async () => {
    const before = await countOf(api, '/v1/collection');
    const res = await api.http('POST', '/v1/collection', { board_id: boardId, status: 'planned' });
    expectFieldErrors(res, ['status']);
    expect(res.body.errors[0].description).toMatch(/not_planned/);
    expect(res.body.errors[0].description).toMatch(/ignored/);
    expect(await countOf(api, '/v1/collection')).toBe(before);
  });

  it('switches between not_planned and ignored in either direction', async () => {
    const collection = await create(api, '/v1/collection', { board_id: boardId });
    const toIgnored = await api.http('PUT', `/v1/collection/${collection.id}`, { status: 'ignored' });
    expect(toIgnored.status).toBe(200);
    expect(toIgnored.body.status).toBe('ignored');
    const back = await api.http('PUT', `/v1/collection/${collection.id}`, { status: 'not_planned' });
    expect(back.status).toBe(200);
    expect(back.body.status).toBe('not_planned');
  });

  it('refuses to set planned on update with 422 on status, keeping the status', async () => {
    const collection = await create(api, '/v1/collection', { board_id: boardId, status: 'ignored' });
    const res = await api.http('PUT', `/v1/collection/${collection.id}`, { status: 'planned' });
    expectFieldErrors(res, ['status']);
    expect((await get(api, `/v1/collection/${collection.id}`)).status).toBe('ignored');
  });

  it('lets a client ignore an order’s collection and bring it back', async () => {
    const order = await create(api, '/v1/order', { code: 'ST-1' });
    expect((await api.http('PUT', `/v1/collection/${order.collection_id}`, { status: 'ignored' })).status).toBe(200);
    expect((await api.http('PUT', `/v1/collection/${order.collection_id}`, { status: 'not_planned' })).status).toBe(200);
  });

  it('requires board_id when a client creates a collection (422 on board_id)', async () => {
    const before = await countOf(api, '/v1/collection');
    const missing = await api.http('POST', '/v1/collection', { name: 'No board' });
    expectFieldErrors(missing, ['board_id']);
    expectErrorBody(missing.body, 'Unprocessable Content');
    expectFieldErrors(await api.http('POST', '/v1/collection', { name: 'Null board', board_id: null }), ['board_id']);
    expect(await countOf(api, '/v1/collection')).toBe(before);
  });

  it('gives a client-created collection the declared defaults: source_type custom, progress open, no warnings', async () => {
    const collection = await create(api, '/v1/collection', { board_id: boardId, name: 'By hand' });
    expect(collection).toMatchObject({ source_type: 'custom', progress: 'open', warnings: [], status: 'not_planned' });
    expect(await get(api, `/v1/collection/${collection.id}`)).toMatchObject({ source_type: 'custom', progress: 'open', warnings: [] });
  });
});
