/**
 * Sensible limits and orders that plan real work (docs/API.md "Limits", "Order row units",
 * "Empty orders"): absurd figures, empty orders and rows that plan no work are refused with a
 * 422 that names the field and the broken rule, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { countOf, create, expectFieldErrors, get } from '../helpers/order-data.js';

let api: TestApi;
/** An activity whose pieces take 30 minutes each, and one with no default duration. */
let assembly: any;
let inspection: any;

beforeAll(async () => {
  api = await startTestApi();
  assembly = await create(api, '/v1/activity', { description: 'Assembly', default_duration: 30 });
  inspection = await create(api, '/v1/activity', { description: 'Inspection' });
});
afterAll(async () => {
  await api.close();
});

/** A 422 on exactly `field`, breaking `rule`; the list at `path` keeps its count. */
async function expectRefused(method: string, path: string, body: unknown, field: string, rule: string, listPath: string) {
  const before = await countOf(api, listPath);
  const res = await api.http(method, path, body);
  expectFieldErrors(res, [field]);
  expect(res.body.errors[0].rule).toBe(rule);
  expect(await countOf(api, listPath)).toBe(before);
  return res.body.errors[0];
}

describe('absurd values are refused with sensible limits', () => {
  it('refuses a default duration of 99,999,999,999 minutes with 422 on default_duration (maximum one year)', async () => {
    const item = await expectRefused(
      'POST',
      '/v1/activity',
      { description: 'Forever', default_duration: 99_999_999_999 },
      'default_duration',
      'maximum',
      '/v1/activity',
    );
    expect(item.limit).toBe(525_600);
  });

  it('accepts a default duration of exactly one year', async () => {
    await create(api, '/v1/activity', { description: 'Long job', default_duration: 525_600 });
  });

  it('refuses an hourly rate above a million and a negative one, and an update leaves the activity as it was', async () => {
    await expectRefused('POST', '/v1/activity', { description: 'Gold', hourly_rate: 1e12 }, 'hourly_rate', 'maximum', '/v1/activity');
    const res = await api.http('PUT', `/v1/activity/${assembly.id}`, { hourly_rate: -5 });
    expectFieldErrors(res, ['hourly_rate']);
    expect(res.body.errors[0]).toMatchObject({ rule: 'minimum', limit: 0 });
    expect((await get(api, `/v1/activity/${assembly.id}`)).hourly_rate).toBe(0);
  });

  it('refuses a day maximum of more than a day of minutes', async () => {
    await expectRefused(
      'POST',
      '/v1/activity',
      { description: 'Long day', day_max_duration: 1441 },
      'day_max_duration',
      'maximum',
      '/v1/activity',
    );
  });

  it('refuses an order quantity of a trillion', async () => {
    await expectRefused('POST', '/v1/order', { code: 'BIG-1', quantity: 1e12 }, 'quantity', 'maximum', '/v1/order');
  });

  it('refuses a row of a trillion hours with 422 on its quantity, and the order is not written', async () => {
    const body = { code: 'BIG-2', order_rows: [{ activity_id: assembly.id, unit: 'hours', quantity: 1e12 }] };
    await expectRefused('POST', '/v1/order', body, 'order_rows.0.quantity', 'maximum', '/v1/order');
  });

  it('refuses a row that plans more than a year of work', async () => {
    const body = { code: 'BIG-3', order_rows: [{ activity_id: assembly.id, unit: 'days', quantity: 200 }] };
    const item = await expectRefused('POST', '/v1/order', body, 'order_rows.0.quantity', 'tooMuchWork', '/v1/order');
    expect(item.limit).toBe(525_600);
  });
});

describe('every field error says which rule it broke', () => {
  it('names required, maxLength, type and enum', async () => {
    const res = await api.http('POST', '/v1/activity', { description: '', code: 'x'.repeat(51), default_duration: 'long' });
    expectFieldErrors(res, ['description', 'code', 'default_duration']);
    const byField = Object.fromEntries(res.body.errors.map((e: any) => [e.field, e]));
    expect(byField.description.rule).toBe('required');
    expect(byField.code).toMatchObject({ rule: 'maxLength', limit: 50 });
    expect(byField.default_duration.rule).toBe('type');
    const resource = await api.http('POST', '/v1/resource', { name: 'Robot', type: 'spaceship' });
    expectFieldErrors(resource, ['type']);
    expect(resource.body.errors[0].rule).toBe('enum');
  });
});

describe('order rows in pieces plan quantity × the activity default duration', () => {
  it('plans 5 pieces of a 30-minute activity as 150 minutes on the collection', async () => {
    const order = await create(api, '/v1/order', { code: 'PC-1', order_rows: [{ activity_id: assembly.id, unit: 'pieces', quantity: 5 }] });
    const collection = await get(api, `/v1/collection/${order.collection_id}?with=activities`);
    expect(collection.activities.map((a: any) => [a.id, a.time])).toEqual([[assembly.id, 150]]);
  });

  it('refuses pieces of an activity without a default duration with 422 on unit', async () => {
    const body = { code: 'PC-2', order_rows: [{ activity_id: inspection.id, unit: 'pieces', quantity: 5 }] };
    await expectRefused('POST', '/v1/order', body, 'order_rows.0.unit', 'noWork', '/v1/order');
  });

  it('refuses a row of 0 hours for an activity, and a row update to 0, keeping the row', async () => {
    await expectRefused(
      'POST',
      '/v1/order',
      { code: 'PC-3', order_rows: [{ activity_id: assembly.id, unit: 'hours', quantity: 0 }] },
      'order_rows.0.quantity',
      'noWork',
      '/v1/order',
    );
    const order = await create(api, '/v1/order', { code: 'PC-4', order_rows: [{ activity_id: assembly.id, unit: 'hours', quantity: 2 }] });
    const [row] = (await get(api, `/v1/order/${order.id}/row`)).data;
    const res = await api.http('PUT', `/v1/order/${order.id}/row/${row.id}`, { quantity: 0 });
    expectFieldErrors(res, ['quantity']);
    expect(res.body.errors[0].rule).toBe('noWork');
    expect((await get(api, `/v1/order/${order.id}/row/${row.id}`)).quantity).toBe(2);
  });

  it('still reads and writes other units as text that plans nothing (public API compatibility)', async () => {
    const order = await create(api, '/v1/order', { code: 'PC-5', order_rows: [{ activity_id: assembly.id, unit: 'kg', quantity: 3 }] });
    const collection = await get(api, `/v1/collection/${order.collection_id}?with=activities`);
    expect(collection.activities.map((a: any) => a.time)).toEqual([0]);
  });
});

describe('empty orders', () => {
  it('refuses an order with neither a code nor a description with 422 on code', async () => {
    await expectRefused('POST', '/v1/order', { code: '  ', description: null }, 'code', 'codeOrDescription', '/v1/order');
  });

  it('refuses an update that blanks both, and keeps the order', async () => {
    const order = await create(api, '/v1/order', { code: 'EMPTY-1' });
    const res = await api.http('PUT', `/v1/order/${order.id}`, { code: null });
    expectFieldErrors(res, ['code']);
    expect((await get(api, `/v1/order/${order.id}`)).code).toBe('EMPTY-1');
  });

  it('accepts an order with only a description, or only an external_ref', async () => {
    await create(api, '/v1/order', { description: 'Oak table' });
    await create(api, '/v1/order', { external_ref: 'ERP-77' });
  });
});
