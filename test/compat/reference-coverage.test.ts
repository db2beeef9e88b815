/**
 * Generated coverage of the public API's reference (docs/API.md "Compatibility"). Its field
 * lists, `with` table, card `include` extras and `/me` keys are read from
 * test/compat/reference-fields.json, which scripts/compat-reference-fields.mjs generates from
 * the reference (a document outside this repository). For every resource it lists: every field is returned (on the record, or
 * embedded with `with=<field>` where the field is a relation), or it is one the reference marks
 * write-only or deprecated and docs/API.md "Compatibility" names it. Every listed `with` value
 * is accepted on its endpoint. A resource the reference gains without a fixture here fails, so
 * the suite grows with the reference.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { expectStatus, publicClient, type PublicClient } from '../helpers/public-client.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';

interface Reference {
  resources: Record<string, { section: string; fields: string[]; hints: Record<string, 'write-only' | 'deprecated'> }>;
  with: { endpoint: string; values: string[] }[];
  include: { card: string[] };
  me: { keys: string[]; environment: string[] };
}
const reference: Reference = JSON.parse(readFileSync(new URL('./reference-fields.json', import.meta.url), 'utf8'));
const docs = readFileSync(new URL('../../docs/API.md', import.meta.url), 'utf8');
const compatibility = /\n## Compatibility\n([\s\S]*?)(?=\n## )/.exec(docs)?.[1] ?? '';

let api: TestApi;
let vplan: PublicClient;
/** Where one record of each resource the reference lists is read: its path, or a part of another record. */
const records: Record<string, { path: string; list?: string } | { path: string; pick: (record: any) => any; with: string }> = {};
/** Ids of records by the path segment that names them (`collection` → a collection's id). */
const idBy: Record<string, string> = {};

async function post(path: string, body: unknown): Promise<any> {
  return expectStatus(await vplan.post(path, body), 201, `POST ${path}`);
}

beforeAll(async () => {
  api = await startTestApi();
  vplan = publicClient(api);
  const activity = await post('activity', { description: 'Saw', resource_type: 'employee' });
  const board = await post('board?with=stages,statuses,labels', {
    name: 'Coverage',
    stages: [{ name: 'Sawing', priority: 0, activities: [{ id: activity.id, priority: 0 }] }],
    statuses: [
      { name: 'Open', entry: true },
      { name: 'Done', exit: true },
    ],
    labels: [{ name: 'Urgent', color: 'red' }],
  });
  const space = await post('space', { name: 'Hall' });
  const resource = await post('resource', { name: 'Sawyer' });
  await post('resource', { name: 'Helper' });
  const deviation = await post(`resource/${resource.id}/schedule_deviation`, { start_date: '2026-04-06', end_date: '2026-04-06' });
  const group = await post('group', { name: 'Saw team', resources: [{ id: resource.id }] });
  expectStatus(await vplan.post('user', { email: 'reader@example.com', role: 'member' }), 201);
  const user = expectStatus(await vplan.get('user', { email: 'reader@example.com' }), 200).data[0];
  const collection = await post('collection', {
    name: 'Cabinet',
    board_id: board.id,
    activities: [{ id: activity.id, time: 60 }],
    custom_fields: [{ name: 'Colour', type: 'text', value: 'Oak' }],
  });
  const card = expectStatus(
    await vplan.post(`collection/${collection.id}/board/${board.id}`, { start: '2026-04-07', resources: [resource.id] }),
    200,
  ).cards[0];
  const checklist = await post(`collection/${collection.id}/checklist`, { name: 'Checks', items: [{ description: 'Measure twice' }] });
  const item = expectStatus(await vplan.get(`collection/${collection.id}/checklist/${checklist.id}/item`), 200).data[0];
  const attachment = await post(`collection/${collection.id}/attachment`, {
    filename: 'drawing.pdf',
    file: 'https://example.com/drawing.pdf',
    type: 'external',
    card_id: card.id,
  });
  const comment = await post(`collection/${collection.id}/comment`, { text: 'Mind the grain', card_id: card.id });
  const entry = await post('time_tracking', {
    card_id: card.id,
    activity_id: activity.id,
    start: '2026-04-07T07:00:00Z',
    end: '2026-04-07T08:30:00Z',
  });
  const order = await post('order', {
    code: 'SO-1',
    type: 'Sales',
    order_rows: [{ description: 'Panels', quantity: 3, unit: 'hours', activity_id: activity.id }],
  });
  const row = expectStatus(await vplan.get(`order/${order.id}/row`), 200).data[0];
  const webhook = await post('webhook', { url: 'https://hooks.example.com/in', event_types: ['card.updated'] });
  const simple = Object.fromEntries(
    await Promise.all(
      (
        [
          ['item', { description: 'Panel' }],
          ['project', { name: 'Kitchens' }],
          ['relation', { name: 'Acme' }],
          ['warehouse', { name: 'Main' }],
        ] as const
      ).map(async ([name, body]) => [name, await post(name, body)] as const),
    ),
  );

  Object.assign(idBy, {
    board: board.id,
    collection: collection.id,
    card: card.id,
    order: order.id,
    resource: resource.id,
    checklist: checklist.id,
  });
  const one = (name: string, path: string, list = path.replace(/\/[^/]+$/, '')) => (records[name] = { path, list });
  one('board', `board/${board.id}`);
  one('stage', `stage/${board.stages[0].id}`);
  one('activity', `activity/${activity.id}`);
  one('resource', `resource/${resource.id}`);
  one('schedule_deviation', `resource/${resource.id}/schedule_deviation/${deviation.id}`);
  one('group', `group/${group.id}`);
  one('user', `user/${user.id}`);
  one('space', `space/${space.id}`);
  one('collection', `collection/${collection.id}`);
  one('card', `collection/${collection.id}/card/${card.id}`);
  one('checklist', `collection/${collection.id}/checklist/${checklist.id}`);
  one('checklist_item', `collection/${collection.id}/checklist/${checklist.id}/item/${item.id}`);
  one('attachment', `collection/${collection.id}/attachment/${attachment.id}`);
  one('comment', `collection/${collection.id}/comment/${comment.id}`);
  one('time_tracking', `time_tracking/${entry.id}`);
  one('order', `order/${order.id}`);
  one('order_row', `order/${order.id}/row/${row.id}`);
  one('webhook', `webhook/${webhook.id}`);
  for (const [name, record] of Object.entries(simple)) one(name, `${name}/${record.id}`);
  records.label = { path: `board/${board.id}`, with: 'labels', pick: (b) => b.labels[0] };
  records.status = { path: `board/${board.id}`, with: 'statuses', pick: (b) => b.statuses[0] };
  records.custom_field = { path: `collection/${collection.id}`, with: '', pick: (c) => c.custom_fields[0] };
});
afterAll(async () => {
  await api.close();
});

/** The record as a client reads it, with `with` when given. */
async function read(name: string, withs = ''): Promise<any> {
  const where = records[name];
  if (!where) throw new Error(`No fixture for ${name}: add one to this test's beforeAll.`);
  const query = [withs, 'pick' in where ? where.with : ''].filter(Boolean).join(',');
  const record = expectStatus(await vplan.get(where.path, query ? { with: query } : {}), 200, where.path);
  return 'pick' in where ? where.pick(record) : record;
}

/** The fields of one resource's list that are neither returned nor documented as a difference. */
async function missingFields(name: string): Promise<string[]> {
  const { fields, hints } = reference.resources[name]!;
  const where = records[name];
  const record = await read(name);
  const missing: string[] = [];
  for (const field of fields) {
    if (field in record) continue;
    if (hints[field]) {
      // Write-only and deprecated fields are accepted on write, never returned: the
      // Compatibility section says so, by name.
      if (!compatibility.includes(`\`${field}\``)) missing.push(`${field} (${hints[field]}, not in docs/API.md "Compatibility")`);
      continue;
    }
    // A relation: embedded when asked for.
    const embedded = await vplan.get(where!.path, { with: [field, 'pick' in where! ? where.with : ''].filter(Boolean).join(',') });
    if (embedded.status === 200 && field in ('pick' in where! ? (where.pick(embedded.body) ?? {}) : embedded.body)) continue;
    missing.push(field);
  }
  // The list answers the record with the same fields.
  if (where && !('pick' in where) && where.list) {
    const listed = expectStatus(await vplan.get(where.list, { id: record.id }), 200, where.list).data;
    expect(
      listed.map((r: any) => Object.keys(r).sort()),
      `${name}: the list and GET one`,
    ).toEqual([Object.keys(record).sort()]);
  }
  return missing;
}

describe('the fields the reference lists', () => {
  it('are returned on every resource (embedded with `with` for relations), or named in docs/API.md "Compatibility"', async () => {
    const missing: Record<string, string[]> = {};
    for (const name of Object.keys(reference.resources)) {
      const fields = await missingFields(name);
      if (fields.length > 0) missing[`${name} (${reference.resources[name]!.section})`] = fields;
    }
    expect(missing).toEqual({});
  });
});

/** Concrete paths for an endpoint as the reference writes it: `GET /card, /collection/{cid}/card`. */
function pathsOf(endpoint: string): string[] {
  return endpoint
    .replace(/^GET /, '')
    .replace(/\s*\(list\)/, '')
    .split(/,\s*/)
    .map((path) =>
      path
        .replace(/^\//, '')
        .split('/')
        .map((segment, i, all) => {
          if (!segment.startsWith('{')) return segment;
          // {cid} after "collection", {id} after the resource it names.
          const owner = all[i - 1]!;
          const id = idBy[owner];
          if (!id) throw new Error(`no fixture id for ${owner} in ${endpoint}`);
          return id;
        })
        .join('/'),
    );
}

describe('the `with` values and `include` extras the reference lists', () => {
  it('are accepted on every endpoint it names them for, and embed under their names', async () => {
    const refused: string[] = [];
    for (const { endpoint, values } of reference.with) {
      for (const path of pathsOf(endpoint)) {
        const answer = await vplan.get(path, values.length > 0 ? { with: values.join(',') } : {});
        if (answer.status !== 200) {
          refused.push(`${path}?with=${values.join(',')}: ${answer.status} ${JSON.stringify(answer.body?.errors?.[0]?.description)}`);
          continue;
        }
        const first = 'data' in answer.body ? answer.body.data[0] : answer.body;
        expect(first, path).toBeDefined();
        for (const value of values) {
          // Embedded under the declared name: camelCase `orderRows` reads as order_rows.
          const declared = value.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
          if (!(declared in first)) refused.push(`${path}: with=${value} embeds nothing`);
        }
      }
    }
    const card = await vplan.get(records.card!.path, { include: reference.include.card.join(',') });
    if (card.status !== 200) refused.push(`card include: ${card.status}`);
    else for (const extra of reference.include.card) if (!(extra in card.body)) refused.push(`card include=${extra} adds nothing`);
    expect(refused).toEqual([]);
  });
});

describe('GET /me answers every key the reference lists', () => {
  it('for an API key (the user key belongs to the user answer) and for a signed-in user (the api-key key belongs to the key answer)', async () => {
    const asKey = expectStatus(await vplan.get('me'), 200);
    expect(Object.keys(asKey).sort()).toEqual(reference.me.keys.filter((k) => k !== 'user').sort());
    expect(Object.keys(asKey.environment)).toEqual(expect.arrayContaining(reference.me.environment));

    const redirectUri = 'https://integrator.example.com/callback';
    const made = createClient(api.dataDir.system, {
      name: 'Assistant',
      redirect_uris: [redirectUri],
      confidential: true,
      environment_id: null,
    });
    const store = api.dataDir.environment(api.environment.id);
    await createUserWithPassword(
      requestContext({ kind: 'api-key', environment: api.environment }, recordsOf(store)),
      { email: 'me@example.com', role: 'organiser' },
      'pass-word-123',
    );
    const code = await signInForCode(
      api.baseUrl,
      { client_id: made.client.id, redirect_uri: redirectUri, state: 's' },
      { environment: api.environment.name, email: 'me@example.com', password: 'pass-word-123' },
    );
    const tokens = await tokenRequest(api.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: made.client.id,
      client_secret: made.client_secret!,
      redirect_uri: redirectUri,
    });
    const response = await fetch(`${api.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    const asUser: any = await response.json();
    expect(response.status).toBe(200);
    expect(Object.keys(asUser).sort()).toEqual(reference.me.keys.filter((k) => k !== 'api-key').sort());
    expect(asUser).toMatchObject({
      type: 'user',
      user: { email: 'me@example.com', role: 'organiser' },
      permissions: ['read', 'write', 'manage_time'],
    });
  });
});
