/**
 * The list conventions every index endpoint shares (docs/API.md
 * "Lists"), over real HTTP: the envelope, paging and sorting, and the rule that every
 * mistake in a query is a 400 with the documented error body, never a 500.
 *
 * Filters are in conventions-filter.test.ts; show, hide and with in conventions-shape.test.ts;
 * randomized checks in conventions.property.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest, expectErrorBody } from '../helpers/api-errors.js';
import { q, seedOrderData, type OrderFixture } from '../helpers/order-fixture.js';

const labels = (res: { body: any }): string[] => res.body.data.map((o: any) => o.description);

describe('paging', () => {
  let api: TestApi;
  /** Warehouse names in creation order: W-000 … W-104. */
  const names = Array.from({ length: 105 }, (_, i) => `W-${String(i).padStart(3, '0')}`);
  const get = (query: string) => api.http('GET', `/v1/warehouse${query}`);

  beforeAll(async () => {
    api = await startTestApi();
    for (const name of names) {
      const res = await api.inject('POST', '/v1/warehouse', { name });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers a list in the envelope {count, limit, offset, data}', async () => {
    const res = await get('');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['count', 'data', 'limit', 'offset']);
  });

  it('returns 100 records by default and counts all 105', async () => {
    const res = await get('');
    expect(res.body).toMatchObject({ count: 105, limit: 100, offset: 0 });
    expect(res.body.data.map((w: any) => w.name)).toEqual(names.slice(0, 100));
  });

  it('returns only the count with limit=0', async () => {
    const res = await get('?limit=0');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 105, limit: 0, offset: 0, data: [] });
  });

  it('accepts the maximum limit=1000', async () => {
    const res = await get('?limit=1000');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 105, limit: 1000 });
    expect(res.body.data).toHaveLength(105);
  });

  it.each(['1001', '-1', 'abc', '1.5', '1e2', '0x10', ' 5', '5,6'])('rejects limit=%j with 400 instead of clamping', async (limit) => {
    const res = await get(`?limit=${q(limit)}`);
    expectBadRequest(res, 'limit');
  });

  it.each(['-1', 'abc', '1.5'])('rejects offset=%j with 400', async (offset) => {
    expectBadRequest(await get(`?offset=${q(offset)}`), 'offset');
  });

  it('pages with limit and offset and echoes both', async () => {
    const res = await get('?limit=10&offset=20');
    expect(res.body).toMatchObject({ count: 105, limit: 10, offset: 20 });
    expect(res.body.data.map((w: any) => w.name)).toEqual(names.slice(20, 30));
  });

  it('counts all matches, not the page size, on the last partial page', async () => {
    const res = await get('?limit=10&offset=100');
    expect(res.body).toMatchObject({ count: 105, limit: 10, offset: 100 });
    expect(res.body.data.map((w: any) => w.name)).toEqual(names.slice(100));
  });

  it('counts the matches of a filter, not the page', async () => {
    const res = await get(`?limit=2&filter=${q('name:starts_with:W-10')}`);
    expect(res.body).toMatchObject({ count: 5, limit: 2 });
    expect(res.body.data.map((w: any) => w.name)).toEqual(['W-100', 'W-101']);
  });

  it('answers an offset past the end with data: [] and the full count', async () => {
    for (const offset of [105, 106, 5000]) {
      const res = await get(`?offset=${offset}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: 105, limit: 100, offset, data: [] });
    }
  });

  it('keeps unsorted pages in creation order, so consecutive pages neither skip nor repeat', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 105; offset += 25) {
      seen.push(...(await get(`?limit=25&offset=${offset}`)).body.data.map((w: any) => w.name));
    }
    expect(seen).toEqual(names);
  });
});

describe('sort', () => {
  let api: TestApi;
  let fixture: OrderFixture;
  const get = (query: string) => api.http('GET', `/v1/order${query}`);

  beforeAll(async () => {
    api = await startTestApi();
    fixture = await seedOrderData(api);
  });
  afterAll(async () => {
    await api.close();
  });

  const withQuantity = `filter=${q('quantity:not:eq:null')}`;

  it('lists in creation order when no sort is given', async () => {
    expect(labels(await get(''))).toEqual(['O1', 'O2', 'O3', 'O4', 'O5', 'O6']);
  });

  it('sorts numbers as numbers, ascending by default', async () => {
    expect(labels(await get(`?sort=quantity&${withQuantity}`))).toEqual(['O6', 'O3', 'O1', 'O2', 'O5']);
    expect(labels(await get(`?sort=quantity:asc&${withQuantity}`))).toEqual(['O6', 'O3', 'O1', 'O2', 'O5']);
  });

  it('sorts descending with :desc', async () => {
    expect(labels(await get(`?sort=quantity:desc&${withQuantity}`))).toEqual(['O5', 'O2', 'O1', 'O3', 'O6']);
  });

  it('sorts dates as ISO text', async () => {
    const res = await get(`?sort=promised_date:desc&filter=${q('promised_date:not:eq:null')}`);
    expect(labels(res)).toEqual(['O5', 'O4', 'O2', 'O1', 'O6']);
  });

  it('sorts by several fields, each with its own direction', async () => {
    const filter = `filter=${q('status:not:eq:null,and,quantity:not:eq:null')}`;
    expect(labels(await get(`?sort=status:desc,quantity:desc&${filter}`))).toEqual(['O1', 'O6', 'O5', 'O2']);
    expect(labels(await get(`?sort=status:desc,quantity:asc&${filter}`))).toEqual(['O1', 'O6', 'O2', 'O5']);
  });

  it('keeps ties in creation order', async () => {
    const res = await get(`?sort=status&filter=${q('status:not:eq:null')}`);
    expect(labels(res)).toEqual(['O2', 'O5', 'O6', 'O1', 'O4']);
    const desc = await get(`?sort=type:desc&filter=${q('type:eq:Sales')}`);
    expect(labels(desc)).toEqual(['O1', 'O4']);
  });

  it('sorts before paging', async () => {
    const res = await get(`?sort=quantity:desc&limit=2&offset=1&${withQuantity}`);
    expect(res.body.count).toBe(5);
    expect(labels(res)).toEqual(['O2', 'O1']);
  });

  it('rejects an unknown sort field with 400 naming it', async () => {
    expectBadRequest(await get('?sort=quantity,nope:desc'), 'nope');
  });

  it('rejects an unknown sort field also when the page is empty (limit=0, no matches, offset past the end)', async () => {
    expectBadRequest(await get('?sort=nope&limit=0'), 'nope');
    expectBadRequest(await get(`?sort=nope&filter=${q('code:eq:no-such-code')}`), 'nope');
    expectBadRequest(await get('?sort=nope&offset=500'), 'nope');
  });

  it("sorts on a field of a record it belongs to (the project's name); a list relation or a field it lacks is unknown", async () => {
    const withProject = `filter=${q('project_id:not:eq:null')}`;
    expect(labels(await get(`?sort=project.name&${withProject}`))).toEqual(['O2', 'O1', 'O3']);
    expect(labels(await get(`?sort=project.name:desc,description:desc&${withProject}`))).toEqual(['O3', 'O1', 'O2']);
    expectBadRequest(await get('?sort=project.nope'), 'project.nope');
    expectBadRequest(await get('?sort=order_rows'));
    expectBadRequest(await get('?sort=order_rows.code'), 'order_rows.code');
  });

  it.each(['quantity:up', 'quantity:ASC', 'quantity:', 'quantity:asc:desc', ',quantity', ':desc'])(
    'rejects sort=%j (a bad direction or an empty field) with 400',
    async (sort) => {
      expectBadRequest(await get(`?sort=${q(sort)}`), 'sort');
    },
  );

  it('sorts nested lists the same way: rows of an order', async () => {
    const res = await api.http('GET', `/v1/order/${fixture.orders.O1.id}/row?sort=code:desc`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => r.code)).toEqual(['R-B', 'R-A']);
  });
});

describe('errors in a query', () => {
  let api: TestApi;
  let fixture: OrderFixture;

  beforeAll(async () => {
    api = await startTestApi();
    fixture = await seedOrderData(api);
  });
  afterAll(async () => {
    await api.close();
  });

  // Every mistake a client can make in a query string, on a list and on one record.
  const mistakes: string[] = [
    'limit=1001',
    'limit=-1',
    'limit=abc',
    'offset=-5',
    'sort=nope',
    'sort=code:sideways',
    'filter=nope:eq:1',
    'filter=code:like:x',
    `filter=${q('(code:eq:1')}`,
    `filter=${q('code:eq:1)')}`,
    `filter=${q("code:eq:'abc")}`,
    'filter=quantity:gt:abc',
    'filter=quantity:gt:null',
    'filter=code:has:x',
    'filter=order_rows:eq:x',
    'filter=order_rows.nope:eq:x',
    'filter=meta:has:x',
    'with=nope',
    'with=order_rows.nope',
    'with=a.b.c.d.e.f',
  ];

  it.each(mistakes)('answers GET /v1/order?%s with 400 and the error body', async (query) => {
    const res = await api.http('GET', `/v1/order?${query}`);
    expectBadRequest(res);
  });

  it.each(['with=nope', 'with=order_rows.nope'])('answers GET /v1/order/{id}?%s with 400 and the error body', async (query) => {
    const res = await api.http('GET', `/v1/order/${fixture.orders.O1.id}?${query}`);
    expectBadRequest(res, 'Relation not found: nope');
  });

  it('rejects a bad with on POST and PUT with 400, before anything is written', async () => {
    const before = (await api.http('GET', '/v1/project?limit=0')).body.count;
    expectBadRequest(await api.http('POST', '/v1/project?with=nope', { name: 'Never' }), 'Relation not found: nope');
    expectBadRequest(
      await api.http('PUT', `/v1/project/${fixture.projects.kitchen}?with=nope`, { name: 'Renamed' }),
      'Relation not found: nope',
    );
    expect((await api.http('GET', '/v1/project?limit=0')).body.count).toBe(before);
    expect((await api.http('GET', `/v1/project/${fixture.projects.kitchen}`)).body.name).toBe('Kitchen');
  });

  /** A request the test sets up with: it must succeed. */
  async function made(method: string, path: string, body?: unknown): Promise<any> {
    const res = await api.http(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  }

  it('rejects a bad include on POST and PUT with 400, before anything is written', async () => {
    const board = await made('POST', '/v1/board?with=stages', {
      name: 'Includes',
      stages: [{ name: 'Cut' }],
      statuses: [{ name: 'To do', entry: true }],
    });
    const collection = await made('GET', `/v1/collection/${fixture.orders.O1.collection_id}`);
    const collections = (await made('GET', '/v1/collection?limit=0')).count;
    expectBadRequest(
      await api.http('POST', '/v1/collection?include=bogus', { name: 'Never', board_id: board.id }),
      'Unknown include: bogus',
    );
    expectBadRequest(await api.http('PUT', `/v1/collection/${collection.id}?include=bogus`, { name: 'Renamed' }), 'Unknown include: bogus');
    expect((await made('GET', '/v1/collection?limit=0')).count).toBe(collections);
    expect(await made('GET', `/v1/collection/${collection.id}`)).toStrictEqual(collection);

    // A resource that offers extras refuses the ones it does not offer just as early.
    const cards = `/v1/collection/${(await made('POST', '/v1/collection', { name: 'Has cards', board_id: board.id })).id}/card`;
    const card = await made('POST', cards, { name: 'First', stage_id: board.stages[0].id });
    expectBadRequest(
      await api.http('POST', `${cards}?include=time_tracking_total,weather`, { name: 'Never', stage_id: board.stages[0].id }),
      'Unknown include: weather',
    );
    expectBadRequest(await api.http('PUT', `${cards}/${card.id}?include=weather`, { name: 'Renamed' }), 'Unknown include: weather');
    expect((await made('GET', `${cards}?limit=0`)).count).toBe(1);
    expect(await made('GET', `${cards}/${card.id}`)).toStrictEqual(card);
  });

  it('rejects a bad with or include on the other writes that answer a record, before anything is written', async () => {
    const board = await made('POST', '/v1/board', { name: 'Planning target', statuses: [{ name: 'To do', entry: true }] });
    const collection = await made('POST', '/v1/collection', { name: 'Unplanned', board_id: board.id });
    const path = `/v1/collection/${collection.id}`;
    expectBadRequest(await api.http('PUT', `${path}/custom_field/Weight?include=bogus`, { value: 'heavy' }), 'Unknown include: bogus');
    expectBadRequest(await api.http('POST', `${path}/board/${board.id}?with=nope`, {}), 'Relation not found: nope');
    expect(await made('GET', path)).toStrictEqual(collection);
    expect((await made('GET', `${path}/card?limit=0`)).count).toBe(0);
  });

  // Names that every JavaScript object has must be as unknown as any other name.
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'treats %s as an unknown field, sort field and relation (400, not 500)',
    async (name) => {
      expectBadRequest(await api.http('GET', `/v1/order?filter=${name}:eq:1`), name);
      expectBadRequest(await api.http('GET', `/v1/order?filter=project.${name}:eq:1`), name);
      expectBadRequest(await api.http('GET', `/v1/order?sort=${name}`), name);
      expectBadRequest(await api.http('GET', `/v1/order?with=${name}`), `Relation not found: ${name}`);
    },
  );

  it('keeps the error body of 404 and 401 the same shape', async () => {
    const missing = await api.http('GET', '/v1/order/01234567-89ab-7def-8123-456789abcdef?with=project&show=id');
    expect(missing.status).toBe(404);
    expectErrorBody(missing.body, 10404, 'Not Found');
    const anonymous = await api.http('GET', '/v1/order?limit=abc', undefined, { 'x-api-key': 'wrong' });
    expect(anonymous.status).toBe(401);
    expectErrorBody(anonymous.body, 10401, 'Not Logged In');
  });

  it('gives every failure its own reference', async () => {
    const a = await api.http('GET', '/v1/order?limit=abc');
    const b = await api.http('GET', '/v1/order?limit=abc');
    expect(a.body.reference).not.toBe(b.body.reference);
  });
});
