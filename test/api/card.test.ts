/**
 * Cards (docs/API.md "Resources and paths", electron/api/resources/card.ts): CRUD under their collection
 * (`/v1/collection/{cid}/card`), the deprecated `date`/`start`/`end`, validation, `GET /v1/card`
 * across collections with filters, `with` and `include`, splitting a card
 * (`POST …/card/{id}/split`, planning/split-card.ts) and card relations (`/v1/card_relation`).
 *
 * Calendar (March 2024): Mon 04  Tue 05  Wed 06  Thu 07  Fri 08 | Sat 09  Sun 10 | Mon 11 …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { create, otherEnvironment } from '../helpers/base-data.js';
import { expectFieldErrors, unknownId } from '../helpers/order-data.js';
import { createBoard, createResource, plan, type BoardIds } from '../helpers/planning.js';

let api: TestApi;
let board: BoardIds;
let otherBoard: BoardIds;
/** Activities with resource types: Mill (machine), Assemble (employee), Inspect (cell). */
let mill: string;
let assemble: string;
let inspect: string;
let anna: string;
let press: string;
let collectionA: any;
let collectionB: any;

async function post(path: string, body: unknown): Promise<any> {
  const res = await api.inject('POST', path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}
const cardPath = (cid: string, id = '') => `/v1/collection/${cid}/card${id ? `/${id}` : ''}`;
async function newCard(collectionId: string, body: Record<string, unknown> = {}, query = ''): Promise<any> {
  return post(cardPath(collectionId) + query, { stage_id: board.stages.Cutting, ...body });
}

beforeAll(async () => {
  api = await startTestApi();
  mill = (await post('/v1/activity', { description: 'Mill', resource_type: 'machine' })).id;
  assemble = (await post('/v1/activity', { description: 'Assemble', resource_type: 'employee' })).id;
  inspect = (await post('/v1/activity', { description: 'Inspect', resource_type: 'cell' })).id;
  const acts = { Mill: mill, Assemble: assemble, Inspect: inspect };
  board = await createBoard(
    api,
    acts,
    {
      stages: [
        { name: 'Cutting', activities: ['Mill'] },
        { name: 'Welding', activities: ['Assemble'] },
      ],
    },
    ['Rush', 'Export'],
  );
  otherBoard = await createBoard(api, acts, { stages: [{ name: 'Elsewhere' }] });
  anna = await createResource(api, { name: 'Anna', type: 'employee' });
  press = await createResource(api, { name: 'Press', type: 'machine' });
  collectionA = await post('/v1/collection', { name: 'Order A', board_id: board.id });
  collectionB = await post('/v1/collection', { name: 'Order B', board_id: board.id });
});
afterAll(async () => {
  await api.close();
});

describe('card CRUD under /v1/collection/{cid}/card', () => {
  it('creates a card with only a stage: entry status, board, rank and defaults filled in', async () => {
    const card = await newCard(collectionA.id);
    expect(card).toMatchObject({
      collection_id: collectionA.id,
      board_id: board.id,
      stage_id: board.stages.Cutting,
      status_id: board.statuses.Ready,
      name: null,
      start_date: null,
      end_date: null,
      days_diff: null,
      days_active: null,
      locked: false,
      custom_fields: [],
      split_from_id: null,
      completed_at: null,
      time_tracking_running: false,
    });
    expect(card.rank).toMatch(/^[a-z]{12,}$/);
  });

  it('stores every writable field and returns the links with `with`', async () => {
    const parent = await newCard(collectionA.id);
    const card = await newCard(
      collectionA.id,
      {
        stage_id: board.stages.Welding,
        status_id: board.statuses.Backlog,
        name: 'Weld the frame',
        description: 'Both sides',
        start_date: '2024-03-07',
        end_date: '2024-03-11',
        start_time: '08:00',
        end_time: '15:30',
        custom_fields: [{ name: 'Torch', type: 'text', value: 'TIG', priority: 0 }],
        parent_card_id: parent.id,
        batch_id: 'B-7',
        external_ref: 'erp-card-1',
        labels: [{ id: board.labels.Rush }],
        resources: [{ id: anna }],
        activities: [{ id: assemble, time: 300 }],
      },
      '?with=labels,resources,activities',
    );
    expect(card).toMatchObject({
      stage_id: board.stages.Welding,
      status_id: board.statuses.Backlog,
      name: 'Weld the frame',
      description: 'Both sides',
      start_date: '2024-03-07',
      end_date: '2024-03-11',
      start_time: '08:00',
      end_time: '15:30',
      custom_fields: [{ name: 'Torch', type: 'text', value: 'TIG', priority: 0 }],
      parent_card_id: parent.id,
      batch_id: 'B-7',
      external_ref: 'erp-card-1',
      // Thu → Mon: 4 calendar days, 3 workdays.
      days_diff: 4,
      days_active: 3,
    });
    expect(card.labels.map((l: any) => l.id)).toEqual([board.labels.Rush]);
    expect(card.resources.map((r: any) => r.id)).toEqual([anna]);
    expect(card.activities.map((a: any) => [a.id, a.time])).toEqual([[assemble, 300]]);
    const again = (await api.inject('GET', `${cardPath(collectionA.id, card.id)}?with=labels,resources,activities`)).body;
    expect(again).toEqual(card);
  });

  it('PUT changes only what is sent; DELETE answers 204 and the card is gone', async () => {
    const card = await newCard(collectionA.id, {
      name: 'Before',
      description: 'Keep me',
      start_date: '2024-03-04',
      end_date: '2024-03-05',
    });
    const res = await api.inject('PUT', cardPath(collectionA.id, card.id), { name: 'After' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'After', description: 'Keep me', start_date: '2024-03-04', end_date: '2024-03-05' });
    expect((await api.inject('DELETE', cardPath(collectionA.id, card.id))).status).toBe(204);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect((await api.inject(method, cardPath(collectionA.id, card.id), method === 'PUT' ? { name: 'x' } : undefined)).status).toBe(404);
    }
  });

  it('server-owned fields in the body change nothing', async () => {
    const card = await newCard(collectionA.id, { start_date: '2024-03-04', end_date: '2024-03-04' });
    const res = await api.inject('PUT', cardPath(collectionA.id, card.id), {
      rank: 'a',
      locked: true,
      board_id: otherBoard.id,
      collection_id: collectionB.id,
      days_diff: 99,
      days_active: 99,
      completed_at: '2024-01-01T00:00:00Z',
      split_from_id: card.id,
      time_tracking_running: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      rank: card.rank,
      locked: false,
      board_id: board.id,
      collection_id: collectionA.id,
      days_diff: 0,
      days_active: 1,
      completed_at: null,
      split_from_id: null,
      time_tracking_running: false,
    });
  });

  it('new cards go to the end of their stage', async () => {
    const first = await newCard(collectionA.id, { stage_id: board.stages.Welding });
    const second = await newCard(collectionB.id, { stage_id: board.stages.Welding });
    expect(second.rank > first.rank).toBe(true);
  });

  describe('deprecated date, start and end', () => {
    it('date sets start_date and end_date', async () => {
      const card = await newCard(collectionA.id, { date: '2024-03-06' });
      expect(card).toMatchObject({ start_date: '2024-03-06', end_date: '2024-03-06' });
      const moved = (await api.inject('PUT', cardPath(collectionA.id, card.id), { date: '2024-03-08' })).body;
      expect(moved).toMatchObject({ start_date: '2024-03-08', end_date: '2024-03-08' });
    });

    it('start and end set start_date and end_date', async () => {
      const card = await newCard(collectionA.id, { start: '2024-03-04', end: '2024-03-06' });
      expect(card).toMatchObject({ start_date: '2024-03-04', end_date: '2024-03-06' });
      const moved = (await api.inject('PUT', cardPath(collectionA.id, card.id), { end: '2024-03-07' })).body;
      expect(moved).toMatchObject({ start_date: '2024-03-04', end_date: '2024-03-07' });
    });

    it('are never returned, and start_date/end_date win when both are sent', async () => {
      const card = await newCard(collectionA.id, {
        start: '2024-03-01',
        start_date: '2024-03-04',
        end: '2024-03-09',
        end_date: '2024-03-05',
      });
      expect(card).toMatchObject({ start_date: '2024-03-04', end_date: '2024-03-05' });
      for (const field of ['date', 'start', 'end']) expect(card).not.toHaveProperty(field);
    });

    it('are validated like the dates they set', async () => {
      const res = await api.inject('POST', cardPath(collectionA.id), {
        stage_id: board.stages.Cutting,
        start: '2024-03-06',
        end: '2024-03-04',
      });
      expectFieldErrors(res, ['end_date']);
      expect((await api.inject('POST', cardPath(collectionA.id), { stage_id: board.stages.Cutting, date: 'tomorrow' })).status).toBe(422);
    });
  });

  describe("a card under another collection's path", () => {
    it('is not found by GET, PUT or DELETE, and stays as it was', async () => {
      const card = await newCard(collectionA.id, { name: 'Mine' });
      expect((await api.inject('GET', cardPath(collectionB.id, card.id))).status).toBe(404);
      expect((await api.inject('PUT', cardPath(collectionB.id, card.id), { name: 'Stolen' })).status).toBe(404);
      expect((await api.inject('DELETE', cardPath(collectionB.id, card.id))).status).toBe(404);
      expect((await api.inject('GET', cardPath(collectionA.id, card.id))).body).toMatchObject({
        name: 'Mine',
        collection_id: collectionA.id,
      });
    });

    it('cannot be created under an unknown collection', async () => {
      expect((await api.inject('POST', cardPath(unknownId), { stage_id: board.stages.Cutting })).status).toBe(404);
    });
  });
});

describe('card validation', () => {
  it("a stage of another board than the collection's is a 422 on stage_id", async () => {
    expectFieldErrors(await api.inject('POST', cardPath(collectionA.id), { stage_id: otherBoard.stages.Elsewhere }), ['stage_id']);
    const card = await newCard(collectionA.id);
    expectFieldErrors(await api.inject('PUT', cardPath(collectionA.id, card.id), { stage_id: otherBoard.stages.Elsewhere }), ['stage_id']);
  });

  it('a status of another board is a 422 on status_id', async () => {
    expectFieldErrors(
      await api.inject('POST', cardPath(collectionA.id), { stage_id: board.stages.Cutting, status_id: otherBoard.statuses.Ready }),
      ['status_id'],
    );
    const card = await newCard(collectionA.id);
    expectFieldErrors(await api.inject('PUT', cardPath(collectionA.id, card.id), { status_id: otherBoard.statuses.Ready }), ['status_id']);
  });

  it('an end before the start is a 422 on end_date, also against the stored start', async () => {
    expectFieldErrors(
      await api.inject('POST', cardPath(collectionA.id), {
        stage_id: board.stages.Cutting,
        start_date: '2024-03-05',
        end_date: '2024-03-04',
      }),
      ['end_date'],
    );
    const card = await newCard(collectionA.id, { start_date: '2024-03-05', end_date: '2024-03-06' });
    expectFieldErrors(await api.inject('PUT', cardPath(collectionA.id, card.id), { end_date: '2024-03-04' }), ['end_date']);
    expect((await api.inject('PUT', cardPath(collectionA.id, card.id), { end_date: '2024-03-05' })).status).toBe(200);
  });

  it('an unknown or missing stage is a 422 on stage_id', async () => {
    expectFieldErrors(await api.inject('POST', cardPath(collectionA.id), { stage_id: unknownId }), ['stage_id']);
    expectFieldErrors(await api.inject('POST', cardPath(collectionA.id), { name: 'No stage' }), ['stage_id']);
    expectFieldErrors(await api.inject('POST', cardPath(collectionA.id), { stage_id: 'cutting' }), ['stage_id']);
  });

  it('an unknown status is a 422 on status_id', async () => {
    expectFieldErrors(await api.inject('POST', cardPath(collectionA.id), { stage_id: board.stages.Cutting, status_id: unknownId }), [
      'status_id',
    ]);
    const card = await newCard(collectionA.id);
    expectFieldErrors(await api.inject('PUT', cardPath(collectionA.id, card.id), { status_id: unknownId }), ['status_id']);
  });

  it('a bad time, a bad date and an unknown label: one error per field', async () => {
    const res = await api.inject('POST', cardPath(collectionA.id), {
      stage_id: board.stages.Cutting,
      start_time: '25:00',
      end_date: '2024-13-01',
      labels: [{ id: unknownId }],
    });
    expectFieldErrors(res, ['start_time', 'end_date', 'labels.0.id']);
  });
});

describe('GET /v1/card: every card across collections', () => {
  let c1: any;
  let c2: any;
  let cutting: any;
  let welding: any;
  let other: any;
  beforeAll(async () => {
    c1 = await post('/v1/collection', { name: 'List 1', board_id: board.id });
    c2 = await post('/v1/collection', { name: 'List 2', board_id: board.id });
    cutting = await newCard(c1.id, {
      name: 'L-cut',
      labels: [{ id: board.labels.Rush }],
      resources: [{ id: anna }, { id: press }],
      activities: [
        { id: mill, time: 120 },
        { id: assemble, time: 60 },
        { id: inspect, time: 15 },
      ],
    });
    welding = await newCard(c1.id, { name: 'L-weld', stage_id: board.stages.Welding, labels: [{ id: board.labels.Export }] });
    other = await newCard(c2.id, { name: 'L-other', stage_id: board.stages.Welding, resources: [{ id: anna }] });
    await post('/v1/card_relation', { card_id: cutting.id, related_card_id: welding.id, type: 'blocks' });
  });
  const list = async (query: string) => {
    const res = await api.inject('GET', `/v1/card?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const scope = () => `(collection_id:eq:${c1.id},or,collection_id:eq:${c2.id})`;

  it('lists the cards of every collection in the list envelope', async () => {
    const body = await list(`filter=${encodeURIComponent(scope())}&sort=name`);
    expect(body).toMatchObject({ count: 3, limit: 100, offset: 0 });
    expect(body.data.map((c: any) => c.name)).toEqual(['L-cut', 'L-other', 'L-weld']);
  });

  it('filters by stage_id:eq', async () => {
    const body = await list(`filter=${encodeURIComponent(`${scope()},and,stage_id:eq:${board.stages.Welding}`)}&sort=name`);
    expect(body.data.map((c: any) => c.name)).toEqual(['L-other', 'L-weld']);
  });

  it('filters by labels:has', async () => {
    const within = (filter: string) => `filter=${encodeURIComponent(`${scope()},and,${filter}`)}`;
    expect((await list(within(`labels:has:${board.labels.Rush}`))).data.map((c: any) => c.id)).toEqual([cutting.id]);
    expect((await list(within(`labels:has:${board.labels.Export}`))).data.map((c: any) => c.id)).toEqual([welding.id]);
    expect((await list(within('labels:has:*'))).data.map((c: any) => c.id).sort()).toEqual([cutting.id, welding.id].sort());
    // Across every collection: the Rush card of this list is among them.
    expect((await list(`filter=labels:has:${board.labels.Rush}`)).data.map((c: any) => c.id)).toContain(cutting.id);
  });

  it('filters by resources:has and collection_id', async () => {
    const within = `filter=${encodeURIComponent(`${scope()},and,resources:has:${anna}`)}&sort=name`;
    expect((await list(within)).data.map((c: any) => c.name)).toEqual(['L-cut', 'L-other']);
    expect((await list(`filter=collection_id:eq:${c2.id}`)).data.map((c: any) => c.id)).toEqual([other.id]);
  });

  it('with=activities,collection,labels,resources,stage,status,relations embeds each', async () => {
    const body = await list(
      `filter=collection_id:eq:${c1.id}&sort=name&with=activities,collection,labels,resources,stage,status,relations`,
    );
    const [cut, weld] = body.data;
    expect(cut.activities.map((a: any) => [a.description, a.time])).toEqual([
      ['Mill', 120],
      ['Assemble', 60],
      ['Inspect', 15],
    ]);
    expect(cut.collection).toMatchObject({ id: c1.id, name: 'List 1' });
    expect(cut.labels.map((l: any) => l.name)).toEqual(['Rush']);
    expect(cut.resources.map((r: any) => r.name).sort()).toEqual(['Anna', 'Press']);
    expect(cut.stage).toMatchObject({ id: board.stages.Cutting, name: 'Cutting' });
    expect(cut.status).toMatchObject({ id: board.statuses.Ready, name: 'Ready', entry: true });
    expect(cut.relations).toEqual([expect.objectContaining({ card_id: cut.id, related_card_id: weld.id, type: 'blocks' })]);
    expect(weld.relations).toEqual([]);
    expect(weld.activities).toEqual([]);
  });

  it('include=time_tracking_total,resource_type_count,resource_type_time adds the computed figures', async () => {
    const body = await list(
      `filter=collection_id:eq:${c1.id}&sort=name&include=time_tracking_total,resource_type_count,resource_type_time`,
    );
    const [cut, weld] = body.data;
    expect(cut).toMatchObject({
      time_tracking_total: 0,
      resource_type_count: { machine: 1, cell: 0, employee: 1 },
      resource_type_time: { machine: 120, cell: 15, employee: 60 },
    });
    expect(weld).toMatchObject({
      time_tracking_total: 0,
      resource_type_count: { machine: 0, cell: 0, employee: 0 },
      resource_type_time: { machine: 0, cell: 0, employee: 0 },
    });
    const single = (await api.inject('GET', `${cardPath(c1.id, cutting.id)}?include=resource_type_count`)).body;
    expect(single.resource_type_count).toEqual({ machine: 1, cell: 0, employee: 1 });
    expect(single).not.toHaveProperty('resource_type_time');
  });

  it('without include the computed figures are absent', async () => {
    const body = await list(`filter=collection_id:eq:${c1.id}`);
    for (const card of body.data) {
      for (const field of ['time_tracking_total', 'resource_type_count', 'resource_type_time']) expect(card).not.toHaveProperty(field);
    }
  });

  it('an unknown include or relation is a 400 naming it', async () => {
    expectBadRequest(await api.inject('GET', '/v1/card?include=time_tracking_total,weather'), 'weather');
    expectBadRequest(await api.inject('GET', `${cardPath(c1.id, cutting.id)}?include=weather`), 'weather');
    expectBadRequest(await api.inject('GET', '/v1/card?with=labels,owner'), 'owner');
  });

  it('with=time_tracking embeds the card’s time entries', async () => {
    const collection = await post('/v1/collection', { name: 'Timed', board_id: board.id });
    const card = await newCard(collection.id, { name: 'Timed card' });
    const entry = await post('/v1/time_tracking', { card_id: card.id, start: '2024-03-04T08:00:00Z', end: '2024-03-04T09:30:00Z' });
    const body = await list(`filter=collection_id:eq:${collection.id}&with=time_tracking`);
    expect(body.data[0].time_tracking).toEqual([expect.objectContaining({ id: entry.id, card_id: card.id, duration: 90 })]);
    const single = (await api.inject('GET', `${cardPath(collection.id, card.id)}?with=time_tracking&show=id,time_tracking.*.duration`))
      .body;
    expect(single).toEqual({ id: card.id, time_tracking: [{ duration: 90 }] });
  });

  it('with=time embeds the card’s minutes per activity as records of their own; filter time.… selects by them', async () => {
    const body = await list(`filter=collection_id:eq:${c1.id}&sort=name&with=time.activity,activities`);
    const [cut, weld] = body.data;
    expect(cut.time.map((t: any) => [t.card_id, t.activity_id, t.time, t.activity.description])).toEqual([
      [cut.id, mill, 120, 'Mill'],
      [cut.id, assemble, 60, 'Assemble'],
      [cut.id, inspect, 15, 'Inspect'],
    ]);
    // The same minutes `activities` shows merged into each activity.
    expect(cut.activities.map((a: any) => [a.id, a.time])).toEqual(cut.time.map((t: any) => [t.activity_id, t.time]));
    expect(weld.time).toEqual([]);

    const within = (filter: string) => `filter=${encodeURIComponent(`${scope()},and,${filter}`)}`;
    expect((await list(within('time.time:gte:100'))).data.map((c: any) => c.id)).toEqual([cutting.id]);
    expect((await list(within(`time.activity_id:eq:${inspect}`))).data.map((c: any) => c.id)).toEqual([cutting.id]);
    expect((await list(`${within('time:has:*')}&sort=name`)).data.map((c: any) => c.name)).toEqual(['L-cut']);

    // Changed on the card, the records follow; a card's own minutes only.
    const collection = await post('/v1/collection', { name: 'Minutes', board_id: board.id });
    const card = await newCard(collection.id, { activities: [{ id: mill, time: 45 }] });
    const path = cardPath(collection.id, card.id);
    expect((await api.inject('PUT', path, { activities: [{ id: assemble, time: 30 }] })).status).toBe(200);
    const read = (await api.inject('GET', `${path}?with=time`)).body;
    expect(read.time.map((t: any) => [t.activity_id, t.time])).toEqual([[assemble, 30]]);
  });

  it('never shows another environment’s minutes, whatever with or filter asks', async () => {
    const other = otherEnvironment(api);
    const activity = await create(other, '/v1/activity', { description: 'Mill' });
    const theirBoard = await create(other, '/v1/board?with=stages', {
      name: 'Theirs',
      stages: [{ name: 'Cutting' }],
      statuses: [{ name: 'Ready', entry: true }],
    });
    const theirCollection = await create(other, '/v1/collection', { name: 'Theirs', board_id: theirBoard.id });
    const theirCard = await create(other, `/v1/collection/${theirCollection.id}/card`, {
      stage_id: theirBoard.stages[0].id,
      activities: [{ id: activity.id, time: 777 }],
    });
    const collection = await post('/v1/collection', { name: 'Ours', board_id: board.id });
    const ours = await newCard(collection.id, { activities: [{ id: mill, time: 777 }] });

    const mine = (await api.inject('GET', `/v1/card?filter=time.time:eq:777&with=time`)).body;
    expect(mine.data.map((c: any) => c.id)).toEqual([ours.id]);
    expect(mine.data[0].time.map((t: any) => [t.card_id, t.activity_id])).toEqual([[ours.id, mill]]);
    const theirs = (await other.inject('GET', `/v1/card?filter=time.time:eq:777&with=time`)).body;
    expect(theirs.data.map((c: any) => c.id)).toEqual([theirCard.id]);
    expect(theirs.data[0].time.map((t: any) => [t.card_id, t.activity_id])).toEqual([[theirCard.id, activity.id]]);
    expect((await api.inject('GET', `/v1/card?filter=time.activity_id:eq:${activity.id}`)).body.count).toBe(0);
  });

  it('paginates with limit and offset', async () => {
    const page1 = await list(`filter=${encodeURIComponent(scope())}&sort=name&limit=2`);
    const page2 = await list(`filter=${encodeURIComponent(scope())}&sort=name&limit=2&offset=2`);
    expect(page1.count).toBe(3);
    expect([...page1.data, ...page2.data].map((c: any) => c.name)).toEqual(['L-cut', 'L-other', 'L-weld']);
  });
});

describe('splitting a card: POST /v1/collection/{cid}/card/{id}/split', () => {
  /** A card Mon 04 … Fri 08 (5 workdays) with Mill 1000 and Assemble 500, a label and a resource, and a card after it in the stage. */
  async function fiveDayCard(): Promise<{ collection: any; card: any; next: any }> {
    const collection = await post('/v1/collection', { name: 'Split me', board_id: board.id });
    const card = await newCard(collection.id, {
      name: 'Long',
      start_date: '2024-03-04',
      end_date: '2024-03-08',
      labels: [{ id: board.labels.Rush }],
      resources: [{ id: press }],
      activities: [
        { id: mill, time: 1000 },
        { id: assemble, time: 500 },
      ],
    });
    const next = await newCard(collection.id, { name: 'Next' });
    return { collection, card, next };
  }
  const split = (collectionId: string, id: string, body: unknown) => api.inject('POST', `${cardPath(collectionId, id)}/split`, body);
  const minutes = (card: any) => Object.fromEntries(card.activities.map((a: any) => [a.description, a.time]));

  it('by date: the original ends the workday before, the new card runs from the date to the old end; minutes by workdays', async () => {
    const { collection, card, next } = await fiveDayCard();
    const res = await split(collection.id, card.id, { date: '2024-03-07' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [first, second] = res.body.data;
    expect(first).toMatchObject({ id: card.id, start_date: '2024-03-04', end_date: '2024-03-06', split_from_id: null });
    expect(second).toMatchObject({
      start_date: '2024-03-07',
      end_date: '2024-03-08',
      split_from_id: card.id,
      stage_id: card.stage_id,
      status_id: card.status_id,
      name: 'Long',
      collection_id: collection.id,
    });
    expect(second.id).not.toBe(card.id);
    // Ranks: original < new < the card that came after it.
    expect(card.rank < second.rank && second.rank < next.rank).toBe(true);
    // 3 of 5 workdays stay: Mill 1000 → 600 + 400, Assemble 500 → 300 + 200.
    const a = (await api.inject('GET', `${cardPath(collection.id, card.id)}?with=activities,labels,resources`)).body;
    const b = (await api.inject('GET', `${cardPath(collection.id, second.id)}?with=activities,labels,resources`)).body;
    expect(minutes(a)).toEqual({ Mill: 600, Assemble: 300 });
    expect(minutes(b)).toEqual({ Mill: 400, Assemble: 200 });
    // Both keep the labels and resources.
    expect(b.labels.map((l: any) => l.id)).toEqual([board.labels.Rush]);
    expect(b.resources.map((r: any) => r.id)).toEqual([press]);
    expect(a.labels.map((l: any) => l.id)).toEqual([board.labels.Rush]);
    // The collection still spans the same days.
    expect((await api.inject('GET', `/v1/collection/${collection.id}`)).body).toMatchObject({ start: '2024-03-04', end: '2024-03-08' });
  });

  it('by share: the original keeps that share of the minutes and of the workdays', async () => {
    const { collection, card } = await fiveDayCard();
    const res = await split(collection.id, card.id, { share: 0.4 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [first, second] = res.body.data;
    // 0.4 × 5 workdays = 2: Mon 04 … Tue 05, then Wed 06 … Fri 08.
    expect([first.start_date, first.end_date, second.start_date, second.end_date]).toEqual([
      '2024-03-04',
      '2024-03-05',
      '2024-03-06',
      '2024-03-08',
    ]);
    const a = (await api.inject('GET', `${cardPath(collection.id, first.id)}?with=activities`)).body;
    const b = (await api.inject('GET', `${cardPath(collection.id, second.id)}?with=activities`)).body;
    expect(minutes(a)).toEqual({ Mill: 400, Assemble: 200 });
    expect(minutes(b)).toEqual({ Mill: 600, Assemble: 300 });
    expect(b.split_from_id).toBe(first.id);
  });

  it('a split date on a weekend moves to the next workday', async () => {
    const collection = await post('/v1/collection', { name: 'Weekend', board_id: board.id });
    const card = await newCard(collection.id, { start_date: '2024-03-04', end_date: '2024-03-12' });
    const [first, second] = (await split(collection.id, card.id, { date: '2024-03-09' })).body.data;
    expect([first.end_date, second.start_date, second.end_date]).toEqual(['2024-03-08', '2024-03-11', '2024-03-12']);
  });

  it('a one-day card split by share gives two cards on that day', async () => {
    const collection = await post('/v1/collection', { name: 'One day', board_id: board.id });
    const card = await newCard(collection.id, { start_date: '2024-03-04', end_date: '2024-03-04', activities: [{ id: mill, time: 101 }] });
    const [first, second] = (await split(collection.id, card.id, { share: 0.5 })).body.data;
    expect([first.start_date, first.end_date, second.start_date, second.end_date]).toEqual([
      '2024-03-04',
      '2024-03-04',
      '2024-03-04',
      '2024-03-04',
    ]);
    const a = (await api.inject('GET', `${cardPath(collection.id, first.id)}?with=activities`)).body;
    const b = (await api.inject('GET', `${cardPath(collection.id, second.id)}?with=activities`)).body;
    // Minutes are whole and add up: round(101 × 0.5) = 51, 101 − 51 = 50.
    expect(a.activities[0].time + b.activities[0].time).toBe(101);
  });

  it('rejects a date outside the card, a share outside (0, 1), a card without dates, and a body that is not an object', async () => {
    const { collection, card } = await fiveDayCard();
    expectFieldErrors(await split(collection.id, card.id, { date: '2024-03-04' }), ['date']);
    expectFieldErrors(await split(collection.id, card.id, { date: '2024-03-11' }), ['date']);
    expectFieldErrors(await split(collection.id, card.id, { date: 'Thursday' }), ['date']);
    for (const share of [0, 1, -0.5, 1.5, '0.5']) expectFieldErrors(await split(collection.id, card.id, { share }), ['share']);
    expectFieldErrors(await split(collection.id, card.id, {}), ['share']);
    const undated = await newCard(collection.id);
    expectFieldErrors(await split(collection.id, undated.id, { share: 0.5 }), ['date']);
    expectBadRequest(await split(collection.id, card.id, [0.5]));
    // Nothing was split.
    expect((await api.inject('GET', `/v1/collection/${collection.id}/card?limit=0`)).body.count).toBe(3);
  });

  it("a card under another collection's path is a 404", async () => {
    const { card } = await fiveDayCard();
    expect((await split(collectionB.id, card.id, { share: 0.5 })).status).toBe(404);
  });
});

describe('card relations: /v1/card_relation', () => {
  let x: any;
  let y: any;
  let z: any;
  beforeAll(async () => {
    x = await newCard(collectionA.id, { name: 'X' });
    y = await newCard(collectionA.id, { name: 'Y' });
    z = await newCard(collectionB.id, { name: 'Z' });
  });

  it.each(['blocks', 'depends', 'related', 'cloned'])('relates two cards as %s', async (type) => {
    const relation = await post('/v1/card_relation', { card_id: x.id, related_card_id: z.id, type });
    expect(relation).toMatchObject({ card_id: x.id, related_card_id: z.id, type });
    expect((await api.inject('DELETE', `/v1/card_relation/${relation.id}`)).status).toBe(204);
  });

  it('type defaults to related; an unknown type is a 422', async () => {
    const relation = await post('/v1/card_relation', { card_id: y.id, related_card_id: z.id });
    expect(relation.type).toBe('related');
    expectFieldErrors(await api.inject('POST', '/v1/card_relation', { card_id: y.id, related_card_id: x.id, type: 'parent' }), ['type']);
  });

  it('a card cannot be related to itself', async () => {
    const res = await api.inject('POST', '/v1/card_relation', { card_id: x.id, related_card_id: x.id, type: 'blocks' });
    expectFieldErrors(res, ['related_card_id']);
    expect(res.body.errors[0].description).toMatch(/itself/);
  });

  it('the same relation twice is a 422; the same cards with another type are fine', async () => {
    await post('/v1/card_relation', { card_id: x.id, related_card_id: y.id, type: 'blocks' });
    const res = await api.inject('POST', '/v1/card_relation', { card_id: x.id, related_card_id: y.id, type: 'blocks' });
    expectFieldErrors(res, ['related_card_id']);
    expect(res.body.errors[0].description).toMatch(/already/);
    await post('/v1/card_relation', { card_id: x.id, related_card_id: y.id, type: 'depends' });
  });

  it('unknown cards are 422s on card_id and related_card_id', async () => {
    expectFieldErrors(await api.inject('POST', '/v1/card_relation', { card_id: unknownId, related_card_id: x.id }), ['card_id']);
    expectFieldErrors(await api.inject('POST', '/v1/card_relation', { card_id: x.id, related_card_id: unknownId }), ['related_card_id']);
    expectFieldErrors(await api.inject('POST', '/v1/card_relation', {}), ['card_id', 'related_card_id']);
  });

  it('filter=card_id:eq:… lists the relations of one card', async () => {
    const w = await newCard(collectionB.id, { name: 'W' });
    const r1 = await post('/v1/card_relation', { card_id: w.id, related_card_id: x.id, type: 'depends' });
    const r2 = await post('/v1/card_relation', { card_id: w.id, related_card_id: y.id, type: 'cloned' });
    await post('/v1/card_relation', { card_id: z.id, related_card_id: w.id, type: 'related' });
    const res = await api.inject('GET', `/v1/card_relation?filter=card_id:eq:'${w.id}'&sort=created_at`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.data.map((r: any) => r.id)).toEqual([r1.id, r2.id]);
    const embedded = await api.inject('GET', `/v1/card_relation/${r1.id}?with=card,related_card`);
    expect(embedded.body.card.name).toBe('W');
    expect(embedded.body.related_card.name).toBe('X');
  });
});

describe('card relations go with either card', () => {
  let other: any;
  beforeAll(async () => {
    other = await newCard(collectionB.id, { name: 'Other' });
  });

  /** The sync cursor now: changes after it are what happens next. */
  async function cursor(): Promise<number> {
    let since = 0;
    for (;;) {
      const page = await api.inject('GET', `/v1/sync/changes?since=${since}&limit=5000`);
      since = page.body.cursor;
      if (!page.body.more) return since;
    }
  }

  /** Relations both ways between `card` and the card `other`. */
  async function relate(card: string): Promise<string[]> {
    const out = await post('/v1/card_relation', { card_id: card, related_card_id: other.id, type: 'blocks' });
    const back = await post('/v1/card_relation', { card_id: other.id, related_card_id: card, type: 'depends' });
    return [out.id, back.id];
  }

  /** Gone from the API, in the trash, and deleted in the change log replicas pull (and webhooks read). */
  async function expectDeleted(relations: string[], since: number) {
    for (const id of relations) expect((await api.inject('GET', `/v1/card_relation/${id}`)).status).toBe(404);
    const listed = await api.inject(
      'GET',
      `/v1/card_relation?filter=related_card_id:eq:'${other.id}',or,card_id:eq:'${other.id}'&limit=1000`,
    );
    expect(listed.body.data.map((r: any) => r.id)).not.toContain(relations[0]);
    expect(listed.body.data.map((r: any) => r.id)).not.toContain(relations[1]);
    const trash = await api.inject('GET', '/v1/trash/card_relation?limit=1000');
    for (const id of relations) expect(trash.body.data.map((r: any) => r.id)).toContain(id);
    const changes = await api.inject('GET', `/v1/sync/changes?since=${since}&limit=5000`);
    for (const id of relations) {
      const change = changes.body.changes.find((c: any) => c.resource === 'card_relation' && c.id === id);
      expect(change?.record.deleted_at, id).toEqual(expect.any(String));
    }
  }

  it('deleting a card deletes its relations, both ways; relations of other cards stay', async () => {
    const card = await newCard(collectionA.id, { name: 'Doomed' });
    const keeper = await newCard(collectionA.id, { name: 'Keeper' });
    const relations = await relate(card.id);
    const kept = await post('/v1/card_relation', { card_id: keeper.id, related_card_id: other.id, type: 'related' });
    const since = await cursor();
    expect((await api.inject('DELETE', cardPath(collectionA.id, card.id))).status).toBe(204);
    await expectDeleted(relations, since);
    expect((await api.inject('GET', `/v1/card_relation/${kept.id}?with=card,related_card`)).body).toMatchObject({
      card: { id: keeper.id },
      related_card: { id: other.id },
    });
  });

  it('planning a collection again deletes the relations of the cards it replaces', async () => {
    const collection = await post('/v1/collection', { name: 'Replanned', board_id: board.id, activities: [{ id: mill, time: 60 }] });
    const first = (await plan(api, collection.id, board.id, { start: '2024-03-04' })).cards;
    expect(first.length).toBeGreaterThan(0);
    const relations = (await Promise.all(first.map((c: any) => relate(c.id)))).flat();
    const since = await cursor();
    const second = (await plan(api, collection.id, board.id, { start: '2024-03-11' })).cards;
    expect(second.map((c: any) => c.id)).not.toContain(first[0].id);
    await expectDeleted(relations, since);
  });

  it('moving a collection to the backlog deletes the relations of its cards', async () => {
    const collection = await post('/v1/collection', { name: 'Unplanned', board_id: board.id, activities: [{ id: mill, time: 60 }] });
    const cards = (await plan(api, collection.id, board.id, { start: '2024-03-04' })).cards;
    const relations = (await Promise.all(cards.map((c: any) => relate(c.id)))).flat();
    const since = await cursor();
    expect((await api.inject('POST', `/v1/collection/${collection.id}/backlog`)).status).toBe(200);
    await expectDeleted(relations, since);
  });
});

describe('restoring a deleted card from the trash (docs/API.md "Trash")', () => {
  const whole = '?with=labels,resources,activities,checklists';

  it('brings it back whole: its work, people, labels and checklist, and the collection counts it again', async () => {
    const collection = await post('/v1/collection', { name: 'Order Trash', board_id: board.id });
    const card = await newCard(
      collection.id,
      {
        start_date: '2024-03-05',
        end_date: '2024-03-06',
        activities: [{ id: mill, time: 240 }],
        resources: [{ id: press }],
        labels: [{ id: board.labels.Rush }, { id: board.labels.Export }],
      },
      whole,
    );
    await post(`${cardPath(collection.id, card.id)}/checklist`, { name: 'Before sawing' });
    // A label taken off on its own before the delete stays off.
    const cut = await api.inject('PUT', cardPath(collection.id, card.id), { labels: [{ id: board.labels.Rush }] });
    expect(cut.status).toBe(200);
    const before = (await api.inject('GET', cardPath(collection.id, card.id) + whole)).body;
    expect(before.activities).toHaveLength(1);
    expect(before.checklists).toHaveLength(1);
    expect((await api.inject('GET', `/v1/collection/${collection.id}`)).body).toMatchObject({ start: '2024-03-05', end: '2024-03-06' });

    expect((await api.inject('DELETE', cardPath(collection.id, card.id))).status).toBe(204);
    expect((await api.inject('GET', `/v1/collection/${collection.id}`)).body).toMatchObject({ start: null, end: null });

    const restored = await api.inject('POST', `/v1/trash/card/${card.id}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    const after = (await api.inject('GET', cardPath(collection.id, card.id) + whole)).body;
    const essentials = (c: any) => ({
      activities: c.activities.map((a: any) => ({ id: a.id, time: a.time })),
      resources: c.resources.map((r: any) => r.id),
      labels: c.labels.map((l: any) => l.id),
      checklists: c.checklists.map((l: any) => l.name),
    });
    expect(essentials(after)).toEqual(essentials(before));
    expect(essentials(after).labels).toEqual([board.labels.Rush]);
    expect((await api.inject('GET', `/v1/collection/${collection.id}`)).body).toMatchObject({ start: '2024-03-05', end: '2024-03-06' });
  });

  it('restores a dependency only with the card it was deleted with', async () => {
    const collection = await post('/v1/collection', { name: 'Order Pair', board_id: board.id });
    const first = await newCard(collection.id, { start_date: '2024-03-04', end_date: '2024-03-04' });
    const second = await newCard(collection.id, { start_date: '2024-03-05', end_date: '2024-03-05' });
    const link = await post('/v1/card_relation', { card_id: first.id, related_card_id: second.id, type: 'blocks' });
    expect((await api.inject('DELETE', cardPath(collection.id, first.id))).status).toBe(204);
    expect((await api.inject('GET', `/v1/card_relation/${link.id}`)).status).toBe(404);
    expect((await api.inject('POST', `/v1/trash/card/${first.id}/restore`)).status).toBe(200);
    expect((await api.inject('GET', `/v1/card_relation/${link.id}`)).status).toBe(200);
  });
});
