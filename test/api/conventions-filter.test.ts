/**
 * `filter` on list endpoints (docs/API.md "filter"), over real HTTP,
 * on the order fixture (test/helpers/order-fixture.ts, whose table shows every value):
 * each operator with and without `not` on text, number, boolean, date and date-time fields,
 * null semantics, precedence and parentheses, quoting, relation filters, and the 400s.
 */
import { describe, expect, it } from 'vitest';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { q, seedOrderData, type OrderFixture } from '../helpers/order-fixture.js';

let api: TestApi;
let fixture: OrderFixture;

useSeededApi(async (started) => {
  api = started;
  fixture = await seedOrderData(api);
});

/** The labels (O1…O6) of the orders a filter matches, in creation order. */
async function orders(filter: string): Promise<string[]> {
  const res = await api.http('GET', `/v1/order?filter=${q(filter)}&show=description`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.count).toBe(res.body.data.length);
  return res.body.data.map((o: any) => o.description);
}

/** The `description`s of records of another resource a filter matches, in creation order. */
async function names(path: string, filter: string): Promise<string[]> {
  const res = await api.http('GET', `${path}${path.includes('?') ? '&' : '?'}filter=${q(filter)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((r: any) => r.description ?? r.name);
}

type Case = [filter: string, expected: string[]];

describe('filter on a text field (order code, status)', () => {
  const cases: Case[] = [
    ['code:eq:ALPHA-1', ['O1']],
    ['code:not:eq:ALPHA-1', ['O2', 'O3', 'O4', 'O5', 'O6']],
    ['status:gt:done', ['O1', 'O4', 'O6']],
    ['status:not:gt:done', ['O2', 'O3', 'O5']],
    ['status:gte:late', ['O1', 'O4', 'O6']],
    ['status:not:gte:late', ['O2', 'O3', 'O5']],
    ['status:lt:late', ['O2', 'O5']],
    ['status:not:lt:late', ['O1', 'O3', 'O4', 'O6']],
    ['status:lte:done', ['O2', 'O5']],
    ['status:not:lte:done', ['O1', 'O3', 'O4', 'O6']],
    ['code:contains:pha', ['O1', 'O2']],
    ['code:not:contains:pha', ['O3', 'O4', 'O5', 'O6']],
    ['code:starts_with:beta', ['O3', 'O4']],
    ['code:not:starts_with:beta', ['O1', 'O2', 'O5', 'O6']],
    ['code:ends_with:-2', ['O2']],
    ['code:not:ends_with:-2', ['O1', 'O3', 'O4', 'O5', 'O6']],
  ];
  it.each(cases)('%s matches %j', async (filter, expected) => {
    expect(await orders(filter)).toEqual(expected);
  });

  it('matches contains, starts_with and ends_with regardless of ASCII case', async () => {
    expect(await orders('code:contains:ALPHA')).toEqual(['O1', 'O2']);
    expect(await orders('code:contains:alpha')).toEqual(['O1', 'O2']);
    expect(await orders('code:starts_with:BeTa')).toEqual(['O3', 'O4']);
    expect(await orders('code:ends_with:OFF')).toEqual(['O6']);
  });

  it('takes % and _ in a text match literally, not as wildcards', async () => {
    expect(await orders('code:contains:%')).toEqual(['O6']);
    expect(await orders('code:contains:_')).toEqual(['O6']);
    expect(await orders('code:starts_with:50%_')).toEqual(['O6']);
    expect(await orders('code:contains:a%a')).toEqual([]);
  });

  it('filters an enum field as text (order type)', async () => {
    expect(await orders('type:eq:Sales')).toEqual(['O1', 'O4']);
    expect(await orders('type:not:eq:Sales')).toEqual(['O2', 'O3', 'O5', 'O6']);
    expect(await orders('type:starts_with:p')).toEqual(['O2', 'O5']);
  });
});

describe('filter on a number field (order quantity: 5, 12.5, 0, null, 100, -3)', () => {
  const cases: Case[] = [
    ['quantity:eq:5', ['O1']],
    ['quantity:eq:5.0', ['O1']],
    ['quantity:eq:12.5', ['O2']],
    ['quantity:not:eq:5', ['O2', 'O3', 'O4', 'O5', 'O6']],
    // As text, '12.5' and '100' would sort before '9'.
    ['quantity:gt:9', ['O2', 'O5']],
    ['quantity:not:gt:9', ['O1', 'O3', 'O4', 'O6']],
    ['quantity:gte:5', ['O1', 'O2', 'O5']],
    ['quantity:not:gte:5', ['O3', 'O4', 'O6']],
    ['quantity:lt:0', ['O6']],
    ['quantity:not:lt:0', ['O1', 'O2', 'O3', 'O4', 'O5']],
    ['quantity:lte:0', ['O3', 'O6']],
    ['quantity:not:lte:0', ['O1', 'O2', 'O4', 'O5']],
    ['quantity:gt:-3.5', ['O1', 'O2', 'O3', 'O5', 'O6']],
  ];
  it.each(cases)('%s matches %j', async (filter, expected) => {
    expect(await orders(filter)).toEqual(expected);
  });

  it.each(['abc', "''", '12abc', 'Infinity'])('rejects quantity:gt:%s (not a number) with 400 naming the value', async (value) => {
    const res = await api.http('GET', `/v1/order?filter=${q(`quantity:gt:${value}`)}`);
    expectBadRequest(res, 'quantity', 'not a number');
  });
});

describe('filter on a boolean field (item stockmanagement: Bolt true, Nut false, Screw default)', () => {
  const cases: Case[] = [
    ['stockmanagement:eq:true', ['Bolt']],
    ['stockmanagement:not:eq:true', ['Nut', 'Screw']],
    ['stockmanagement:eq:false', ['Nut', 'Screw']],
    ['stockmanagement:not:eq:false', ['Bolt']],
  ];
  it.each(cases)('%s matches %j', async (filter, expected) => {
    expect(await names('/v1/item', filter)).toEqual(expected);
  });

  it('rejects a boolean value that is not true or false with 400', async () => {
    expectBadRequest(await api.http('GET', `/v1/item?filter=${q('stockmanagement:eq:yes')}`), 'stockmanagement', 'true or false');
  });
});

describe('filter on a date field (order promised_date)', () => {
  const cases: Case[] = [
    ['promised_date:eq:2024-03-15', ['O2']],
    ['promised_date:not:eq:2024-03-15', ['O1', 'O3', 'O4', 'O5', 'O6']],
    ['promised_date:gt:2024-03-01', ['O2', 'O4', 'O5']],
    ['promised_date:not:gt:2024-03-01', ['O1', 'O3', 'O6']],
    ['promised_date:gte:2024-03-01', ['O1', 'O2', 'O4', 'O5']],
    ['promised_date:not:gte:2024-03-01', ['O3', 'O6']],
    ['promised_date:lt:2024-03-15', ['O1', 'O6']],
    ['promised_date:not:lt:2024-03-15', ['O2', 'O3', 'O4', 'O5']],
    ['promised_date:lte:2024-03-15', ['O1', 'O2', 'O6']],
    ['promised_date:not:lte:2024-03-15', ['O3', 'O4', 'O5']],
    ["promised_date:lt:'2024-01-01'", ['O6']],
    ['promised_date:gte:2024-03-01,and,promised_date:lte:2024-12-31', ['O1', 'O2', 'O4']],
  ];
  it.each(cases)('%s matches %j', async (filter, expected) => {
    expect(await orders(filter)).toEqual(expected);
  });
});

describe('filter on a date-time field', () => {
  // Activity archived_at: Paint 2024-01-01T10:00:00Z, Weld 2024-06-30T23:59:59Z, Cut null,
  // Drill 2024-06-30T23:30:00Z (sent with +02:00). archived=true lists archived ones too.
  const activities = '/v1/activity?archived=true';
  const cases: Case[] = [
    ['archived_at:eq:2024-01-01T10:00:00Z', ['Paint']],
    ['archived_at:not:eq:2024-01-01T10:00:00Z', ['Weld', 'Cut', 'Drill']],
    ['archived_at:gt:2024-06-30T23:30:00Z', ['Weld']],
    ['archived_at:not:gt:2024-06-30T23:30:00Z', ['Paint', 'Cut', 'Drill']],
    ['archived_at:gte:2024-06-30T23:30:00Z', ['Weld', 'Drill']],
    ['archived_at:not:gte:2024-06-30T23:30:00Z', ['Paint', 'Cut']],
    ['archived_at:lt:2024-06-30T23:30:00Z', ['Paint']],
    ['archived_at:not:lt:2024-06-30T23:30:00Z', ['Weld', 'Cut', 'Drill']],
    ['archived_at:lte:2024-06-30T23:30:00Z', ['Paint', 'Drill']],
    ['archived_at:not:lte:2024-06-30T23:30:00Z', ['Weld', 'Cut']],
    ['archived_at:eq:null', ['Cut']],
    ['archived_at:not:eq:null', ['Paint', 'Weld', 'Drill']],
  ];
  it.each(cases)('%s matches %j', async (filter, expected) => {
    expect(await names(activities, filter)).toEqual(expected);
  });

  it('compares a value given with an offset as the UTC instant it names', async () => {
    expect(await names(activities, 'archived_at:eq:2024-07-01T01:30:00+02:00')).toEqual(['Drill']);
    expect(await names(activities, "archived_at:gt:'2024-07-01T01:00:00+02:00'")).toEqual(['Weld', 'Drill']);
  });

  it('compares a bare date with a date-time as ISO text, so it orders', async () => {
    expect(await names(activities, 'archived_at:gt:2024-06-30')).toEqual(['Weld', 'Drill']);
    expect(await names(activities, 'archived_at:lt:2024-06-30')).toEqual(['Paint']);
  });

  it('filters the server-set created_at, quoted or not, with Z or an offset', async () => {
    const early = (await api.http('POST', '/v1/project', { name: 'T-early' })).body;
    // Timestamps have whole seconds: wait for the next one.
    await new Promise((resolve) => setTimeout(resolve, 1020 - (Date.now() % 1000)));
    const late = (await api.http('POST', '/v1/project', { name: 'T-late' })).body;
    expect(late.created_at > early.created_at).toBe(true);
    const projects = (filter: string) => names('/v1/project', `name:starts_with:T-,and,${filter}`);
    expect(await projects(`created_at:gt:${early.created_at}`)).toEqual(['T-late']);
    expect(await projects(`created_at:not:gt:${early.created_at}`)).toEqual(['T-early']);
    expect(await projects(`created_at:lte:'${early.created_at}'`)).toEqual(['T-early']);
    expect(await projects(`created_at:gte:${late.created_at}`)).toEqual(['T-late']);
    expect(await projects(`created_at:lt:${late.created_at}`)).toEqual(['T-early']);
    expect(await projects(`created_at:eq:${early.created_at}`)).toEqual(['T-early']);
    // The same instant one hour ahead of UTC.
    const shifted = new Date(Date.parse(early.created_at) + 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+01:00');
    expect(await projects(`created_at:gt:${shifted}`)).toEqual(['T-late']);
    expect(await projects('created_at:gt:2000-01-01T00:00:00Z')).toEqual(['T-early', 'T-late']);
    expect(await projects('created_at:lt:2000-01-01T00:00:00Z')).toEqual([]);
  });
});

describe('filter and missing values', () => {
  it('matches a missing value with eq:null and a present one with not:eq:null', async () => {
    expect(await orders('status:eq:null')).toEqual(['O3']);
    expect(await orders('status:not:eq:null')).toEqual(['O1', 'O2', 'O4', 'O5', 'O6']);
    expect(await orders('promised_date:eq:null')).toEqual(['O3']);
    expect(await orders('quantity:eq:null')).toEqual(['O4']);
  });

  it('treats a comparison with a missing value as false, so not:eq includes nulls', async () => {
    expect(await orders('status:eq:done')).toEqual(['O2', 'O5']);
    expect(await orders('status:not:eq:done')).toEqual(['O1', 'O3', 'O4', 'O6']);
    expect(await orders('code:contains:a')).not.toContain('O5');
    expect(await orders('code:not:contains:a')).toContain('O5');
  });

  it("reads a quoted 'null' as the text null, not as a missing value", async () => {
    expect(await orders("contact:eq:'null'")).toEqual(['O1']);
    expect(await orders('contact:eq:null')).toEqual(['O2', 'O3', 'O4', 'O5', 'O6']);
  });

  it('rejects null with an operator other than eq with 400', async () => {
    expectBadRequest(await api.http('GET', `/v1/order?filter=${q('quantity:gt:null')}`), 'null');
  });
});

describe('filter combinations', () => {
  it('binds ,and, tighter than ,or,', async () => {
    expect(await orders('status:eq:open,or,status:eq:done,and,quantity:gt:50')).toEqual(['O1', 'O4', 'O5']);
    expect(await orders('quantity:gt:50,and,status:eq:done,or,status:eq:open')).toEqual(['O1', 'O4', 'O5']);
  });

  it('lets parentheses override precedence', async () => {
    expect(await orders('(status:eq:open,or,status:eq:done),and,quantity:gt:50')).toEqual(['O5']);
    expect(await orders('quantity:gt:50,and,(status:eq:done,or,status:eq:open)')).toEqual(['O5']);
  });

  it('evaluates nested parentheses', async () => {
    const filter = '((code:contains:alpha,or,code:contains:beta),and,(quantity:gte:5,or,quantity:eq:null))';
    expect(await orders(filter)).toEqual(['O1', 'O2', 'O4']);
  });

  it('negates only the atom that not precedes', async () => {
    expect(await orders('status:not:eq:open,and,status:not:eq:null')).toEqual(['O2', 'O5', 'O6']);
  });

  it('accepts the documented example', async () => {
    const filter = "created_at:gt:'2023-11-01T13:00:00Z',and,(id:not:starts_with:0000,or,id:contains:FFFF)";
    expect(await orders(filter)).toEqual(['O1', 'O2', 'O3', 'O4', 'O5', 'O6']);
  });
});

describe('filter quoting', () => {
  it("matches a quoted value containing ',', ':', ')' and spaces", async () => {
    expect(await orders("code:eq:'Beta, Inc: (x)'")).toEqual(['O3']);
    expect(await orders("(code:eq:'Beta, Inc: (x)',or,code:eq:beta-4)")).toEqual(['O3', 'O4']);
    expect(await orders("code:contains:', Inc: ('")).toEqual(['O3']);
  });

  it('reads a quoted value and the same unquoted value alike', async () => {
    expect(await orders("code:eq:'ALPHA-1'")).toEqual(await orders('code:eq:ALPHA-1'));
  });

  it("rejects an unquoted value containing ',' with 400", async () => {
    expectBadRequest(await api.http('GET', `/v1/order?filter=${q('code:eq:Beta, Inc: (x)')}`), 'position');
  });
});

describe('filter on relations', () => {
  it('project:has:<id> matches orders of that project; not:has the others, including orders without one', async () => {
    expect(await orders(`project:has:${fixture.projects.kitchen}`)).toEqual(['O1', 'O3']);
    expect(await orders(`project:not:has:${fixture.projects.kitchen}`)).toEqual(['O2', 'O4', 'O5', 'O6']);
  });

  it('project:has:* matches orders that have a project', async () => {
    expect(await orders('project:has:*')).toEqual(['O1', 'O2', 'O3']);
    expect(await orders('project:not:has:*')).toEqual(['O4', 'O5', 'O6']);
  });

  it('relation.field compares a field of the related record', async () => {
    expect(await orders('project.name:eq:Kitchen')).toEqual(['O1', 'O3']);
    expect(await orders('project.name:contains:GAR')).toEqual(['O2']);
    expect(await orders('item.stockmanagement:eq:true')).toEqual(['O1']);
  });

  it('order_rows.code:eq matches orders with such a row; not negates the whole condition', async () => {
    expect(await orders('order_rows.code:eq:R-A')).toEqual(['O1', 'O4']);
    expect(await orders('order_rows.code:not:eq:R-A')).toEqual(['O2', 'O3', 'O5', 'O6']);
    expect(await orders('order_rows.code:starts_with:r-')).toEqual(['O1', 'O2', 'O4']);
  });

  it('order_rows:has:* matches orders with any row; order_rows:has:<id> the order of that row', async () => {
    expect(await orders('order_rows:has:*')).toEqual(['O1', 'O2', 'O4']);
    expect(await orders('order_rows:not:has:*')).toEqual(['O3', 'O5', 'O6']);
    expect(await orders(`order_rows:has:${fixture.rows.o2rc}`)).toEqual(['O2']);
  });

  it('a many-to-many relation filters through its links', async () => {
    expect(await orders('supplies_order_rows:has:*')).toEqual(['O2']);
    expect(await orders(`supplies_order_rows:has:${fixture.rows.o1ra}`)).toEqual(['O2']);
  });

  it('does not see deleted related records', async () => {
    const order = (await api.http('POST', '/v1/order?with=order_rows', { description: 'tmp', code: 'TMP', order_rows: [{ code: 'GONE' }] }))
      .body;
    expect(await orders('order_rows.code:eq:GONE')).toEqual(['tmp']);
    await api.http('DELETE', `/v1/order/${order.id}/row/${order.order_rows[0].id}`);
    expect(await orders('order_rows.code:eq:GONE')).toEqual([]);
    await api.http('DELETE', `/v1/order/${order.id}`);
  });
});

describe('filter mistakes are 400s naming the problem', () => {
  const bad = (filter: string) => api.http('GET', `/v1/order?filter=${q(filter)}`);

  it('names an unknown field', async () => {
    expectBadRequest(await bad('nope:eq:1'), 'nope');
    expectBadRequest(await bad('code:eq:1,or,order_rows.nope:eq:1'), 'order_rows.nope');
  });

  it('names an unknown operator and its position', async () => {
    expectBadRequest(await bad('code:like:x'), 'like', 'position 6');
    expectBadRequest(await bad('code:not:like:x'), 'like', 'position 10');
  });

  it('names an unbalanced parenthesis and its position', async () => {
    expectBadRequest(await bad('(code:eq:1'), "')'", 'position 11');
    expectBadRequest(await bad('code:eq:1)'), "unbalanced ')'", 'position 10');
  });

  it('names an unterminated quote and its position', async () => {
    expectBadRequest(await bad("code:eq:'abc"), 'unterminated', 'position 9');
  });

  it('names a missing value separator', async () => {
    expectBadRequest(await bad('code:eq'), "':'", 'position 6');
  });

  it('rejects has on a field that is neither a relation nor a list, naming the field', async () => {
    expectBadRequest(await bad('code:has:x'), 'code');
  });

  it('rejects comparing a relation itself, pointing at has', async () => {
    expectBadRequest(await bad('order_rows:eq:x'), 'order_rows', 'has');
  });

  it('treats an empty filter as no filter', async () => {
    const res = await api.http('GET', '/v1/order?filter=');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(6);
  });
});
