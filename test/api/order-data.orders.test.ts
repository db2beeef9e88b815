/**
 * Orders and their rows: deep insertion (docs/API.md "Writing related records inline"), nested PUT with and without
 * `update_without_delete_nested`, rows scoped to their order, row positions, external_ref
 * uniqueness (§2.10, with the order's (external_ref, type, sub_type) key) and server-owned
 * fields in bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import {
  countOf,
  create,
  createFixtures,
  expectDuplicate,
  expectErrorBody,
  expectFieldErrors,
  get,
  unknownId,
  type Fixtures,
} from '../helpers/order-data.js';

let api: TestApi;
let fx: Fixtures;

beforeAll(async () => {
  api = await startTestApi();
  fx = await createFixtures(api);
});
afterAll(async () => {
  await api.close();
});

/** Rows in the database, deleted ones included: proves what a refused write left behind. */
function rawCount(table: string, where = '1 = 1', ...params: unknown[]): number {
  const db = api.dataDir.environment(api.environment.id).db;
  return (db.prepare(`SELECT count(*) AS n FROM "${table}" WHERE ${where}`).get(...params) as { n: number }).n;
}

/** An order's live rows by position (the unsorted list order is checked on its own below). */
async function rowsOf(orderId: string): Promise<any[]> {
  return (await get(api, `/v1/order/${orderId}/row?sort=position`)).data;
}

const byPosition = (rows: any[]) => [...rows].sort((a, b) => a.position - b.position);

/** An order with three rows (positions 0, 1, 2). */
async function orderWithRows(code: string): Promise<{ order: any; rows: any[] }> {
  const order = await create(api, '/v1/order', {
    code,
    order_rows: [{ description: 'first' }, { description: 'second' }, { description: 'third' }],
  });
  return { order, rows: await rowsOf(order.id) };
}

describe('deep insertion: an order with its rows in one POST', () => {
  it('creates the rows sent inline; they are listed at /v1/order/{id}/row', async () => {
    const res = await api.http('POST', '/v1/order', {
      code: 'DEEP-1',
      order_rows: [
        { code: 'R1', description: 'Frame', activity_id: fx.activityId, unit: 'hours', quantity: 2 },
        { code: 'R2', description: 'Seat', item_id: fx.itemId, quantity: 4 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = await rowsOf(res.body.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ order_id: res.body.id, code: 'R1', activity_id: fx.activityId, unit: 'hours', quantity: 2 });
    expect(rows[1]).toMatchObject({ order_id: res.body.id, code: 'R2', item_id: fx.itemId, quantity: 4 });
    const withRows = await get(api, `/v1/order/${res.body.id}?with=order_rows`);
    expect(byPosition(withRows.order_rows)).toEqual(rows);
  });

  it('returns the rows in the POST answer when asked with=order_rows', async () => {
    const res = await api.http('POST', '/v1/order?with=order_rows', { code: 'DEEP-2', order_rows: [{ code: 'A' }] });
    expect(res.status).toBe(201);
    expect(res.body.order_rows).toHaveLength(1);
    expect(res.body.order_rows[0]).toMatchObject({ code: 'A', order_id: res.body.id });
  });

  it('refuses the whole POST when a row is invalid, naming order_rows.N.field, and writes nothing', async () => {
    const orders = rawCount('order');
    const rows = rawCount('order_row');
    const collections = rawCount('collection');
    const res = await api.http('POST', '/v1/order', {
      code: 'DEEP-BAD',
      order_rows: [{ description: 'fine' }, { description: 'bad quantity', quantity: 'two' }, { unit: 5, activity_id: unknownId }],
    });
    expectFieldErrors(res, ['order_rows.1.quantity', 'order_rows.2.unit', 'order_rows.2.activity_id']);
    const byField = Object.fromEntries(res.body.errors.map((e: any) => [e.field, e.description]));
    expect(byField['order_rows.1.quantity']).toMatch(/^order_rows\.1\.quantity /);
    expect(rawCount('order')).toBe(orders);
    expect(rawCount('order_row')).toBe(rows);
    expect(rawCount('collection')).toBe(collections);
  });

  it('reports problems of the order and of its rows together', async () => {
    const orders = rawCount('order');
    const res = await api.http('POST', '/v1/order', { code: 5, order_rows: [{ position: -1 }] });
    expectFieldErrors(res, ['code', 'order_rows.0.position']);
    expect(rawCount('order')).toBe(orders);
  });

  it('refuses a row that is not an object, and order_rows that is not an array', async () => {
    expectFieldErrors(await api.http('POST', '/v1/order', { code: 'X', order_rows: ['row'] }), ['order_rows.0']);
    expectFieldErrors(await api.http('POST', '/v1/order', { code: 'X', order_rows: { description: 'row' } }), ['order_rows']);
  });
});

describe('PUT of an order with order_rows', () => {
  it('updates rows sent with an id, creates rows without one and deletes the rows left out', async () => {
    const { order, rows } = await orderWithRows('PUT-1');
    const res = await api.http('PUT', `/v1/order/${order.id}`, {
      order_rows: [{ id: rows[0].id, quantity: 9 }, { description: 'new' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await rowsOf(order.id);
    expect(after.map((r) => r.description)).toEqual(['first', 'new']);
    expect(after[0]).toMatchObject({ id: rows[0].id, quantity: 9, description: 'first' });
    for (const gone of rows.slice(1)) {
      expect((await api.http('GET', `/v1/order/${order.id}/row/${gone.id}`)).status).toBe(404);
    }
  });

  it('keeps the rows left out with ?update_without_delete_nested=true', async () => {
    const { order, rows } = await orderWithRows('PUT-2');
    const res = await api.http('PUT', `/v1/order/${order.id}?update_without_delete_nested=true`, {
      order_rows: [{ id: rows[1].id, description: 'second, changed' }, { description: 'fourth' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await rowsOf(order.id)).map((r) => r.description)).toEqual(['first', 'second, changed', 'third', 'fourth']);
  });

  it('deletes every row on order_rows: [], and leaves rows alone when order_rows is not sent', async () => {
    const { order } = await orderWithRows('PUT-3');
    expect((await api.http('PUT', `/v1/order/${order.id}`, { note: 'rows untouched' })).status).toBe(200);
    expect(await rowsOf(order.id)).toHaveLength(3);
    expect((await api.http('PUT', `/v1/order/${order.id}`, { order_rows: [] })).status).toBe(200);
    expect(await rowsOf(order.id)).toEqual([]);
  });

  it('refuses an id of a row of another order with 422 on order_rows.0.id, changing nothing', async () => {
    const a = await orderWithRows('PUT-4A');
    const b = await orderWithRows('PUT-4B');
    const res = await api.http('PUT', `/v1/order/${a.order.id}`, { code: 'changed', order_rows: [{ id: b.rows[0].id, quantity: 1 }] });
    expectFieldErrors(res, ['order_rows.0.id']);
    expect(await rowsOf(a.order.id)).toEqual(a.rows);
    expect(await rowsOf(b.order.id)).toEqual(b.rows);
    expect((await get(api, `/v1/order/${a.order.id}`)).code).toBe('PUT-4A');
  });

  it('refuses an id that names no row at all with 422 on order_rows.N.id', async () => {
    const { order } = await orderWithRows('PUT-5');
    expectFieldErrors(await api.http('PUT', `/v1/order/${order.id}`, { order_rows: [{ description: 'ok' }, { id: unknownId }] }), [
      'order_rows.1.id',
    ]);
    expect(await rowsOf(order.id)).toHaveLength(3);
  });

  it('answers update_without_delete_nested=maybe with 400', async () => {
    const { order } = await orderWithRows('PUT-6');
    const res = await api.http('PUT', `/v1/order/${order.id}?update_without_delete_nested=maybe`, { order_rows: [] });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'Bad Request');
    expect(await rowsOf(order.id)).toHaveLength(3);
  });
});

describe('rows belong to their order', () => {
  it('answers 404 for a row read, changed or deleted under another order’s path', async () => {
    const a = await orderWithRows('SCOPE-A');
    const b = await orderWithRows('SCOPE-B');
    const wrong = `/v1/order/${b.order.id}/row/${a.rows[0].id}`;
    expect((await api.http('GET', wrong)).status).toBe(404);
    expect((await api.http('PUT', wrong, { quantity: 1 })).status).toBe(404);
    expect((await api.http('DELETE', wrong)).status).toBe(404);
    expect(await rowsOf(a.order.id)).toEqual(a.rows);
    expect((await rowsOf(b.order.id)).map((r) => r.id)).not.toContain(a.rows[0].id);
  });

  it('lists no rows for an unknown order (200, as the public API) and refuses to add one with 404', async () => {
    expect(await api.http('GET', `/v1/order/${unknownId}/row`)).toMatchObject({ status: 200, body: { count: 0, data: [] } });
    expect((await api.http('POST', `/v1/order/${unknownId}/row`, { description: 'orphan' })).status).toBe(404);
  });

  it('soft-deletes the rows with their order; afterwards the rows answer 404 and their list is empty', async () => {
    const { order, rows } = await orderWithRows('DEL-1');
    expect((await api.http('DELETE', `/v1/order/${order.id}`)).status).toBe(204);
    expect(await api.http('GET', `/v1/order/${order.id}/row`)).toMatchObject({ status: 200, body: { count: 0, data: [] } });
    expect((await api.http('GET', `/v1/order/${order.id}/row/${rows[0].id}`)).status).toBe(404);
    expect((await api.http('POST', `/v1/order/${order.id}/row`, { description: 'late' })).status).toBe(404);
    // Still in the database, marked deleted.
    expect(rawCount('order_row', 'order_id = ?', order.id)).toBe(3);
    expect(rawCount('order_row', 'order_id = ? AND deleted_at IS NOT NULL', order.id)).toBe(3);
  });

  it('deletes one row through its own path, leaving the others', async () => {
    const { order, rows } = await orderWithRows('DEL-2');
    expect((await api.http('DELETE', `/v1/order/${order.id}/row/${rows[1].id}`)).status).toBe(204);
    expect((await rowsOf(order.id)).map((r) => r.id)).toEqual([rows[0].id, rows[2].id]);
  });
});

describe('row position', () => {
  it('puts new rows last: 0, 1, 2 … (inline and through the row path)', async () => {
    const { order, rows } = await orderWithRows('POS-1');
    expect(rows.map((r) => [r.description, r.position])).toEqual([
      ['first', 0],
      ['second', 1],
      ['third', 2],
    ]);
    const fourth = await create(api, `/v1/order/${order.id}/row`, { description: 'fourth' });
    expect(fourth.position).toBe(3);
  });

  it('keeps a position that is sent, and the next row goes after it', async () => {
    const order = await create(api, '/v1/order', { code: 'POS-2' });
    expect((await create(api, `/v1/order/${order.id}/row`, {})).position).toBe(0);
    expect((await create(api, `/v1/order/${order.id}/row`, { position: 10 })).position).toBe(10);
    expect((await create(api, `/v1/order/${order.id}/row`, {})).position).toBe(11);
  });

  it('numbers rows per order', async () => {
    await orderWithRows('POS-3A');
    const { rows } = await orderWithRows('POS-3B');
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2]);
  });
});

describe('list order', () => {
  it('lists rows in creation order when no sort is asked (docs/API.md: unsorted lists are in creation order)', async () => {
    const sent = Array.from({ length: 40 }, (_, i) => `row ${i}`);
    const order = await create(api, '/v1/order', { code: 'ORDER-1', order_rows: sent.map((description) => ({ description })) });
    const listed = (await get(api, `/v1/order/${order.id}/row`)).data;
    expect(listed.map((r: any) => r.description)).toEqual(sent);
    const embedded = (await get(api, `/v1/order/${order.id}?with=order_rows`)).order_rows;
    expect(embedded.map((r: any) => r.description)).toEqual(sent);
  });
});

describe('external_ref is unique per resource type', () => {
  const simple: [string, () => string, () => Record<string, unknown>][] = [
    ['item', () => '/v1/item', () => ({ description: 'I' })],
    ['project', () => '/v1/project', () => ({ name: 'P' })],
    ['relation', () => '/v1/relation', () => ({ name: 'R' })],
    ['warehouse', () => '/v1/warehouse', () => ({ name: 'W' })],
    ['address', () => '/v1/address', () => ({ name: 'A' })],
    ['activity', () => '/v1/activity', () => ({ description: 'Act' })],
  ];

  it.each(simple)(
    'refuses a duplicate %s external_ref with 422 "Duplicate entry", also after the first is deleted',
    async (name, path, body) => {
      const ref = `dup-${name}`;
      const first = await create(api, path(), { ...body(), external_ref: ref });
      const before = await countOf(api, path());
      expectDuplicate(await api.http('POST', path(), { ...body(), external_ref: ref }));
      expect(await countOf(api, path())).toBe(before);
      const other = await create(api, path(), { ...body(), external_ref: `${ref}-other` });
      expectDuplicate(await api.http('PUT', `${path()}/${other.id}`, { external_ref: ref }));
      expect((await api.http('DELETE', `${path()}/${first.id}`)).status).toBe(204);
      expectDuplicate(await api.http('POST', path(), { ...body(), external_ref: ref }));
      // null never collides.
      await create(api, path(), { ...body(), external_ref: null });
      await create(api, path(), { ...body(), external_ref: null });
    },
  );

  it('refuses a duplicate order-row external_ref, across orders too, also after the first is deleted', async () => {
    const a = await create(api, '/v1/order', { code: 'EXT-ROW-A' });
    const b = await create(api, '/v1/order', { code: 'EXT-ROW-B' });
    const first = await create(api, `/v1/order/${a.id}/row`, { external_ref: 'dup-row' });
    expectDuplicate(await api.http('POST', `/v1/order/${a.id}/row`, { external_ref: 'dup-row' }));
    expectDuplicate(await api.http('POST', `/v1/order/${b.id}/row`, { external_ref: 'dup-row' }));
    expect((await api.http('DELETE', `/v1/order/${a.id}/row/${first.id}`)).status).toBe(204);
    expectDuplicate(await api.http('POST', `/v1/order/${b.id}/row`, { external_ref: 'dup-row' }));
    expect(await rowsOf(b.id)).toEqual([]);
  });

  it('refuses an inline row with a duplicate external_ref and writes nothing of the order', async () => {
    const orders = rawCount('order');
    const a = await create(api, '/v1/order', { code: 'EXT-ROW-C', order_rows: [{ external_ref: 'dup-inline' }] });
    const res = await api.http('POST', '/v1/order', { code: 'EXT-ROW-D', order_rows: [{ external_ref: 'dup-inline' }] });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ description: 'Duplicate entry', field: expect.stringMatching(/external_ref$/) });
    expect(rawCount('order')).toBe(orders + 1);
    expect(await rowsOf(a.id)).toHaveLength(1);
  });

  describe('orders: the key is (external_ref, type, sub_type)', () => {
    it('allows the same external_ref with another type or another sub_type', async () => {
      await create(api, '/v1/order', { external_ref: 'ERP-1', type: 'Sales', sub_type: 'none' });
      await create(api, '/v1/order', { external_ref: 'ERP-1', type: 'Purchase', sub_type: 'none' });
      await create(api, '/v1/order', { external_ref: 'ERP-1', type: 'Sales', sub_type: 'webshop' });
    });

    it('refuses the same (external_ref, type, sub_type) with 422 "Duplicate entry", also after the first is deleted', async () => {
      const first = await create(api, '/v1/order', { external_ref: 'ERP-2', type: 'Sales', sub_type: 'none' });
      const before = await countOf(api, '/v1/order');
      expectDuplicate(await api.http('POST', '/v1/order', { external_ref: 'ERP-2', type: 'Sales', sub_type: 'none' }));
      expect(await countOf(api, '/v1/order')).toBe(before);
      const other = await create(api, '/v1/order', { external_ref: 'ERP-2', type: 'Sales', sub_type: 'other' });
      expectDuplicate(await api.http('PUT', `/v1/order/${other.id}`, { sub_type: 'none' }));
      expect((await get(api, `/v1/order/${other.id}`)).sub_type).toBe('other');
      expect((await api.http('DELETE', `/v1/order/${first.id}`)).status).toBe(204);
      expectDuplicate(await api.http('POST', '/v1/order', { external_ref: 'ERP-2', type: 'Sales', sub_type: 'none' }));
    });

    it('does not check when type or sub_type is null', async () => {
      await create(api, '/v1/order', { external_ref: 'ERP-3', type: 'Sales', sub_type: null });
      await create(api, '/v1/order', { external_ref: 'ERP-3', type: 'Sales', sub_type: null });
      await create(api, '/v1/order', { external_ref: 'ERP-3', type: null, sub_type: 'none' });
      await create(api, '/v1/order', { external_ref: 'ERP-3', type: null, sub_type: 'none' });
      await create(api, '/v1/order', { external_ref: 'ERP-3' });
      await create(api, '/v1/order', { external_ref: 'ERP-3' });
    });
  });
});

describe('server-owned fields in a body are ignored', () => {
  const fakeId = '00000000-0000-4000-8000-000000000000';
  const old = '2000-01-01T00:00:00Z';

  it("ignores id, created_at and updated_at on an order; its collection_id never names another order's collection", async () => {
    const other = await create(api, '/v1/order', { code: 'OWNED-0' });
    const order = await create(api, '/v1/order', { code: 'OWNED-1', id: fakeId, created_at: old, updated_at: old });
    expect(order.id).not.toBe(fakeId);
    expect(order.created_at).not.toBe(old);
    expect(order.updated_at).not.toBe(old);
    expect(order.collection_id).toEqual(expect.any(String));
    expect(order.collection_id).not.toBe(other.collection_id);
    // An order names an existing collection only when it is created, and only one no other order has.
    expectFieldErrors(await api.http('POST', '/v1/order', { code: 'OWNED-2', collection_id: other.collection_id }), ['collection_id']);

    const updated = await api.http('PUT', `/v1/order/${order.id}`, {
      id: fakeId,
      collection_id: order.collection_id,
      created_at: old,
      code: 'OWNED-1b',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: order.id,
      collection_id: order.collection_id,
      created_at: order.created_at,
      code: 'OWNED-1b',
    });
    expectFieldErrors(await api.http('PUT', `/v1/order/${order.id}`, { collection_id: other.collection_id }), ['collection_id']);
    expect((await api.http('GET', `/v1/order/${fakeId}`)).status).toBe(404);
  });

  it('ignores order_id, id and created_at on a row, through the row path and inline', async () => {
    const a = await create(api, '/v1/order', { code: 'OWNED-A' });
    const b = await create(api, '/v1/order', { code: 'OWNED-B' });
    const row = await create(api, `/v1/order/${a.id}/row`, { order_id: b.id, id: fakeId, created_at: old, code: 'R' });
    expect(row).toMatchObject({ order_id: a.id, code: 'R' });
    expect(row.id).not.toBe(fakeId);
    expect(row.created_at).not.toBe(old);

    const moved = await api.http('PUT', `/v1/order/${a.id}/row/${row.id}`, { order_id: b.id, code: 'R2' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ order_id: a.id, code: 'R2' });
    expect(await rowsOf(b.id)).toEqual([]);

    const c = await create(api, '/v1/order?with=order_rows', { code: 'OWNED-C', order_rows: [{ order_id: b.id, code: 'inline' }] });
    expect(c.order_rows).toHaveLength(1);
    expect(c.order_rows[0].order_id).toBe(c.id);
    expect(await rowsOf(b.id)).toEqual([]);
  });
});

describe('a to-one reference written as the record, {"id": …} (docs/API.md "Writing related records inline")', () => {
  it('sets the key from {id} on POST and PUT, and null clears it', async () => {
    const garage = await create(api, '/v1/project', { name: 'Garage' });
    const order = await create(api, '/v1/order?with=project', {
      code: 'REF-1',
      project: { id: fx.projectId.toUpperCase() },
      relation: { id: fx.relationId },
    });
    expect(order).toMatchObject({
      project_id: fx.projectId,
      relation_id: fx.relationId,
      project: { id: fx.projectId, name: 'Fixture project' },
    });
    const moved = await api.http('PUT', `/v1/order/${order.id}`, { project: { id: garage.id, name: 'only the id is read' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.project_id).toBe(garage.id);
    expect((await get(api, `/v1/project/${garage.id}`)).name).toBe('Garage');
    expect((await api.http('PUT', `/v1/order/${order.id}`, { project: null })).body).toMatchObject({
      project_id: null,
      relation_id: fx.relationId,
    });
  });

  it('works for every to-one relation, also inline: a row with item: {id}, a stage with board: {id}', async () => {
    const order = await create(api, '/v1/order?with=order_rows', {
      code: 'REF-2',
      order_rows: [{ code: 'R', item: { id: fx.itemId }, activity: { id: fx.activityId } }],
    });
    expect(order.order_rows[0]).toMatchObject({ item_id: fx.itemId, activity_id: fx.activityId });
    const board = await create(api, '/v1/board', { name: 'Ref board' });
    expect(await create(api, '/v1/stage', { name: 'Cut', board: { id: board.id } })).toMatchObject({ board_id: board.id });
  });

  it('takes back a record read with with=… and written back whole with a changed key', async () => {
    const garage = await create(api, '/v1/project', { name: 'Garage 2' });
    const order = await get(
      api,
      `/v1/order/${(await create(api, '/v1/order', { code: 'REF-3', project_id: fx.projectId })).id}?with=project,item`,
    );
    expect(order.item).toBeNull();
    const res = await api.http('PUT', `/v1/order/${order.id}`, { ...order, project_id: garage.id, item_id: fx.itemId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ project_id: garage.id, item_id: fx.itemId });
    // The other way round: the key as read, the embedded record changed.
    const read = await get(api, `/v1/order/${order.id}?with=project`);
    const back = await api.http('PUT', `/v1/order/${order.id}`, { ...read, project: { id: fx.projectId } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.project_id).toBe(fx.projectId);
  });

  const invalid: [string, () => Record<string, unknown>, string[]][] = [
    ['a reference that is not an object', () => ({ project: fx.projectId }), ['project']],
    ['a reference without id', () => ({ project: { name: 'Fixture project' } }), ['project']],
    ['a reference with id null', () => ({ project: { id: null } }), ['project']],
    ['a reference to no record', () => ({ project: { id: unknownId } }), ['project_id']],
    ['a reference whose id is no uuid', () => ({ project: { id: 'kitchen' } }), ['project_id']],
    // Neither is the stored project, so neither is the copy a with=project read gave.
    ['a reference and a key naming different records', () => ({ project: { id: second.id }, project_id: third.id }), ['project']],
  ];

  let second: any;
  let third: any;
  beforeAll(async () => {
    second = await create(api, '/v1/project', { name: 'Second project' });
    third = await create(api, '/v1/project', { name: 'Third project' });
  });

  it.each(invalid)('refuses %s with 422, writing nothing', async (_label, body, fields) => {
    const before = await countOf(api, '/v1/order');
    expectFieldErrors(await api.http('POST', '/v1/order', { code: 'REF-X', ...body() }), fields);
    expect(await countOf(api, '/v1/order')).toBe(before);
    const order = await create(api, '/v1/order', { code: 'REF-Y', project_id: fx.projectId });
    expectFieldErrors(await api.http('PUT', `/v1/order/${order.id}`, { code: 'changed', ...body() }), fields);
    expect(await get(api, `/v1/order/${order.id}`)).toStrictEqual(order);
  });

  it("refuses null for a reference that is required (a stage's board)", async () => {
    expectFieldErrors(await api.http('POST', '/v1/stage', { name: 'Cut', board: null }), ['board']);
  });

  it("checks a reference like its key (an order's collection: not another order's)", async () => {
    const other = await create(api, '/v1/order', { code: 'REF-4' });
    expectFieldErrors(await api.http('POST', '/v1/order', { code: 'REF-5', collection: { id: other.collection_id } }), ['collection_id']);
  });
});

describe('OpenAPI', () => {
  it('describes the {id} form of each writable to-one reference in the input schema', async () => {
    const { schemas } = (await get(api, '/v1/openapi.json')).components;
    expect(schemas.OrderInput.properties.project).toMatchObject({
      type: ['object', 'null'],
      required: ['id'],
      properties: { id: { type: 'string', format: 'uuid' } },
    });
    expect(schemas.StageInput.properties.board).toMatchObject({ type: 'object', required: ['id'] });
    expect(schemas.OrderInput.properties.collection).toMatchObject({ type: ['object', 'null'], required: ['id'] });
    // A server-owned key (a card's collection, set by its path) has no input form either way.
    expect('collection' in schemas.CardInput.properties).toBe(false);
    expect('collection_id' in schemas.CardInput.properties).toBe(false);
  });
});
