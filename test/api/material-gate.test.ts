/**
 * Material gates the plan (docs/API.md "Material"), over real HTTP on either engine, worked out
 * by hand. Plans name their start, so nothing depends on today (the clock is fixed anyway).
 *
 * Board Shop (Mon–Fri): stages Prep (independent, allows Prep), Saw (allows Saw), Weld (allows
 * Weld); Pat works 8 h a day on Prep, Sam 8 h on Saw and Weld. Each sales order has rows of 480 minutes: one
 * workday per card. Dates in December 2026: Mon 7, Tue 8 … Fri 11, Mon 14, Tue 15, Wed 16,
 * Thu 17, Fri 18, Mon 21, Tue 22.
 *
 * A purchase row supplying a sales order's Saw row, promised Tue 15 Dec: from Mon 7, Prep
 * (independent) Mon 7; Saw (the first dependent stage) waits to Tue 15; Weld Wed 16. Without the
 * material Saw would be Mon 7 and Weld Tue 8.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, fullTime, get, officeWeek } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

let api: TestApi;
const ids: Record<string, string> = {};

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return api.http(method, path, body);
}

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** A sales order on Shop with one 480-minute row per activity named; its collection and rows. */
async function salesOrder(code: string, activities: string[]): Promise<{ collection: string; rows: Record<string, string> }> {
  const order = await create(api, '/v1/order?with=order_rows', {
    code,
    type: 'Sales',
    board_id: ids.Shop,
    order_rows: activities.map((a) => ({ activity_id: ids[a], unit: 'minutes', quantity: 480 })),
  });
  const rows: Record<string, string> = {};
  for (const row of order.order_rows) rows[activities.find((a) => ids[a] === row.activity_id)!] = row.id;
  return { collection: order.collection_id, rows };
}

/** A purchase order whose one row supplies `rowId`; `dates` go on the order, `row` on its row. */
async function purchase(code: string, rowId: string, dates: Record<string, string>, row: Record<string, unknown> = {}): Promise<string> {
  const order = await create(api, '/v1/order', {
    code,
    type: 'Purchase',
    ...dates,
    order_rows: [{ code: 'steel', supplies_order_rows: [{ id: rowId }], ...row }],
  });
  return order.id;
}

type Plan = [string, string, string][];

/** The plan's cards as [stage, start, end], in stage order. */
function cards(answer: any): Plan {
  const names = new Map([
    [ids.Prep, 'Prep'],
    [ids.Saw, 'Saw'],
    [ids.Weld, 'Weld'],
  ]);
  return answer.cards
    .map((c: any) => [names.get(c.stage_id), c.start_date, c.end_date])
    .sort((a: string[], b: string[]) => ['Prep', 'Saw', 'Weld'].indexOf(a[0]!) - ['Prep', 'Saw', 'Weld'].indexOf(b[0]!));
}

/** A dry run of a plan onto Shop: what would be planned, and nothing written. */
async function dryPlan(collection: string, options: Record<string, unknown>): Promise<{ status: number; body: any }> {
  return call('POST', `/v1/collection/${collection}/board/${ids.Shop}`, { dry_run: true, ...options });
}

async function promise(collection: string, capacity: 'finite' | 'infinite', start = '2026-12-07'): Promise<any> {
  const body = await ok('POST', `/v1/board/${ids.Shop}/promise_dates`, { collection_ids: [collection], capacity, start });
  return body.data[0];
}

const gatedPlan: Plan = [
  ['Prep', '2026-12-07', '2026-12-07'],
  ['Saw', '2026-12-15', '2026-12-15'],
  ['Weld', '2026-12-16', '2026-12-16'],
];
const freePlan: Plan = [
  ['Prep', '2026-12-07', '2026-12-07'],
  ['Saw', '2026-12-07', '2026-12-07'],
  ['Weld', '2026-12-08', '2026-12-08'],
];

beforeAll(async () => {
  api = await startTestApi();
  for (const name of ['Prep', 'Saw', 'Weld'])
    ids[name.toLowerCase()] = (await create(api, '/v1/activity', { description: name, resource_type: 'employee' })).id;
  const board = await create(api, '/v1/board?with=stages', {
    name: 'Shop',
    workdays: officeWeek,
    stages: [
      { name: 'Prep', priority: 0, independent: true, activities: [{ id: ids.prep, priority: 0 }] },
      { name: 'Saw', priority: 1, activities: [{ id: ids.saw, priority: 0 }] },
      { name: 'Weld', priority: 2, activities: [{ id: ids.weld, priority: 0 }] },
    ],
  });
  ids.Shop = board.id;
  for (const stage of board.stages) ids[stage.name] = stage.id;
  await create(api, `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  for (const [name, stages] of [
    ['Pat', ['Prep']],
    ['Sam', ['Saw', 'Weld']],
  ] as const)
    await create(api, '/v1/resource', {
      name,
      workdays: fullTime,
      boards: [{ id: board.id, active: true, stages: stages.map((s) => ({ id: ids[s], percentage: 100, active: true })) }],
    });
});

afterAll(async () => {
  await api.close();
});

describe('the first dependent stage waits for its material', () => {
  let collection: string;
  beforeAll(async () => {
    const sales = await salesOrder('SO-1', ['prep', 'saw', 'weld']);
    collection = sales.collection;
    await purchase('PO-123', sales.rows.saw!, { promised_date: '2026-12-15', desired_date: '2026-12-10' });
  });

  it('plans finite and infinite forward with Saw on the promised date, Prep (independent) from the start', async () => {
    for (const capacity of ['finite', 'infinite']) {
      const res = await dryPlan(collection, { capacity, start: '2026-12-07' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(cards(res.body), capacity).toEqual(gatedPlan);
      expect(res.body.material_warnings).toBeUndefined();
    }
  });

  it('promises the same dates, finite and infinite', async () => {
    expect(await promise(collection, 'finite')).toEqual({ collection_id: collection, start: '2026-12-07', end: '2026-12-16' });
    expect(await promise(collection, 'infinite')).toEqual({ collection_id: collection, start: '2026-12-07', end: '2026-12-16' });
    // From after the material is expected, it gates nothing.
    expect(await promise(collection, 'finite', '2026-12-21')).toEqual({
      collection_id: collection,
      start: '2026-12-21',
      end: '2026-12-22',
    });
  });

  it('plans reverse back from the end while Saw stays on or after the material', async () => {
    for (const capacity of ['finite', 'infinite']) {
      const res = await dryPlan(collection, { capacity, reverse: true, start: '2026-12-07', end: '2026-12-18' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(cards(res.body).slice(1), capacity).toEqual([
        ['Saw', '2026-12-17', '2026-12-17'],
        ['Weld', '2026-12-18', '2026-12-18'],
      ]);
    }
  });

  it('refuses a reverse plan whose Saw would start before the material, naming the earliest end and the material', async () => {
    for (const capacity of ['finite', 'infinite']) {
      const res = await dryPlan(collection, { capacity, reverse: true, start: '2026-12-07', end: '2026-12-15' });
      expect(res.status, capacity).toBe(422);
      expect(res.body.errors).toMatchObject([
        {
          field: 'end',
          earliest_end: '2026-12-16',
          description:
            'No plan fits before Tue 15 Dec; the earliest end that fits is 2026-12-16 (Waiting for PO-123, expected Tue 15 Dec).',
        },
      ]);
    }
  });

  it('writes nothing on a dry run', async () => {
    expect((await get(api, `/v1/collection/${collection}?with=cards`)).cards).toEqual([]);
  });
});

describe('which material counts, and when', () => {
  it('gates the later stage the receiving row’s activity lands on, not the first', async () => {
    const sales = await salesOrder('SO-2', ['prep', 'saw', 'weld']);
    await purchase('PO-200', sales.rows.weld!, { promised_date: '2026-12-21' });
    const res = await dryPlan(sales.collection, { capacity: 'finite', start: '2026-12-07' });
    expect(cards(res.body)).toEqual([
      ['Prep', '2026-12-07', '2026-12-07'],
      ['Saw', '2026-12-07', '2026-12-07'],
      ['Weld', '2026-12-21', '2026-12-21'],
    ]);
  });

  it('takes the desired date when the supplying order has no promised date', async () => {
    const sales = await salesOrder('SO-3', ['prep', 'saw', 'weld']);
    await purchase('PO-300', sales.rows.saw!, { desired_date: '2026-12-15' });
    expect(cards((await dryPlan(sales.collection, { capacity: 'finite', start: '2026-12-07' })).body)).toEqual(gatedPlan);
  });

  it('counts material as there once its order or its own row is delivered', async () => {
    const byOrder = await salesOrder('SO-4', ['prep', 'saw', 'weld']);
    await purchase('PO-400', byOrder.rows.saw!, { promised_date: '2026-12-15', delivered_date: '2026-12-04' });
    const byRow = await salesOrder('SO-5', ['prep', 'saw', 'weld']);
    await purchase('PO-500', byRow.rows.saw!, { promised_date: '2026-12-15' }, { delivered_date: '2026-12-04' });
    for (const sales of [byOrder, byRow]) {
      expect(cards((await dryPlan(sales.collection, { capacity: 'finite', start: '2026-12-07' })).body)).toEqual(freePlan);
      expect(cards((await dryPlan(sales.collection, { capacity: 'infinite', start: '2026-12-07' })).body)).toEqual(freePlan);
    }
  });

  it('waits for the latest of two supplying orders', async () => {
    const sales = await salesOrder('SO-6', ['prep', 'saw', 'weld']);
    await purchase('PO-601', sales.rows.saw!, { promised_date: '2026-12-10' });
    await purchase('PO-602', sales.rows.saw!, { promised_date: '2026-12-15' });
    expect(cards((await dryPlan(sales.collection, { capacity: 'infinite', start: '2026-12-07' })).body)).toEqual(gatedPlan);
  });
});

describe('material without a date', () => {
  let collection: string;
  beforeAll(async () => {
    const sales = await salesOrder('SO-7', ['prep', 'saw', 'weld']);
    collection = sales.collection;
    await purchase('PO-700', sales.rows.saw!, {});
  });
  const message = 'Waiting for PO-700, date unknown: give the supplying order a promised, desired or delivered date';

  it('refuses a finite plan with 422 on material, and writes nothing', async () => {
    const res = await call('POST', `/v1/collection/${collection}/board/${ids.Shop}`, { capacity: 'finite', start: '2026-12-07' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject([{ field: 'material', description: message }]);
    expect((await get(api, `/v1/collection/${collection}?with=cards`)).cards).toEqual([]);
    expect(await promise(collection, 'finite')).toEqual({ collection_id: collection, error: `Cannot be planned: ${message}.` });
  });

  it('plans infinite with a warning', async () => {
    const res = await dryPlan(collection, { capacity: 'infinite', start: '2026-12-07' });
    expect(res.status).toBe(200);
    expect(cards(res.body)).toEqual(freePlan);
    expect(res.body.material_warnings).toEqual([message]);
    expect(await promise(collection, 'infinite')).toEqual({
      collection_id: collection,
      start: '2026-12-07',
      end: '2026-12-08',
      warning: message,
    });
  });

  it('refuses it in "Replan late…" naming the collection', async () => {
    const res = await call('POST', '/v1/command/replan_collections', {
      board_id: ids.Shop,
      collection_ids: [collection],
      start: '2026-12-07',
      dry_run: true,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject([{ field: 'collection_ids.0', description: `collection_ids.0: ${message}` }]);
  });
});

describe('reading what a collection waits for', () => {
  let sales: { collection: string; rows: Record<string, string> };
  let po: string;
  beforeAll(async () => {
    sales = await salesOrder('SO-8', ['prep', 'saw', 'weld']);
    po = await purchase('PO-800', sales.rows.saw!, { promised_date: '2026-12-15' });
  });

  it('replans late work after the material in one command', async () => {
    const res = await call('POST', '/v1/command/replan_collections', {
      board_id: ids.Shop,
      collection_ids: [sales.collection],
      start: '2026-12-07',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(cards(res.body.data[0])).toEqual(gatedPlan);
  });

  it('names the material, its date and the stage; no card starts before it', async () => {
    const body = await ok('GET', `/v1/material?collection_ids=${sales.collection}`);
    expect(body.data).toMatchObject([
      {
        collection_id: sales.collection,
        waits: [
          {
            stage_id: ids.Saw,
            earliest_start: '2026-12-15',
            waiting_for: [{ order_id: po, order_code: 'PO-800', expected: '2026-12-15', basis: 'promised_date', activity_id: ids.saw }],
          },
        ],
        date_unknown: [],
        early_cards: [],
      },
    ]);
  });

  it('follows the purchase order when its date moves: a new earliest start, and the planned Saw card starts too early', async () => {
    await ok('PUT', `/v1/order/${po}`, { promised_date: '2026-12-22' });
    const [material] = (await ok('GET', `/v1/material?collection_ids=${sales.collection}`)).data;
    expect(material.waits.map((w: any) => [w.stage_id, w.earliest_start])).toEqual([[ids.Saw, '2026-12-22']]);
    expect(material.early_cards).toMatchObject([{ stage_id: ids.Saw, start_date: '2026-12-15', earliest_start: '2026-12-22' }]);
    expect(await promise(sales.collection, 'finite')).toMatchObject({ start: '2026-12-07', end: '2026-12-23' });
  });

  it('lists the early Saw card in the exception inbox, worded with the material', async () => {
    const inbox = await ok('GET', '/v1/exception?kind=material_late');
    expect(inbox.data).toMatchObject([
      {
        kind: 'material_late',
        record: { resource: 'card' },
        board_id: ids.Shop,
        date: '2026-12-15',
        details: { start: '2026-12-15', earliest: '2026-12-22', order: 'PO-800' },
        links: [{ action: 'open_card', collection_id: sales.collection, board_id: ids.Shop }, { action: 'replan_finite' }],
      },
    ]);
    expect(inbox.data[0].text).toMatch(/ starts on Tue 15 Dec, before its material: waiting for PO-800, expected Tue 22 Dec$/);
  });

  it('reads by board: the planned collections that wait for material, not the others', async () => {
    const plain = await create(api, '/v1/collection', {
      name: 'Plain planned',
      board_id: ids.Shop,
      activities: [{ id: ids.saw, time: 480 }],
    });
    await ok('POST', `/v1/collection/${plain.id}/board/${ids.Shop}`, { start: '2026-12-07' });
    const body = await ok('GET', `/v1/material?board_id=${ids.Shop}`);
    expect(body.data.map((m: any) => [m.collection_id, m.early_cards.map((c: any) => c.start_date)])).toEqual([
      [sales.collection, ['2026-12-15']],
    ]);
    expect((await call('GET', '/v1/material?board_id=01234567-89ab-7def-8123-456789abcdef')).status).toBe(404);
    expect((await call('GET', `/v1/material?board_id=${ids.Shop}&collection_ids=${plain.id}`)).status).toBe(400);
  });

  it('answers an empty wait for a collection without material, and leaves out unknown ids', async () => {
    const plain = await create(api, '/v1/collection', { name: 'Plain', board_id: ids.Shop });
    const body = await ok('GET', `/v1/material?collection_ids=${plain.id},01234567-89ab-7def-8123-456789abcdef`);
    expect(body.data).toEqual([{ collection_id: plain.id, waits: [], date_unknown: [], early_cards: [] }]);
  });

  it('refuses a bad list with 400 and a clear message', async () => {
    for (const query of ['', '?collection_ids=', '?collection_ids=nope']) {
      const res = await call('GET', `/v1/material${query}`);
      expect(res.status, query).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/collection_ids/);
    }
  });
});
