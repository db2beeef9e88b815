/**
 * Collections (docs/API.md "Planning", electron/api/resources/collection.ts): the status rule
 * (a client only switches between not_planned and ignored; planned is set by planning), every
 * validation error of a collection, custom fields by name
 * (`PUT|DELETE /v1/collection/{id}/custom_field/{name}`), deep insertion of labels,
 * activities, followers, cards and custom fields with and without
 * `update_without_delete_nested`, and eager loading.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { expectFieldErrors, unknownId } from '../helpers/order-data.js';
import { createActivities, createBoard, plan, type Activities, type BoardIds } from '../helpers/planning.js';

let api: TestApi;
let acts: Activities;
let board: BoardIds;
let otherBoard: BoardIds;
let userId: string;

beforeAll(async () => {
  api = await startTestApi();
  acts = await createActivities(api);
  board = await createBoard(
    api,
    acts,
    {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Welding', activities: ['Weld'] },
      ],
    },
    ['Rush', 'Export'],
  );
  otherBoard = await createBoard(api, acts, { stages: [{ name: 'Elsewhere', activities: ['Cut'] }] });
  const invited = await api.inject('POST', '/v1/user', { email: 'follower@example.com', role: 'member' });
  expect(invited.status).toBe(201);
  userId = (await api.inject('GET', '/v1/user?filter=email:eq:follower@example.com')).body.data[0].id;
});
afterAll(async () => {
  await api.close();
});

async function create(body: Record<string, unknown>, query = ''): Promise<any> {
  const res = await api.inject('POST', `/v1/collection${query}`, { name: 'Order', board_id: board.id, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const put = (id: string, body: unknown, query = '') => api.inject('PUT', `/v1/collection/${id}${query}`, body);
const get = async (id: string, query = '') => (await api.inject('GET', `/v1/collection/${id}${query}`)).body;
/** Custom field values without the server's id and timestamps (test/api/custom-fields.test.ts checks those). */
const content = (list: any[]) => list.map(({ name, type, value, priority }: any) => ({ name, type, value, priority }));

/** The 422 of the status rule: one error on `status` that states the rule. */
function expectStatusRule(res: { status: number; body: any }): void {
  expectFieldErrors(res, ['status']);
  expect(res.body.errors[0].description).toMatch(/only be switched between not_planned and ignored/);
  expect(res.body.errors[0].description).toMatch(/planned is set by planning/);
}

async function plannedCollection(): Promise<any> {
  const c = await create({ activities: [{ id: acts.Cut, time: 480 }] });
  return plan(api, c.id, board.id, { start: '2024-03-04' });
}

describe('status rule', () => {
  it('a new collection is not_planned by default', async () => {
    expect((await create({})).status).toBe('not_planned');
  });

  it.each(['not_planned', 'ignored'])('may be created %s', async (status) => {
    expect((await create({ status })).status).toBe(status);
  });

  it('may not be created planned: 422 naming the rule, nothing created', async () => {
    const before = (await api.inject('GET', '/v1/collection?limit=0')).body.count;
    expectStatusRule(await api.inject('POST', '/v1/collection', { name: 'x', board_id: board.id, status: 'planned' }));
    expect((await api.inject('GET', '/v1/collection?limit=0')).body.count).toBe(before);
  });

  it.each([
    ['not_planned', 'ignored'],
    ['ignored', 'not_planned'],
    ['not_planned', 'not_planned'],
    ['ignored', 'ignored'],
  ])('may be switched from %s to %s', async (from, to) => {
    const c = await create({ status: from });
    const res = await put(c.id, { status: to });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe(to);
  });

  it.each(['not_planned', 'ignored'])('may not be switched from %s to planned', async (from) => {
    const c = await create({ status: from });
    expectStatusRule(await put(c.id, { status: 'planned' }));
    expect((await get(c.id)).status).toBe(from);
  });

  it.each(['not_planned', 'ignored'])('a planned collection may not be set to %s by PUT; it keeps its cards', async (to) => {
    const c = await plannedCollection();
    expectStatusRule(await put(c.id, { status: to }));
    const after = await get(c.id, '?with=cards');
    expect(after.status).toBe('planned');
    expect(after.cards).toHaveLength(1);
  });

  it('a planned collection sent back with status planned (GET, change, PUT whole) is fine', async () => {
    const c = await plannedCollection();
    const res = await put(c.id, { ...c, cards: undefined, name: 'Renamed' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'planned', name: 'Renamed' });
  });

  it('a rejected status change changes nothing else of the same PUT', async () => {
    const c = await create({ name: 'Before' });
    expectStatusRule(await put(c.id, { name: 'After', status: 'planned' }));
    expect((await get(c.id)).name).toBe('Before');
  });

  it('a status outside the enum is a 422 on status', async () => {
    expectFieldErrors(await api.inject('POST', '/v1/collection', { name: 'x', board_id: board.id, status: 'done' }), ['status']);
    const c = await create({});
    expectFieldErrors(await put(c.id, { status: 'PLANNED' }), ['status']);
  });
});

describe('validation', () => {
  it.each(['#FFF', '#fff', '#8d46e0', '#8D46E0', null])('accepts cover_color_hex %s', async (hex) => {
    expect((await create({ cover_color_hex: hex })).cover_color_hex).toBe(hex);
  });

  it('reads cover_color_hex "" as no colour (null), as every nullable field (docs/API.md "Compatibility")', async () => {
    expect((await create({ cover_color_hex: '' })).cover_color_hex).toBeNull();
  });

  it.each(['FFF', '#GGG', '#FFFF', '#12345', '#1234567', 'red', ' ', ' #fff', 12])('rejects cover_color_hex %j', async (hex) => {
    expectFieldErrors(await api.inject('POST', '/v1/collection', { name: 'x', board_id: board.id, cover_color_hex: hex }), [
      'cover_color_hex',
    ]);
  });

  it('accepts a SHA-256 hex cover_image_checksum (in any case) and never returns it', async () => {
    const checksum = 'aB'.repeat(32);
    const c = await create({ cover_image_checksum: checksum });
    expect(c).not.toHaveProperty('cover_image_checksum');
    expect(await get(c.id)).not.toHaveProperty('cover_image_checksum');
    // Nor can a filter read it, on the collection or through a card's collection.
    expectBadRequest(await api.inject('GET', `/v1/collection?filter=cover_image_checksum:starts_with:a`), 'Unknown filter field');
    expectBadRequest(await api.inject('GET', `/v1/card?filter=collection.cover_image_checksum:starts_with:a`), 'Unknown filter field');
  });

  it.each(['a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), `${'a'.repeat(62)} a`])('rejects cover_image_checksum %s', async (checksum) => {
    expectFieldErrors(await api.inject('POST', '/v1/collection', { name: 'x', board_id: board.id, cover_image_checksum: checksum }), [
      'cover_image_checksum',
    ]);
  });

  it('rejects a cover_image_url that is not http(s)', async () => {
    expectFieldErrors(await api.inject('POST', '/v1/collection', { name: 'x', board_id: board.id, cover_image_url: 'ftp://x/y.png' }), [
      'cover_image_url',
    ]);
    expect((await create({ cover_image_url: 'https://cdn.example/cover.png' })).cover_image_url).toBe('https://cdn.example/cover.png');
  });

  it('custom_fields round-trip with the content sent', async () => {
    const fields = [
      { name: 'Weight', type: 'number', value: 12.5, priority: 0 },
      { name: 'Colour', type: 'text', value: 'RAL 9010', priority: 1 },
    ];
    const c = await create({ custom_fields: fields });
    expect(content(c.custom_fields)).toEqual(fields);
    expect((await get(c.id)).custom_fields).toEqual(c.custom_fields);
  });

  it.each([
    [
      'two items with the same name',
      [
        { name: 'Weight', value: 'a' },
        { name: 'Weight', value: 'b' },
      ],
      'custom_fields.1.name',
    ],
    ['an item without a name', [{ value: 'a' }], 'custom_fields.0.name'],
    ['an item with an empty name', [{ name: '', value: 'a' }], 'custom_fields.0.name'],
    ['an item that is not an object', ['Weight'], 'custom_fields.0'],
    ['not an array', { name: 'Weight' }, 'custom_fields'],
  ])('rejects custom_fields with %s', async (_what, fields, field) => {
    expectFieldErrors(await api.inject('POST', '/v1/collection', { name: 'x', board_id: board.id, custom_fields: fields }), [field]);
    const c = await create({});
    expectFieldErrors(await put(c.id, { custom_fields: fields }), [field]);
  });

  it('board_id is required, must be a uuid and must name a board', async () => {
    expectFieldErrors(await api.inject('POST', '/v1/collection', { name: 'x' }), ['board_id']);
    expectFieldErrors(await api.inject('POST', '/v1/collection', { name: 'x', board_id: 'board-1' }), ['board_id']);
    const unknown = await api.inject('POST', '/v1/collection', { name: 'x', board_id: unknownId });
    expectFieldErrors(unknown, ['board_id']);
    expect(unknown.body.errors[0].description).toContain(unknownId);
    const c = await create({});
    expectFieldErrors(await put(c.id, { board_id: unknownId }), ['board_id']);
  });

  it('reports every offending field at once, one error each', async () => {
    const res = await api.inject('POST', '/v1/collection', {
      name: 'x'.repeat(256),
      board_id: unknownId,
      due_date: '2024-02-30',
      cover_color_hex: 'red',
      cover_image_checksum: 'nope',
      status: 'planned',
      custom_fields: [{ name: 'A' }, { name: 'A' }],
    });
    expectFieldErrors(res, ['name', 'board_id', 'due_date', 'cover_color_hex', 'cover_image_checksum', 'custom_fields.1.name', 'status']);
  });
});

describe('custom field by name: PUT and DELETE /v1/collection/{id}/custom_field/{name}', () => {
  const path = (id: string, name: string) => `/v1/collection/${id}/custom_field/${encodeURIComponent(name)}`;

  it('PUT adds a field (type text and priority 0 unless given) and returns the collection', async () => {
    const c = await create({ custom_fields: [{ name: 'Colour', type: 'text', value: 'red', priority: 1 }] });
    const res = await api.inject('PUT', path(c.id, 'Weight'), { value: 12, type: 'number' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.id).toBe(c.id);
    expect(content(res.body.custom_fields)).toEqual([
      { name: 'Colour', type: 'text', value: 'red', priority: 1 },
      { name: 'Weight', type: 'number', value: 12, priority: 0 },
    ]);
    const plain = await api.inject('PUT', path(c.id, 'Note'), { value: 'fragile' });
    expect(content(plain.body.custom_fields)).toContainEqual({ name: 'Note', type: 'text', value: 'fragile', priority: 0 });
  });

  it('PUT on an existing name changes only what is sent', async () => {
    const c = await create({ custom_fields: [{ name: 'Weight', type: 'number', value: 12, priority: 3 }] });
    const res = await api.inject('PUT', path(c.id, 'Weight'), { value: 13 });
    expect(content(res.body.custom_fields)).toEqual([{ name: 'Weight', type: 'number', value: 13, priority: 3 }]);
    expect((await get(c.id)).custom_fields).toEqual(res.body.custom_fields);
  });

  it('names may hold spaces and any letters (URL-encoded in the path)', async () => {
    const c = await create({});
    const name = 'Delivery note – Köln ✓';
    expect((await api.inject('PUT', path(c.id, name), { value: 'Gate 4' })).status).toBe(200);
    expect(content((await get(c.id)).custom_fields)).toEqual([{ name, type: 'text', value: 'Gate 4', priority: 0 }]);
    expect((await api.inject('DELETE', path(c.id, name))).status).toBe(204);
    expect((await get(c.id)).custom_fields).toEqual([]);
  });

  it('PUT with a wrong type or priority is a 422; a body that is not an object is a 400', async () => {
    const c = await create({});
    expectFieldErrors(await api.inject('PUT', path(c.id, 'Weight'), { type: 'colour', priority: -1 }), ['type', 'priority']);
    expectBadRequest(await api.inject('PUT', path(c.id, 'Weight'), [1]));
    expect((await get(c.id)).custom_fields).toEqual([]);
  });

  it('DELETE removes that field only; a name the collection does not have is a 404', async () => {
    const c = await create({
      custom_fields: [
        { name: 'A', value: 'one' },
        { name: 'B', value: 'two' },
      ],
    });
    const res = await api.inject('DELETE', path(c.id, 'A'));
    expect(res.status).toBe(204);
    expect((await get(c.id)).custom_fields.map((f: any) => f.name)).toEqual(['B']);
    expect((await api.inject('DELETE', path(c.id, 'A'))).status).toBe(404);
  });

  it('an unknown collection is a 404', async () => {
    expect((await api.inject('PUT', path(unknownId, 'A'), { value: 1 })).status).toBe(404);
    expect((await api.inject('DELETE', path(unknownId, 'A'))).status).toBe(404);
  });
});

describe('deep insertion', () => {
  const withAll = '?with=labels,activities,followers,cards.activities';
  const ids = (list: any[]) => list.map((x) => x.id).sort();

  it('creates labels, activities with minutes, followers, cards with their activities and custom fields in one POST', async () => {
    const c = await create(
      {
        labels: [{ id: board.labels.Rush }],
        activities: [
          { id: acts.Cut, time: 480 },
          { id: acts.Weld, time: 240 },
        ],
        followers: [{ id: userId }],
        custom_fields: [{ name: 'Weight', type: 'number', value: 3 }],
        cards: [
          {
            stage_id: board.stages.Cutting,
            name: 'Cut the frame',
            start_date: '2024-03-04',
            end_date: '2024-03-05',
            activities: [{ id: acts.Cut, time: 480 }],
            labels: [{ id: board.labels.Export }],
          },
        ],
      },
      withAll,
    );
    expect(ids(c.labels)).toEqual([board.labels.Rush]);
    expect(c.activities.map((a: any) => [a.id, a.time]).sort()).toEqual(
      [
        [acts.Cut, 480],
        [acts.Weld, 240],
      ].sort(),
    );
    expect(ids(c.followers)).toEqual([userId]);
    expect(content(c.custom_fields)).toEqual([{ name: 'Weight', type: 'number', value: 3, priority: 0 }]);
    expect(c.cards).toHaveLength(1);
    expect(c.cards[0]).toMatchObject({ name: 'Cut the frame', collection_id: c.id, board_id: board.id, status_id: board.statuses.Ready });
    expect(c.cards[0].activities.map((a: any) => [a.id, a.time])).toEqual([[acts.Cut, 480]]);
    // Cards make the collection planned, and its dates follow from them.
    expect(await get(c.id)).toMatchObject({ status: 'planned', start: '2024-03-04', end: '2024-03-05' });
  });

  it('a nested array in a PUT replaces the set; with update_without_delete_nested=true the rest is kept', async () => {
    const c = await create({ labels: [{ id: board.labels.Rush }], activities: [{ id: acts.Cut, time: 480 }] }, withAll);

    let res = await put(c.id, { labels: [{ id: board.labels.Export }] }, withAll);
    expect(ids(res.body.labels)).toEqual([board.labels.Export]);

    res = await put(
      c.id,
      { labels: [{ id: board.labels.Rush }], activities: [{ id: acts.Weld, time: 60 }] },
      `${withAll}&update_without_delete_nested=true`,
    );
    expect(ids(res.body.labels)).toEqual([board.labels.Rush, board.labels.Export].sort());
    expect(res.body.activities.map((a: any) => [a.id, a.time]).sort()).toEqual(
      [
        [acts.Cut, 480],
        [acts.Weld, 60],
      ].sort(),
    );

    // An item that is already linked is updated in place (its minutes).
    res = await put(c.id, { activities: [{ id: acts.Cut, time: 999 }] }, `${withAll}&update_without_delete_nested=true`);
    expect(res.body.activities.map((a: any) => [a.id, a.time]).sort()).toEqual(
      [
        [acts.Cut, 999],
        [acts.Weld, 60],
      ].sort(),
    );

    res = await put(c.id, { activities: [] }, withAll);
    expect(res.body.activities).toEqual([]);
    expect(ids(res.body.labels)).toHaveLength(2);
  });

  it('cards: updated by id, kept with update_without_delete_nested, removed by an array without them', async () => {
    const c = await create(
      {
        cards: [
          { stage_id: board.stages.Cutting, name: 'One', start_date: '2024-03-04', end_date: '2024-03-04' },
          { stage_id: board.stages.Welding, name: 'Two', start_date: '2024-03-05', end_date: '2024-03-05' },
        ],
      },
      withAll,
    );
    const [one, two] = [...c.cards].sort((a: any, b: any) => a.name.localeCompare(b.name));
    let res = await put(c.id, { cards: [{ id: one.id, name: 'One, renamed' }] }, `${withAll}&update_without_delete_nested=true`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cards.map((x: any) => x.name).sort()).toEqual(['One, renamed', 'Two']);

    res = await put(c.id, { cards: [{ id: two.id }] }, withAll);
    expect(res.body.cards.map((x: any) => x.id)).toEqual([two.id]);
    expect((await api.inject('GET', `/v1/collection/${c.id}/card/${one.id}`)).status).toBe(404);

    res = await put(c.id, { cards: [] }, withAll);
    expect(res.body.cards).toEqual([]);
    // Without cards it is back in the backlog.
    expect(await get(c.id)).toMatchObject({ status: 'not_planned', start: null, end: null });
  });

  it('nested errors name their path and nothing of the tree is written', async () => {
    const before = (await api.inject('GET', '/v1/collection?limit=0')).body.count;
    const cardsBefore = (await api.inject('GET', '/v1/card?limit=0')).body.count;
    const res = await api.inject('POST', '/v1/collection', {
      name: 'x',
      board_id: board.id,
      labels: [{ id: unknownId }],
      activities: [{ id: acts.Cut, time: -5 }],
      cards: [
        { stage_id: board.stages.Cutting, name: 'fine' },
        { stage_id: board.stages.Welding, start_date: '2024-03-05', end_date: '2024-03-04' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    const fields = res.body.errors.map((e: any) => e.field).sort();
    expect(fields).toEqual(['activities.0.time', 'cards.1.end_date', 'labels.0.id'].sort());
    expect((await api.inject('GET', '/v1/collection?limit=0')).body.count).toBe(before);
    expect((await api.inject('GET', '/v1/card?limit=0')).body.count).toBe(cardsBefore);
  });

  it('an inline card on a stage of another board is a 422 on cards.N.stage_id, as it is at /card', async () => {
    const created = await api.inject('POST', '/v1/collection', {
      name: 'x',
      board_id: board.id,
      cards: [
        { stage_id: board.stages.Cutting, name: 'fine' },
        { stage_id: otherBoard.stages.Elsewhere, name: 'wrong board' },
      ],
    });
    expectFieldErrors(created, ['cards.1.stage_id']);
    const c = await create({});
    const update = await put(
      c.id,
      { cards: [{ stage_id: otherBoard.stages.Elsewhere, name: 'wrong board' }] },
      '?update_without_delete_nested=true',
    );
    expectFieldErrors(update, ['cards.0.stage_id']);
    expect((await api.inject('GET', `/v1/card?filter=board_id:eq:${otherBoard.id}&limit=0`)).body.count).toBe(0);
  });

  it('a card id of another collection in cards is a 422', async () => {
    const a = await create({ cards: [{ stage_id: board.stages.Cutting, name: 'A1' }] }, '?with=cards');
    const b = await create({});
    const res = await put(b.id, { cards: [{ id: a.cards[0].id, name: 'stolen' }] }, '?update_without_delete_nested=true');
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toMatch(/^cards\.0/);
    expect((await api.inject('GET', `/v1/collection/${a.id}/card/${a.cards[0].id}`)).body.name).toBe('A1');
  });
});

describe('deleting a collection', () => {
  it('takes its cards, checklists, comments and attachments with it', async () => {
    const c = await plannedCollection();
    const checklist = (await api.inject('POST', `/v1/collection/${c.id}/checklist`, { name: 'Goes' })).body;
    const comment = (await api.inject('POST', `/v1/collection/${c.id}/comment`, { text: 'Goes' })).body;
    expect((await api.inject('DELETE', `/v1/collection/${c.id}`)).status).toBe(204);
    expect((await api.inject('GET', `/v1/collection/${c.id}`)).status).toBe(404);
    expect((await api.inject('GET', `/v1/card?filter=collection_id:eq:${c.id}&limit=0`)).body.count).toBe(0);
    expect((await api.inject('GET', `/v1/collection/${c.id}/checklist/${checklist.id}`)).status).toBe(404);
    expect((await api.inject('GET', `/v1/collection/${c.id}/comment/${comment.id}`)).status).toBe(404);
  });
});

describe('eager loading', () => {
  it('with= activities, attachments, cards, comments, labels, order, followers, checklists', async () => {
    const c = await create({ labels: [{ id: board.labels.Rush }], activities: [{ id: acts.Cut, time: 60 }], followers: [{ id: userId }] });
    await api.inject('POST', `/v1/collection/${c.id}/comment`, { text: 'Hello' });
    await api.inject('POST', `/v1/collection/${c.id}/checklist`, { name: 'Before shipping', items: [{ description: 'Photos' }] });
    await api.inject('POST', `/v1/collection/${c.id}/attachment`, {
      filename: 'drawing.pdf',
      file: 'https://files.example/d.pdf',
      type: 'external',
    });
    await plan(api, c.id, board.id, { start: '2024-03-04' });
    const res = await api.inject(
      'GET',
      `/v1/collection/${c.id}?with=activities,attachments,cards,comments,labels,order,followers,checklists.items`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body;
    expect(body.activities.map((a: any) => a.time)).toEqual([60]);
    expect(body.attachments.map((a: any) => a.filename)).toEqual(['drawing.pdf']);
    expect(body.cards).toHaveLength(1);
    expect(body.comments.map((x: any) => x.text)).toEqual(['Hello']);
    expect(body.labels.map((l: any) => l.name)).toEqual(['Rush']);
    expect(body.order).toBeNull();
    expect(body.followers.map((u: any) => u.id)).toEqual([userId]);
    expect(body.checklists.map((x: any) => [x.name, x.items.map((i: any) => i.description)])).toEqual([['Before shipping', ['Photos']]]);
  });

  it('an unknown relation is a 400 naming it', async () => {
    const c = await create({});
    expectBadRequest(await api.inject('GET', `/v1/collection/${c.id}?with=cards,nonsense`), 'nonsense');
  });
});
