/**
 * A shop's order integration (docs/API.md "Compatibility"): a web shop's backend turns each
 * paid order into work. It reads the boards with their labels and stages, creates a collection
 * per order (`due_date: ""` when the customer chose no date, labels, estimated minutes per
 * activity, a text custom field), sets labels with a PUT of only labels, plans the collection
 * with an empty body, and for order-based shops creates a Sales order with rows instead. The
 * requests are written as such a client sends them (test/helpers/public-client.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectStatus, publicClient, type PublicClient } from '../helpers/public-client.js';

let api: TestApi;
let vplan: PublicClient;
let board: any;
let boardRead: any;
const activities: Record<string, string> = {};

beforeAll(async () => {
  api = await startTestApi();
  vplan = publicClient(api);
  for (const description of ['Print', 'Frame', 'Ship']) {
    activities[description] = expectStatus(
      await vplan.post('activity', { description, code: description.toUpperCase(), resource_type: 'employee' }),
      201,
    ).id;
  }
  board = expectStatus(
    await vplan.post('board', {
      name: 'Webshop',
      stages: [
        { name: 'Printing', priority: 0, activities: [{ id: activities.Print, priority: 0 }] },
        { name: 'Framing', priority: 1, activities: [{ id: activities.Frame, priority: 0 }] },
        { name: 'Shipping', priority: 2, activities: [{ id: activities.Ship, priority: 0 }] },
      ],
      labels: [
        { name: 'Express', color: 'red' },
        { name: 'Gift', color: 'pink' },
      ],
      statuses: [
        { name: 'To do', entry: true },
        { name: 'Done', exit: true },
      ],
    }),
    201,
  );
  // The shop reads its boards with their labels and stages to choose where orders go.
  boardRead = expectStatus(await vplan.get('board', { with: 'labels,stages' }), 200).data.find((b: any) => b.id === board.id);
  expect(boardRead.labels.map((l: any) => l.name)).toEqual(['Express', 'Gift']);
  expect(boardRead.stages.map((s: any) => s.name)).toEqual(['Printing', 'Framing', 'Shipping']);
});
afterAll(async () => {
  await api.close();
});

/** What the shop sends for one paid order; `due` is "" when the customer chose no date. */
function collectionFor(order: { number: string; due: string; labels: string[]; note: string }) {
  const labels = Object.fromEntries((boardRead?.labels ?? []).map((l: any) => [l.name, l.id]));
  return {
    name: `Order ${order.number}`,
    description: `2x Canvas 60x40`,
    board_id: board.id,
    due_date: order.due,
    external_ref: `shop-${order.number}`,
    labels: order.labels.map((name) => ({ id: labels[name] })),
    activities: [
      { id: activities.Print, time: 45 },
      { id: activities.Frame, time: 30 },
      { id: activities.Ship, time: 10 },
    ],
    custom_fields: [{ name: 'Customer note', type: 'text', value: order.note, priority: 0 }],
  };
}
describe("a shop's order integration", () => {
  it('creates a collection per order with due_date "" for no date, labels, minutes per activity and a note; "" stays refused where required', async () => {
    const made = expectStatus(
      await vplan.post('collection', collectionFor({ number: '1001', due: '', labels: ['Gift'], note: 'Wrap it' })),
      201,
      'POST collection',
    );
    expect(made).toMatchObject({ name: 'Order 1001', due_date: null, board_id: board.id, status: 'not_planned', deleted_at: null });
    const read = expectStatus(await vplan.get(`collection/${made.id}`, { with: 'labels,activities' }), 200);
    expect(read.labels.map((l: any) => l.name)).toEqual(['Gift']);
    expect(Object.fromEntries(read.activities.map((a: any) => [a.description, a.time]))).toEqual({ Print: 45, Frame: 30, Ship: 10 });
    expect(read.custom_fields).toMatchObject([{ name: 'Customer note', type: 'text', value: 'Wrap it' }]);

    // A date when the customer chose one; "" again clears it.
    const dated = expectStatus(
      await vplan.post('collection', collectionFor({ number: '1002', due: '2026-12-18', labels: [], note: '' })),
      201,
    );
    expect(dated.due_date).toBe('2026-12-18');
    expect(expectStatus(await vplan.put(`collection/${dated.id}`, { due_date: '' }), 200).due_date).toBeNull();

    // Where a value is required (a collection's board, an activity's description) "" is still a
    // 422 naming the field, and nothing is written.
    const before = expectStatus(await vplan.get('collection', { limit: 0 }), 200).count;
    const noBoard = await vplan.post('collection', { ...collectionFor({ number: '1003', due: '', labels: [], note: '' }), board_id: '' });
    expect(noBoard.status).toBe(422);
    expect(noBoard.body.errors.map((e: any) => e.field)).toEqual(['board_id']);
    const noName = await vplan.post('activity', { description: '', code: 'X', default_duration: '' });
    expect(noName.status).toBe(422);
    expect(noName.body.errors.map((e: any) => e.field)).toEqual(['description', 'default_duration']);
    expect(expectStatus(await vplan.get('collection', { limit: 0 }), 200).count).toBe(before);
  });

  it('labels an order with a PUT of only labels, plans it with an empty body and finds it by a plain external_ref parameter', async () => {
    const made = expectStatus(await vplan.post('collection', collectionFor({ number: '1004', due: '', labels: [], note: 'Rush' })), 201);
    const express = boardRead.labels.find((l: any) => l.name === 'Express').id;
    expectStatus(await vplan.put(`collection/${made.id}`, { labels: [{ id: express }] }), 200);
    const planned = expectStatus(await vplan.post(`collection/${made.id}/board/${board.id}`, {}), 200, 'plan');
    expect(planned.status).toBe('planned');
    expect(planned.cards.map((c: any) => c.stage_id)).toHaveLength(3);

    // The shop looks its order up again the way it sends it: a plain parameter, not a filter.
    const found = expectStatus(await vplan.get('collection', { external_ref: 'shop-1004', with: 'labels' }), 200);
    expect(found.data.map((c: any) => [c.id, c.labels.map((l: any) => l.name)])).toEqual([[made.id, ['Express']]]);
  });

  it('creates a Sales order with "" for the dates it does not know and rows in hours; its collection gets no due date and the minutes', async () => {
    const order = expectStatus(
      await vplan.post('order', {
        code: 'SO-2001',
        description: 'Canvas 60x40',
        type: 'Sales',
        sub_type: 'none',
        external_ref: 'shop-2001',
        quantity: 2,
        date: '2026-11-20',
        promised_date: '',
        desired_date: '',
        delivered_date: '',
        project_id: '',
        board_id: board.id,
        order_rows: [
          { description: 'Print', quantity: 1.5, unit: 'hours', activity_id: activities.Print, delivered_date: '' },
          { description: 'Frame', quantity: 30, unit: 'minutes', activity_id: activities.Frame, quantity_delivered: '' },
        ],
      }),
      201,
      'POST order',
    );
    expect(order).toMatchObject({ promised_date: null, desired_date: null, delivered_date: null, project_id: null, board_id: board.id });
    const collection = expectStatus(await vplan.get(`collection/${order.collection_id}`, { with: 'activities' }), 200);
    expect(collection).toMatchObject({ name: 'SO-2001', due_date: null, board_id: board.id });
    expect(Object.fromEntries(collection.activities.map((a: any) => [a.description, a.time]))).toEqual({ Print: 90, Frame: 30 });

    // The same order again (external_ref, type and sub_type "none") is a duplicate.
    const again = await vplan.post('order', {
      code: 'SO-2001',
      type: 'Sales',
      sub_type: 'none',
      external_ref: 'shop-2001',
      promised_date: '',
    });
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({ description: 'Duplicate entry', field: 'external_ref' });
  });
});
