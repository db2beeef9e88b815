/**
 * The planning calls as declared operations (shared/operations/planning.ts; docs/API.md
 * "Planning"): their bodies are checked against the declaration, every problem one 422 item
 * named by its path, together with the checks that need the store, and nothing is written;
 * the OpenAPI document shows the same bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors } from '../helpers/order-data.js';
import { createActivities, createBoard, createCollection, type Activities, type BoardIds, type StageSetup } from '../helpers/planning.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let acts: Activities;
let board: BoardIds;

const stages: StageSetup[] = [
  { name: 'Cutting', activities: ['Cut'] },
  { name: 'Welding', activities: ['Weld'] },
];
const unknown = '01234567-89ab-7def-8123-456789abcdef';

beforeAll(async () => {
  api = await startTestApi();
  acts = await createActivities(api);
  board = await createBoard(api, acts, { stages });
});
afterAll(async () => {
  await api.close();
});

const rowCount = async (table: string): Promise<number> => (await api.inject('GET', `/v1/${table}?limit=0&count=true`)).body.count;

describe('planning a collection', () => {
  it('names a wrong type in a list by its path, beside the ids the store does not know, and plans nothing', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const cards = await rowCount('card');
    const res = await api.inject('POST', `/v1/collection/${collection.id}/board/${board.id}`, {
      start: '2024-03-04',
      force_stages: [board.stages.Cutting, 42],
      resources: [unknown, unknown, { id: unknown }],
      capacity: 'some',
    });
    expectFieldErrors(res, ['force_stages.1', 'resources.0', 'resources.1', 'resources.2', 'capacity']);
    const byField = Object.fromEntries(res.body.errors.map((e: { field: string; description: string }) => [e.field, e.description]));
    expect(byField['resources.2']).toBe('resources.2 must be a UUID');
    expect(byField['resources.0']).toBe('resources.0 names no resource');
    expect(byField['capacity']).toBe('capacity must be one of finite, infinite');
    expect(await rowCount('card')).toBe(cards);
    expect((await api.inject('GET', `/v1/collection/${collection.id}`)).body.status).toBe('not_planned');
  });

  it('refuses a field it does not take, and a list longer than it takes', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const res = await api.inject('POST', `/v1/collection/${collection.id}/board/${board.id}`, {
      starts: '2024-03-04',
      resources: Array.from({ length: 1001 }, () => unknown),
    });
    expectFieldErrors(res, ['starts', 'resources']);
  });

  it('answers 404 for an unknown collection before it looks at the body', async () => {
    const res = await api.inject('POST', `/v1/collection/${unknown}/board/${board.id}`, { start: 'someday' });
    expect(res.status).toBe(404);
  });

  it('takes null as left out, and a body left out as no options', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    const res = await api.inject('POST', `/v1/collection/${collection.id}/board/${board.id}`, {
      start: '2024-03-04',
      before: null,
      resources: null,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cards).toHaveLength(1);
    const again = await api.inject('POST', `/v1/collection/${collection.id}/board/${board.id}`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });
});

describe('promise dates', () => {
  it('takes fractions of a quantity, and names each wrong type in a draft row by its path', async () => {
    const fine = await api.inject('POST', `/v1/board/${board.id}/promise_dates`, {
      start: '2024-03-04',
      capacity: 'infinite',
      drafts: [{ key: 'half', rows: [{ activity_id: acts.Cut, quantity: 1.5, unit: 'hours' }] }],
    });
    expect(fine.status, JSON.stringify(fine.body)).toBe(200);
    expect(fine.body.data).toEqual([{ key: 'half', start: '2024-03-04', end: '2024-03-04' }]);

    const res = await api.inject('POST', `/v1/board/${board.id}/promise_dates`, {
      start: '9999-01-01',
      drafts: [
        { key: 'a', rows: [{ activity_id: acts.Cut, quantity: '3' }, { activity_id: unknown }, { activity_id: acts.Cut, unit: 7 }] },
        { rows: [] },
      ],
    });
    expectFieldErrors(res, ['start', 'drafts.0.rows.0.quantity', 'drafts.0.rows.1.activity_id', 'drafts.0.rows.2.unit', 'drafts.1.key']);
    const byField = Object.fromEntries(res.body.errors.map((e: { field: string; description: string }) => [e.field, e.description]));
    expect(byField['drafts.0.rows.1.activity_id']).toBe('drafts.0.rows.1.activity_id names no activity');
    expect(byField['drafts.0.rows.0.quantity']).toBe('drafts.0.rows.0.quantity must be a number from 0 to 10000000');
  });

  it('answers 404 for an unknown board before it looks at the body', async () => {
    expect((await api.inject('POST', `/v1/board/${unknown}/promise_dates`, { collection_ids: 'all' })).status).toBe(404);
  });
});

describe('the OpenAPI document', () => {
  it('shows the planning bodies as declared', async () => {
    const paths = (await api.inject('GET', '/v1/openapi.json')).body.paths;
    const bodyOf = (path: string) => paths[path].post.requestBody.content['application/json'].schema;
    const planBody = bodyOf('/v1/collection/{id}/board/{board_id}');
    expect(planBody.additionalProperties).toBe(false);
    expect(planBody.properties.resources).toMatchObject({ type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 1000 });
    expect(planBody.properties.capacity).toMatchObject({ type: 'string', enum: ['finite', 'infinite'] });
    expect(Object.keys(planBody.properties).sort()).toEqual(
      ['after', 'before', 'capacity', 'dry_run', 'end', 'force_stages', 'resources', 'reverse', 'stage_id', 'start', 'status_id'].sort(),
    );
    const draftRow = bodyOf('/v1/board/{id}/promise_dates').properties.drafts.items.properties.rows.items;
    expect(draftRow).toMatchObject({
      required: ['activity_id'],
      properties: { quantity: { type: 'number', minimum: 0, maximum: 10_000_000 }, unit: { type: 'string', maxLength: 25 } },
    });
    expect(paths['/v1/collection/{id}/backlog'].post.requestBody).toBeUndefined();
  });
});
