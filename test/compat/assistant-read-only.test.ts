/**
 * A read-only assistant tool set (docs/API.md "Compatibility"): an AI assistant's tools that
 * answer planners' questions by reading the public API. It asks `/me` who it is (organisation,
 * permissions), walks every list page by page with the relations its tools name in `with`,
 * reads cards per collection (also of collections that no longer exist, which the public service
 * answers with an empty list), and narrows lists by plain query parameters as well as `filter`.
 * It never writes. The requests are written as the tool set sends them
 * (test/helpers/public-client.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { expectStatus, publicClient, type PublicClient } from '../helpers/public-client.js';

let api: TestApi;
let vplan: PublicClient;
const made: Record<string, any> = {};
const unknownId = '01234567-89ab-7def-8123-456789abcdef';

beforeAll(async () => {
  // The planning the assistant reads, written by someone else.
  api = await startTestApi();
  const writer = publicClient(api);
  const post = async (path: string, body: unknown) => expectStatus(await writer.post(path, body), 201, `POST ${path}`);
  made.activity = await post('activity', { description: 'Weld', resource_type: 'employee' });
  made.board = await post('board', {
    name: 'Workshop',
    stages: [{ name: 'Welding', priority: 0, activities: [{ id: made.activity.id, priority: 0 }] }],
    statuses: [
      { name: 'Open', entry: true },
      { name: 'Done', exit: true },
    ],
  });
  made.space = await post('space', { name: 'Plant 1' });
  made.welder = await post('resource', { name: 'Welder Wim', type: 'employee' });
  made.fitter = await post('resource', { name: 'Fitter Fay', type: 'employee' });
  made.group = await post('group', { name: 'Welding team', resources: [{ id: made.welder.id }, { id: made.fitter.id }] });
  expect((await writer.post('user', { email: 'planner@example.com', role: 'manager' })).status).toBe(201);
  made.order = await post('order', {
    code: 'SO-1',
    type: 'Sales',
    order_rows: [{ description: 'Gate', quantity: 2, unit: 'hours', activity_id: made.activity.id }],
  });
  made.collection = await post('collection', { name: 'Gate', board_id: made.board.id, activities: [{ id: made.activity.id, time: 120 }] });
  made.cards = expectStatus(
    await writer.post(`collection/${made.collection.id}/board/${made.board.id}`, { start: '2026-06-01', resources: [made.welder.id] }),
    200,
  ).cards;
  made.other = await post('collection', { name: 'Fence', board_id: made.board.id });
  await post(`collection/${made.other.id}/card`, { name: 'Fence card', stage_id: made.board.stages?.[0]?.id ?? made.cards[0].stage_id });
  await post(`collection/${made.collection.id}/checklist`, { name: 'Checks', items: [{ description: 'Grind seams' }] });
  await post('time_tracking', {
    card_id: made.cards[0].id,
    activity_id: made.activity.id,
    start: '2026-06-01T07:00:00Z',
    end: '2026-06-01T09:00:00Z',
  });
  vplan = publicClient(api);
});
afterAll(async () => {
  await api.close();
});

describe('a read-only assistant', () => {
  it('reads /me: who it is, its organisation and permissions, and every key of the public answer', async () => {
    const me = expectStatus(await vplan.get('me'), 200);
    expect(me).toMatchObject({
      type: 'api-key',
      environment: {
        id: api.environment.id,
        name: api.environment.name,
        customer: api.environment.name,
        status: 'active',
        created_at: api.environment.created_at,
      },
      'api-key': { id: expect.any(String) },
      organizations: [{ id: api.environment.id, name: api.environment.name }],
      permissions: ['read', 'write', 'manage_time', 'admin'],
      features: [],
      host: { id: null, description: null },
      ai_settings: { general: false, formula: false },
      next: false,
      show_nps: false,
    });
  });

  it('walks every list page by page with the relations its tools name, without a 400', async () => {
    const walks: [string, string][] = [
      ['board', 'stages,collections,cards,labels'],
      ['collection', 'activities,attachments,cards,comments,labels,order,followers,checklists'],
      ['card', 'activities,collection,labels,resources,stage,time,time_tracking,relations'],
      ['order', 'orderRows,item,relation'],
      ['activity', 'time_tracking,stages'],
      ['resource', 'activities,cards,resources,schedules'],
      ['group', 'resources'],
      ['user', 'resource,time_tracking,settings,board_views'],
      ['space', 'boards'],
      ['time_tracking', ''],
      ['card_relation', ''],
      ['stage', ''],
      ['item', ''],
      ['project', ''],
      ['relation', ''],
      ['warehouse', ''],
      ['webhook', ''],
    ];
    const seen: Record<string, any[]> = {};
    for (const [list, relations] of walks) {
      seen[list] = await vplan.all(list, relations ? { with: relations } : {}, 2);
      const count = expectStatus(await vplan.get(list, { limit: 0 }), 200).count;
      expect(seen[list], list).toHaveLength(count);
      for (const record of seen[list]) expect(record.deleted_at, `${list} deleted_at`).toBeNull();
    }
    const welder = seen.resource!.find((r) => r.id === made.welder.id);
    expect(welder.resources.map((r: any) => r.name)).toEqual(['Fitter Fay']);
    expect(welder.cards.map((c: any) => c.id)).toEqual([made.cards[0].id]);
    const planner = seen.user!.find((u) => u.email === 'planner@example.com');
    expect(planner.settings).toEqual({ language: 'nl', timezone: 'Europe/Amsterdam', card_visibility: 'all', notify_own_changes: false });
    expect(seen.order!.find((o) => o.id === made.order.id).order_rows).toHaveLength(1);
    expect(seen.card!.find((c) => c.id === made.cards[0].id).time_tracking).toHaveLength(1);
  });

  it('reads the cards of a collection that does not exist as an empty list, as the public service answers', async () => {
    expect(expectStatus(await vplan.get(`collection/${unknownId}/card`), 200)).toEqual({ count: 0, limit: 100, offset: 0, data: [] });
    expect(expectStatus(await vplan.get(`collection/${unknownId}/checklist`, { with: 'items' }), 200).data).toEqual([]);
    expect(expectStatus(await vplan.get(`order/${unknownId}/row`), 200).count).toBe(0);
    // A bad query is still a 400 there, and one card of it is still a 404.
    expectBadRequest(await vplan.get(`collection/${unknownId}/card`, { with: 'statuses' }), 'Relation not found: statuses');
    expect((await vplan.get(`collection/${unknownId}/card/${made.cards[0].id}`)).status).toBe(404);
  });

  it('narrows a list by plain parameters like collection_id (with filter too, or as collection_id[]), and gets a 400 naming a parameter that is no field', async () => {
    const all = expectStatus(await vplan.get('card'), 200).count;
    expect(all).toBeGreaterThan(made.cards.length);
    const ofGate = expectStatus(await vplan.get('card', { collection_id: made.collection.id.toUpperCase() }), 200);
    expect(ofGate.data.map((c: any) => c.id)).toEqual(made.cards.map((c: any) => c.id));
    const both = expectStatus(
      await vplan.get('card', { collection_id: [made.collection.id, made.other.id], filter: "name:eq:'Fence card'" }),
      200,
    );
    expect(both.data.map((c: any) => c.name)).toEqual(['Fence card']);
    expect(expectStatus(await vplan.get('collection', { board_id: made.board.id, name: 'Gate' }), 200).data.map((c: any) => c.id)).toEqual([
      made.collection.id,
    ]);
    expect(expectStatus(await vplan.get('card', { enrich_custom_fields: 'true', limit: 1 }), 200).data).toHaveLength(1);
    // Array-style names, as form-style clients spell a list, read as the plain name.
    const arrays = expectStatus(
      await vplan.get('card', { 'collection_id[]': [made.collection.id, made.other.id], 'with[]': ['stage', 'collection'] }),
      200,
    );
    expect(arrays.count).toBe(made.cards.length + 1);
    expect(arrays.data.map((c: any) => [c.stage.id, c.collection.id])).toEqual(arrays.data.map((c: any) => [c.stage_id, c.collection_id]));

    expectBadRequest(await vplan.get('card', { collection: made.collection.id }), 'Unknown query parameter: collection');
    expectBadRequest(await vplan.get('card', { page: 2 }), 'Unknown query parameter: page');
    expectBadRequest(await vplan.get(`resource/${made.welder.id}/schedule`, { from: '2026-06-01' }), 'Unknown query parameter: from');
  });
});
