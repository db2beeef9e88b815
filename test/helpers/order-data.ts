/**
 * Shared pieces of the order-data API tests (test/api/order-data*.test.ts): error-body checks,
 * the records other records point at, and a body per resource that sets every writable field
 * of its declaration.
 */
import { expect } from 'vitest';
import type { FieldSpec, ResourceSpec } from '../../shared/fields.js';
import type { TestApi } from './api.js';

/** A v7 uuid no record has. */
export const unknownId = '01234567-89ab-7def-8123-456789abcdef';

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** The documented error body: a reference and items with code, message and description. */
export function expectErrorBody(body: any, message: string): void {
  expect(body.reference).toMatch(/^[0-9a-f-]{36}$/);
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const error of body.errors) {
    expect(typeof error.code).toBe('number');
    expect(error.message).toBe(message);
    expect(typeof error.description).toBe('string');
  }
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|SELECT |INSERT |sqlite/i);
}

/** A validation 422: exactly one error item per named field, in any order. */
export function expectFieldErrors(res: { status: number; body: any }, fields: string[]): void {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expectErrorBody(res.body, 'Unprocessable Content');
  for (const error of res.body.errors) expect(error.code).toBe(10422);
  expect(res.body.errors.map((e: any) => e.field).sort()).toEqual([...fields].sort());
}

/** A duplicate external_ref: 422 code 10423, description "Duplicate entry" on external_ref. */
export function expectDuplicate(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expectErrorBody(res.body, 'Unprocessable entity');
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0]).toMatchObject({ code: 10423, field: 'external_ref', description: 'Duplicate entry' });
}

/** How many live records a list path has; `query` is extra list parameters ending in `&`. */
export async function countOf(api: TestApi, path: string, query = ''): Promise<number> {
  const res = await api.http('GET', `${path}?${query}limit=0`);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.count;
}

/** Creates a record and returns it; fails the test when the API does not answer 201. */
export async function create(api: TestApi, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.http('POST', path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

export async function get(api: TestApi, path: string): Promise<any> {
  const res = await api.http('GET', path);
  expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/**
 * The fields a record of this declaration returns: columns and computed values (an order's
 * board_id), no write-only ones nor inline lists (those come with `with`), and `deleted_at`,
 * which every record carries.
 */
export function returnedFields(spec: ResourceSpec): string[] {
  return Object.entries(spec.fields)
    .filter(([, f]) => !f.writeOnly && !(f.virtual && f.type === 'json'))
    .map(([name]) => name)
    .concat('deleted_at')
    .sort();
}

/** Fields a client may write (not read-only). */
export function writableFields(spec: ResourceSpec): [string, FieldSpec][] {
  return Object.entries(spec.fields).filter(([, f]) => !f.readOnly);
}

/** Records that order data points at, created once per test file. */
export interface Fixtures {
  itemId: string;
  projectId: string;
  relationId: string;
  warehouseId: string;
  addressId: string;
  activityId: string;
}

export async function createFixtures(api: TestApi): Promise<Fixtures> {
  const item = await create(api, '/v1/item', { description: 'Fixture item' });
  const project = await create(api, '/v1/project', { name: 'Fixture project' });
  const relation = await create(api, '/v1/relation', { name: 'Fixture relation' });
  const warehouse = await create(api, '/v1/warehouse', { name: 'Fixture warehouse' });
  const address = await create(api, '/v1/address', { name: 'Fixture address', relation_id: relation.id });
  const activity = await create(api, '/v1/activity', { description: 'Fixture activity' });
  return {
    itemId: item.id,
    projectId: project.id,
    relationId: relation.id,
    warehouseId: warehouse.id,
    addressId: address.id,
    activityId: activity.id,
  };
}

/**
 * A body per resource with every writable column of its declaration set to a value that is
 * not its default, so a round trip proves each one is stored and returned as sent.
 * `tag` keeps external_ref values unique between calls.
 */
export const fullBodies = {
  item: (_fx: Fixtures, tag: string) => ({
    description: 'Chair Lissabon',
    code: 'CH-100',
    type: 'product',
    stockmanagement: true,
    unit: 'pcs',
    note: 'Stacks up to 6 high.\nLine two — ünïcödé ✓',
    location: 'Hall B, rack 4',
    external_ref: `item-${tag}`,
  }),
  project: (_fx: Fixtures, tag: string) => ({
    name: 'Kitchen renovation',
    description: 'Three rooms, two floors',
    code: 'P-100',
    transaction: 'T-0001',
    external_ref: `project-${tag}`,
  }),
  relation: (_fx: Fixtures, tag: string) => ({
    name: 'Acme B.V.',
    type: 'customer',
    description: 'Our biggest customer',
    email: 'orders@acme.example',
    phone: '+31 20 123 4567',
    fax: '+31 20 123 4568',
    website: 'https://acme.example',
    note: 'Deliver before noon',
    external_ref: `relation-${tag}`,
  }),
  warehouse: (_fx: Fixtures, tag: string) => ({
    name: 'Main warehouse',
    code: 'WH-1',
    external_ref: `warehouse-${tag}`,
  }),
  address: (fx: Fixtures, tag: string) => ({
    name: 'Acme HQ',
    street1: 'Damrak 1',
    street2: '3rd floor',
    postal_code: '1012 LG',
    city: 'Amsterdam',
    country: 'NL',
    latitude: 52.376553,
    longitude: -4.897461,
    relation_id: fx.relationId,
    external_ref: `address-${tag}`,
  }),
  activity: (fx: Fixtures, tag: string) => ({
    description: 'Painting',
    code: 'PAINT',
    item_id: fx.itemId,
    resource_type: 'machine',
    default_duration: 480,
    day_max_duration: 240,
    billable: true,
    hourly_rate: 42.75,
    external_ref: `activity-${tag}`,
    transaction: 'T-0002',
    archived_at: '2026-03-04T05:06:07Z',
  }),
  order: (fx: Fixtures, tag: string) => ({
    project_id: fx.projectId,
    warehouse_id: fx.warehouseId,
    relation_id: fx.relationId,
    item_id: fx.itemId,
    address_id: fx.addressId,
    meta: { erp: { id: 7, tags: ['a', 'b'], rush: true, none: null }, ratio: 0.125 },
    transaction: 'T-0003',
    code: 'SO-10199',
    type: 'Sales',
    sub_type: 'webshop',
    status: 'open',
    note: 'Handle with care',
    description: 'Chair Lissabon',
    contact: 'J. Smith',
    date: '2026-01-15',
    promised_date: '2026-02-28',
    desired_date: '2026-02-20',
    delivered_date: '2026-03-01',
    quantity: 2.5,
    relation_ref: 'PO-ACME-77',
    external_ref: `order-${tag}`,
    external_url: 'https://erp.example/orders/10199',
  }),
  order_row: (fx: Fixtures, tag: string) => ({
    code: 'R-1',
    description: 'Paint the frame',
    item_id: fx.itemId,
    activity_id: fx.activityId,
    transaction: 'T-0004',
    position: 7,
    type: 'work',
    unit: 'hours',
    item_code: 'CH-100',
    reserved: 1.5,
    quantity: 2.25,
    quantity_delivered: 0.5,
    quantity_backorder: 1.75,
    quantity_original: 3,
    status: 'open',
    delivered_date: '2026-02-27',
    resource_ref: 'painter-1',
    external_ref: `row-${tag}`,
  }),
} satisfies Record<string, (fx: Fixtures, tag: string) => Record<string, unknown>>;
