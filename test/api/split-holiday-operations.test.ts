/**
 * Splitting a card and adding or importing company holidays as declared operations
 * (shared/operations/planning.ts, shared/operations/holidays.ts; docs/API.md "Cards" and
 * "Absences and holidays"): a body is checked against its declaration, every problem one 422
 * item named by its path, a field the route does not take is refused, nothing is written, and
 * the OpenAPI document shows the same bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors, unknownId } from '../helpers/order-data.js';
import { createBoard, type BoardIds } from '../helpers/planning.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let board: BoardIds;
let resourceId: string;

beforeAll(async () => {
  api = await startTestApi();
  board = await createBoard(api, {}, { stages: [{ name: 'Cutting' }] });
  const resource = await api.inject('POST', '/v1/resource', { name: 'Anna' });
  expect(resource.status, JSON.stringify(resource.body)).toBe(201);
  resourceId = resource.body.id;
});
afterAll(async () => {
  await api.close();
});

async function count(path: string): Promise<number> {
  const res = await api.inject('GET', `${path}?limit=0`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.count;
}
const byField = (body: { errors: { field: string; description: string }[] }) =>
  Object.fromEntries(body.errors.map((e) => [e.field, e.description]));

/** A card Mon 2024-03-04 … Fri 2024-03-08 in a collection of its own. */
async function fiveDayCard(): Promise<{ collectionId: string; cardId: string }> {
  const collection = await api.inject('POST', '/v1/collection', { name: 'Split me', board_id: board.id });
  const card = await api.inject('POST', `/v1/collection/${collection.body.id}/card`, {
    stage_id: board.stages.Cutting,
    start_date: '2024-03-04',
    end_date: '2024-03-08',
  });
  expect(card.status, JSON.stringify(card.body)).toBe(201);
  return { collectionId: collection.body.id, cardId: card.body.id };
}

describe('splitting a card', () => {
  it('names each wrong type by its field in one 422, and splits nothing', async () => {
    const { collectionId, cardId } = await fiveDayCard();
    const res = await api.inject('POST', `/v1/collection/${collectionId}/card/${cardId}/split`, { date: 7, share: '0.5' });
    expectFieldErrors(res, ['date', 'share']);
    expect(byField(res.body)).toEqual({ date: 'date must be a date (YYYY-MM-DD)', share: 'share must be a number from 0 to 1' });
    expect(await count(`/v1/collection/${collectionId}/card`)).toBe(1);
  });

  it('refuses a field it does not take, and splits nothing', async () => {
    const { collectionId, cardId } = await fiveDayCard();
    const res = await api.inject('POST', `/v1/collection/${collectionId}/card/${cardId}/split`, { share: 0.5, at: '2024-03-06' });
    expectFieldErrors(res, ['at']);
    expect(byField(res.body).at).toBe('at is not something this takes');
    expect(await count(`/v1/collection/${collectionId}/card`)).toBe(1);
  });

  it('answers 404 for a card that is not there before it looks at the body', async () => {
    const { collectionId } = await fiveDayCard();
    expect((await api.inject('POST', `/v1/collection/${collectionId}/card/${unknownId}/split`, { share: 'half' })).status).toBe(404);
  });
});

describe('adding a company holiday', () => {
  it('names a wrong id in resource_ids by its path beside the other problems, and writes nothing', async () => {
    const before = await count(`/v1/resource/${resourceId}/schedule_deviation`);
    const res = await api.inject('POST', '/v1/schedule_deviation/holidays', {
      description: 'Shop outing',
      start_date: '2027-03-02',
      time: 7.5,
      resource_ids: [resourceId, 42],
    });
    expectFieldErrors(res, ['time', 'resource_ids.1']);
    expect(byField(res.body)).toEqual({
      time: 'time must be a whole number from 1 to 1440',
      'resource_ids.1': 'resource_ids.1 must be a UUID',
    });
    expect(await count(`/v1/resource/${resourceId}/schedule_deviation`)).toBe(before);
  });

  it('refuses a field it does not take, and writes nothing', async () => {
    const before = await count(`/v1/resource/${resourceId}/schedule_deviation`);
    const res = await api.inject('POST', '/v1/schedule_deviation/holidays', {
      description: 'Shop outing',
      start_date: '2027-03-02',
      resource: resourceId,
    });
    expectFieldErrors(res, ['resource']);
    expect(await count(`/v1/resource/${resourceId}/schedule_deviation`)).toBe(before);
  });

  it('takes null as left out, a repeated resource once, and trims the description', async () => {
    const res = await api.inject('POST', '/v1/schedule_deviation/holidays', {
      description: '  Founders day ',
      start_date: '2027-06-01',
      end_date: null,
      time: null,
      group_id: null,
      resource_ids: [resourceId, resourceId.toUpperCase()],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ holidays: 1, resources: 1 });
    expect(res.body.data).toEqual([
      expect.objectContaining({ description: 'Founders day', start_date: '2027-06-01', end_date: '2027-06-01', time: null }),
    ]);
  });
});

describe('importing holidays from an .ics file', () => {
  it('names a wrong type by its field and refuses a field it does not take, and writes nothing', async () => {
    const before = await count(`/v1/resource/${resourceId}/schedule_deviation`);
    const res = await api.inject('POST', '/v1/schedule_deviation/holidays/ics', { ics: 42, form: '2027-01-01', group_id: 'day shift' });
    expectFieldErrors(res, ['ics', 'form', 'group_id']);
    expect(byField(res.body)).toMatchObject({ ics: 'ics must be text of 1 to 1048576 characters', group_id: 'group_id must be a UUID' });
    expect(await count(`/v1/resource/${resourceId}/schedule_deviation`)).toBe(before);
  });

  it('answers 413 for a file over 1 MB whatever else the body holds', async () => {
    const res = await api.inject('POST', '/v1/schedule_deviation/holidays/ics', { ics: 'é'.repeat(600 * 1024), form: 'x' });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(413);
  });
});

describe('the OpenAPI document', () => {
  it('shows the split and holiday bodies as declared', async () => {
    const paths = (await api.inject('GET', '/v1/openapi.json')).body.paths;
    const bodyOf = (path: string) => paths[path].post.requestBody.content['application/json'].schema;
    const split = bodyOf('/v1/collection/{collection_id}/card/{id}/split');
    expect(split).toMatchObject({
      additionalProperties: false,
      properties: { date: { type: 'string', format: 'date' }, share: { type: 'number', minimum: 0, maximum: 1 } },
    });
    expect(split.required).toBeUndefined();
    const holiday = bodyOf('/v1/schedule_deviation/holidays');
    expect(holiday).toMatchObject({
      additionalProperties: false,
      required: ['description', 'start_date'],
      properties: {
        description: { type: 'string', minLength: 1, maxLength: 255 },
        // null: the whole day.
        time: { type: ['integer', 'null'], minimum: 1, maximum: 1440 },
        resource_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: 20_000 },
      },
    });
    expect(Object.keys(holiday.properties).sort()).toEqual(['description', 'end_date', 'group_id', 'resource_ids', 'start_date', 'time']);
    const ics = bodyOf('/v1/schedule_deviation/holidays/ics');
    expect(ics).toMatchObject({
      additionalProperties: false,
      required: ['ics'],
      properties: { ics: { type: 'string', minLength: 1, maxLength: 1024 * 1024 }, group_id: { type: 'string', format: 'uuid' } },
    });
    expect(Object.keys(ics.properties).sort()).toEqual(['from', 'group_id', 'ics', 'resource_ids']);
  });
});
