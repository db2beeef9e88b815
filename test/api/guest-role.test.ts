/**
 * The `guest` role and `card_visibility` do what their names say (docs/API.md "Permissions"
 * and "Users", security audit finding 19), over real HTTP with real OAuth Bearer tokens:
 * a guest reads what a member reads and every write is a 403 before its body is read, on every
 * route, their own profile and time included; a guest's replica gets each pushed change back
 * `rejected`. `card_visibility` offers only `all` (nothing here limits the cards a user reads),
 * so `linked` is refused with 422 wherever it could be written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOnlyMessage } from '../../electron/api/permissions.js';
import { formatHlc } from '../../shared/hlc.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { createCard, expectForbidden, startRolesInstance, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';

let roles: RolesInstance;
let cardId: string;
let collectionId: string;
let guest: SignedInUser;
let projectId: string;
let deletedProjectId: string;

async function snapshot(): Promise<string> {
  const parts = await Promise.all(
    [
      '/v1/project?limit=1000',
      '/v1/collection?limit=1000',
      '/v1/card?limit=1000',
      '/v1/time_tracking?limit=1000',
      `/v1/user/${guest.id}`,
      '/v1/trash/project',
    ].map((p) => roles.byKey('GET', p)),
  );
  return JSON.stringify(parts.map((p) => p.body));
}

beforeAll(async () => {
  roles = await startRolesInstance('guests');
  ({ cardId, collectionId } = await createCard(roles.byKey, 'Frames'));
  guest = await roles.signIn('gus@example.com', 'guest');
  projectId = (await roles.byKey('POST', '/v1/project', { name: 'Bridge' })).body.id;
  deletedProjectId = (await roles.byKey('POST', '/v1/project', { name: 'Old bridge' })).body.id;
  expect((await roles.byKey('DELETE', `/v1/project/${deletedProjectId}`)).status).toBe(204);
});

afterAll(async () => {
  await roles?.stop();
});

describe('a guest', () => {
  it('reads the planning, and every write is a 403 with the error body that changes nothing', async () => {
    const asGuest = roles.as(guest);
    for (const path of [
      '/v1/project',
      '/v1/board',
      `/v1/collection/${collectionId}?with=cards`,
      '/v1/time_tracking',
      '/v1/me',
      '/v1/sync/changes?since=0',
    ]) {
      expect((await asGuest('GET', path)).status, path).toBe(200);
    }
    const before = await snapshot();
    const writes: [string, string, unknown?][] = [
      ['POST', '/v1/project', { name: 'Guest project' }],
      ['PUT', `/v1/project/${projectId}`, { name: 'Renamed by a guest' }],
      ['DELETE', `/v1/project/${projectId}`],
      ['POST', `/v1/collection/${collectionId}/card`, { name: 'Guest card' }],
      ['PUT', `/v1/collection/${collectionId}/card/${cardId}`, { name: 'Renamed card' }],
      ['POST', '/v1/time_tracking', { card_id: cardId, start: '2026-01-05T08:00:00Z', end: '2026-01-05T09:00:00Z' }],
      ['POST', '/v1/time_tracking/start', { card_id: cardId }],
      ['POST', '/v1/time_tracking/mark_exported'],
      ['PUT', `/v1/user/${guest.id}`, { firstname: 'Gus' }],
      ['POST', `/v1/trash/project/${deletedProjectId}/restore`],
    ];
    for (const [method, path, body] of writes) {
      const answer = await asGuest(method, path, body);
      expectForbidden(answer, readOnlyMessage);
    }
    // Refused before the body is read: a malformed one is a 403 too, not a 400.
    const malformed = await fetch(`${roles.instance.baseUrl}/v1/project`, {
      method: 'POST',
      headers: { ...guest.headers, 'content-type': 'application/json' },
      body: '{not json',
    });
    expectForbidden({ status: malformed.status, body: await malformed.json() }, readOnlyMessage);
    expect(await snapshot()).toBe(before);
  });

  it('gets each change of their replica back rejected with the reason, and keeps pulling', async () => {
    const hlc = formatHlc({ millis: Date.now(), counter: 0, node: 'gus-replica' });
    const before = await snapshot();
    const push = await roles.as(guest)('POST', '/v1/sync/push', {
      client_id: 'gus-replica',
      mutations: [
        {
          mutation_id: 1,
          resource: 'project',
          id: '01900000-0000-7000-8000-0000000000b1',
          op: 'create',
          fields: { name: 'Offline project' },
          hlc,
        },
        { mutation_id: 2, resource: 'project', id: projectId, op: 'update', fields: { name: 'Renamed offline' }, hlc },
        {
          mutation_id: 3,
          resource: 'time_tracking',
          id: '01900000-0000-7000-8000-0000000000b2',
          op: 'create',
          fields: { card_id: cardId, start: '2026-01-06T08:00:00Z', end: '2026-01-06T09:00:00Z' },
          hlc,
        },
      ],
    });
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    expect(push.body.results.map((r: any) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of push.body.results)
      expect(result.error.errors[0]).toMatchObject({ code: 10403, message: 'Forbidden', description: readOnlyMessage });
    expect(push.body.results[1].record).toMatchObject({ id: projectId, name: 'Bridge' });
    expect(await snapshot()).toBe(before);
    expect((await roles.as(guest)('GET', '/v1/sync/changes?since=0')).status).toBe(200);
  });

  it('writes as soon as an admin makes them a member', async () => {
    const other = await roles.signIn('gia@example.com', 'guest');
    expectForbidden(await roles.as(other)('POST', '/v1/project', { name: 'Too early' }), readOnlyMessage);
    expect((await roles.byKey('PUT', `/v1/user/${other.id}`, { role: 'member' })).status).toBe(200);
    const made = await roles.as(other)('POST', '/v1/project', { name: 'Now allowed' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
});

describe('card_visibility', () => {
  function expectCardVisibilityRefused(answer: { status: number; body: any }) {
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expectErrorBody(answer.body, 10422, 'Unprocessable Content');
    expect(answer.body.errors.map((e: any) => e.field)).toEqual(['card_visibility']);
  }

  it('offers only all: linked is a 422 on invite, update and push, and nothing changes', async () => {
    const users = await roles.byKey('GET', '/v1/user?limit=0');
    expectCardVisibilityRefused(
      await roles.byKey('POST', '/v1/user', { email: 'lin@example.com', role: 'member', card_visibility: 'linked' }),
    );
    expect((await roles.byKey('GET', '/v1/user?limit=0')).body.count).toBe(users.body.count);

    const invited = await roles.byKey('POST', '/v1/user', { email: 'al@example.com', role: 'member', card_visibility: 'all' });
    expect(invited.status).toBe(201);
    const al = (await roles.byKey('GET', "/v1/user?filter=email:eq:'al@example.com'")).body.data[0];
    expect(al.card_visibility).toBe('all');
    expectCardVisibilityRefused(await roles.byKey('PUT', `/v1/user/${al.id as string}`, { card_visibility: 'linked' }));

    const push = await roles.byKey('POST', '/v1/sync/push', {
      client_id: 'admin-replica',
      mutations: [
        {
          mutation_id: 1,
          resource: 'user',
          id: al.id,
          op: 'update',
          fields: { card_visibility: 'linked' },
          hlc: formatHlc({ millis: Date.now(), counter: 0, node: 'admin-replica' }),
        },
      ],
    });
    expect(push.status).toBe(200);
    expect(push.body.results[0]).toMatchObject({ status: 'rejected', error: { errors: [{ code: 10422, field: 'card_visibility' }] } });
    expect((await roles.byKey('GET', `/v1/user/${al.id as string}`)).body).toEqual(al);
  });
});
