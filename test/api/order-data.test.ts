/**
 * Order data over real HTTP: item, project, relation, warehouse, address, order, order rows
 * and activity. Each is created with every field of its declaration, read back, partially
 * updated and deleted; every validation rule of its declaration is a 422 naming the field,
 * and a refused write changes nothing. Order specifics (deep insertion, external_ref keys,
 * the collection an order creates) are in the other order-data.*.test.ts files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldSpec, ResourceSpec } from '../../shared/fields.js';
import { activitySpec } from '../../shared/resources/activity.js';
import { addressSpec } from '../../shared/resources/address.js';
import { itemSpec } from '../../shared/resources/item.js';
import { orderRowSpec } from '../../shared/resources/order-row.js';
import { orderSpec } from '../../shared/resources/order.js';
import { projectSpec } from '../../shared/resources/project.js';
import { relationSpec } from '../../shared/resources/relation.js';
import { warehouseSpec } from '../../shared/resources/warehouse.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import {
  countOf,
  create,
  createFixtures,
  expectErrorBody,
  expectFieldErrors,
  fullBodies,
  get,
  returnedFields,
  timestampPattern,
  unknownId,
  uuidPattern,
  writableFields,
  type Fixtures,
} from '../helpers/order-data.js';

let api: TestApi;
let fx: Fixtures;
/** The order whose rows the order-row cases write. */
let rowOrderId: string;
let counter = 0;
const tag = () => `${process.pid}-${++counter}`;

beforeAll(async () => {
  api = await startTestApi();
  fx = await createFixtures(api);
  rowOrderId = (await create(api, '/v1/order', { code: 'ROWS', description: 'Holds the row cases' })).id;
});
afterAll(async () => {
  await api.close();
});

interface ResourceCase {
  name: keyof typeof fullBodies;
  spec: ResourceSpec;
  path: () => string;
  /** A partial update: changes some fields, clears a nullable one. */
  update: () => Record<string, unknown>;
}

const resources: ResourceCase[] = [
  { name: 'item', spec: itemSpec, path: () => '/v1/item', update: () => ({ code: 'CH-200', note: null, stockmanagement: false }) },
  { name: 'project', spec: projectSpec, path: () => '/v1/project', update: () => ({ name: 'Kitchen and bath', description: null }) },
  { name: 'relation', spec: relationSpec, path: () => '/v1/relation', update: () => ({ email: 'new@acme.example', fax: null }) },
  { name: 'warehouse', spec: warehouseSpec, path: () => '/v1/warehouse', update: () => ({ name: 'Second warehouse', code: null }) },
  { name: 'address', spec: addressSpec, path: () => '/v1/address', update: () => ({ latitude: -33.8688, relation_id: null }) },
  {
    name: 'activity',
    spec: activitySpec,
    path: () => '/v1/activity',
    update: () => ({ billable: false, hourly_rate: 0.5, archived_at: null, item_id: null, resource_type: 'cell' }),
  },
  {
    name: 'order',
    spec: orderSpec,
    path: () => '/v1/order',
    update: () => ({ type: 'Production', quantity: 4, meta: null, project_id: null, promised_date: '2026-04-30' }),
  },
  {
    name: 'order_row',
    spec: orderRowSpec,
    path: () => `/v1/order/${rowOrderId}/row`,
    update: () => ({ quantity: 0.75, unit: 'minutes', activity_id: null, delivered_date: null }),
  },
];

// ---------------------------------------------------------------------------------------
// Validation cases, derived from each declaration.

interface BadCase {
  label: string;
  /** The field the 422 must name. */
  field: string;
  /** Turns a valid body into an invalid one. */
  spoil: (body: Record<string, unknown>) => Record<string, unknown>;
}

/** A value of the wrong JSON type for a field. */
function wrongType(field: FieldSpec): unknown {
  switch (field.type) {
    case 'integer':
      return 1.5;
    case 'number':
      return '12';
    case 'boolean':
      return 'true';
    case 'date':
      return 20260115;
    case 'datetime':
      return 1700000000;
    case 'json':
      return field.shape === 'array' ? { id: unknownId } : [1, 2];
    default:
      return 42;
  }
}

/** A string of the right type and length that does not match the field's pattern. */
const patternMisses: Record<string, string> = {
  email: 'orders.acme.example',
  external_url: 'ftp://erp.example/orders/1',
  // One skill's name: a comma would make it two (docs/API.md "Skills and crews").
  skill: 'welding, cert-2',
};

function badCases(spec: ResourceSpec): BadCase[] {
  const cases: BadCase[] = [];
  const set = (label: string, field: string, value: unknown) =>
    cases.push({ label: `${spec.name}.${field} ${label}`, field, spoil: (b) => ({ ...b, [field]: value }) });
  for (const [name, field] of writableFields(spec)) {
    set(`of the wrong type (${JSON.stringify(wrongType(field))})`, name, wrongType(field));
    if (field.type === 'uuid') set('that is not a uuid', name, 'not-a-uuid');
    if (field.maxLength !== undefined) set(`longer than ${field.maxLength} characters`, name, 'x'.repeat(field.maxLength + 1));
    if (field.enum) set(`outside its enum (${field.enum.join('|')})`, name, field.enum[0]!.toLowerCase() + '-x');
    if (field.pattern) set(`not matching ${field.pattern}`, name, patternMisses[name] ?? 'not a match');
    if (field.type === 'date') set('that is no calendar date (2026-02-30)', name, '2026-02-30');
    if (field.type === 'datetime') set('that is no calendar date (2026-02-30T10:00:00Z)', name, '2026-02-30T10:00:00Z');
    if (field.minimum !== undefined) set(`below its minimum ${field.minimum}`, name, field.minimum - 1);
    if (field.maximum !== undefined) set(`above its maximum ${field.maximum}`, name, field.maximum + 0.5);
    if (!field.nullable && !field.virtual) set('sent as null', name, null);
    if (field.references) set(`naming no ${field.references}`, name, unknownId);
    if (field.required) {
      cases.push({
        label: `${spec.name}.${name} missing (required)`,
        field: name,
        spoil: (b) => Object.fromEntries(Object.entries(b).filter(([k]) => k !== name)),
      });
    }
  }
  return cases;
}

describe.each(resources.map((r) => [r.name, r] as const))('%s', (_name, resource) => {
  const { spec } = resource;
  const full = () => fullBodies[resource.name](fx, tag());
  // The full activity body archives it; archived records are listed only on request.
  const listQuery = 'archived_at' in spec.fields ? 'archived=true&' : '';
  const list = () => get(api, `${resource.path()}?${listQuery}limit=1000`);
  const count = () => countOf(api, resource.path(), listQuery);

  it('creates a record with every field set (201) and returns each field exactly as sent', async () => {
    const body = full();
    const res = await api.http('POST', resource.path(), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(returnedFields(spec));
    for (const [name, value] of Object.entries(body)) expect(res.body[name], name).toStrictEqual(value);
    expect(res.body.id).toMatch(uuidPattern);
    expect(res.body.created_at).toMatch(timestampPattern);
    expect(res.body.updated_at).toMatch(timestampPattern);
  });

  it('reads every field back unchanged from GET one and from the list', async () => {
    const body = full();
    const created = await create(api, resource.path(), body);
    const one = await get(api, `${resource.path()}/${created.id}`);
    expect(one).toStrictEqual(created);
    for (const [name, value] of Object.entries(body)) expect(one[name], name).toStrictEqual(value);
    const listed = await list();
    expect(listed.data.find((r: any) => r.id === created.id)).toStrictEqual(created);
  });

  it('updates only the fields sent (partial PUT), null clearing a nullable field', async () => {
    const created = await create(api, resource.path(), full());
    const change = resource.update();
    const res = await api.http('PUT', `${resource.path()}/${created.id}`, change);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toStrictEqual({ ...created, ...change, updated_at: expect.stringMatching(timestampPattern) });
    expect(await get(api, `${resource.path()}/${created.id}`)).toStrictEqual(res.body);
  });

  it('deletes with 204; afterwards GET, PUT and DELETE are 404 and the list no longer has it', async () => {
    const created = await create(api, resource.path(), full());
    const before = await count();
    const res = await api.http('DELETE', `${resource.path()}/${created.id}`);
    expect(res.status).toBe(204);
    expect(res.body === null || res.body === '').toBe(true);

    const gone = await api.http('GET', `${resource.path()}/${created.id}`);
    expect(gone.status).toBe(404);
    expectErrorBody(gone.body, 'Not Found');
    expect((await api.http('PUT', `${resource.path()}/${created.id}`, { code: 'x' })).status).toBe(404);
    expect((await api.http('DELETE', `${resource.path()}/${created.id}`)).status).toBe(404);
    const listed = await list();
    expect(listed.data.map((r: any) => r.id)).not.toContain(created.id);
    expect(listed.count).toBe(before - 1);
  });

  it.each(badCases(spec).map((c) => [c.label, c] as const))(
    'refuses %s with one 422 item on that field, writing nothing',
    async (_label, { field, spoil }) => {
      const before = await count();
      const res = await api.http('POST', resource.path(), spoil(full()));
      expectFieldErrors(res, [field]);
      expect(res.body.errors[0].description).toContain(field);
      expect(await count()).toBe(before);
    },
  );

  it('reports every wrongly typed field of one body, one 422 item each', async () => {
    const before = await count();
    const writable = writableFields(spec);
    const body = Object.fromEntries(writable.map(([name, field]) => [name, wrongType(field)]));
    const res = await api.http('POST', resource.path(), body);
    expectFieldErrors(
      res,
      writable.map(([name]) => name),
    );
    expect(await count()).toBe(before);
  });

  it('refuses an invalid update with 422 and leaves the record as it was', async () => {
    const created = await create(api, resource.path(), full());
    const writable = writableFields(spec);
    const body = Object.fromEntries(writable.map(([name, field]) => [name, wrongType(field)]));
    const res = await api.http('PUT', `${resource.path()}/${created.id}`, body);
    expectFieldErrors(
      res,
      writable.map(([name]) => name),
    );
    expect(await get(api, `${resource.path()}/${created.id}`)).toStrictEqual(created);
  });
});

describe('field values', () => {
  it('stores a date-time sent with an offset in UTC (activity.archived_at)', async () => {
    const res = await create(api, '/v1/activity', { description: 'Offset', archived_at: '2026-03-04T07:06:07+02:00' });
    expect(res.archived_at).toBe('2026-03-04T05:06:07Z');
    expect((await get(api, `/v1/activity/${res.id}`)).archived_at).toBe('2026-03-04T05:06:07Z');
  });

  it('fills declared defaults on create (item, activity)', async () => {
    const item = await create(api, '/v1/item', { description: 'Defaults' });
    expect(item).toMatchObject({ stockmanagement: false, code: null, external_ref: null });
    const activity = await create(api, '/v1/activity', { description: 'Defaults' });
    expect(activity).toMatchObject({
      resource_type: 'employee',
      default_duration: 0,
      day_max_duration: 0,
      billable: false,
      hourly_rate: 0,
      item_id: null,
      archived_at: null,
    });
  });

  it('counts maxLength in characters, not bytes', async () => {
    const res = await api.http('POST', '/v1/warehouse', { name: 'é'.repeat(150) });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('é'.repeat(150));
  });

  it('refuses a reference to a deleted record (order.project_id)', async () => {
    const project = await create(api, '/v1/project', { name: 'Soon gone' });
    expect((await api.http('DELETE', `/v1/project/${project.id}`)).status).toBe(204);
    expectFieldErrors(await api.http('POST', '/v1/order', { code: 'X', project_id: project.id }), ['project_id']);
  });

  it('accepts a reference in upper case and stores it in lower case', async () => {
    const res = await create(api, '/v1/order', { code: 'UPPER', project_id: fx.projectId.toUpperCase() });
    expect(res.project_id).toBe(fx.projectId);
  });
});
