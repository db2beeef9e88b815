/**
 * Kiosk mode of the floor (docs/API.md "The floor", docs/decisions/kiosk-pins.md): PINs of 4 to
 * 6 digits set by their user or a planner and never read back; kiosks of a board or a stage,
 * revocable at once; an operator's PIN on a kiosk opens a short sign-in as them for the floor's
 * routes only; wrong PINs lock the PIN for a growing time and the kiosk after too many. Over
 * real HTTP, on SQLite and (vitest's postgres project) on PostgreSQL.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { kioskWrongPinLimit, pinTriesBeforeLock } from '../../electron/api/oauth/kiosk-routes.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { nowMs, startClockAt } from '../../shared/clock.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { call } from '../helpers/instance.js';
import { fixTheClock, testToday } from '../helpers/test-clock.js';

fixTheClock();
afterAll(() => fixTheClock());

const password = 'pass-word-123';
let api: TestApi;
const users: Record<'max' | 'mia' | 'tom' | 'bob' | 'pia', string> = { max: '', mia: '', tom: '', bob: '', pia: '' };
let boardA = '';
let stageB = '';
let cardOfMax = '';

async function made(path: string, body: unknown): Promise<any> {
  const res = await api.http('POST', path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

useSeededApi(async (seeded) => {
  api = seeded;
  const a = await made('/v1/board?with=stages,statuses', {
    name: 'Welding shop',
    stages: [{ name: 'Welding' }],
    statuses: [
      { name: 'Todo', entry: true, priority: 0 },
      { name: 'Done', exit: true, priority: 1 },
    ],
  });
  const b = await made('/v1/board?with=stages', { name: 'Paint shop', stages: [{ name: 'Painting' }] });
  boardA = a.id;
  stageB = b.stages[0].id;
  const onA = { boards: [{ id: a.id, active: true, stages: [] }] };
  const max = await made('/v1/resource', { name: 'Max', ...onA });
  const mia = await made('/v1/resource', { name: 'Mia', ...onA });
  const tom = await made('/v1/resource', { name: 'Tom', ...onA });
  const bob = await made('/v1/resource', { name: 'Bob', boards: [{ id: b.id, active: true, stages: [{ id: stageB }] }] });
  const activity = await made('/v1/activity', { description: 'Welding', default_duration: 30 });
  const order = await made('/v1/order', { code: 'SO-7', description: 'Gates', board_id: a.id });
  const card = await made(`/v1/collection/${order.collection_id}/card`, {
    stage_id: a.stages[0].id,
    start_date: testToday,
    end_date: testToday,
    resources: [{ id: max.id }],
    activities: [{ id: activity.id, time: 120 }],
  });
  cardOfMax = card.id;
  // As test/api/floor.test.ts does: the seed is written to the data folder, then (postgres project) copied.
  const ctx = requestContext({ kind: 'api-key', environment: api.environment }, recordsOf(api.dataDir.environment(api.environment.id)));
  const user = async (email: string, role: string, resource_id?: string) =>
    (await createUserWithPassword(ctx, { email, role, firstname: email.split('@')[0], ...(resource_id ? { resource_id } : {}) }, password))
      .id;
  users.max = await user('max@example.com', 'member', max.id);
  users.mia = await user('mia@example.com', 'member', mia.id);
  users.tom = await user('tom@example.com', 'member', tom.id);
  users.bob = await user('bob@example.com', 'member', bob.id);
  users.pia = await user('pia@example.com', 'manager');
});

/** A floor sign-in's access token (POST /v1/floor/sign_in). */
async function tokenOf(name: keyof typeof users): Promise<string> {
  const answer = await call(
    api.baseUrl,
    'POST',
    '/v1/floor/sign_in',
    {},
    { environment: api.environment.name, email: `${name}@example.com`, password },
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.access_token;
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const setPin = (userId: string, pin: unknown, headers = api.headers) =>
  call(api.baseUrl, 'PUT', `/v1/floor/pin/${userId}`, headers, { pin });
const kioskOf = (key: string) => call(api.baseUrl, 'GET', '/v1/floor/kiosk', { 'x-kiosk-key': key });
const unlock = (key: string, userId: string, pin: string) =>
  call(api.baseUrl, 'POST', '/v1/floor/kiosk/unlock', { 'x-kiosk-key': key }, { user_id: userId, pin });

async function newKiosk(body: Record<string, unknown> = { board_id: boardA }): Promise<{ id: string; key: string }> {
  const answer = await call(api.baseUrl, 'POST', '/v1/floor/kiosks', bearer(await tokenOf('pia')), body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

beforeEach(async () => {
  // Each test starts with known PINs, which also starts every count of wrong tries again.
  for (const [name, pin] of [
    ['max', '2580'],
    ['mia', '135790'],
    ['tom', '4444'],
    ['bob', '1212'],
  ] as const) {
    expect((await setPin(users[name], pin)).status).toBe(200);
  }
});

describe('kiosk PINs', () => {
  it('are set by their own user or by a planner, not by another member', async () => {
    const max = await tokenOf('max');
    expect((await setPin(users.max, '9876', bearer(max))).body).toEqual({ user_id: users.max, has_pin: true });
    const other = await setPin(users.mia, '9876', bearer(max));
    expect(other.status).toBe(403);
    expect((await setPin(users.mia, '5555', bearer(await tokenOf('pia')))).status).toBe(200);
    const kiosk = await newKiosk();
    expect((await unlock(kiosk.key, users.max, '9876')).status).toBe(200);
    expect((await unlock(kiosk.key, users.mia, '5555')).status).toBe(200);
  });

  it('refuses anything but 4 to 6 digits with a 422 that names the pin, and keeps the PIN there was', async () => {
    for (const pin of ['abcde', '12a45', '123', '1234567', 1234, '', ' 1234', '１２３４']) {
      const answer = await setPin(users.max, pin);
      expect(answer.status, JSON.stringify(pin)).toBe(422);
      expect(answer.body.errors[0]).toMatchObject({ field: 'pin', description: 'pin must be 4 to 6 digits (0-9), e.g. 2580' });
    }
    expect((await unlock((await newKiosk()).key, users.max, '2580')).status).toBe(200);
  });

  it('is never read back: not by the user routes, not by sync', async () => {
    const reads = [
      await api.http('GET', `/v1/user/${users.max}`),
      await api.http('GET', '/v1/user?limit=100'),
      await api.http('GET', '/v1/sync/changes?since=0&limit=1000'),
      await call(api.baseUrl, 'GET', '/v1/me', bearer(await tokenOf('max'))),
    ];
    for (const read of reads) {
      expect(read.status).toBe(200);
      const text = JSON.stringify(read.body);
      expect(text).not.toContain('scrypt$');
      expect(text).not.toMatch(/"(pin|pin_hash|floor_pin)"/);
    }
  });
});

describe('kiosks', () => {
  it('are set up and listed by planners only, for a board or a stage; the key is shown once', async () => {
    const max = await tokenOf('max');
    expect((await call(api.baseUrl, 'POST', '/v1/floor/kiosks', bearer(max), { board_id: boardA })).status).toBe(403);
    expect((await call(api.baseUrl, 'GET', '/v1/floor/kiosks', bearer(max))).status).toBe(403);
    const kiosk = await newKiosk({ board_id: boardA, name: 'Door tablet' });
    expect(kiosk).toMatchObject({ name: 'Door tablet', board_id: boardA, stage_id: null, environment: api.environment.name });
    expect(kiosk.key).toMatch(/^kiosk\./);
    const listed = await api.http('GET', '/v1/floor/kiosks');
    const row = listed.body.data.find((k: any) => k.id === kiosk.id);
    expect(row).toMatchObject({ name: 'Door tablet', revoked_at: null });
    expect(JSON.stringify(listed.body)).not.toContain(kiosk.key.split('.')[3]);
    expect(Object.keys(row)).not.toContain('key_hash');
    for (const body of [
      {},
      { board_id: boardA, stage_id: stageB },
      { board_id: '0190f0f0-0000-7000-8000-000000000000' },
      { stage_id: 'x' },
    ]) {
      expect((await api.http('POST', '/v1/floor/kiosks', body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('lists the operators of its board (or stage) by name, never their email; a wrong key gets 401', async () => {
    const onA = await kioskOf((await newKiosk()).key);
    expect(onA.status).toBe(200);
    expect(onA.body.data.map((o: any) => o.user_id).sort()).toEqual([users.max, users.mia, users.tom].sort());
    expect(onA.body.data.find((o: any) => o.user_id === users.max)).toEqual({ user_id: users.max, name: 'max', has_pin: true });
    expect(JSON.stringify(onA.body)).not.toContain('@example.com');
    const onB = await kioskOf((await newKiosk({ stage_id: stageB })).key);
    expect(onB.body.data.map((o: any) => o.user_id)).toEqual([users.bob]);
    const { key } = await newKiosk();
    const parts = key.split('.');
    for (const wrong of ['', 'nonsense', [...parts.slice(0, 3), 'x'.repeat(43)].join('.'), `${key}.more`]) {
      expect((await kioskOf(wrong)).status).toBe(401);
    }
  });
});

describe('an operator on a kiosk', () => {
  it('acts as themself with the right PIN: their jobs, Start written as them, and nothing outside the floor', async () => {
    const kiosk = await newKiosk();
    const opened = await unlock(kiosk.key, users.max, '2580');
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toMatchObject({ client_id: 'planner-kiosk', user: { id: users.max, name: 'max' } });
    const left = Date.parse(opened.body.ends_at) - nowMs();
    expect(left).toBeGreaterThan(14 * 60_000);
    expect(left).toBeLessThanOrEqual(15 * 60_000);
    const token = opened.body.access_token;
    const jobs = await call(api.baseUrl, 'GET', '/v1/floor/jobs', bearer(token));
    expect(jobs.body.data.map((job: any) => job.card_id)).toEqual([cardOfMax]);
    const started = await call(api.baseUrl, 'POST', '/v1/floor/start', bearer(token), {
      card_id: cardOfMax,
      at: new Date(nowMs()).toISOString(),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const entries = await api.http('GET', `/v1/time_tracking?filter=${encodeURIComponent(`card_id:eq:${cardOfMax}`)}`);
    expect(entries.body.data.map((e: any) => e.user_id)).toContain(users.max);
    expect(entries.body.data.every((e: any) => e.user_id === users.max)).toBe(true);
    for (const path of ['/v1/user', '/v1/time_tracking', '/v1/board', '/v1/floor/kiosks']) {
      expect((await call(api.baseUrl, 'GET', path, bearer(token))).status, path).toBe(403);
    }
    expect((await call(api.baseUrl, 'PUT', `/v1/floor/pin/${users.max}`, bearer(token), { pin: '1111' })).status).toBe(403);
    expect((await call(api.baseUrl, 'POST', '/v1/floor/sign_out', bearer(token), {})).status).toBe(204);
    expect((await call(api.baseUrl, 'GET', '/v1/floor/jobs', bearer(token))).status).toBe(401);
  });

  it('cannot be one who is not on the kiosk’s board, right PIN or not', async () => {
    const answer = await unlock((await newKiosk()).key, users.bob, '1212');
    expect(answer.status).toBe(403);
    expect(answer.body.errors[0].description).toMatch(/not an operator of this kiosk/);
    const onB = await newKiosk({ stage_id: stageB });
    expect((await unlock(onB.key, users.max, '2580')).status).toBe(403);
    expect((await unlock(onB.key, users.bob, '1212')).status).toBe(200);
  });

  it('after 5 wrong PINs is locked for 60 s, answered 429 with Retry-After, and for longer after each wrong one', async () => {
    const { key } = await newKiosk();
    for (let i = 1; i <= pinTriesBeforeLock; i++) {
      const answer = await unlock(key, users.max, '0000');
      expect(answer.status).toBe(401);
      expect(answer.body.errors[0].description).toMatch(/The PIN is not right/);
    }
    const locked = await unlock(key, users.max, '2580');
    expect(locked.status).toBe(429);
    // The clock runs on while the test does: the lock ends 60 s after the fifth wrong PIN.
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(50);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The lock is the PIN's, on every kiosk.
    expect((await unlock((await newKiosk()).key, users.max, '2580')).status).toBe(429);
    startClockAt(nowMs() + 61_000);
    expect((await unlock(key, users.max, '0000')).status).toBe(401);
    const longer = await unlock(key, users.max, '2580');
    expect(longer.status).toBe(429);
    expect(Number(longer.headers.get('retry-after'))).toBeGreaterThan(110);
    expect(Number(longer.headers.get('retry-after'))).toBeLessThanOrEqual(120);
    startClockAt(nowMs() + 121_000);
    expect((await unlock(key, users.max, '2580')).status).toBe(200);
    // A right PIN starts the count again: four wrong ones do not lock it (on a kiosk that has not counted the ones above).
    const other = (await newKiosk()).key;
    for (let i = 1; i < pinTriesBeforeLock; i++) expect((await unlock(other, users.max, '0000')).status).toBe(401);
    expect((await unlock(other, users.max, '2580')).status).toBe(200);
  });

  it('counts tries sent at once before the PIN is checked: at most 5 are checked', async () => {
    const { key } = await newKiosk();
    const answers = await Promise.all(Array.from({ length: 8 }, () => unlock(key, users.mia, '000000')));
    expect(answers.filter((a) => a.status === 401)).toHaveLength(pinTriesBeforeLock);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(8 - pinTriesBeforeLock);
  });

  it('a kiosk takes at most 10 wrong PINs, of anyone, in 10 minutes', async () => {
    const { key } = await newKiosk();
    const wrong: [string, string][] = [
      ...Array.from({ length: 4 }, (): [string, string] => [users.max, '0000']),
      ...Array.from({ length: 4 }, (): [string, string] => [users.mia, '0000']),
      ...Array.from({ length: kioskWrongPinLimit - 8 }, (): [string, string] => [users.tom, '0000']),
    ];
    for (const [user, pin] of wrong) expect((await unlock(key, user, pin)).status).toBe(401);
    const refused = await unlock(key, users.tom, '4444');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].description).toMatch(/Too many wrong PINs on this kiosk/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another kiosk is counted apart.
    expect((await unlock((await newKiosk()).key, users.tom, '4444')).status).toBe(200);
  });
});

describe('a revoked kiosk', () => {
  it('is refused at once, and so is every operator sign-in it opened', async () => {
    const kiosk = await newKiosk();
    const opened = await unlock(kiosk.key, users.mia, '135790');
    const token = opened.body.access_token;
    expect((await call(api.baseUrl, 'GET', '/v1/floor/jobs', bearer(token))).status).toBe(200);
    expect((await call(api.baseUrl, 'DELETE', `/v1/floor/kiosks/${kiosk.id}`, bearer(await tokenOf('max')))).status).toBe(403);
    expect((await api.http('DELETE', `/v1/floor/kiosks/${kiosk.id}`)).status).toBe(204);
    expect((await kioskOf(kiosk.key)).status).toBe(401);
    expect((await unlock(kiosk.key, users.mia, '135790')).status).toBe(401);
    expect((await call(api.baseUrl, 'GET', '/v1/floor/jobs', bearer(token))).status).toBe(401);
    const listed = (await api.http('GET', '/v1/floor/kiosks')).body.data.find((k: any) => k.id === kiosk.id);
    expect(listed.revoked_at).not.toBeNull();
    expect((await api.http('DELETE', '/v1/floor/kiosks/0190f0f0-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('revokes itself when the tablet leaves kiosk mode', async () => {
    const { key } = await newKiosk();
    expect((await call(api.baseUrl, 'DELETE', '/v1/floor/kiosk', { 'x-kiosk-key': key })).status).toBe(204);
    expect((await kioskOf(key)).status).toBe(401);
  });
});
