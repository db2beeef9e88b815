/**
 * What a user is notified about (docs/API.md "Notifications"): `notify_exceptions` on their
 * own user record, a list of exception kinds, none by default. It is part of the record, so it
 * syncs with the user like the rest of it; each user chooses their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exceptionKinds } from '../../shared/exceptions.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectForbidden, startRolesInstance, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';

let api: TestApi;
let userId: string;

useSeededApi(async (started) => {
  api = started;
  const invited = await api.http('POST', '/v1/user', { email: 'notified@example.com', role: 'organiser', firstname: 'Noor' });
  expect(invited.status).toBe(201);
  const found = await api.http('GET', `/v1/user?filter=email:eq:'notified@example.com'`);
  userId = found.body.data[0].id;
});

async function kindsOf(id: string): Promise<unknown> {
  const res = await api.http('GET', `/v1/user/${id}`);
  expect(res.status).toBe(200);
  return res.body.notify_exceptions;
}

describe('notify_exceptions on a user', () => {
  it('is empty for a new user: nobody is notified of anything they did not choose', async () => {
    expect(await kindsOf(userId)).toEqual([]);
  });

  it('keeps the kinds chosen, in their order', async () => {
    const res = await api.http('PUT', `/v1/user/${userId}`, { notify_exceptions: ['over_capacity', 'late_collection'] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.notify_exceptions).toEqual(['over_capacity', 'late_collection']);
    expect(await kindsOf(userId)).toEqual(['over_capacity', 'late_collection']);
  });

  it.each([
    ['an unknown kind', ['late_collection', 'coffee_break'], 'coffee_break'],
    ['a kind twice', ['over_capacity', 'over_capacity'], 'at most once'],
    ['not a list', 'late_collection', 'must be an array'],
    ['a number in the list', [3], 'unknown exception kind'],
  ])('refuses %s with a 422 naming the field, and keeps what was there', async (_what, value, mention) => {
    const before = await kindsOf(userId);
    const res = await api.http('PUT', `/v1/user/${userId}`, { notify_exceptions: value });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    const problem = res.body.errors.find((e: any) => e.field === 'notify_exceptions');
    expect(problem?.description).toContain(mention);
    expect(await kindsOf(userId)).toEqual(before);
  });

  it('takes every kind the inbox lists', async () => {
    const res = await api.http('PUT', `/v1/user/${userId}`, { notify_exceptions: [...exceptionKinds] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await kindsOf(userId)).toEqual([...exceptionKinds]);
  });
});

describe('a signed-in user and their notifications', () => {
  let roles: RolesInstance;
  let max: SignedInUser;
  let mia: SignedInUser;

  beforeAll(async () => {
    roles = await startRolesInstance('notified');
    max = await roles.signIn('max@example.com', 'member');
    mia = await roles.signIn('mia@example.com', 'member');
  });

  afterAll(async () => {
    await roles?.stop();
  });

  it('a member chooses their own kinds, never another user’s: 403 that writes nothing', async () => {
    const own = await roles.as(max)('PUT', `/v1/user/${max.id}`, { notify_exceptions: ['timer_running'] });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.notify_exceptions).toEqual(['timer_running']);
    expectForbidden(await roles.as(max)('PUT', `/v1/user/${mia.id}`, { notify_exceptions: ['timer_running'] }));
    expect((await roles.byKey('GET', `/v1/user/${mia.id}`)).body.notify_exceptions).toEqual([]);
  });
});
