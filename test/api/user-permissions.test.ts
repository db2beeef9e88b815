/**
 * Who may manage users (docs/API.md "Permissions"), over real HTTP with signed-in users: only
 * admins (and API keys) invite, archive, delete or restore users and change a role; anyone else
 * changes their own profile and nothing more, and never sees an invitation id — not in answers,
 * `with`, filters, sort, sync pages or the trash. A replica's push is held to the same rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { formatHlc } from '../../shared/hlc.js';
import type { Environment } from '../../electron/store/system.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { call, prepareFolder, startInstance, type Instance } from '../helpers/instance.js';
import { signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';

const redirectUri = 'https://app.example.com/callback';
const password = 'pass-word-123';
const key = { 'x-api-key': 'perm-key-123', 'x-api-env': 'perm' };

let instance: Instance;
let folder: ReturnType<typeof prepareFolder>;
let environment: Environment;
let client: { id: string; secret: string };
let admin: { id: string; headers: Record<string, string> };
let member: { id: string; headers: Record<string, string> };
let counter = 0;

async function signedIn(email: string, role: string) {
  const store = instance.dataDir.environment(environment.id);
  const user = await createUserWithPassword(requestContext({ kind: 'api-key', environment }, recordsOf(store)), { email, role }, password);
  const code = await signInForCode(
    instance.baseUrl,
    { client_id: client.id, redirect_uri: redirectUri, state: 'st' },
    { environment: 'perm', email, password },
  );
  const answer = await tokenRequest(instance.baseUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: client.id,
    client_secret: client.secret,
    redirect_uri: redirectUri,
  });
  expect(answer.status).toBe(200);
  return { id: user.id, headers: { authorization: `Bearer ${answer.body.access_token as string}` } };
}

const as = (headers: Record<string, string>) => (method: string, path: string, body?: unknown) =>
  call(instance.baseUrl, method, path, headers, body);
const byKey = as(key);

function expectForbidden(answer: { status: number; body: any }) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expectErrorBody(answer.body, 10403, 'Forbidden');
}

/** Invites with the API key and returns the user as the key (an admin) lists it. */
async function invite(role = 'admin') {
  const email = `invited.${++counter}@example.com`;
  expect((await byKey('POST', '/v1/user', { email, role })).status).toBe(201);
  const listed = await byKey('GET', `/v1/user?filter=email:eq:'${email}'`);
  expect(listed.body.data[0].invite_id).toMatch(/^[0-9a-f-]{36}$/);
  return listed.body.data[0] as { id: string; email: string; invite_id: string };
}

beforeAll(async () => {
  folder = prepareFolder([{ name: 'perm', key: 'perm-key-123' }]);
  environment = folder.environments[0]!;
  instance = await startInstance(folder.folder, { oauthRateLimit: { limit: 1000, windowMs: 60_000 } });
  const made = createClient(instance.dataDir.system, {
    name: 'App',
    redirect_uris: [redirectUri],
    confidential: true,
    environment_id: null,
  });
  client = { id: made.client.id, secret: made.client_secret! };
  admin = await signedIn('ann@example.com', 'admin');
  member = await signedIn('max@example.com', 'member');
});

afterAll(async () => {
  await instance.stop();
  folder.remove();
});

describe('a member and users', () => {
  it('cannot raise their own role, and admin-only routes stay closed', async () => {
    const raise = await as(member.headers)('PUT', `/v1/user/${member.id}`, { role: 'admin' });
    expectForbidden(raise);
    expect((await byKey('GET', `/v1/user/${member.id}`)).body.role).toBe('member');
    expect((await as(member.headers)('GET', '/v1/me')).body.user.role).toBe('member');
    for (const path of ['/v1/webhook', '/v1/oauth_client']) expect((await as(member.headers)('GET', path)).status).toBe(403);
    // Nor with the change among profile fields (nothing of the write lands), nor their resource.
    expectForbidden(await as(member.headers)('PUT', `/v1/user/${member.id}`, { firstname: 'Max', role: 'manager' }));
    const resource = await byKey('POST', '/v1/resource', { name: 'Press' });
    expectForbidden(await as(member.headers)('PUT', `/v1/user/${member.id}`, { resource: { id: resource.body.id } }));
    expect((await byKey('GET', `/v1/user/${member.id}`)).body).toMatchObject({ role: 'member', firstname: null, resource_id: null });
  });

  it('cannot archive themselves or change their email or external_ref', async () => {
    for (const body of [{ archived_at: '2026-01-01T00:00:00Z' }, { email: 'other@example.com' }, { external_ref: 'x-1' }]) {
      expectForbidden(await as(member.headers)('PUT', `/v1/user/${member.id}`, body));
    }
    expect((await byKey('GET', `/v1/user/${member.id}`)).body).toMatchObject({
      archived_at: null,
      email: 'max@example.com',
      card_visibility: 'all',
      external_ref: null,
    });
  });

  it('changes their own profile, also when writing back the record as read', async () => {
    const changed = await as(member.headers)('PUT', `/v1/user/${member.id}`, {
      firstname: 'Max',
      lastname: 'Power',
      language: 'en',
      about: 'welder',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ fullname: 'Max Power', language: 'en', role: 'member' });
    const own = (await as(member.headers)('GET', `/v1/user/${member.id}`)).body;
    // Unchanged fields are no change, the email compared without case as it is stored.
    const again = await as(member.headers)('PUT', `/v1/user/${member.id}`, { ...own, email: 'MAX@example.com', infix: 'de' });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.fullname).toBe('Max de Power');
  });

  it('cannot change, delete or restore another user', async () => {
    expectForbidden(await as(member.headers)('PUT', `/v1/user/${admin.id}`, { firstname: 'Mallory' }));
    expectForbidden(await as(member.headers)('PUT', `/v1/user/${admin.id}`, { role: 'guest' }));
    expectForbidden(await as(member.headers)('DELETE', `/v1/user/${admin.id}`));
    expect((await byKey('GET', `/v1/user/${admin.id}`)).body).toMatchObject({ firstname: null, role: 'admin' });

    const gone = await invite();
    expect((await byKey('DELETE', `/v1/user/${gone.id}`)).status).toBe(204);
    expectForbidden(await as(member.headers)('POST', `/v1/trash/user/${gone.id}/restore`));
    expect((await byKey('GET', `/v1/user/${gone.id}`)).status).toBe(404);
    const trash = await as(member.headers)('GET', '/v1/trash/user?limit=1000');
    expect(trash.status).toBe(200);
    const listed = trash.body.data.find((u: { id: string }) => u.id === gone.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('invite_id');
    expect((await byKey('GET', '/v1/trash/user?limit=1000')).body.data.find((u: { id: string }) => u.id === gone.id).invite_id).toBe(
      gone.invite_id,
    );
  });

  it('cannot invite, whatever the body', async () => {
    for (const body of [{ email: 'evil@example.com', role: 'admin' }, {}, { email: 'not an email', role: 'emperor' }]) {
      expectForbidden(await as(member.headers)('POST', '/v1/user', body));
    }
    expect((await byKey('GET', "/v1/user?filter=email:eq:'evil@example.com'")).body.count).toBe(0);
  });

  it('never sees an invitation id: not in lists, records, with, filters or sort', async () => {
    const invited = await invite();
    const see = as(member.headers);
    const list = await see('GET', '/v1/user?limit=1000');
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(1);
    for (const user of list.body.data) expect(user).not.toHaveProperty('invite_id');
    expect(JSON.stringify(list.body)).not.toContain(invited.invite_id);
    const one = await see('GET', `/v1/user/${invited.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('invite_id');
    expect((await see('GET', '/v1/me')).body.user).not.toHaveProperty('invite_id');

    const board = await byKey('POST', '/v1/board', { name: 'Followed', stages: [{ name: 'Cut' }], statuses: [{ name: 'Open' }] });
    const collection = await byKey('POST', '/v1/collection', {
      board_id: board.body.id,
      name: 'followed',
      followers: [{ id: invited.id }],
    });
    expect(collection.status, JSON.stringify(collection.body)).toBe(201);
    const followed = await see('GET', `/v1/collection/${collection.body.id}?with=followers`);
    expect(followed.body.followers.map((u: { id: string }) => u.id)).toEqual([invited.id]);
    expect(followed.body.followers[0]).not.toHaveProperty('invite_id');

    // Comparisons would read it out character by character: refused like an unknown field.
    for (const query of [
      `/v1/user?filter=invite_id:eq:'${invited.invite_id}'`,
      "/v1/user?filter=invite_id:starts_with:'0'",
      '/v1/user?sort=invite_id',
      `/v1/collection?filter=followers.invite_id:eq:'${invited.invite_id}'`,
      // Sorting comments by their author's invitation would read it out by the order.
      `/v1/collection/${collection.body.id}/comment?sort=user.invite_id`,
    ]) {
      const answer = await see('GET', query);
      expect(answer.status, query).toBe(400);
      expectErrorBody(answer.body, 10400, 'Bad Request');
      expect(answer.body.errors[0].description).toMatch(/Unknown (filter|sort) field/);
    }
  });

  it('cannot take an invitation through sync: no invitation ids in pages, pushes refused', async () => {
    const invited = await invite();
    for (const path of ['/v1/sync/changes?since=0&limit=5000', '/v1/sync/snapshot?limit=5000']) {
      const page = await as(member.headers)('GET', path);
      expect(page.status, path).toBe(200);
      const entries = (page.body.changes ?? page.body.records) as { resource: string; id: string; record: any; clocks: any }[];
      const user = entries.find((e) => e.resource === 'user' && e.id === invited.id)!;
      expect(user.record).not.toHaveProperty('invite_id');
      expect(user.clocks).not.toHaveProperty('invite_id');
      expect(JSON.stringify(page.body)).not.toContain(invited.invite_id);
      // An admin's replica gets the whole record.
      const whole = await byKey('GET', path);
      expect(JSON.stringify(whole.body)).toContain(invited.invite_id);
    }

    const hlc = formatHlc({ millis: Date.now(), counter: 0, node: 'member-replica' });
    const sneaky = '01900000-0000-7000-8000-00000000beef';
    const push = await as(member.headers)('POST', '/v1/sync/push', {
      client_id: 'member-replica',
      mutations: [
        { mutation_id: 1, resource: 'user', id: member.id, op: 'update', fields: { role: 'admin' }, hlc },
        {
          mutation_id: 2,
          resource: 'user',
          id: sneaky,
          op: 'create',
          fields: { email: 'own@example.com', role: 'admin', invite_id: sneaky },
          hlc,
        },
        { mutation_id: 3, resource: 'user', id: invited.id, op: 'update', fields: { invite_id: sneaky }, hlc },
        { mutation_id: 4, resource: 'user', id: invited.id, op: 'delete', fields: null, hlc },
      ],
    });
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    for (const result of push.body.results) {
      expect(result.status).toBe('rejected');
      expect(result.error.errors[0].code).toBe(10403);
      if (result.record) expect(result.record).not.toHaveProperty('invite_id');
    }
    expect((await byKey('GET', `/v1/user/${member.id}`)).body.role).toBe('member');
    expect((await byKey('GET', `/v1/user/${sneaky}`)).status).toBe(404);
    expect((await byKey('GET', `/v1/user/${invited.id}`)).body.invite_id).toBe(invited.invite_id);
  });
});

describe('an admin and users', () => {
  it('invites, sees the invitation, changes roles, archives and deletes', async () => {
    const act = as(admin.headers);
    const email = `by-admin.${++counter}@example.com`;
    expect((await act('POST', '/v1/user', { email, role: 'member' })).status).toBe(201);
    const listed = (await act('GET', `/v1/user?filter=email:eq:'${email}'`)).body.data[0];
    expect(listed.invite_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await act('GET', `/v1/user?filter=invite_id:eq:'${listed.invite_id as string}'`)).body.count).toBe(1);

    const accepted = await call(
      instance.baseUrl,
      'POST',
      '/v1/user/accept',
      {},
      { environment: 'perm', invite_id: listed.invite_id, password },
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body).not.toHaveProperty('invite_id'); // the new member sees themselves
    expect((await act('GET', `/v1/user/${listed.id as string}`)).body).toMatchObject({ status: 'active', invite_id: null });

    const promoted = await act('PUT', `/v1/user/${listed.id as string}`, { role: 'manager' });
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(promoted.body).toMatchObject({ role: 'manager', card_visibility: 'all' });
    expect((await act('PUT', `/v1/user/${listed.id as string}`, { archived_at: '2026-01-01T00:00:00Z' })).status).toBe(200);
    expect((await act('DELETE', `/v1/user/${listed.id as string}`)).status).toBe(204);
    expect((await act('POST', `/v1/trash/user/${listed.id as string}/restore`)).status).toBe(200);
  });

  it('lets a member promoted by an admin into admin-only routes at once', async () => {
    const other = await signedIn(`promoted.${++counter}@example.com`, 'member');
    expect((await as(other.headers)('GET', '/v1/webhook')).status).toBe(403);
    expect((await as(admin.headers)('PUT', `/v1/user/${other.id}`, { role: 'admin' })).status).toBe(200);
    expect((await as(other.headers)('GET', '/v1/webhook')).status).toBe(200);
  });
});

describe('a member and the instance’s sync', () => {
  it('sees the status but does not read what waits, the conflicts or the settings, nor run or change them', async () => {
    const asMember = as(member.headers);
    expect((await asMember('GET', '/v1/sync/status')).status).toBe(200);
    for (const [method, path, body] of [
      ['GET', '/v1/sync/pending'],
      ['GET', '/v1/sync/conflict'],
      ['GET', '/v1/sync/conflict/0190a1b2-0000-7000-8000-000000000001'],
      ['POST', '/v1/sync/conflict/0190a1b2-0000-7000-8000-000000000001/discard'],
      ['GET', '/v1/sync/settings'],
      ['PUT', '/v1/sync/settings', { remote_url: 'https://elsewhere.example.com', api_env: 'x', api_key: 'stolen-key' }],
      ['POST', '/v1/sync/run'],
    ] as const) {
      expectForbidden(await asMember(method, path, body));
    }
    // An admin gets past the check: the pending list, and 409 where this instance does not sync.
    expect((await as(admin.headers)('GET', '/v1/sync/pending')).status).toBe(200);
    expect((await as(admin.headers)('GET', '/v1/sync/settings')).status).toBe(409);
  });
});
