/**
 * A small, fixed set of order data for the list-convention tests: six orders labelled
 * O1…O6 in their `description` (so a result reads as a list of labels), with text, number,
 * date, enum and null values chosen so that every filter operator separates them, plus the
 * projects, items, activities, relation, warehouse and address they point at.
 *
 *   label  code              quantity  promised_date  status  type        project  rows
 *   O1     ALPHA-1           5         2024-03-01     open    Sales       Kitchen  R-A (Bolt, Paint 2 hours), R-B
 *   O2     alpha-2           12.5      2024-03-15     done    Purchase    Garage   R-C (Nut, supplies O1's R-A)
 *   O3     Beta, Inc: (x)    0         null           null    null        Kitchen  —
 *   O4     beta-4            null      2024-12-31     open    Sales       —        R-A
 *   O5     null              100       2025-01-01     done    Production  —        —
 *   O6     50%_off           -3        2023-06-30     late    Quotation   —        —
 *
 * O1 alone has contact 'null' (the text), item, address, relation and warehouse.
 * Activities: Paint (archived 2024-01-01T10:00:00Z), Weld (2024-06-30T23:59:59Z), Cut (not
 * archived), Drill (sent as 2024-07-01T01:30:00+02:00, i.e. 2024-06-30T23:30:00Z).
 * Items: Bolt (stock managed), Nut (not), Screw (default: not).
 */
import { expect } from 'vitest';
import type { TestApi } from './api.js';

export type Label = 'O1' | 'O2' | 'O3' | 'O4' | 'O5' | 'O6';

export interface OrderFixture {
  projects: { kitchen: string; garage: string };
  items: { bolt: string; nut: string; screw: string };
  activities: { paint: string; weld: string; cut: string; drill: string };
  relation: string;
  warehouse: string;
  address: string;
  orders: Record<Label, any>;
  /** Row ids: `o1ra` is O1's row R-A. */
  rows: { o1ra: string; o1rb: string; o2rc: string; o4ra: string };
}

export async function seedOrderData(api: TestApi): Promise<OrderFixture> {
  const post = async (path: string, body: unknown) => {
    const res = await api.inject('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  };
  const kitchen = (await post('/v1/project', { name: 'Kitchen' })).id;
  const garage = (await post('/v1/project', { name: 'Garage' })).id;
  const bolt = (await post('/v1/item', { description: 'Bolt', code: 'B-1', stockmanagement: true })).id;
  const nut = (await post('/v1/item', { description: 'Nut', code: 'N-1', stockmanagement: false })).id;
  const screw = (await post('/v1/item', { description: 'Screw' })).id;
  const paint = (await post('/v1/activity', { description: 'Paint', archived_at: '2024-01-01T10:00:00Z' })).id;
  const weld = (await post('/v1/activity', { description: 'Weld', archived_at: '2024-06-30T23:59:59Z' })).id;
  const cut = (await post('/v1/activity', { description: 'Cut' })).id;
  const drill = (await post('/v1/activity', { description: 'Drill', archived_at: '2024-07-01T01:30:00+02:00' })).id;
  const relation = (await post('/v1/relation', { name: 'Acme' })).id;
  const warehouse = (await post('/v1/warehouse', { name: 'Main', code: 'WH' })).id;
  const address = (await post('/v1/address', { name: 'Site', city: 'Utrecht' })).id;

  const order = (body: Record<string, unknown>) => post('/v1/order?with=order_rows', body);
  const O1 = await order({
    description: 'O1',
    code: 'ALPHA-1',
    quantity: 5,
    promised_date: '2024-03-01',
    status: 'open',
    type: 'Sales',
    contact: 'null',
    project_id: kitchen,
    item_id: bolt,
    address_id: address,
    relation_id: relation,
    warehouse_id: warehouse,
    order_rows: [{ code: 'R-A', item_id: bolt, activity_id: paint, unit: 'hours', quantity: 2 }, { code: 'R-B' }],
  });
  const o1ra = O1.order_rows[0].id;
  const O2 = await order({
    description: 'O2',
    code: 'alpha-2',
    quantity: 12.5,
    promised_date: '2024-03-15',
    status: 'done',
    type: 'Purchase',
    project_id: garage,
    order_rows: [{ code: 'R-C', item_id: nut, supplies_order_rows: [{ id: o1ra }] }],
  });
  const O3 = await order({ description: 'O3', code: 'Beta, Inc: (x)', quantity: 0, project_id: kitchen });
  const O4 = await order({
    description: 'O4',
    code: 'beta-4',
    promised_date: '2024-12-31',
    status: 'open',
    type: 'Sales',
    order_rows: [{ code: 'R-A' }],
  });
  const O5 = await order({ description: 'O5', quantity: 100, promised_date: '2025-01-01', status: 'done', type: 'Production' });
  const O6 = await order({
    description: 'O6',
    code: '50%_off',
    quantity: -3,
    promised_date: '2023-06-30',
    status: 'late',
    type: 'Quotation',
  });

  return {
    projects: { kitchen, garage },
    items: { bolt, nut, screw },
    activities: { paint, weld, cut, drill },
    relation,
    warehouse,
    address,
    orders: { O1, O2, O3, O4, O5, O6 },
    rows: { o1ra, o1rb: O1.order_rows[1].id, o2rc: O2.order_rows[0].id, o4ra: O4.order_rows[0].id },
  };
}

/** A query string value, encoded. */
export function q(value: string): string {
  return encodeURIComponent(value);
}
