/**
 * Base data over real HTTP: users and `GET /v1/me` (docs/API.md "Users"). Users are
 * invited, not created: `POST /v1/user` records an invitation and answers 201 with no body;
 * the user then lists with status `invited`. Emails are unique among live users, compared
 * without case.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import {
  create,
  expectErrorBody,
  expectFieldErrors,
  expectGone,
  get,
  ids,
  otherEnvironment,
  remove,
  timestampPattern,
  unknownId,
  update,
  uuidPattern,
} from '../helpers/base-data.js';

let api: TestApi;
let resource: any;
let counter = 0;
const email = (name = 'user') => `${name}.${process.pid}.${++counter}@example.com`;

useSeededApi(async (started) => {
  api = started;
  resource = await create(api, '/v1/resource', { name: 'Anna the welder' });
});

/** Invites and returns the listed user (the invite itself answers without a body). */
async function invite(body: Record<string, unknown>, on: TestApi = api): Promise<any> {
  const res = await on.http('POST', '/v1/user', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const found = await get(on, `/v1/user?filter=email:eq:'${String(body.email).toLowerCase()}'&with=resource`);
  expect(found.count).toBe(1);
  return found.data[0];
}

describe('user invitation (POST /v1/user)', () => {
  it('answers 201 with an empty body, and the user lists with status invited', async () => {
    const address = email('anna');
    const res = await api.http('POST', '/v1/user', {
      email: address,
      role: 'organiser',
      card_visibility: 'all',
      language: 'en',
      resource: { id: resource.id },
      mobile: '+31 6 1234 5678',
    });
    expect(res.status).toBe(201);
    expect(res.body === '' || res.body === null).toBe(true);

    const list = await get(api, '/v1/user?with=resource&limit=1000');
    const user = list.data.find((u: any) => u.email === address);
    expect(user).toMatchObject({
      email: address,
      role: 'organiser',
      status: 'invited',
      card_visibility: 'all',
      language: 'en',
      mobile: '+31 6 1234 5678',
      resource_id: resource.id,
      resource: { id: resource.id, name: 'Anna the welder' },
      timezone: 'Europe/Amsterdam',
      archived_at: null,
    });
    expect(user.id).toMatch(uuidPattern);
    expect(user.invite_id).toMatch(uuidPattern);
    expect(user.created_at).toMatch(timestampPattern);
    expect(await get(api, `/v1/user/${user.id}?with=resource`)).toStrictEqual(user);
  });

  it('fills defaults: language nl, card_visibility all, no resource', async () => {
    const user = await invite({ email: email(), role: 'member' });
    expect(user).toMatchObject({ language: 'nl', card_visibility: 'all', resource_id: null, resource: null, status: 'invited' });
  });

  it('stores the email in lower case and computes fullname from the name parts', async () => {
    const address = email('Mixed.Case').replace('example.com', 'Example.COM');
    const user = await invite({ email: address, role: 'guest', firstname: 'Jan', infix: 'van der', lastname: 'Berg' });
    expect(user.email).toBe(address.toLowerCase());
    expect(user.fullname).toBe('Jan van der Berg');
  });

  it('is an invitation, not a generic create: server-owned and other fields in the body are ignored', async () => {
    const address = email('sneaky');
    const user = await invite({
      email: address,
      role: 'member',
      status: 'active',
      id: unknownId,
      username: 'sneaky',
      about: 'not an invite field',
      archived_at: '2026-01-01T00:00:00Z',
      notify_own_changes: true,
    });
    expect(user).toMatchObject({ status: 'invited', username: null, about: null, archived_at: null, notify_own_changes: false });
    expect(user.id).not.toBe(unknownId);
  });

  it('is documented as the invitation: POST /v1/user answers 201 without a body and takes no user record', async () => {
    const doc = (await get(api, '/v1/openapi.json')).paths['/v1/user'];
    expect(doc.post.summary).toMatch(/invite/i);
    expect(doc.post.responses['201']).toBeDefined();
    expect(doc.post.responses['201'].content).toBeUndefined();
    const schema = doc.post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['email', 'role']);
    expect(Object.keys(schema.properties)).not.toContain('status');
    expect(Object.keys(schema.properties)).not.toContain('id');
  });

  it.each(['admin', 'manager', 'organiser', 'member', 'guest'])('accepts role %s', async (role) => {
    expect((await invite({ email: email(role), role })).role).toBe(role);
  });

  it.each(['nl', 'de', 'es', 'fr', 'it', 'pl', 'pt', 'en'])('accepts language %s', async (language) => {
    expect((await invite({ email: email(language), role: 'member', language })).language).toBe(language);
  });

  it('refuses an email that is already taken, in any case, with 422 on email', async () => {
    const address = email('taken');
    await invite({ email: address, role: 'member' });
    for (const variant of [address, address.toUpperCase(), address[0]!.toUpperCase() + address.slice(1)]) {
      const res = await api.http('POST', '/v1/user', { email: variant, role: 'guest' });
      expectFieldErrors(res, ['email']);
    }
    expect((await get(api, `/v1/user?filter=email:eq:'${address}'`)).count).toBe(1);
  });

  const invalid: [string, () => Record<string, unknown>, string[]][] = [
    ['no email', () => ({ role: 'member' }), ['email']],
    ['an email without @', () => ({ email: 'anna.example.com', role: 'member' }), ['email']],
    ['an email without domain dot', () => ({ email: 'anna@example', role: 'member' }), ['email']],
    ['no role', () => ({ email: email() }), ['role']],
    ['role "owner"', () => ({ email: email(), role: 'owner' }), ['role']],
    ['role in upper case', () => ({ email: email(), role: 'Admin' }), ['role']],
    ['language "sv"', () => ({ email: email(), role: 'member', language: 'sv' }), ['language']],
    ['language "EN"', () => ({ email: email(), role: 'member', language: 'EN' }), ['language']],
    ['card_visibility "none"', () => ({ email: email(), role: 'member', card_visibility: 'none' }), ['card_visibility']],
    // The public API's `linked` is not offered: nothing here limits the cards a user reads.
    ['card_visibility "linked"', () => ({ email: email(), role: 'member', card_visibility: 'linked' }), ['card_visibility']],
    ['a timezone that is not IANA (CEST)', () => ({ email: email(), role: 'member', timezone: 'CEST' }), ['timezone']],
    ['a timezone that does not exist (Mars/Olympus)', () => ({ email: email(), role: 'member', timezone: 'Mars/Olympus' }), ['timezone']],
    ['a resource that does not exist', () => ({ email: email(), role: 'member', resource: { id: unknownId } }), ['resource_id']],
    ['a resource id that is no uuid', () => ({ email: email(), role: 'member', resource: { id: 'anna' } }), ['resource_id']],
    ['a resource that is no object', () => ({ email: email(), role: 'member', resource: 'anna' }), ['resource']],
  ];

  it.each(invalid)('refuses %s with 422, inviting nobody', async (_label, body, fields) => {
    const before = (await get(api, '/v1/user?archived=true&limit=0')).count;
    expectFieldErrors(await api.http('POST', '/v1/user', body()), fields);
    expect((await get(api, '/v1/user?archived=true&limit=0')).count).toBe(before);
  });

  it('accepts resource null (no resource) and an IANA timezone', async () => {
    const user = await invite({ email: email('tz'), role: 'member', resource: null, timezone: 'America/New_York' });
    expect(user).toMatchObject({ resource_id: null, timezone: 'America/New_York' });
  });

  it('answers a body that is not an object with 400', async () => {
    const res = await api.http('POST', '/v1/user', ['a@b.c']);
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'Bad Request');
  });
});

describe('user', () => {
  it('updates only the fields sent; status stays server-owned', async () => {
    const user = await invite({ email: email('upd'), role: 'member' });
    const { resource: _resource, ...plain } = user;
    const updated = await update(api, `/v1/user/${user.id}`, {
      role: 'manager',
      language: 'de',
      timezone: 'Asia/Tokyo',
      firstname: 'Eva',
      lastname: 'Klein',
      status: 'active',
      resource_id: resource.id,
    });
    expect(updated).toStrictEqual({
      ...plain,
      role: 'manager',
      language: 'de',
      timezone: 'Asia/Tokyo',
      firstname: 'Eva',
      lastname: 'Klein',
      fullname: 'Eva Klein',
      resource_id: resource.id,
      updated_at: expect.stringMatching(timestampPattern),
    });
  });

  it.each([
    ['role "owner"', { role: 'owner' }, ['role']],
    ['language "xx"', { language: 'xx' }, ['language']],
    ['card_visibility "mine"', { card_visibility: 'mine' }, ['card_visibility']],
    ['timezone "UTC+2"', { timezone: 'UTC+2' }, ['timezone']],
    ['timezone ""', { timezone: '' }, ['timezone']],
    ['email null', { email: null }, ['email']],
    ['resource_id of no resource', { resource_id: unknownId }, ['resource_id']],
  ] as [string, Record<string, unknown>, string[]][])('refuses an update with %s and keeps the user', async (_label, body, fields) => {
    const user = await invite({ email: email('bad-upd'), role: 'member' });
    const { resource: _resource, ...plain } = user;
    expectFieldErrors(await api.http('PUT', `/v1/user/${user.id}`, body), fields);
    expect(await get(api, `/v1/user/${user.id}`)).toStrictEqual(plain);
  });

  it('refuses changing the email to one another user has, in any case; its own email in another case is fine', async () => {
    const first = await invite({ email: email('first'), role: 'member' });
    const second = await invite({ email: email('second'), role: 'member' });
    expectFieldErrors(await api.http('PUT', `/v1/user/${second.id}`, { email: first.email.toUpperCase() }), ['email']);
    const same = await update(api, `/v1/user/${second.id}`, { email: second.email.toUpperCase() });
    expect(same.email).toBe(second.email);
  });

  it('hides archived users from the list unless archived=true', async () => {
    const user = await invite({ email: email('archived'), role: 'guest' });
    await update(api, `/v1/user/${user.id}`, { archived_at: '2026-03-01T09:00:00Z' });
    expect(ids((await get(api, '/v1/user?limit=1000')).data)).not.toContain(user.id);
    const all = await get(api, '/v1/user?archived=true&limit=1000');
    expect(ids(all.data)).toContain(user.id);
    expect(all.data.find((u: any) => u.id === user.id).archived_at).toBe('2026-03-01T09:00:00Z');
    expect((await get(api, `/v1/user/${user.id}`)).archived_at).toBe('2026-03-01T09:00:00Z');
    // An archived user's email still counts as taken.
    expectFieldErrors(await api.http('POST', '/v1/user', { email: user.email, role: 'member' }), ['email']);
  });

  it('deletes a user with 204; then it is 404, and the email may be invited again', async () => {
    const user = await invite({ email: email('gone'), role: 'member' });
    await remove(api, `/v1/user/${user.id}`);
    await expectGone(api, `/v1/user/${user.id}`, { role: 'admin' });
    expect(ids((await get(api, '/v1/user?archived=true&limit=1000')).data)).not.toContain(user.id);
    const again = await invite({ email: user.email, role: 'guest' });
    expect(again.id).not.toBe(user.id);
  });

  it('lists users with the resource embedded', async () => {
    await invite({ email: email('linked'), role: 'member', resource: { id: resource.id } });
    const list = await get(api, `/v1/user?with=resource&filter=resource_id:eq:${resource.id}`);
    expect(list.count).toBeGreaterThan(0);
    for (const user of list.data) expect(user.resource).toMatchObject({ id: resource.id });
  });
});

describe("a user's time entries and board views (with=time_tracking,board_views)", () => {
  /** A board with one stage and a card to track time on, in `on`'s environment. */
  async function workplace(on: TestApi) {
    const activity = await create(on, '/v1/activity', { description: 'Assemble' });
    const board = await create(on, '/v1/board?with=stages', {
      name: 'Assembly',
      stages: [{ name: 'Build' }],
      statuses: [{ name: 'Open', entry: true }],
    });
    const collection = await create(on, '/v1/collection', { name: 'Cabinet', board_id: board.id });
    const card = await create(on, `/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id });
    return { activity, board, card };
  }
  let here: Awaited<ReturnType<typeof workplace>>;
  beforeAll(async () => {
    here = await workplace(api);
  });

  /** An hour and a half on `day` (March 2024) for `user`. */
  const entry = (user: any, day: number, note: string, on = api, at = here) =>
    create(on, '/v1/time_tracking', {
      card_id: at.card.id,
      activity_id: at.activity.id,
      user_id: user.id,
      start: `2024-03-0${day}T08:00:00Z`,
      end: `2024-03-0${day}T09:30:00Z`,
      note,
    });
  const view = (name: string, user: any | null, on = api, at = here) =>
    create(on, `/v1/board/${at.board.id}/view`, { name, ...(user ? { user_id: user.id } : {}) });

  it("reads each user's own time entries, on one user and in a list", async () => {
    const anna = await invite({ email: email('anna.tt'), role: 'member' });
    const ben = await invite({ email: email('ben.tt'), role: 'member' });
    const idle = await invite({ email: email('idle.tt'), role: 'member' });
    const monday = await entry(anna, 4, 'Anna on Monday');
    const bens = await entry(ben, 4, 'Ben on Monday');
    const tuesday = await entry(anna, 5, 'Anna on Tuesday');

    const got = await get(api, `/v1/user/${anna.id}?with=time_tracking.card`);
    expect(ids(got.time_tracking)).toEqual([monday.id, tuesday.id]);
    expect(got.time_tracking[0]).toMatchObject({ user_id: anna.id, duration: 90, note: 'Anna on Monday', card: { id: here.card.id } });

    const list = await get(api, `/v1/user?filter=id:eq:${anna.id},or,id:eq:${ben.id},or,id:eq:${idle.id}&with=time_tracking`);
    const byUser = Object.fromEntries(list.data.map((u: any) => [u.id, ids(u.time_tracking)]));
    expect(byUser).toEqual({ [anna.id]: [monday.id, tuesday.id], [ben.id]: [bens.id], [idle.id]: [] });

    // A deleted entry is no longer among them.
    await remove(api, `/v1/time_tracking/${monday.id}`);
    expect(ids((await get(api, `/v1/user/${anna.id}?with=time_tracking`)).time_tracking)).toEqual([tuesday.id]);
  });

  it('filters users by their time entries: time_tracking.<field> and time_tracking:has:<id>', async () => {
    const cleo = await invite({ email: email('cleo.tt'), role: 'member' });
    const dirk = await invite({ email: email('dirk.tt'), role: 'member' });
    const cleos = await entry(cleo, 6, 'Only Cleo wrote this');
    await entry(dirk, 6, 'Dirk wrote this');
    expect(ids((await get(api, `/v1/user?filter=time_tracking.note:eq:'Only Cleo wrote this'`)).data)).toEqual([cleo.id]);
    expect(ids((await get(api, `/v1/user?filter=time_tracking:has:${cleos.id}`)).data)).toEqual([cleo.id]);
    expect(
      ids((await get(api, `/v1/user?filter=(id:eq:${cleo.id},or,id:eq:${dirk.id}),and,time_tracking:not:has:${cleos.id}`)).data),
    ).toEqual([dirk.id]);
  });

  it("reads the board views that are a user's own; a shared view (user_id null) is no user's", async () => {
    const eva = await invite({ email: email('eva.views'), role: 'member' });
    const finn = await invite({ email: email('finn.views'), role: 'member' });
    const evas = await view('Week of Eva', eva);
    const shared = await view('Week of everyone', null);
    const finns = await view('Month of Finn', finn);
    expect(evas.user_id).toBe(eva.id);
    expect(shared.user_id).toBeNull();

    const got = await get(api, `/v1/user/${eva.id}?with=board_views.board`);
    expect(ids(got.board_views)).toEqual([evas.id]);
    expect(got.board_views[0].board.id).toBe(here.board.id);
    const list = await get(api, `/v1/user?filter=id:eq:${eva.id},or,id:eq:${finn.id}&with=board_views`);
    expect(Object.fromEntries(list.data.map((u: any) => [u.id, ids(u.board_views)]))).toEqual({
      [eva.id]: [evas.id],
      [finn.id]: [finns.id],
    });
    expect(ids((await get(api, `/v1/user?filter=board_views.name:eq:'Month of Finn'`)).data)).toEqual([finn.id]);
    expect(ids((await get(api, `/v1/user?filter=board_views:has:${evas.id}`)).data)).toEqual([eva.id]);
    expect((await get(api, `/v1/user?filter=board_views:has:${shared.id}`)).count).toBe(0);

    // Handed to Finn, the view moves to his list; cleared, it is shared and in nobody's.
    await update(api, `/v1/board/${here.board.id}/view/${evas.id}`, { user_id: finn.id });
    expect(ids((await get(api, `/v1/user/${finn.id}?with=board_views`)).board_views)).toEqual([evas.id, finns.id]);
    await update(api, `/v1/board/${here.board.id}/view/${evas.id}`, { user_id: null });
    expect((await get(api, `/v1/user/${eva.id}?with=board_views`)).board_views).toEqual([]);
    expect(ids((await get(api, `/v1/user/${finn.id}?with=board_views`)).board_views)).toEqual([finns.id]);
  });

  it("never shows another environment's entries or views, whatever with or filter asks", async () => {
    const other = otherEnvironment(api);
    const there = await workplace(other);
    const address = email('twin');
    const ours = await invite({ email: address, role: 'member' });
    const theirs = await invite({ email: address, role: 'member' }, other);
    const ourEntry = await entry(ours, 7, 'Twin entry');
    const theirEntry = await entry(theirs, 7, 'Twin entry', other, there);
    const ourView = await view('Twin view', ours);
    const theirView = await view('Twin view', theirs, other, there);

    const got = await get(api, `/v1/user/${ours.id}?with=time_tracking,board_views`);
    expect(ids(got.time_tracking)).toEqual([ourEntry.id]);
    expect(ids(got.board_views)).toEqual([ourView.id]);
    const seen = await get(other, `/v1/user/${theirs.id}?with=time_tracking,board_views`);
    expect(ids(seen.time_tracking)).toEqual([theirEntry.id]);
    expect(ids(seen.board_views)).toEqual([theirView.id]);

    expect(ids((await get(api, `/v1/user?filter=time_tracking.note:eq:'Twin entry'`)).data)).toEqual([ours.id]);
    expect(ids((await get(api, `/v1/user?filter=board_views.name:eq:'Twin view'`)).data)).toEqual([ours.id]);
    expect((await get(api, `/v1/user?filter=time_tracking:has:${theirEntry.id},or,board_views:has:${theirView.id}`)).count).toBe(0);
    expect((await other.http('GET', `/v1/user/${ours.id}?with=time_tracking`)).status).toBe(404);
    // A view cannot be given to a user of another environment.
    expectFieldErrors(await api.http('POST', `/v1/board/${here.board.id}/view`, { name: 'Not theirs', user_id: theirs.id }), ['user_id']);
  });

  it('offers settings: the user\'s preferences as one object, not nested into (docs/API.md "Relations")', async () => {
    const list = await get(api, '/v1/user?with=resource,settings&limit=1');
    const [user] = list.data;
    expect(user.settings).toStrictEqual({
      language: user.language,
      timezone: user.timezone,
      card_visibility: user.card_visibility,
      notify_own_changes: user.notify_own_changes,
    });
    expect((await get(api, `/v1/user/${user.id}?with=settings&show=settings.language`)).settings).toStrictEqual({
      language: user.language,
    });
    expectBadRequest(await api.http('GET', '/v1/user?with=settings.language'), 'Relation not found: language');
  });
});

describe('me (GET /v1/me)', () => {
  it('tells an API-key caller who it is: type api-key, its environment and the key id', async () => {
    const res = await api.http('GET', '/v1/me');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'api-key',
      environment: { id: api.environment.id, name: api.environment.name },
      'api-key': { id: expect.stringMatching(uuidPattern) },
    });
    expect(res.body).not.toHaveProperty('user');
  });

  it('is 401 without credentials', async () => {
    const res = await fetch(`${api.baseUrl}/v1/me`);
    expect(res.status).toBe(401);
  });
});
