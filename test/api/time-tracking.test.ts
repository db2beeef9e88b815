/**
 * Time tracking (`/v1/time_tracking`, docs/API.md "Time tracking",
 * electron/api/resources/time-tracking.ts and time-tracking/routes.ts): the record through the
 * conventions, `duration` in minutes computed by the server, filters, timers (one running timer
 * per user), approval with its transitions and planner roles (signed-in users over OAuth),
 * locking, and marking entries as exported. The report (`/export`) is in
 * time-tracking-report.test.ts.
 *
 * Fixed times in March 2024 (UTC): Mon 04, Tue 05, Wed 06 …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { lockedMessage } from '../../electron/api/resources/time-tracking.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest, expectErrorBody } from '../helpers/api-errors.js';
import { call } from '../helpers/instance.js';
import { signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { expectDuplicate, expectFieldErrors, timestampPattern, unknownId, uuidPattern } from '../helpers/order-data.js';
import { createActivities, createBoard, type Activities, type BoardIds } from '../helpers/planning.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { nowMs } from '../../shared/clock.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const redirectUri = 'https://app.example.com/callback';
const password = 'pass-word-123';
const path = '/v1/time_tracking';

/** Every field a time entry returns (docs/API.md "Time tracking"). */
const specFields = [
  'id',
  'card_id',
  'activity_id',
  'user_id',
  'start',
  'end',
  'duration',
  'status',
  'locked',
  'note',
  'synchronized_at',
  'external_ref',
  'external_note',
  'external_failed',
  'created_at',
  'updated_at',
  'running',
  // Flags of issue 17 (docs/API.md "Time tracking"), computed on read.
  'overlaps',
  'forgotten',
  // Every record carries it (docs/API.md "Records").
  'deleted_at',
];

let api: TestApi;
let activities: Activities;
let north: BoardIds;
let south: BoardIds;
let northCollection: string;
let southCollection: string;
/** Cards: two on the North board (collection N), one on the South board. */
let cardN1: string;
let cardN2: string;
let cardS1: string;
/** Users by role; signed in over OAuth in `signedIn`. */
const users: Record<'admin' | 'manager' | 'organiser' | 'member' | 'guest', string> = {
  admin: '',
  manager: '',
  organiser: '',
  member: '',
  guest: '',
};
const signedIn: Record<string, Record<string, string>> = {};

async function post(p: string, body: unknown): Promise<any> {
  const res = await api.http('POST', p, body);
  expect(res.status, `POST ${p}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}
async function get(p: string): Promise<any> {
  const res = await api.http('GET', p);
  expect(res.status, `GET ${p}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
async function put(p: string, body: unknown): Promise<any> {
  const res = await api.http('PUT', p, body);
  expect(res.status, `PUT ${p}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}
/** A stopped entry on card N1 (2024-03-04 08:00–09:00 UTC) unless the body says otherwise. */
function newEntry(body: Record<string, unknown> = {}): Promise<any> {
  return post(path, { card_id: cardN1, start: '2024-03-04T08:00:00Z', end: '2024-03-04T09:00:00Z', ...body });
}
const entryPath = (id: string) => `${path}/${id}`;
async function count(filter = ''): Promise<number> {
  return (await get(`${path}?limit=0${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`)).count;
}
async function ids(filter: string): Promise<string[]> {
  return (await get(`${path}?limit=1000&filter=${encodeURIComponent(filter)}`)).data.map((e: any) => e.id);
}
/** A request as a signed-in user (Bearer token only, no API key). */
function as(role: keyof typeof users, method: string, p: string, body?: unknown) {
  return call(api.baseUrl, method, p, signedIn[role]!, body);
}
/** GET the card through its collection. */
async function card(collectionId: string, id: string): Promise<any> {
  return get(`/v1/collection/${collectionId}/card/${id}`);
}

beforeAll(async () => {
  api = await startTestApi();
  activities = await createActivities(api, ['Weld', 'Paint']);
  north = await createBoard(api, activities, { name: 'North', stages: [{ name: 'Welding', activities: ['Weld'] }] });
  south = await createBoard(api, activities, { name: 'South', stages: [{ name: 'Painting', activities: ['Paint'] }] });
  northCollection = (await post('/v1/collection', { name: 'Order N', board_id: north.id })).id;
  southCollection = (await post('/v1/collection', { name: 'Order S', board_id: south.id })).id;
  cardN1 = (await post(`/v1/collection/${northCollection}/card`, { stage_id: north.stages.Welding, name: 'N1' })).id;
  cardN2 = (await post(`/v1/collection/${northCollection}/card`, { stage_id: north.stages.Welding, name: 'N2' })).id;
  cardS1 = (await post(`/v1/collection/${southCollection}/card`, { stage_id: south.stages.Painting, name: 'S1' })).id;

  const store = api.dataDir.environment(api.environment.id);
  const ctx = requestContext({ kind: 'api-key' as const, environment: api.environment }, recordsOf(store));
  for (const role of Object.keys(users) as (keyof typeof users)[]) {
    users[role] = (await createUserWithPassword(ctx, { email: `${role}@example.com`, role, firstname: role }, password)).id;
  }
  const made = createClient(api.dataDir.system, {
    name: 'Time app',
    redirect_uris: [redirectUri],
    confidential: true,
    environment_id: null,
  });
  for (const role of Object.keys(users)) {
    const code = await signInForCode(
      api.baseUrl,
      { client_id: made.client.id, redirect_uri: redirectUri, state: 'st' },
      { environment: api.environment.name, email: `${role}@example.com`, password },
    );
    const answer = await tokenRequest(api.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: made.client.id,
      client_secret: made.client_secret!,
      redirect_uri: redirectUri,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    signedIn[role] = { authorization: `Bearer ${answer.body.access_token}` };
  }
});
afterAll(async () => {
  await api.close();
});

describe('the record through the conventions', () => {
  it('stores every documented field and returns exactly those; GET answers the same record', async () => {
    const entry = await post(path, {
      card_id: cardN1,
      activity_id: activities.Weld,
      user_id: users.member,
      // An offset is stored in UTC.
      start: '2024-03-04T09:15:00+01:00',
      end: '2024-03-04T10:45:30+01:00',
      status: 'pending',
      note: 'Welded both sides',
      synchronized_at: '2024-03-05T07:00:00Z',
      external_ref: 'payroll-1',
      external_note: 'Exported to payroll',
      external_failed: true,
    });
    expect(Object.keys(entry).sort()).toEqual([...specFields].sort());
    expect(entry).toEqual({
      id: expect.stringMatching(uuidPattern),
      card_id: cardN1,
      activity_id: activities.Weld,
      user_id: users.member,
      start: '2024-03-04T08:15:00Z',
      end: '2024-03-04T09:45:30Z',
      // 90.5 minutes, rounded.
      duration: 91,
      status: 'pending',
      locked: false,
      running: false,
      note: 'Welded both sides',
      synchronized_at: '2024-03-05T07:00:00Z',
      external_ref: 'payroll-1',
      external_note: 'Exported to payroll',
      external_failed: true,
      overlaps: [],
      forgotten: false,
      deleted_at: null,
      created_at: expect.stringMatching(timestampPattern),
      updated_at: expect.stringMatching(timestampPattern),
    });
    expect(await get(entryPath(entry.id))).toEqual(entry);
    expect(await get(entryPath(entry.id.toUpperCase()))).toEqual(entry);
  });

  it('fills the defaults: status draft, no user for an API key, nothing exported, the activity of a card with one', async () => {
    const entry = await newEntry();
    expect(entry).toMatchObject({
      // N1's stage (Welding) has one activity: an entry that names none gets it.
      activity_id: activities.Weld,
      user_id: null,
      duration: 60,
      status: 'draft',
      locked: false,
      running: false,
      note: null,
      synchronized_at: null,
      external_ref: null,
      external_note: null,
      external_failed: false,
    });
  });

  it('a signed-in user creating an entry becomes its user', async () => {
    const res = await as('member', 'POST', path, { card_id: cardN1, start: '2024-03-05T08:00:00Z', end: '2024-03-05T08:30:00Z' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ user_id: users.member, duration: 30, status: 'draft' });
  });

  it('computes duration in minutes from start and end, rounded to the nearest minute', async () => {
    const cases: [string, string, number][] = [
      ['2024-03-04T08:00:00Z', '2024-03-04T08:00:29Z', 0],
      ['2024-03-04T08:00:00Z', '2024-03-04T08:00:30Z', 1],
      ['2024-03-04T08:00:00Z', '2024-03-04T08:01:29Z', 1],
      ['2024-03-04T08:00:00Z', '2024-03-04T10:30:00Z', 150],
      // Across midnight, up to the 24 hours an entry may last.
      ['2024-03-04T22:00:00Z', '2024-03-05T01:00:00Z', 3 * 60],
      ['2024-03-06T22:00:00Z', '2024-03-07T22:00:00Z', 24 * 60],
      // An end written in another zone than the start.
      ['2024-03-08T08:00:00-05:00', '2024-03-08T15:00:00+01:00', 60],
    ];
    for (const [start, end, minutes] of cases) {
      const entry = await newEntry({ start, end });
      expect(entry.duration, `${start} → ${end}`).toBe(minutes);
      expect(entry.running).toBe(false);
    }
  });

  it('ignores server-owned fields in the body: running as it is, overlaps, forgotten, id, timestamps', async () => {
    const entry = await newEntry({
      running: false,
      overlaps: [unknownId],
      forgotten: true,
      id: unknownId,
      created_at: '2020-01-01T00:00:00Z',
    });
    expect(entry).toMatchObject({ duration: 60, running: false, locked: false, overlaps: [], forgotten: false });
    expect(entry.id).not.toBe(unknownId);
    expect(entry.created_at).not.toBe('2020-01-01T00:00:00Z');
    // (running: false stops a running timer, and running: true on a finished entry is a 422:
    // test/api/write-fields.test.ts.)
    const changed = await put(entryPath(entry.id), { running: false, forgotten: true, overlaps: [] });
    expect(changed).toMatchObject({ duration: 60, running: false, locked: false, end: '2024-03-04T09:00:00Z' });
  });

  it('PUT changes only what is sent and recomputes duration from the new start or end', async () => {
    const entry = await newEntry({ note: 'keep me', activity_id: activities.Weld });
    const later = await put(entryPath(entry.id), { end: '2024-03-04T11:00:00Z' });
    expect(later).toMatchObject({
      start: '2024-03-04T08:00:00Z',
      end: '2024-03-04T11:00:00Z',
      duration: 180,
      note: 'keep me',
      activity_id: activities.Weld,
    });
    const shorter = await put(entryPath(entry.id), { start: '2024-03-04T10:15:00Z' });
    expect(shorter).toMatchObject({ start: '2024-03-04T10:15:00Z', end: '2024-03-04T11:00:00Z', duration: 45 });
    const cleared = await put(entryPath(entry.id), { note: null, activity_id: null });
    expect(cleared).toMatchObject({ note: null, activity_id: null, duration: 45 });
  });

  it('a GET, changed and PUT back whole, saves', async () => {
    const entry = await newEntry({ activity_id: activities.Paint, status: 'pending' });
    const back = await put(entryPath(entry.id), { ...entry, note: 'edited' });
    expect(back).toEqual({ ...entry, note: 'edited', updated_at: expect.stringMatching(timestampPattern) });
  });

  it('DELETE answers 204; afterwards GET, PUT and DELETE answer 404', async () => {
    const entry = await newEntry();
    const res = await api.http('DELETE', entryPath(entry.id));
    expect(res.status).toBe(204);
    expect(res.body === null || res.body === '').toBe(true);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const gone = await api.http(method, entryPath(entry.id), method === 'PUT' ? { note: 'x' } : undefined);
      expect(gone.status, method).toBe(404);
      expectErrorBody(gone.body, 10404, 'Not Found');
    }
  });

  it('an unknown or malformed id is a 404 for GET, PUT, DELETE and stop', async () => {
    for (const id of [unknownId, 'not-a-uuid']) {
      for (const [method, p] of [
        ['GET', entryPath(id)],
        ['PUT', entryPath(id)],
        ['DELETE', entryPath(id)],
        ['POST', `${entryPath(id)}/stop`],
      ] as const) {
        const res = await api.http(method, p, method === 'PUT' ? { note: 'x' } : method === 'POST' ? {} : undefined);
        expect(res.status, `${method} ${p}`).toBe(404);
        expectErrorBody(res.body, 10404, 'Not Found');
      }
    }
  });

  it('external_ref is unique among time entries', async () => {
    await newEntry({ external_ref: 'unique-ref-1' });
    const other = await newEntry();
    const before = await count();
    expectDuplicate(await api.http('POST', path, { card_id: cardN1, start: '2024-03-04T08:00:00Z', external_ref: 'unique-ref-1' }));
    expectDuplicate(await api.http('PUT', entryPath(other.id), { external_ref: 'unique-ref-1' }));
    expect(await count()).toBe(before);
    expect((await get(entryPath(other.id))).external_ref).toBeNull();
  });
});

describe('validation: a clear 422 and nothing written', () => {
  const bad: [string, Record<string, unknown>, string[]][] = [
    ['nothing', {}, ['card_id', 'start']],
    ['an unknown card', { card_id: unknownId, start: '2024-03-04T08:00:00Z' }, ['card_id']],
    ['a card id that is no uuid', { card_id: 'card-1', start: '2024-03-04T08:00:00Z' }, ['card_id']],
    ['an unknown activity and user', { activity_id: unknownId, user_id: unknownId }, ['activity_id', 'user_id']],
    ['a user id that is no uuid', { user_id: 42 }, ['user_id']],
    ['end before start', { start: '2024-03-04T10:00:00Z', end: '2024-03-04T09:59:59Z' }, ['end']],
    ['a start without a zone', { start: '2024-03-04T08:00:00' }, ['start']],
    ['a date that does not exist', { start: '2024-02-30T08:00:00Z' }, ['start']],
    ['an end that is no date-time', { end: 'tomorrow' }, ['end']],
    ['an unknown status', { status: 'done' }, ['status']],
    ['a status a draft cannot get', { status: 'rejected' }, ['status']],
    ['external_failed not a boolean', { external_failed: 'yes' }, ['external_failed']],
    ['a note of the wrong type', { note: 12 }, ['note']],
    ['a null card', { card_id: null }, ['card_id']],
  ];
  for (const [what, body, fields] of bad) {
    it(`POST with ${what}`, async () => {
      const before = await count();
      const full = Object.keys(body).length === 0 ? body : { card_id: cardN1, start: '2024-03-04T08:00:00Z', ...body };
      expectFieldErrors(await api.http('POST', path, full), fields);
      expect(await count()).toBe(before);
    });
  }

  it('PUT with end before start, an unknown card or a bad status changes nothing', async () => {
    const entry = await newEntry({ note: 'as it was' });
    const attempts: [Record<string, unknown>, string[]][] = [
      [{ end: '2024-03-04T07:00:00Z', note: 'changed' }, ['end']],
      [{ start: '2024-03-04T09:30:00Z' }, ['end']],
      [{ card_id: unknownId, note: 'changed' }, ['card_id']],
      [{ card_id: 'nope' }, ['card_id']],
      [{ start: null }, ['start']],
      [{ status: 'approved', end: null }, ['status']],
      [{ status: 'weird', note: 'changed' }, ['status']],
    ];
    for (const [body, fields] of attempts) {
      expectFieldErrors(await api.http('PUT', entryPath(entry.id), body), fields);
      expect(await get(entryPath(entry.id)), JSON.stringify(body)).toEqual(entry);
    }
  });

  it('a body that is not a JSON object is a 400', async () => {
    const before = await count();
    expectBadRequest(await api.http('POST', path, '[1,2]'));
    expectBadRequest(await api.http('POST', path, '{"card_id":'));
    expect(await count()).toBe(before);
  });
});

describe('filters', () => {
  const made: Record<string, string> = {};
  beforeAll(async () => {
    // Their own card, so the other tests' entries stay out of the counts.
    const filterCard = (await post(`/v1/collection/${southCollection}/card`, { stage_id: south.stages.Painting, name: 'Filters' })).id;
    const entries: [string, Record<string, unknown>][] = [
      [
        'a',
        {
          card_id: filterCard,
          user_id: users.member,
          activity_id: activities.Paint,
          start: '2024-03-11T08:00:00Z',
          end: '2024-03-11T12:00:00Z',
          status: 'draft',
        },
      ],
      [
        'b',
        {
          card_id: filterCard,
          user_id: users.member,
          activity_id: activities.Weld,
          start: '2024-03-12T08:00:00Z',
          end: '2024-03-12T09:00:00Z',
          status: 'pending',
        },
      ],
      [
        'c',
        {
          card_id: filterCard,
          user_id: users.guest,
          activity_id: activities.Paint,
          start: '2024-03-13T08:00:00Z',
          end: '2024-03-13T16:00:00Z',
          status: 'approved',
        },
      ],
      ['d', { card_id: filterCard, user_id: users.guest, activity_id: null, start: '2024-03-14T08:00:00Z', end: null, status: 'draft' }],
    ];
    for (const [name, body] of entries) made[name] = (await post(path, body)).id;
    made.card = filterCard;
  });
  const expectIds = async (filter: string, names: string[]) => {
    expect((await ids(`card_id:eq:'${made.card}',and,(${filter})`)).sort(), filter).toEqual(names.map((n) => made[n]).sort());
  };

  it('on card_id, user_id, activity_id and status', async () => {
    expect((await ids(`card_id:eq:'${made.card}'`)).sort()).toEqual([made.a, made.b, made.c, made.d].sort());
    await expectIds(`user_id:eq:'${users.member}'`, ['a', 'b']);
    await expectIds(`activity_id:eq:'${activities.Paint}'`, ['a', 'c']);
    await expectIds('activity_id:eq:null', ['d']);
    await expectIds('status:eq:approved', ['c']);
    await expectIds('status:not:eq:draft', ['b', 'c']);
    await expectIds('running:eq:true', ['d']);
    await expectIds('locked:eq:true', ['c']);
  });

  it('on start and end ranges', async () => {
    await expectIds('start:gte:2024-03-12T00:00:00Z,and,start:lt:2024-03-14T00:00:00Z', ['b', 'c']);
    await expectIds('end:gt:2024-03-11T12:00:00Z', ['b', 'c']);
    await expectIds('end:lte:2024-03-12T09:00:00Z', ['a', 'b']);
    await expectIds('end:eq:null', ['d']);
    await expectIds('duration:gte:240', ['a', 'c']);
  });

  it('through the card: card.board_id and card.collection_id', async () => {
    const onNorth = await ids(`card.board_id:eq:'${north.id}'`);
    const onSouth = await ids(`card.board_id:eq:'${south.id}'`);
    expect(onSouth).toEqual(expect.arrayContaining([made.a, made.b, made.c, made.d]));
    expect(onNorth.some((id) => [made.a, made.b, made.c, made.d].includes(id))).toBe(false);
    expect(await ids(`card.collection_id:eq:'${southCollection}'`)).toEqual(onSouth);
    expect(onNorth.length + onSouth.length).toBe(await count());
  });

  it('an unknown field or a bad value is a 400 naming it', async () => {
    expectBadRequest(await api.http('GET', `${path}?filter=${encodeURIComponent('minutes:gt:5')}`), 'minutes');
    expectBadRequest(await api.http('GET', `${path}?filter=${encodeURIComponent('card.nothing:eq:1')}`), 'nothing');
    expectBadRequest(await api.http('GET', `${path}?filter=${encodeURIComponent('duration:gt:abc')}`), 'abc');
  });
});

describe('timers', () => {
  it('start, running, stop: one running timer per user; starting another stops the previous at the new start', async () => {
    const user = users.organiser;
    expect((await get(`${path}/running?user_id=${user}`)).data).toBeNull();
    const before = nowMs();
    const first = await post(`${path}/start`, { card_id: cardN1, activity_id: activities.Weld, note: 'first', user_id: user });
    expect(first).toMatchObject({
      card_id: cardN1,
      activity_id: activities.Weld,
      note: 'first',
      user_id: user,
      end: null,
      duration: null,
      running: true,
      status: 'draft',
      locked: false,
    });
    // Now, to the second.
    expect(first.start).toMatch(timestampPattern);
    expect(Date.parse(first.start)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(first.start)).toBeLessThanOrEqual(nowMs());
    expect((await get(`${path}/running?user_id=${user}`)).data).toEqual(first);
    expect((await card(northCollection, cardN1)).time_tracking_running).toBe(true);

    const second = await post(`${path}/start`, { card_id: cardS1, user_id: user });
    const stopped = await get(entryPath(first.id));
    expect(stopped).toMatchObject({
      running: false,
      end: second.start,
      duration: Math.round((Date.parse(second.start) - Date.parse(first.start)) / 60_000),
    });
    expect((await get(`${path}/running?user_id=${user}`)).data.id).toBe(second.id);
    expect(await ids(`user_id:eq:'${user}',and,running:eq:true`)).toEqual([second.id]);
    expect((await card(northCollection, cardN1)).time_tracking_running).toBe(false);
    expect((await card(southCollection, cardS1)).time_tracking_running).toBe(true);
    // Who booked on a card last, and when: the board shows who started it, and who finished it.
    expect((await card(southCollection, cardS1)).time_tracking_last).toEqual({
      user_id: user,
      user_name: 'organiser',
      start: second.start,
      end: null,
    });
    expect((await card(northCollection, cardN1)).time_tracking_last).toEqual({
      user_id: user,
      user_name: 'organiser',
      start: first.start,
      end: second.start,
    });

    // Another user's timer is not touched.
    const other = await post(`${path}/start`, { card_id: cardN2, user_id: users.admin });
    expect((await get(entryPath(second.id))).running).toBe(true);

    // Stop at a given end: duration follows.
    const end = new Date(Date.parse(second.start) + 45 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const done = await api.http('POST', `${path}/${second.id}/stop`, { end });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ id: second.id, running: false, end, duration: 45 });
    const res = await api.http('POST', `${path}/${second.id}/stop`, { end });
    expect(res.status).toBe(409);
    expectErrorBody(res.body, 10409, 'Conflict');
    expect(await get(entryPath(second.id))).toMatchObject({ running: false, end, duration: 45 });
    expect((await get(`${path}/running?user_id=${user}`)).data).toBeNull();
    expect((await get(entryPath(other.id))).running).toBe(true);
    await api.http('POST', `${path}/stop`, { user_id: users.admin });
  });

  it('stop answers 200 with the stopped entry; a second stop is a 409; stop with nothing running is a 404', async () => {
    const user = users.manager;
    const timer = await post(`${path}/start`, { card_id: cardN1, user_id: user });
    const stop = await api.http('POST', `${path}/${timer.id}/stop`);
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body).toMatchObject({ id: timer.id, running: false, duration: expect.any(Number) });
    expect(stop.body.end >= timer.start).toBe(true);
    const again = await api.http('POST', `${path}/${timer.id}/stop`);
    expect(again.status).toBe(409);
    expectErrorBody(again.body, 10409, 'Conflict');
    expect(await get(entryPath(timer.id))).toEqual(stop.body);

    const none = await api.http('POST', `${path}/stop`, { user_id: user });
    expect(none.status).toBe(404);
    expectErrorBody(none.body, 10404, 'Not Found');
    // An entry that was never running cannot be stopped either.
    const plain = await newEntry();
    expect((await api.http('POST', `${path}/${plain.id}/stop`)).status).toBe(409);
    expect(await get(entryPath(plain.id))).toEqual(plain);
  });

  it("POST /stop stops the named user's running timer, at the given end", async () => {
    const user = users.guest;
    const timer = await post(path, { card_id: cardN2, user_id: user, start: '2024-03-06T08:00:00Z' });
    expect(timer).toMatchObject({ running: true, end: null, duration: null });
    const res = await api.http('POST', `${path}/stop`, { user_id: user, end: '2024-03-06T11:20:00Z' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: timer.id, running: false, end: '2024-03-06T11:20:00Z', duration: 200 });
  });

  it("creating an entry without end is a timer too: it stops the user's running one at its start", async () => {
    const user = users.guest;
    const earlier = await post(path, { card_id: cardN1, user_id: user, start: '2024-03-07T08:00:00Z' });
    const later = await post(path, { card_id: cardN2, user_id: user, start: '2024-03-07T09:30:00Z' });
    expect(await get(entryPath(earlier.id))).toMatchObject({ running: false, end: '2024-03-07T09:30:00Z', duration: 90 });
    expect(later.running).toBe(true);
    // Reopening a stopped entry (end: null) makes it the running one.
    const reopened = await put(entryPath(earlier.id), { end: null });
    expect(reopened).toMatchObject({ running: true, end: null, duration: null });
    expect(await ids(`user_id:eq:'${user}',and,running:eq:true`)).toEqual([earlier.id]);
    await api.http('POST', `${path}/stop`, { user_id: user });
  });

  it('bad timer input is a 422 and leaves the running timer alone', async () => {
    const user = users.admin;
    const timer = await post(`${path}/start`, { card_id: cardN1, user_id: user });
    const before = await count();
    expectFieldErrors(await api.http('POST', `${path}/start`, { card_id: unknownId, user_id: user }), ['card_id']);
    expectFieldErrors(await api.http('POST', `${path}/start`, { user_id: user }), ['card_id']);
    expectFieldErrors(await api.http('POST', `${path}/start`, { card_id: cardN1, user_id: 'someone' }), ['user_id']);
    expectFieldErrors(await api.http('POST', `${path}/start`, { card_id: cardN1, user_id: unknownId }), ['user_id']);
    expectFieldErrors(await api.http('POST', `${path}/start`, { card_id: cardN1, user_id: user, activity_id: 'x' }), ['activity_id']);
    expectBadRequest(await api.http('POST', `${path}/start`, '"card"'));
    expect(await count()).toBe(before);
    expect(await get(entryPath(timer.id))).toEqual(timer);

    expectFieldErrors(await api.http('POST', `${path}/${timer.id}/stop`, { end: '2000-01-01T00:00:00Z' }), ['end']);
    expectFieldErrors(await api.http('POST', `${path}/${timer.id}/stop`, { end: 'soon' }), ['end']);
    expectFieldErrors(await api.http('POST', `${path}/stop`, { user_id: user, end: '2000-01-01T00:00:00Z' }), ['end']);
    expectFieldErrors(await api.http('POST', `${path}/stop`, { user_id: 'nobody' }), ['user_id']);
    expectFieldErrors(await api.http('GET', `${path}/running?user_id=nobody`), ['user_id']);
    expect(await get(entryPath(timer.id))).toEqual(timer);
    expect((await get(`${path}/running?user_id=${user}`)).data).toEqual(timer);
    await api.http('POST', `${path}/${timer.id}/stop`);
  });

  it("an API key without user_id keeps the timer of no user (the desktop app's), apart from the users' timers", async () => {
    const userTimer = await post(`${path}/start`, { card_id: cardN2, user_id: users.manager });
    const first = await post(`${path}/start`, { card_id: cardN1 });
    expect(first).toMatchObject({ user_id: null, running: true });
    expect((await get(`${path}/running`)).data).toEqual(first);
    const second = await post(`${path}/start`, { card_id: cardS1 });
    expect(await get(entryPath(first.id))).toMatchObject({ running: false, end: second.start });
    expect((await get(entryPath(userTimer.id))).running).toBe(true);
    const stop = await api.http('POST', `${path}/stop`);
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ id: second.id, running: false });
    expect((await get(`${path}/running`)).data).toBeNull();
    expect((await get(`${path}/running?user_id=${users.manager}`)).data.id).toBe(userTimer.id);
    await api.http('POST', `${path}/stop`, { user_id: users.manager });
  });

  it('a signed-in user starts, sees and stops their own timer without naming themselves', async () => {
    const start = await as('member', 'POST', `${path}/start`, { card_id: cardS1 });
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    expect(start.body).toMatchObject({ user_id: users.member, running: true });
    const running = await as('member', 'GET', `${path}/running`);
    expect(running.status).toBe(200);
    expect(running.body.data.id).toBe(start.body.id);
    // Another signed-in user does not see it.
    // The guest's timers of the tests before stop at a real end, an hour after they started:
    // stopped now, the one of the filter tests (2024) would last more than the 24 hours an
    // entry may.
    for (let i = 0; i < 5; i++) {
      const guestTimer = (await api.http('GET', `${path}/running?user_id=${users.guest}`)).body.data;
      if (!guestTimer) break;
      const stopped = await api.http('POST', `${path}/stop`, {
        user_id: users.guest,
        end: new Date(Date.parse(guestTimer.start) + 3_600_000).toISOString(),
      });
      expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    }
    expect((await as('guest', 'GET', `${path}/running`)).body).toEqual({ data: null });
    const stop = await as('member', 'POST', `${path}/stop`);
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body).toMatchObject({ id: start.body.id, running: false });
    expect((await as('member', 'GET', `${path}/running`)).body.data).toBeNull();
    const none = await as('member', 'POST', `${path}/stop`);
    expect(none.status).toBe(404);
  });
});

describe('approval and locking', () => {
  const statuses = ['draft', 'pending', 'approved', 'rejected'] as const;
  type Status = (typeof statuses)[number];
  /** docs/API.md "Approval": every allowed change; planner-only ones marked. */
  const allowed: Record<Status, Partial<Record<Status, 'anyone' | 'planner'>>> = {
    draft: { pending: 'anyone', approved: 'planner' },
    pending: { approved: 'planner', rejected: 'planner', draft: 'anyone' },
    rejected: { draft: 'anyone', pending: 'anyone' },
    approved: { pending: 'planner' },
  };
  /** An entry in `status`, reached through allowed steps by the API key. */
  async function entryIn(status: Status, body: Record<string, unknown> = {}): Promise<any> {
    const entry = await newEntry({ status: status === 'rejected' ? 'pending' : status, ...body });
    return status === 'rejected' ? put(entryPath(entry.id), { status: 'rejected' }) : entry;
  }

  it('only the documented status changes are allowed; any other is a 422 on status', async () => {
    for (const from of statuses) {
      for (const to of statuses) {
        if (to === from) continue;
        const entry = await entryIn(from);
        const res = await api.http('PUT', entryPath(entry.id), { status: to });
        if (allowed[from][to]) {
          expect(res.status, `${from} → ${to}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(res.body).toMatchObject({ status: to, locked: to === 'approved' });
        } else {
          expectFieldErrors(res, ['status']);
          expect(await get(entryPath(entry.id)), `${from} → ${to}`).toEqual(entry);
        }
      }
    }
  });

  it("the 422 names the change; a locked entry's names the lock", async () => {
    const draft = await entryIn('draft');
    const res = await api.http('PUT', entryPath(draft.id), { status: 'rejected' });
    expect(res.body.errors[0].description).toBe('status cannot change from draft to rejected');
    const approved = await entryIn('approved');
    const locked = await api.http('PUT', entryPath(approved.id), { status: 'draft' });
    expectFieldErrors(locked, ['status']);
    expect(locked.body.errors[0].description).toBe(lockedMessage);
  });

  it('an approved entry is locked: changes and deletes are a 422 saying so, and nothing changes', async () => {
    const entry = await entryIn('approved', { note: 'final', activity_id: activities.Weld });
    expect(entry).toMatchObject({ status: 'approved', locked: true });
    for (const body of [
      { note: 'changed' },
      { end: '2024-03-04T10:00:00Z' },
      { card_id: cardS1 },
      { activity_id: null },
      { user_id: users.member },
      { status: 'approved', note: 'changed' },
      { status: 'draft' },
      { status: 'pending', note: 'changed' },
    ]) {
      const res = await api.http('PUT', entryPath(entry.id), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expectErrorBody(res.body, 10422, 'Unprocessable Content');
      expect(res.body.errors.map((e: any) => e.description)).toEqual([lockedMessage]);
      expect(await get(entryPath(entry.id))).toEqual(entry);
    }
    const del = await api.http('DELETE', entryPath(entry.id));
    expect(del.status).toBe(422);
    expectErrorBody(del.body, 10422, 'Unprocessable Content');
    expect(del.body.errors.map((e: any) => e.description)).toEqual([lockedMessage]);
    expect(await get(entryPath(entry.id))).toEqual(entry);
  });

  it('a locked entry keeps its export fields writable, and takes itself back unchanged', async () => {
    const entry = await entryIn('approved');
    // GET, PUT back whole: nothing changes, so nothing is refused.
    expect(await put(entryPath(entry.id), entry)).toMatchObject({ ...entry, updated_at: expect.any(String) });
    // Payroll writes back its reference, or that it failed.
    const failed = await put(entryPath(entry.id), { external_failed: true, external_note: 'No contract for this week' });
    expect(failed).toMatchObject({ status: 'approved', locked: true, external_failed: true, external_note: 'No contract for this week' });
    const synced = await put(entryPath(entry.id), {
      ...failed,
      external_failed: false,
      external_ref: 'payroll-lock-1',
      synchronized_at: '2024-03-10T12:00:00Z',
    });
    expect(synced).toMatchObject({
      status: 'approved',
      locked: true,
      external_failed: false,
      external_ref: 'payroll-lock-1',
      synchronized_at: '2024-03-10T12:00:00Z',
      duration: 60,
    });
    // … but not with a change of the time in the same body.
    const mixed = await api.http('PUT', entryPath(entry.id), { external_note: 'and', note: 'this' });
    expectFieldErrors(mixed, ['status']);
    expect(await get(entryPath(entry.id))).toEqual(synced);
  });

  it('a planner reopens a locked entry (approved → pending); then it can change and be deleted', async () => {
    const entry = await entryIn('approved');
    const reopened = await put(entryPath(entry.id), { status: 'pending' });
    expect(reopened).toMatchObject({ status: 'pending', locked: false });
    expect(await put(entryPath(entry.id), { note: 'corrected' })).toMatchObject({ note: 'corrected' });
    expect((await api.http('DELETE', entryPath(entry.id))).status).toBe(204);
  });

  it('a running timer cannot be approved', async () => {
    const timer = await post(path, { card_id: cardN1, start: '2024-03-08T08:00:00Z', user_id: users.manager });
    expectFieldErrors(await api.http('PUT', entryPath(timer.id), { status: 'approved' }), ['status']);
    expectFieldErrors(
      await api.http('POST', path, { card_id: cardN1, start: '2024-03-08T09:00:00Z', status: 'approved', user_id: users.manager }),
      ['status'],
    );
    expect(await get(entryPath(timer.id))).toEqual(timer);
    await api.http('POST', `${path}/${timer.id}/stop`, { end: '2024-03-08T09:00:00Z' });
  });

  for (const role of ['admin', 'manager', 'organiser'] as const) {
    it(`a signed-in ${role} approves, rejects and reopens`, async () => {
      const first = await entryIn('pending');
      const approved = await as(role, 'PUT', entryPath(first.id), { status: 'approved' });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expect(approved.body).toMatchObject({ status: 'approved', locked: true });
      const reopened = await as(role, 'PUT', entryPath(first.id), { status: 'pending' });
      expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);
      expect(reopened.body).toMatchObject({ status: 'pending', locked: false });
      const rejected = await as(role, 'PUT', entryPath(first.id), { status: 'rejected' });
      expect(rejected.status).toBe(200);
      const draft = await entryIn('draft');
      expect((await as(role, 'PUT', entryPath(draft.id), { status: 'approved' })).status).toBe(200);
      const created = await as(role, 'POST', path, {
        card_id: cardN1,
        start: '2024-03-04T08:00:00Z',
        end: '2024-03-04T09:00:00Z',
        status: 'approved',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ status: 'approved', locked: true, user_id: users[role] });
    });
  }

  // A guest writes nothing at all (guest-role.test.ts).
  for (const role of ['member'] as const) {
    it(`a signed-in ${role} submits and withdraws, but approving, rejecting and reopening are a 403 that change nothing`, async () => {
      const own = await as(role, 'POST', path, { card_id: cardN1, start: '2024-03-04T08:00:00Z', end: '2024-03-04T09:00:00Z' });
      expect(own.status).toBe(201);
      const submitted = await as(role, 'PUT', entryPath(own.body.id), { status: 'pending' });
      expect(submitted.status).toBe(200);
      for (const to of ['approved', 'rejected']) {
        const res = await as(role, 'PUT', entryPath(own.body.id), { status: to, note: 'sneaky' });
        expect(res.status, `${to}: ${JSON.stringify(res.body)}`).toBe(403);
        expectErrorBody(res.body, 10403, 'Forbidden');
        expect(res.body.errors[0].description).toContain('admin, manager or organiser');
        expect(await get(entryPath(own.body.id))).toEqual(submitted.body);
      }
      expect((await as(role, 'PUT', entryPath(own.body.id), { status: 'draft' })).status).toBe(200);
      expect((await as(role, 'PUT', entryPath(own.body.id), { status: 'approved' })).status).toBe(403);

      const before = await count();
      const direct = await as(role, 'POST', path, {
        card_id: cardN1,
        start: '2024-03-04T08:00:00Z',
        end: '2024-03-04T09:00:00Z',
        status: 'approved',
      });
      expect(direct.status).toBe(403);
      expectErrorBody(direct.body, 10403, 'Forbidden');
      expect(await count()).toBe(before);

      const locked = await entryIn('approved', { user_id: users[role] });
      const reopen = await as(role, 'PUT', entryPath(locked.id), { status: 'pending' });
      expect(reopen.status).toBe(403);
      const change = await as(role, 'PUT', entryPath(locked.id), { note: 'mine now' });
      expect(change.status).toBe(422);
      expect(change.body.errors[0].description).toBe(lockedMessage);
      expect((await as(role, 'DELETE', entryPath(locked.id))).status).toBe(422);
      expect(await get(entryPath(locked.id))).toEqual(locked);
    });
  }
});

describe('exports to outside systems: mark_exported', () => {
  let northEntries: string[];
  let southEntries: string[];
  beforeAll(async () => {
    // Their own cards, so only these entries are on them.
    const n = (await post(`/v1/collection/${northCollection}/card`, { stage_id: north.stages.Welding, name: 'Export N' })).id;
    const s = (await post(`/v1/collection/${southCollection}/card`, { stage_id: south.stages.Painting, name: 'Export S' })).id;
    northEntries = [];
    southEntries = [];
    for (let i = 0; i < 3; i++)
      northEntries.push((await newEntry({ card_id: n, external_failed: true, status: i === 0 ? 'approved' : 'pending' })).id);
    for (let i = 0; i < 2; i++) southEntries.push((await newEntry({ card_id: s })).id);
    (northEntries as any).card = n;
    (southEntries as any).card = s;
  });

  it('marks the entries a relation filter selects, once; all=true marks them again', async () => {
    const n = (northEntries as any).card as string;
    const s = (southEntries as any).card as string;
    const filter = encodeURIComponent(`card.board_id:eq:'${north.id}',and,card_id:eq:'${n}'`);
    const before = new Date(nowMs() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const res = await api.http('POST', `${path}/mark_exported?filter=${filter}`, { external_note: 'Invoice 2024-031' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ count: 3, synchronized_at: expect.stringMatching(timestampPattern) });
    expect(res.body.synchronized_at >= before).toBe(true);
    for (const id of northEntries) {
      // Approved (locked) entries are exported too: that is what they are for.
      expect(await get(entryPath(id))).toMatchObject({
        synchronized_at: res.body.synchronized_at,
        external_failed: false,
        external_note: 'Invoice 2024-031',
      });
    }
    for (const id of southEntries) expect(await get(entryPath(id))).toMatchObject({ synchronized_at: null, external_note: null });
    expect(await ids(`card_id:eq:'${n}',and,synchronized_at:eq:null`)).toEqual([]);

    const again = await api.http('POST', `${path}/mark_exported?filter=${filter}`);
    expect(again.body.count).toBe(0);
    expect((await get(entryPath(northEntries[0]!))).synchronized_at).toBe(res.body.synchronized_at);

    const all = await api.http('POST', `${path}/mark_exported?filter=${filter}&all=true`);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(3);
    // Without external_note the note stays.
    expect((await get(entryPath(northEntries[1]!))).external_note).toBe('Invoice 2024-031');

    const bySouthCollection = await api.http(
      'POST',
      `${path}/mark_exported?filter=${encodeURIComponent(`card.collection_id:eq:'${southCollection}',and,card_id:eq:'${s}'`)}`,
    );
    expect(bySouthCollection.body.count).toBe(2);
  });

  it('a bad filter is a 400 and a bad note a 422; nothing is marked', async () => {
    const fresh = await newEntry();
    expectBadRequest(await api.http('POST', `${path}/mark_exported?filter=${encodeURIComponent('card.nope:eq:1')}`), 'nope');
    expectFieldErrors(
      await api.http('POST', `${path}/mark_exported?filter=${encodeURIComponent(`id:eq:'${fresh.id}'`)}`, { external_note: 5 }),
      ['external_note'],
    );
    expectBadRequest(await api.http('POST', `${path}/mark_exported`, '[]'));
    expect(await get(entryPath(fresh.id))).toEqual(fresh);
  });

  it('integrations set external_ref, external_note, external_failed and synchronized_at themselves', async () => {
    const entry = await newEntry();
    const failed = await put(entryPath(entry.id), { external_failed: true, external_note: 'Payroll refused: no contract' });
    expect(failed).toMatchObject({ external_failed: true, external_note: 'Payroll refused: no contract', synchronized_at: null });
    const synced = await put(entryPath(entry.id), {
      external_failed: false,
      external_ref: 'payroll-77',
      synchronized_at: '2024-03-09T10:00:00+01:00',
    });
    expect(synced).toMatchObject({ external_failed: false, external_ref: 'payroll-77', synchronized_at: '2024-03-09T09:00:00Z' });
    expect(await ids(`external_ref:eq:'payroll-77'`)).toEqual([entry.id]);
  });
});
