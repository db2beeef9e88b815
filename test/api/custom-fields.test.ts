/**
 * Custom field values over HTTP (docs/API.md "Custom fields", shared/custom-fields.ts): one
 * check for a collection's and a card's inline `custom_fields` (cards also inside a collection)
 * and for `PUT /v1/collection/{id}/custom_field/{name}`, a 422 per problem with its path and
 * nothing written, the 13 fields of docs/API.md "Custom fields" with the server's id and timestamps,
 * and the same checks on a board's custom field definitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableFor } from '../../electron/store/table-def.js';
import { collectionSpec } from '../../shared/resources/collection.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors, timestampPattern, uuidPattern } from '../helpers/order-data.js';
import { createActivities, createBoard, type BoardIds } from '../helpers/planning.js';

let api: TestApi;
let board: BoardIds;

beforeAll(async () => {
  api = await startTestApi();
  board = await createBoard(api, await createActivities(api, ['Cut']), { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
});
afterAll(async () => {
  await api.close();
});

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.inject(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(method === 'POST' ? 201 : 200);
  return res.body;
}
const newCollection = (body: Record<string, unknown> = {}) => ok('POST', '/v1/collection', { name: 'Order', board_id: board.id, ...body });
const cards = (cid: string) => `/v1/collection/${cid}/card`;
const byName = (cid: string, name: string) => `/v1/collection/${cid}/custom_field/${encodeURIComponent(name)}`;
const count = async (path: string) => (await ok('GET', `${path}?limit=0`)).count;
/** What a client wrote, without the server's id and timestamps. */
const content = ({ id: _id, created_at: _c, updated_at: _u, ...rest }: any) => rest;
const pause = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe('what is stored', () => {
  it('every value has the 13 fields of a custom field value, with a server id and timestamps; client ids are ignored', async () => {
    const c = await newCollection({
      custom_fields: [
        {
          name: 'Weight',
          type: 'number',
          value: 12.5,
          id: 'f0000000-0000-7000-8000-000000000001',
          created_at: '2020-01-01T00:00:00Z',
          other: 1,
        },
      ],
    });
    const [value] = c.custom_fields;
    expect(Object.keys(value).sort()).toEqual(
      [
        'id',
        'name',
        'type',
        'scope',
        'priority',
        'value',
        'drawing_id',
        'components',
        'list',
        'selected',
        'options',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(value).toMatchObject({
      name: 'Weight',
      type: 'number',
      scope: 'collection',
      priority: 0,
      value: 12.5,
      drawing_id: null,
      list: null,
      selected: null,
    });
    expect(value.id).toMatch(uuidPattern);
    expect(value.id).not.toBe('f0000000-0000-7000-8000-000000000001');
    expect(value.created_at).toMatch(timestampPattern);
    expect(value.created_at).not.toBe('2020-01-01T00:00:00Z');
    expect(value.updated_at).toBe(value.created_at);
    expect((await ok('GET', `/v1/collection/${c.id}`)).custom_fields).toEqual(c.custom_fields);
  });

  it('keeps id and created_at of a name across updates; updated_at moves only for the value that changed', async () => {
    const c = await newCollection({
      custom_fields: [
        { name: 'Weight', type: 'number', value: 1 },
        { name: 'Colour', value: 'red' },
      ],
    });
    const [weight, colour] = c.custom_fields;
    await pause(); // timestamps have whole seconds
    // GET, change one, PUT the whole list back, the way the app does.
    const sent = c.custom_fields.map((f: any) => (f.name === 'Weight' ? { ...f, value: 2 } : f));
    const after = await ok('PUT', `/v1/collection/${c.id}`, { custom_fields: sent });
    expect(after.custom_fields[0]).toMatchObject({ id: weight.id, value: 2, created_at: weight.created_at });
    expect(after.custom_fields[0].updated_at > weight.updated_at).toBe(true);
    expect(after.custom_fields[1]).toEqual(colour);
    // The by-name route keeps them too.
    const named = await ok('PUT', byName(c.id, 'Colour'), { value: 'blue' });
    expect(named.custom_fields[1]).toMatchObject({ id: colour.id, value: 'blue', created_at: colour.created_at });
    expect(named.custom_fields[0]).toEqual(after.custom_fields[0]);
  });

  it('an item changes only the keys it sends; a name left out of the list is removed', async () => {
    const c = await newCollection({
      custom_fields: [
        { name: 'Weight', type: 'number', value: 1, priority: 3, options: { unit: 'kg', decimals: 1 } },
        { name: 'Note', value: 'x' },
      ],
    });
    const after = await ok('PUT', `/v1/collection/${c.id}`, { custom_fields: [{ name: 'Weight', value: '7.5' }] });
    expect(after.custom_fields.map(content)).toEqual([
      {
        name: 'Weight',
        type: 'number',
        scope: 'collection',
        priority: 3,
        value: 7.5,
        drawing_id: null,
        components: null,
        list: null,
        selected: null,
        options: { unit: 'kg', decimals: 1 },
      },
    ]);
    expect(after.custom_fields[0].id).toBe(c.custom_fields[0].id);
  });

  it("a card's values default to scope card, inline in a collection as at the card route", async () => {
    const c = await newCollection({ cards: [{ stage_id: board.stages.Cutting, custom_fields: [{ name: 'Torch', value: 'TIG' }] }] });
    const [card] = (await ok('GET', cards(c.id))).data;
    expect(card.custom_fields[0]).toMatchObject({ name: 'Torch', type: 'text', scope: 'card', value: 'TIG' });
    expect(card.custom_fields[0].id).toMatch(uuidPattern);
    const direct = await ok('POST', cards(c.id), {
      stage_id: board.stages.Cutting,
      custom_fields: [{ name: 'Passes', type: 'number', value: 3, scope: 'collection' }],
    });
    expect(direct.custom_fields[0]).toMatchObject({ name: 'Passes', scope: 'collection', value: 3 });
  });
});

describe('refused writes: 422 per problem, nothing written', () => {
  it("the audit's example: an unknown type and scope are refused, not stored as sent", async () => {
    const before = await count('/v1/collection');
    const res = await api.inject('POST', '/v1/collection', {
      name: 'x',
      board_id: board.id,
      custom_fields: [{ name: 'A', type: 'nonsense', scope: 'zzz', value: { deep: [1] } }],
    });
    expectFieldErrors(res, ['custom_fields.0.type', 'custom_fields.0.scope']);
    expect(res.body.errors.find((e: any) => e.field === 'custom_fields.0.type').description).toMatch(
      /^custom_fields\.0\.type must be one of: text, number/,
    );
    expect(await count('/v1/collection')).toBe(before);
  });

  const badValues: [string, Record<string, unknown>, string[]][] = [
    ['text holding a number', { name: 'A', value: 3 }, ['value']],
    ['number holding words', { name: 'A', type: 'number', value: 'heavy' }, ['value']],
    ['a date that does not exist', { name: 'A', type: 'date', value: '2026-02-30' }, ['value']],
    ['checkbox holding "yes"', { name: 'A', type: 'checkbox', value: 'yes' }, ['value']],
    ['an email without @', { name: 'A', type: 'email', value: 'nobody' }, ['value']],
    ['a link that is not http(s)', { name: 'A', type: 'link', value: 'javascript:alert(1)' }, ['value']],
    ['a select value outside its list', { name: 'A', type: 'select', list: [{ name: 'Matt', value: 'matt' }], value: 'gloss' }, ['value']],
    [
      'a list value outside its list',
      { name: 'A', type: 'list', list: [{ name: 'Matt', value: 'matt' }], value: ['matt', 'gloss'] },
      ['value'],
    ],
    ['users that are not ids', { name: 'A', type: 'users', value: ['anna'] }, ['value']],
    [
      'a selected choice outside its list',
      { name: 'A', type: 'select', list: [{ name: 'Matt' }], selected: { name: 'Gloss' } },
      ['selected'],
    ],
    ['a negative priority and a null type', { name: 'A', type: null, priority: -1 }, ['type', 'priority']],
    ['a list that is not choices', { name: 'A', type: 'list', list: [{ value: 'x' }] }, ['list']],
    ['options with fractional decimals', { name: 'A', options: { decimals: 0.5 } }, ['options']],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, ['name']],
  ];

  it.each(badValues)(
    '%s: inline on a collection (POST and PUT), a card, a card inside a collection, and by name',
    async (_what, item, fields) => {
      const c = await newCollection({ custom_fields: [{ name: 'Keep', value: 'me' }] });
      const collections = await count('/v1/collection');
      const at = (prefix: string) => fields.map((f) => `${prefix}${f}`);

      expectFieldErrors(
        await api.inject('POST', '/v1/collection', { name: 'x', board_id: board.id, custom_fields: [item] }),
        at('custom_fields.0.'),
      );
      expectFieldErrors(
        await api.inject('PUT', `/v1/collection/${c.id}`, { name: 'Renamed', custom_fields: [{ name: 'Keep', value: 'me' }, item] }),
        at('custom_fields.1.'),
      );
      expectFieldErrors(
        await api.inject('POST', cards(c.id), { stage_id: board.stages.Cutting, custom_fields: [item] }),
        at('custom_fields.0.'),
      );
      expectFieldErrors(
        await api.inject('PUT', `/v1/collection/${c.id}`, { cards: [{ stage_id: board.stages.Cutting, custom_fields: [item] }] }),
        at('cards.0.custom_fields.0.'),
      );
      const { name, ...body } = item;
      if (name === 'A') expectFieldErrors(await api.inject('PUT', byName(c.id, 'A'), body), fields);

      expect(await count('/v1/collection')).toBe(collections);
      expect(await count(cards(c.id))).toBe(0);
      const after = await ok('GET', `/v1/collection/${c.id}`);
      expect(after.name).toBe('Order');
      expect(after.custom_fields).toEqual(c.custom_fields);
    },
  );

  it('a card PUT with a bad value changes nothing of the card', async () => {
    const c = await newCollection();
    const card = await ok('POST', cards(c.id), {
      stage_id: board.stages.Cutting,
      name: 'Before',
      custom_fields: [{ name: 'Passes', type: 'number', value: 3 }],
    });
    expectFieldErrors(
      await api.inject('PUT', `${cards(c.id)}/${card.id}`, { name: 'After', custom_fields: [{ name: 'Passes', value: 'three' }] }),
      ['custom_fields.0.value'],
    );
    expect(await ok('GET', `${cards(c.id)}/${card.id}`)).toEqual(card);
  });
});

describe('the by-name route and the inline list agree', () => {
  const bodies: Record<string, unknown>[] = [
    { value: 'fragile' },
    { type: 'number', value: '12', priority: 2 },
    { type: 'select', list: [{ name: 'Matt', value: 'matt', color: 'grey' }], value: 'matt', selected: { name: 'Matt', value: 'matt' } },
    { type: 'list', value: ['a', 'b'], options: { align: 'left' } },
    { type: 'address', value: 'Damrak 1', components: { city: 'Amsterdam', latitude: 52.37, longitude: 4.89 } },
    { type: 'drawing', drawing_id: '0190F3A0-0000-7000-8000-000000000001', value: null, scope: 'card' },
    { type: 'checkbox', value: true },
    { type: 'date', value: '2026-03-31' },
  ];

  it.each(bodies)('%j stores the same value both ways, on a new name and over an existing one', async (body) => {
    const viaRoute = await newCollection({ custom_fields: [{ name: 'Other', value: 'x' }] });
    const inline = await newCollection({ custom_fields: [{ name: 'Other', value: 'x' }] });
    const routed = await ok('PUT', byName(viaRoute.id, 'Field'), body);
    const listed = await ok('PUT', `/v1/collection/${inline.id}`, { custom_fields: [...inline.custom_fields, { name: 'Field', ...body }] });
    expect(routed.custom_fields.map(content)).toEqual(listed.custom_fields.map(content));
    expect(routed.custom_fields[1].drawing_id ?? null).toBe(typeof body.drawing_id === 'string' ? body.drawing_id.toLowerCase() : null);

    // Over an existing value of another type: only the keys sent change, both ways.
    const existing = { name: 'Field', type: 'text', value: null, priority: 5 };
    const a = await newCollection({ custom_fields: [existing] });
    const b = await newCollection({ custom_fields: [existing] });
    const routedOver = await ok('PUT', byName(a.id, 'Field'), body);
    const listedOver = await ok('PUT', `/v1/collection/${b.id}`, { custom_fields: [{ name: 'Field', ...body }] });
    expect(routedOver.custom_fields.map(content)).toEqual(listedOver.custom_fields.map(content));
    expect(routedOver.custom_fields[0].priority).toBe(body.priority ?? 5);
    expect(routedOver.custom_fields[0].id).toBe(a.custom_fields[0].id);
  });

  it('a stored value that no longer passes is kept when sent back unchanged, and must pass once changed', async () => {
    const c = await newCollection({ custom_fields: [{ name: 'Keep', value: 'me' }] });
    // A value stored before these checks existed (written past the API).
    const legacy = {
      id: '0190f3a0-0000-7000-8000-0000000000cc',
      name: 'Old',
      type: 'text',
      scope: 'collection',
      priority: 0,
      value: 42,
      drawing_id: null,
      components: null,
      list: null,
      selected: null,
      options: null,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
    };
    const store = api.dataDir.environment(api.environment.id);
    store.update(tableFor(collectionSpec), c.id, { custom_fields: [c.custom_fields[0], legacy] });
    const stored = (await ok('GET', `/v1/collection/${c.id}`)).custom_fields;
    expect(stored[1]).toEqual(legacy);

    // The app edits another value and sends the whole list back: fine, the old one untouched.
    const edited = await ok('PUT', `/v1/collection/${c.id}`, { custom_fields: [{ ...stored[0], value: 'you' }, stored[1]] });
    expect(edited.custom_fields[1]).toEqual(legacy);
    expect((await ok('PUT', byName(c.id, 'Keep'), { value: 'us' })).custom_fields[1]).toEqual(legacy);
    // Changing the old value itself: it must now pass as a whole.
    expectFieldErrors(await api.inject('PUT', `/v1/collection/${c.id}`, { custom_fields: [stored[0], { ...legacy, priority: 1 }] }), [
      'custom_fields.1.value',
    ]);
    expectFieldErrors(await api.inject('PUT', byName(c.id, 'Old'), { priority: 1 }), ['value']);
    expect((await ok('PUT', byName(c.id, 'Old'), { value: '42' })).custom_fields[1]).toMatchObject({
      id: legacy.id,
      value: '42',
      created_at: legacy.created_at,
    });
  });
});

describe('board custom field definitions', () => {
  it.each([
    ['a choice without a name', { name: 'F', type: 'select', list: [{ value: 'x' }] }, 'list'],
    ['a choice colour that is not text', { name: 'F', type: 'list', list: [{ name: 'X', color: 7 }] }, 'list'],
    ['options.decimals of -1', { name: 'F', type: 'number', options: { decimals: -1 } }, 'options'],
  ])('refuses %s inline in a board and at the definition route', async (_what, definition, field) => {
    const boards = await count('/v1/board');
    expectFieldErrors(await api.inject('POST', '/v1/board', { name: 'B', custom_fields: [definition] }), [`custom_fields.0.${field}`]);
    expect(await count('/v1/board')).toBe(boards);
    expectFieldErrors(await api.inject('POST', `/v1/board/${board.id}/custom_field`, definition), [field]);
  });

  it('stores choices with values of text or numbers, and options', async () => {
    const definition = {
      name: 'Finish',
      type: 'select',
      scope: 'card',
      list: [{ name: 'Matt', value: 'matt', color: 'grey' }, { name: 'Two', value: 2 }, { name: 'Bare' }],
      options: { unit: 'mm', align: 'right', decimals: 2 },
    };
    expect(await ok('POST', `/v1/board/${board.id}/custom_field`, definition)).toMatchObject(definition);
  });
});

describe('OpenAPI', () => {
  it("documents a value's 13 fields and the by-name body", async () => {
    const doc = await ok('GET', '/v1/openapi.json');
    for (const title of ['Collection', 'Card']) {
      const items = doc.components.schemas[title].properties.custom_fields.items;
      expect(Object.keys(items.properties)).toHaveLength(13);
      expect(items.properties.id).toMatchObject({ format: 'uuid', readOnly: true });
      expect(items.properties.type.enum).toContain('select');
    }
    const body = doc.paths['/v1/collection/{id}/custom_field/{name}'].put.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual([
      'components',
      'drawing_id',
      'list',
      'options',
      'priority',
      'scope',
      'selected',
      'type',
      'value',
    ]);
    expect(doc.components.schemas.BoardCustomField.properties.list.items.required).toEqual(['name']);
  });
});
