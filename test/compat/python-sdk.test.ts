/**
 * A Python SDK for the public API (docs/API.md "Compatibility"), as payroll and ERP connectors
 * use it: one class per resource with get_*_list (filter, with, show, hide, archived; paged
 * with limit and offset), post_* and update_* that copy the allowed fields into a JSON body
 * (an order's `board_id` and `collection_id`, a resource's or activity's `archive`), and
 * delete_*. The requests are written as the SDK sends them (test/helpers/public-client.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectStatus, publicClient, type PublicClient } from '../helpers/public-client.js';

let api: TestApi;
let vplan: PublicClient;
let production: any;
let assembly: any;

async function board(name: string): Promise<any> {
  const activity = expectStatus(await vplan.post('activity', { description: `${name} work`, code: name.slice(0, 3).toUpperCase() }), 201);
  return expectStatus(
    await vplan.post('board', {
      name,
      stages: [{ name: `${name} stage`, priority: 0, activities: [{ id: activity.id, priority: 0 }] }],
      statuses: [
        { name: 'Open', entry: true },
        { name: 'Closed', exit: true },
      ],
    }),
    201,
  );
}

beforeAll(async () => {
  api = await startTestApi();
  vplan = publicClient(api);
  production = await board('Production');
  assembly = await board('Assembly');
});
afterAll(async () => {
  await api.close();
});

/** post_order: the required fields, then each allowed field the caller gave. */
function orderBody(data: Record<string, unknown>): Record<string, unknown> {
  const allowed = [
    'quantity',
    'external_url',
    'sub_type',
    'status',
    'note',
    'contact',
    'relation_ref',
    'date',
    'desired_date',
    'promised_date',
    'delivered_date',
    'collection_id',
    'item_id',
    'project_id',
    'relation_id',
    'warehouse_id',
    'external_ref',
    'board_id',
  ];
  return {
    type: data.type,
    code: data.code,
    description: data.description,
    ...Object.fromEntries(allowed.filter((f) => f in data).map((f) => [f, data[f]])),
  };
}

describe('orders (post_order, update_order)', () => {
  it("creates an order on a board (board_id): its collection waits in that board's backlog, and board_id reads back and moves it", async () => {
    const order = expectStatus(
      await vplan.post('order', orderBody({ type: 'Production', code: 'PO-1', description: 'Frames', board_id: production.id })),
      201,
      'post_order',
    );
    expect(order.board_id).toBe(production.id);
    const collection = expectStatus(await vplan.get(`collection/${order.collection_id}`), 200);
    expect(collection).toMatchObject({ board_id: production.id, status: 'not_planned' });
    const backlog = expectStatus(
      await vplan.get('collection', { filter: `board_id:eq:'${production.id}',and,status:eq:not_planned` }),
      200,
    );
    expect(backlog.data.map((c: any) => c.id)).toContain(order.collection_id);

    // update_order with another board moves the waiting collection; "" sends it to the shared backlog.
    expect(expectStatus(await vplan.put(`order/${order.id}`, { board_id: assembly.id }), 200).board_id).toBe(assembly.id);
    expect(expectStatus(await vplan.get(`collection/${order.collection_id}`), 200).board_id).toBe(assembly.id);
    expect(expectStatus(await vplan.put(`order/${order.id}`, { board_id: '' }), 200).board_id).toBeNull();
    expect(expectStatus(await vplan.get('order', { code: 'PO-1', show: 'code,board_id' }), 200).data).toEqual([
      { code: 'PO-1', board_id: null },
    ]);

    // Planned on a board, the collection stays there: naming another board is refused, the same one is not.
    expectStatus(await vplan.put(`order/${order.id}`, { board_id: production.id }), 200);
    expectStatus(await vplan.post(`collection/${order.collection_id}/board/${production.id}`, {}), 200, 'plan');
    const moved = await vplan.put(`order/${order.id}`, { board_id: assembly.id, note: 'moved?' });
    expect(moved.status).toBe(422);
    expect(moved.body.errors.map((e: any) => e.field)).toEqual(['board_id']);
    expect(expectStatus(await vplan.get(`order/${order.id}`), 200).note).toBeNull();
    expect(expectStatus(await vplan.put(`order/${order.id}`, { board_id: production.id, note: 'same board' }), 200).note).toBe(
      'same board',
    );
    // An unknown board is a 422 too.
    expect(
      (
        await vplan.post(
          'order',
          orderBody({ type: 'Production', code: 'PO-x', description: 'x', board_id: '01234567-89ab-7def-8123-456789abcdef' }),
        )
      ).status,
    ).toBe(422);
  });

  it('creates an order for an existing collection (collection_id): no second collection is made, and the order keeps it up to date', async () => {
    const job = expectStatus(
      await vplan.post('collection', { name: 'Hand-made job', board_id: production.id, due_date: '2026-10-01' }),
      201,
    );
    const collections = expectStatus(await vplan.get('collection', { limit: 0 }), 200).count;
    const order = expectStatus(
      await vplan.post(
        'order',
        orderBody({ type: 'Sales', code: 'SO-7', description: 'Chairs', quantity: 4, status: 'open', collection_id: job.id }),
      ),
      201,
      'post_order',
    );
    expect(order).toMatchObject({ collection_id: job.id, board_id: production.id });
    expect(expectStatus(await vplan.get('collection', { limit: 0 }), 200).count).toBe(collections);
    // The collection keeps what was set by hand; the order's data lands in its meta.
    expect(expectStatus(await vplan.get(`collection/${job.id}`, { with: 'order' }), 200)).toMatchObject({
      name: 'Hand-made job',
      due_date: '2026-10-01',
      meta: { order_type: 'Sales', order_status: 'open' },
      order: { id: order.id },
    });
    expectStatus(await vplan.put(`order/${order.id}`, { status: 'shipped' }), 200);
    expect(expectStatus(await vplan.get(`collection/${job.id}`), 200).meta.order_status).toBe('shipped');

    // One order per collection, and an order keeps its collection.
    expect((await vplan.post('order', orderBody({ type: 'Sales', code: 'SO-8', description: 'x', collection_id: job.id }))).status).toBe(
      422,
    );
    const other = expectStatus(await vplan.post('collection', { name: 'Other job', board_id: production.id }), 201);
    expect((await vplan.put(`order/${order.id}`, { collection_id: other.id })).status).toBe(422);
  });
});

describe('resources and activities (post_*, update_*, archive)', () => {
  it('archives and brings back a resource and an activity with archive: true and false', async () => {
    const resource = expectStatus(
      await vplan.post('resource', { name: 'Old press', type: 'machine', archive: false }),
      201,
      'post_resource',
    );
    expect(resource.archived_at).toBeNull();
    const archived = expectStatus(await vplan.put(`resource/${resource.id}`, { archive: true }), 200, 'update_resource');
    expect(archived.archived_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    // Archived again, it keeps its date.
    expect(expectStatus(await vplan.put(`resource/${resource.id}`, { archive: true, name: 'Old press 1' }), 200).archived_at).toBe(
      archived.archived_at,
    );
    const listed = (archivedToo: boolean) =>
      vplan.all('resource', archivedToo ? { archived: 'true' } : {}).then((all) => all.map((r) => r.id));
    expect(await listed(false)).not.toContain(resource.id);
    expect(await listed(true)).toContain(resource.id);
    expect(expectStatus(await vplan.put(`resource/${resource.id}`, { archive: false }), 200).archived_at).toBeNull();
    expect(await listed(false)).toContain(resource.id);

    // update_activity sends code and description with every update.
    const activity = expectStatus(
      await vplan.post('activity', { code: 'GRD', description: 'Grinding', resource_type: 'machine', default_duration: 30, archive: true }),
      201,
      'post_activity',
    );
    expect(activity.archived_at).not.toBeNull();
    const back = expectStatus(
      await vplan.put(`activity/${activity.id}`, { code: 'GRD', description: 'Grinding', archive: false }),
      200,
      'update_activity',
    );
    expect(back.archived_at).toBeNull();
    const refused = await vplan.put(`activity/${activity.id}`, { code: 'GRD', description: 'Grinding', archive: 'yes' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => e.field)).toEqual(['archive']);
  });
});

describe('lists (get_*_list)', () => {
  it('pages through a list with filter, show and hide, and every record carries deleted_at', async () => {
    for (let i = 0; i < 7; i++) expectStatus(await vplan.post('project', { name: `Project ${i}`, code: `P-${i}` }), 201);
    const shown = await vplan.all('project', { filter: "code:starts_with:'P-'", show: 'id,code,deleted_at' }, 3);
    expect(shown).toHaveLength(7);
    for (const project of shown) expect(Object.keys(project).sort()).toEqual(['code', 'deleted_at', 'id']);
    const hidden = await vplan.all('project', { filter: 'created_at:gt:2020-09-26T00:00:00Z', hide: 'created_at,updated_at' }, 5);
    expect(hidden.length).toBeGreaterThanOrEqual(7);
    for (const project of hidden) {
      expect(project).not.toHaveProperty('created_at');
      expect(project.deleted_at).toBeNull();
    }
  });
});
