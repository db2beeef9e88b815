/**
 * The parts of collections and cards (docs/API.md "Resources and paths"): checklists with items on
 * a collection (`/v1/collection/{cid}/checklist`) and on a card
 * (`/v1/collection/{cid}/card/{id}/checklist`), made from a board checklist template
 * (`/v1/board/{bid}/checklist`), items at `/v1/collection/{cid}/checklist/{id}/item`, and
 * comments with threads (`/v1/collection/{cid}/comment`), by an API key (no author) or by a user
 * signed in over OAuth (the author). Rules: the heads of electron/api/resources/checklist.ts
 * and comment.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { call } from '../helpers/instance.js';
import { signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { expectFieldErrors, unknownId } from '../helpers/order-data.js';
import { createActivities, createBoard, type BoardIds } from '../helpers/planning.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';

let api: TestApi;
let board: BoardIds;
let collection: any;
let other: any;
let card: any;
let otherCard: any;
const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

async function post(path: string, body: unknown): Promise<any> {
  const res = await api.inject('POST', path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

beforeAll(async () => {
  api = await startTestApi();
  const acts = await createActivities(api, ['Cut']);
  board = await createBoard(api, acts, { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
  collection = await post('/v1/collection', { name: 'With parts', board_id: board.id });
  other = await post('/v1/collection', { name: 'Other', board_id: board.id });
  card = await post(`/v1/collection/${collection.id}/card`, { stage_id: board.stages.Cutting, name: 'Card' });
  otherCard = await post(`/v1/collection/${other.id}/card`, { stage_id: board.stages.Cutting, name: 'Other card' });
});
afterAll(async () => {
  await api.close();
});

const items = (checklist: any) =>
  [...checklist.items].sort((a: any, b: any) => a.position - b.position).map((i: any) => [i.description, i.position, i.checked]);

describe('checklists on a collection', () => {
  it('are created with their items inline and read back with with=items', async () => {
    const list = await post(`/v1/collection/${collection.id}/checklist?with=items`, {
      name: 'Before shipping',
      position: 2,
      items: [
        { description: 'Photos', position: 0 },
        { description: 'Weigh', position: 1, checked: true },
      ],
    });
    expect(list).toMatchObject({
      name: 'Before shipping',
      collection_id: collection.id,
      card_id: null,
      board_checklist_id: null,
      editable: true,
      position: 2,
    });
    expect(items(list)).toEqual([
      ['Photos', 0, false],
      ['Weigh', 1, true],
    ]);
    const weigh = list.items.find((i: any) => i.description === 'Weigh');
    expect(weigh.checked_at).toMatch(timestamp);
    const again = (await api.inject('GET', `/v1/collection/${collection.id}/checklist/${list.id}?with=items`)).body;
    expect(items(again)).toEqual(items(list));
  });

  it('need a name unless a template gives one', async () => {
    const res = await api.inject('POST', `/v1/collection/${collection.id}/checklist`, { items: [{ description: 'x' }] });
    expectFieldErrors(res, ['name']);
  });

  it('an item without a description names its path', async () => {
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/checklist`, { name: 'x', items: [{ position: 1 }] }), [
      'items.0.description',
    ]);
  });

  it('a card_id of another collection is a 422', async () => {
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/checklist`, { name: 'x', card_id: otherCard.id }), [
      'card_id',
    ]);
  });

  it('are not found under another collection', async () => {
    const list = await post(`/v1/collection/${collection.id}/checklist`, { name: 'Mine' });
    expect((await api.inject('GET', `/v1/collection/${other.id}/checklist/${list.id}`)).status).toBe(404);
    expect((await api.inject('DELETE', `/v1/collection/${other.id}/checklist/${list.id}`)).status).toBe(404);
  });
});

describe('checklists on a card: /v1/collection/{cid}/card/{id}/checklist', () => {
  it('take the card from the path and are listed under the card', async () => {
    const list = await post(`/v1/collection/${collection.id}/card/${card.id}/checklist?with=items`, {
      name: 'Card checks',
      items: [{ description: 'Deburr' }],
    });
    expect(list).toMatchObject({ name: 'Card checks', collection_id: collection.id, card_id: card.id });
    const listed = (await api.inject('GET', `/v1/collection/${collection.id}/card/${card.id}/checklist`)).body;
    expect(listed.data.map((l: any) => l.id)).toContain(list.id);
    for (const l of listed.data) expect(l.card_id).toBe(card.id);
    expect((await api.inject('GET', `/v1/collection/${collection.id}/card/${card.id}/checklist/${list.id}`)).status).toBe(200);
  });

  it('a card of another collection in the path is a 404, and lists nothing', async () => {
    expect((await api.inject('POST', `/v1/collection/${collection.id}/card/${otherCard.id}/checklist`, { name: 'x' })).status).toBe(404);
    expect((await api.inject('GET', `/v1/collection/${collection.id}/card/${otherCard.id}/checklist`)).body).toMatchObject({
      count: 0,
      data: [],
    });
  });

  it('go when their card goes', async () => {
    const doomed = await post(`/v1/collection/${collection.id}/card`, { stage_id: board.stages.Cutting, name: 'Doomed' });
    const list = await post(`/v1/collection/${collection.id}/card/${doomed.id}/checklist`, { name: 'Goes too' });
    expect((await api.inject('DELETE', `/v1/collection/${collection.id}/card/${doomed.id}`)).status).toBe(204);
    expect((await api.inject('GET', `/v1/collection/${collection.id}/checklist/${list.id}`)).status).toBe(404);
  });
});

describe('checklists from a board template', () => {
  let template: any;
  beforeAll(async () => {
    template = await post(`/v1/board/${board.id}/checklist`, {
      name: 'Quality check',
      items: [{ description: 'Measure' }, { description: 'Photograph' }, { description: 'Sign off' }],
    });
  });

  it('the template is a board record with its items', async () => {
    expect(template).toMatchObject({
      board_id: board.id,
      name: 'Quality check',
      items: [{ description: 'Measure' }, { description: 'Photograph' }, { description: 'Sign off' }],
    });
  });

  it('a collection checklist with board_checklist_id copies the name and the items', async () => {
    const list = await post(`/v1/collection/${collection.id}/checklist?with=items`, { board_checklist_id: template.id });
    expect(list).toMatchObject({ name: 'Quality check', board_checklist_id: template.id });
    expect(items(list)).toEqual([
      ['Measure', 0, false],
      ['Photograph', 1, false],
      ['Sign off', 2, false],
    ]);
  });

  it('a card checklist from the template gets them too', async () => {
    const list = await post(`/v1/collection/${collection.id}/card/${card.id}/checklist?with=items`, { board_checklist_id: template.id });
    expect(list).toMatchObject({ name: 'Quality check', card_id: card.id });
    expect(items(list)).toEqual([
      ['Measure', 0, false],
      ['Photograph', 1, false],
      ['Sign off', 2, false],
    ]);
  });

  it("its own name wins; its own items replace the template's", async () => {
    const named = await post(`/v1/collection/${collection.id}/checklist?with=items`, {
      board_checklist_id: template.id,
      name: 'QC for order 7',
    });
    expect(named.name).toBe('QC for order 7');
    expect(items(named)).toHaveLength(3);
    const own = await post(`/v1/collection/${collection.id}/checklist?with=items`, {
      board_checklist_id: template.id,
      items: [{ description: 'Only this' }],
    });
    expect(items(own)).toEqual([['Only this', 0, false]]);
  });

  it('is a copy: changing the template later changes no checklist', async () => {
    const list = await post(`/v1/collection/${collection.id}/checklist?with=items`, { board_checklist_id: template.id });
    const changed = await api.inject('PUT', `/v1/board/${board.id}/checklist/${template.id}`, {
      name: 'Renamed',
      items: [{ description: 'New' }],
    });
    expect(changed.status).toBe(200);
    const after = (await api.inject('GET', `/v1/collection/${collection.id}/checklist/${list.id}?with=items`)).body;
    expect(after.name).toBe('Quality check');
    expect(items(after)).toEqual([
      ['Measure', 0, false],
      ['Photograph', 1, false],
      ['Sign off', 2, false],
    ]);
    await api.inject('PUT', `/v1/board/${board.id}/checklist/${template.id}`, { name: 'Quality check', items: template.items });
  });

  it('an unknown template is a 422 on board_checklist_id (and on name, which it cannot give)', async () => {
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/checklist`, { board_checklist_id: unknownId }), [
      'board_checklist_id',
      'name',
    ]);
    expectFieldErrors(
      await api.inject('POST', `/v1/collection/${collection.id}/checklist`, { board_checklist_id: unknownId, name: 'Mine' }),
      ['board_checklist_id'],
    );
  });
});

describe('checklist items: /v1/collection/{cid}/checklist/{id}/item', () => {
  let list: any;
  beforeAll(async () => {
    list = await post(`/v1/collection/${collection.id}/checklist`, { name: 'Items' });
  });
  const itemPath = (id = '', cid = collection.id, lid = list.id) => `/v1/collection/${cid}/checklist/${lid}/item${id ? `/${id}` : ''}`;

  it('creates, lists, updates and deletes items', async () => {
    const item = await post(itemPath(), { description: 'Clean the bench', position: 3 });
    expect(item).toMatchObject({ checklist_id: list.id, description: 'Clean the bench', position: 3, checked: false, checked_at: null });
    const listed = (await api.inject('GET', itemPath())).body;
    expect(listed.data.map((i: any) => i.id)).toContain(item.id);
    const renamed = (await api.inject('PUT', itemPath(item.id), { description: 'Clean the bench twice' })).body;
    expect(renamed.description).toBe('Clean the bench twice');
    expect((await api.inject('DELETE', itemPath(item.id))).status).toBe(204);
    expect((await api.inject('GET', itemPath(item.id))).status).toBe(404);
  });

  it('checking an item sets checked_at; unchecking clears it', async () => {
    const item = await post(itemPath(), { description: 'Tick me' });
    const checked = (await api.inject('PUT', itemPath(item.id), { checked: true })).body;
    expect(checked.checked).toBe(true);
    expect(checked.checked_at).toMatch(timestamp);
    // checked_at is the server's: a client cannot set it.
    const kept = (await api.inject('PUT', itemPath(item.id), { checked_at: '2000-01-01T00:00:00Z', description: 'Ticked' })).body;
    expect(kept.checked_at).toBe(checked.checked_at);
    const unchecked = (await api.inject('PUT', itemPath(item.id), { checked: false })).body;
    expect(unchecked).toMatchObject({ checked: false, checked_at: null });
  });

  it('a description is required', async () => {
    expectFieldErrors(await api.inject('POST', itemPath(), { position: 1 }), ['description']);
  });

  it('an item is not found through another collection or another checklist', async () => {
    const item = await post(itemPath(), { description: 'Hidden' });
    const second = await post(`/v1/collection/${collection.id}/checklist`, { name: 'Second' });
    expect((await api.inject('GET', itemPath(item.id, other.id))).status).toBe(404);
    expect((await api.inject('GET', itemPath(item.id, collection.id, second.id))).status).toBe(404);
    expect((await api.inject('POST', itemPath('', other.id), { description: 'x' })).status).toBe(404);
  });
});

describe('comments with threads: /v1/collection/{cid}/comment', () => {
  it('creates a comment on the collection; an API key comments without a user', async () => {
    const comment = await post(`/v1/collection/${collection.id}/comment`, { text: 'Customer called' });
    expect(comment).toMatchObject({
      collection_id: collection.id,
      card_id: null,
      parent_id: null,
      text: 'Customer called',
      user_id: null,
      user_mentions: [],
    });
  });

  it('threads replies by parent_id and reads them back with with=replies', async () => {
    const root = await post(`/v1/collection/${collection.id}/comment`, { text: 'Which colour?' });
    const reply = await post(`/v1/collection/${collection.id}/comment`, { text: 'RAL 9010', parent_id: root.id });
    expect(reply.parent_id).toBe(root.id);
    const thread = (await api.inject('GET', `/v1/collection/${collection.id}/comment/${root.id}?with=replies`)).body;
    expect(thread.replies.map((r: any) => r.text)).toEqual(['RAL 9010']);
    const withParent = (await api.inject('GET', `/v1/collection/${collection.id}/comment/${reply.id}?with=parent`)).body;
    expect(withParent.parent.id).toBe(root.id);
  });

  it('a comment on a card of the collection', async () => {
    const comment = await post(`/v1/collection/${collection.id}/comment`, { text: 'On the card', card_id: card.id });
    expect(comment.card_id).toBe(card.id);
  });

  it('a parent_id or card_id of another collection is a 422', async () => {
    const foreign = await post(`/v1/collection/${other.id}/comment`, { text: 'Elsewhere' });
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/comment`, { text: 'x', parent_id: foreign.id }), [
      'parent_id',
    ]);
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/comment`, { text: 'x', card_id: otherCard.id }), [
      'card_id',
    ]);
    const mine = await post(`/v1/collection/${collection.id}/comment`, { text: 'Mine' });
    expectFieldErrors(await api.inject('PUT', `/v1/collection/${collection.id}/comment/${mine.id}`, { parent_id: foreign.id }), [
      'parent_id',
    ]);
  });

  it('an unknown parent is a 422; text is required', async () => {
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/comment`, { text: 'x', parent_id: unknownId }), [
      'parent_id',
    ]);
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/comment`, {}), ['text']);
  });

  it('PUT edits the text; DELETE removes it; the path scopes it to its collection', async () => {
    const comment = await post(`/v1/collection/${collection.id}/comment`, { text: 'Typo' });
    expect((await api.inject('PUT', `/v1/collection/${collection.id}/comment/${comment.id}`, { text: 'Fixed' })).body.text).toBe('Fixed');
    expect((await api.inject('GET', `/v1/collection/${other.id}/comment/${comment.id}`)).status).toBe(404);
    expect((await api.inject('DELETE', `/v1/collection/${collection.id}/comment/${comment.id}`)).status).toBe(204);
    expect((await api.inject('GET', `/v1/collection/${collection.id}/comment/${comment.id}`)).status).toBe(404);
  });
});

describe('comments by a signed-in user', () => {
  const redirectUri = 'https://app.example.com/callback';
  const password = 'pass-word-123';
  let author: { id: string; headers: Record<string, string> };
  let editor: { id: string; headers: Record<string, string> };

  /** A member made in the environment and signed in through an OAuth client: Bearer only, no API key. */
  async function signedIn(client: ReturnType<typeof createClient>, email: string, firstname: string) {
    const ctx = requestContext(
      { kind: 'api-key' as const, environment: api.environment },
      recordsOf(api.dataDir.environment(api.environment.id)),
    );
    const user = await createUserWithPassword(ctx, { email, role: 'member', firstname, lastname: 'Writer' }, password);
    const code = await signInForCode(
      api.baseUrl,
      { client_id: client.client.id, redirect_uri: redirectUri, state: 'st' },
      { environment: api.environment.name, email, password },
    );
    const answer = await tokenRequest(api.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: client.client.id,
      client_secret: client.client_secret!,
      redirect_uri: redirectUri,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { id: user.id, headers: { authorization: `Bearer ${answer.body.access_token as string}` } };
  }

  beforeAll(async () => {
    const client = createClient(api.dataDir.system, {
      name: 'Comment app',
      redirect_uris: [redirectUri],
      confidential: true,
      environment_id: null,
    });
    author = await signedIn(client, 'wendy@example.com', 'Wendy');
    editor = await signedIn(client, 'eddie@example.com', 'Eddie');
  });

  it('the user who posts a comment is its user_id (whatever the body says), and with=user returns that user', async () => {
    const made = await call(api.baseUrl, 'POST', `/v1/collection/${collection.id}/comment?with=user`, author.headers, {
      text: 'Signed by me',
      user_id: editor.id,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ collection_id: collection.id, text: 'Signed by me', user_id: author.id });
    expect(made.body.user).toMatchObject({ id: author.id, email: 'wendy@example.com', firstname: 'Wendy', lastname: 'Writer' });

    // Read back by anyone, the API key included: the same author.
    const read = (await api.inject('GET', `/v1/collection/${collection.id}/comment/${made.body.id}?with=user`)).body;
    expect(read.user_id).toBe(author.id);
    expect(read.user).toMatchObject({ id: author.id, email: 'wendy@example.com' });
    const theirs = (
      await api.inject('GET', `/v1/collection/${collection.id}/comment?filter=${encodeURIComponent(`user_id:eq:'${author.id}'`)}`)
    ).body;
    expect(theirs.data.map((c: any) => c.id)).toEqual([made.body.id]);
  });

  it('an edit by someone else keeps the author; a reply has its own', async () => {
    const made = await call(api.baseUrl, 'POST', `/v1/collection/${collection.id}/comment`, author.headers, { text: 'First draft' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const edited = await call(api.baseUrl, 'PUT', `/v1/collection/${collection.id}/comment/${made.body.id}?with=user`, editor.headers, {
      text: 'Second draft',
      user_id: editor.id,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ text: 'Second draft', user_id: author.id, user: { id: author.id } });
    const reply = await call(api.baseUrl, 'POST', `/v1/collection/${collection.id}/comment`, editor.headers, {
      text: 'Agreed',
      parent_id: made.body.id,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.user_id).toBe(editor.id);
    const thread = (await api.inject('GET', `/v1/collection/${collection.id}/comment/${made.body.id}?with=user,replies.user`)).body;
    expect(thread.user.email).toBe('wendy@example.com');
    expect(thread.replies.map((r: any) => [r.text, r.user.email])).toEqual([['Agreed', 'eddie@example.com']]);
  });
});
