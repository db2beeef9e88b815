/**
 * Shaping what a request returns (docs/API.md "show and hide", and "Relations"
 * for `with`), over real HTTP on the order fixture (test/helpers/order-fixture.ts): `show` and
 * `hide` with relation paths, `*` and indexes, on lists, single GETs, POST and PUT; `with` for
 * every relation of an order, dotted paths, unknown names, and the promise that a relation
 * level costs one query for the whole page.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSqliteApi, useSeededApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { seedOrderData, type Label, type OrderFixture } from '../helpers/order-fixture.js';

let api: TestApi;
let fixture: OrderFixture;

useSeededApi(async (started) => {
  api = started;
  fixture = await seedOrderData(api);
});

/** GET /v1/order with a query; the records keyed by label (needs `description` in the result). */
async function orderList(query: string): Promise<Record<string, any>[]> {
  const res = await api.http('GET', `/v1/order?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function order(label: Label, query: string): Promise<any> {
  const res = await api.http('GET', `/v1/order/${fixture.orders[label].id}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const keys = (record: object) => Object.keys(record).sort();

describe('show and hide', () => {
  it('show=a,b returns only those properties', async () => {
    const data = await orderList('show=id,code');
    expect(data).toHaveLength(6);
    for (const record of data) expect(keys(record)).toEqual(['code', 'id']);
  });

  it('hide=a removes that property and keeps the rest', async () => {
    const full = await order('O1', '');
    const hidden = await order('O1', 'hide=code');
    expect(hidden).not.toHaveProperty('code');
    const { code: _code, ...rest } = full;
    expect(hidden).toEqual(rest);
  });

  it('combines show and hide: show first, then hide', async () => {
    for (const record of await orderList('show=id,code,quantity&hide=code')) expect(keys(record)).toEqual(['id', 'quantity']);
  });

  it('relation.prop selects inside an embedded object, and leaves a missing one null', async () => {
    const data = await orderList('with=project&show=id,description,project.name');
    expect(data[0]).toEqual({ id: fixture.orders.O1.id, description: 'O1', project: { name: 'Kitchen' } });
    expect(data[1]).toEqual({ id: fixture.orders.O2.id, description: 'O2', project: { name: 'Garage' } });
    expect(data[3]).toEqual({ id: fixture.orders.O4.id, description: 'O4', project: null });
  });

  it('relation.*.prop selects inside every item of an embedded list', async () => {
    const data = await orderList('with=order_rows&show=id,order_rows.*.code');
    expect(data[0]).toEqual({ id: fixture.orders.O1.id, order_rows: [{ code: 'R-A' }, { code: 'R-B' }] });
    expect(data[2]).toEqual({ id: fixture.orders.O3.id, order_rows: [] });
  });

  it('relation.N.prop selects inside item N only, leaving out the items no path selects', async () => {
    expect(await order('O1', 'with=order_rows&show=id,order_rows.1.code')).toEqual({
      id: fixture.orders.O1.id,
      order_rows: [{ code: 'R-B' }],
    });
    expect(await order('O2', 'with=order_rows&show=id,order_rows.1.code')).toEqual({ id: fixture.orders.O2.id, order_rows: [] });
  });

  it('hide with relation.N.prop and relation.*.prop removes inside those items only', async () => {
    const one = await order('O1', 'with=order_rows&hide=order_rows.0.code');
    expect(one.order_rows[0]).not.toHaveProperty('code');
    expect(one.order_rows[1].code).toBe('R-B');
    expect(one.code).toBe('ALPHA-1');
    const all = await order('O1', 'with=order_rows&hide=order_rows.*.code');
    expect(all.order_rows.map((r: any) => 'code' in r)).toEqual([false, false]);
    expect(all.order_rows.map((r: any) => r.id)).toEqual([fixture.rows.o1ra, fixture.rows.o1rb]);
  });

  it('relation.*.prop and relation.N.prop together apply both to item N', async () => {
    const shown = await order('O1', 'with=order_rows&show=order_rows.*.code,order_rows.0.unit');
    expect(shown.order_rows).toEqual([{ code: 'R-A', unit: expect.anything() }, { code: 'R-B' }]);
    expect(Object.keys(shown.order_rows[0]).sort()).toEqual(['code', 'unit']);
    const hidden = await order('O1', 'with=order_rows&hide=order_rows.*.code,order_rows.0.unit');
    expect(hidden.order_rows[0]).not.toHaveProperty('code');
    expect(hidden.order_rows[0]).not.toHaveProperty('unit');
    expect(hidden.order_rows[1]).not.toHaveProperty('code');
    expect(hidden.order_rows[1]).toHaveProperty('unit');
    // A whole item wins over paths inside it.
    expect((await order('O1', 'with=order_rows&hide=order_rows.*.code,order_rows.1')).order_rows).toHaveLength(1);
  });

  it('* means every property at that level', async () => {
    const full = await order('O1', '');
    const shaped = await order('O1', 'with=order_rows&show=*,order_rows.*.code');
    expect(shaped).toEqual({ ...full, order_rows: [{ code: 'R-A' }, { code: 'R-B' }] });
    expect(await order('O1', 'show=*')).toEqual(full);
  });

  it('selects inside nested relations: order_rows.*.item.code', async () => {
    const shaped = await order('O1', 'with=order_rows.item&show=order_rows.*.item.code');
    expect(shaped).toEqual({ order_rows: [{ item: { code: 'B-1' } }, { item: null }] });
  });

  it('ignores names a record does not have', async () => {
    expect(await order('O1', 'show=id,nope,project.nope,order_rows.*.nope')).toEqual({ id: fixture.orders.O1.id });
    const full = await order('O1', 'with=order_rows');
    expect(await order('O1', 'with=order_rows&hide=nope,project.name,order_rows.*.nope,order_rows.7.code')).toEqual(full);
  });

  it('a path under a name already selected whole adds nothing, at any level', async () => {
    const full = await order('O1', 'with=project');
    // `project` whole plus `project.code`: the order's own code is not selected (nor hidden).
    expect(await order('O1', 'with=project&show=id,project,project.code')).toEqual({ id: full.id, project: full.project });
    const { project: _project, ...withoutProject } = full;
    expect(await order('O1', 'with=project&hide=project,project.code')).toEqual(withoutProject);
  });

  it('shapes a single GET', async () => {
    expect(await order('O2', 'with=order_rows,project&show=code,project.name,order_rows.*.code')).toEqual({
      code: 'alpha-2',
      project: { name: 'Garage' },
      order_rows: [{ code: 'R-C' }],
    });
  });

  it('shapes the record a POST returns', async () => {
    const res = await api.http('POST', '/v1/project?show=id,name', { name: 'Shaped', code: 'S-1' });
    expect(res.status).toBe(201);
    expect(keys(res.body)).toEqual(['id', 'name']);
    expect(res.body.name).toBe('Shaped');

    const created = await api.http('POST', '/v1/order?with=order_rows,project&show=id,code,project.name,order_rows.*.code&hide=id', {
      description: 'tmp',
      code: 'NEW',
      project_id: fixture.projects.garage,
      order_rows: [{ code: 'N-1' }, { code: 'N-2' }],
    });
    const stored = await api.http('GET', '/v1/order?filter=code:eq:NEW&show=id');
    try {
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ code: 'NEW', project: { name: 'Garage' }, order_rows: [{ code: 'N-1' }, { code: 'N-2' }] });
    } finally {
      for (const { id } of stored.body.data) await api.http('DELETE', `/v1/order/${id}`);
    }
  });

  it('shapes the record a PUT returns', async () => {
    const res = await api.http('PUT', `/v1/project/${fixture.projects.garage}?hide=created_at,updated_at,description`, { code: 'G-2' });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['code', 'deleted_at', 'external_ref', 'id', 'name', 'transaction']);
    expect(res.body.code).toBe('G-2');

    const updated = await api.http('PUT', `/v1/order/${fixture.orders.O3.id}?with=project&show=id,project.name`, { status: 'new' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ id: fixture.orders.O3.id, project: { name: 'Kitchen' } });
    await api.http('PUT', `/v1/order/${fixture.orders.O3.id}`, { status: null });
  });
});

describe('with', () => {
  const relationCases: [string, Label, (f: OrderFixture) => unknown][] = [
    ['address', 'O1', (f) => expect.objectContaining({ id: f.address, name: 'Site', city: 'Utrecht' })],
    ['item', 'O1', (f) => expect.objectContaining({ id: f.items.bolt, code: 'B-1' })],
    [
      'order_rows',
      'O1',
      (f) => [expect.objectContaining({ id: f.rows.o1ra, code: 'R-A' }), expect.objectContaining({ id: f.rows.o1rb, code: 'R-B' })],
    ],
    ['collection', 'O1', (f) => expect.objectContaining({ id: f.orders.O1.collection_id, name: 'ALPHA-1' })],
    ['project', 'O1', (f) => expect.objectContaining({ id: f.projects.kitchen, name: 'Kitchen' })],
    ['relation', 'O1', (f) => expect.objectContaining({ id: f.relation, name: 'Acme' })],
    ['warehouse', 'O1', (f) => expect.objectContaining({ id: f.warehouse, name: 'Main' })],
    ['supplies_order_rows', 'O2', (f) => [expect.objectContaining({ id: f.rows.o1ra, code: 'R-A', order_id: f.orders.O1.id })]],
  ];

  it.each(relationCases)('with=%s embeds that relation of an order (%s)', async (relation, label, expected) => {
    const record = await order(label, `with=${relation}`);
    expect(record[relation]).toEqual(expected(fixture));
  });

  it('embeds every listed relation on every record of a list', async () => {
    const data = await orderList('with=project,order_rows,item');
    for (const record of data) {
      expect(record).toHaveProperty('project');
      expect(record).toHaveProperty('item');
      expect(Array.isArray(record.order_rows)).toBe(true);
    }
    expect(data.map((o) => o.order_rows.length)).toEqual([2, 1, 0, 1, 0, 0]);
    expect(data.map((o) => o.project?.name ?? null)).toEqual(['Kitchen', 'Garage', 'Kitchen', null, null, null]);
  });

  it('embeds a missing related record as null and an empty list as []', async () => {
    const record = await order('O5', 'with=project,address,item,relation,warehouse,order_rows,supplies_order_rows');
    expect(record).toMatchObject({
      project: null,
      address: null,
      item: null,
      relation: null,
      warehouse: null,
      order_rows: [],
      supplies_order_rows: [],
    });
  });

  it('does not embed relations that are not asked for', async () => {
    const record = await order('O1', '');
    for (const relation of relationCases.map(([name]) => name)) expect(record).not.toHaveProperty(relation);
  });

  it('loads dotted paths: order_rows.item', async () => {
    const record = await order('O1', 'with=order_rows.item');
    expect(record.order_rows.map((r: any) => r.item?.description ?? null)).toEqual(['Bolt', null]);
  });

  it('loads dotted paths: collection.activities, with the link time merged in', async () => {
    const record = await order('O1', 'with=collection.activities');
    // R-A: Paint, 2 hours = 120 minutes.
    expect(record.collection.activities).toEqual([
      expect.objectContaining({ id: fixture.activities.paint, description: 'Paint', time: 120 }),
    ]);
  });

  it('loads activities and order of a collection (with=activities,order)', async () => {
    const res = await api.http('GET', `/v1/collection/${fixture.orders.O1.collection_id}?with=activities,order`);
    expect(res.status).toBe(200);
    expect(res.body.activities).toEqual([expect.objectContaining({ id: fixture.activities.paint, time: 120 })]);
    expect(res.body.order).toEqual(expect.objectContaining({ id: fixture.orders.O1.id, code: 'ALPHA-1' }));
  });

  it('loads the documented replacement of include=source on collections: order.order_rows.item', async () => {
    const res = await api.http('GET', `/v1/collection?with=order.order_rows.item,order.project&filter=name:eq:ALPHA-1`);
    expect(res.status).toBe(200);
    const [collection] = res.body.data;
    expect(collection.order.project.name).toBe('Kitchen');
    expect(collection.order.order_rows.map((r: any) => r.item?.code ?? null)).toEqual(['B-1', null]);
  });

  it('takes a relation in camelCase too, as clients of the public API send orderRows; it embeds under the declared name', async () => {
    const snake = await api.http('GET', `/v1/order?with=order_rows.item,project&filter=code:eq:ALPHA-1`);
    const camel = await api.http('GET', `/v1/order?with=orderRows.item,project&filter=code:eq:ALPHA-1`);
    expect(camel.status, JSON.stringify(camel.body)).toBe(200);
    expect(camel.body).toEqual(snake.body);
    expect(camel.body.data[0]).not.toHaveProperty('orderRows');
    // Both spellings at once are one relation, whatever each loads beneath it.
    const both = await api.http('GET', `/v1/order/${fixture.orders.O1.id}?with=orderRows,order_rows.item,suppliesOrderRows`);
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    expect(both.body.order_rows.map((r: any) => r.item?.code ?? null)).toEqual(['B-1', null]);
    expect(both.body.supplies_order_rows).toEqual([]);
    // Only camelCase of a declared name: other spellings stay unknown, named as sent.
    expectBadRequest(await api.http('GET', '/v1/order?with=OrderRows'), 'Relation not found: OrderRows');
    expectBadRequest(await api.http('GET', '/v1/order?with=order_rows.itemX'), 'Relation not found: itemX');
  });

  it('rejects an unknown relation with 400 "Relation not found: <name>", on lists and single records', async () => {
    expectBadRequest(await api.http('GET', '/v1/order?with=project,nope'), 'Relation not found: nope');
    expectBadRequest(await api.http('GET', `/v1/order/${fixture.orders.O1.id}?with=nope`), 'Relation not found: nope');
    expectBadRequest(await api.http('GET', '/v1/project?with=orders'), 'Relation not found: orders');
  });

  it('rejects an unknown relation even when the page is empty', async () => {
    expectBadRequest(await api.http('GET', '/v1/order?with=nope&limit=0'), 'Relation not found: nope');
    expectBadRequest(await api.http('GET', '/v1/order?with=nope&filter=code:eq:none'), 'Relation not found: nope');
  });

  it('rejects an unknown relation nested under a known one (order_rows.nope) with 400', async () => {
    expectBadRequest(await api.http('GET', '/v1/order?with=order_rows.nope'), 'Relation not found: nope');
    expectBadRequest(await api.http('GET', `/v1/order/${fixture.orders.O1.id}?with=order_rows.item.nope`), 'Relation not found: nope');
  });
});

describe('with costs one query per relation level, whatever the page size', () => {
  let big: TestApi;

  beforeAll(async () => {
    // The SQLite store's own calls are counted: on SQLite in either project.
    big = await startSqliteApi();
    const post = async (path: string, body: unknown) => (await big.inject('POST', path, body)).body;
    const project = (await post('/v1/project', { name: 'P' })).id;
    const item = (await post('/v1/item', { description: 'I' })).id;
    const activity = (await post('/v1/activity', { description: 'A' })).id;
    const address = (await post('/v1/address', { name: 'Ad' })).id;
    let supplied: string | undefined;
    for (let i = 0; i < 50; i++) {
      const created = await big.inject('POST', '/v1/order?with=order_rows', {
        code: `O-${i}`,
        project_id: project,
        address_id: address,
        item_id: item,
        order_rows: [
          { code: 'a', item_id: item, activity_id: activity, unit: 'hours', quantity: 1 },
          { code: 'b', ...(supplied ? { supplies_order_rows: [{ id: supplied }] } : {}) },
        ],
      });
      expect(created.status).toBe(201);
      supplied = created.body.order_rows[0].id;
    }
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await big.close();
  });

  const withPaths =
    'order_rows.item,order_rows.activity,order_rows.supplies_order_rows,project,address,item,collection.activities,supplies_order_rows';

  /** getWhereIn calls and SQL statements run by the environment's store for one request. */
  async function cost(query: string): Promise<{ loads: number; statements: number; count: number }> {
    const store = big.dataDir.environment(big.environment.id);
    const loads = vi.spyOn(store, 'getWhereIn');
    const statements = vi.spyOn(store as unknown as { statement(sql: string): unknown }, 'statement');
    try {
      const res = await big.http('GET', `/v1/order?${query}`);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      return { loads: loads.mock.calls.length, statements: statements.mock.calls.length, count: res.body.data.length };
    } finally {
      loads.mockRestore();
      statements.mockRestore();
    }
  }

  it('runs as many queries for 50 orders as for 5', async () => {
    const five = await cost(`limit=5&with=${withPaths}`);
    const fifty = await cost(`limit=50&with=${withPaths}`);
    expect(five.count).toBe(5);
    expect(fifty.count).toBe(50);
    expect(fifty.loads).toBe(five.loads);
    expect(fifty.statements).toBe(five.statements);
  });

  // Every page of orders also loads their collections once: an order's board_id is its
  // collection's board (docs/API.md "Orders and their collection").
  it("loads one level with one query: with=order_rows.item on 50 orders is two loads (and the collections' boards)", async () => {
    const { loads, count } = await cost('limit=50&with=order_rows.item');
    expect(count).toBe(50);
    expect(loads).toBe(2 + 1);
  });

  it("loads nothing for with without it (only the collections' boards)", async () => {
    expect((await cost('limit=50')).loads).toBe(1);
  });
});
