/**
 * Closed payroll periods (docs/API.md "Closed periods") over real HTTP with real OAuth Bearer
 * tokens, on SQLite and (vitest's postgres project) on PostgreSQL. The run's day is the fixed
 * Monday 2026-12-07; November 2026 is the period closed, with entries and timers written around
 * it on hard dates:
 *
 *   Max (member, UTC)         inside   2026-11-20 08:00–09:00      outside  2026-12-01 08:00–09:00
 *                             overnight 2026-10-31 23:00 – 2026-11-01 01:00 (written before the close)
 *   Max's timer               started 2026-10-31 22:00 UTC        → stops at 2026-11-01 00:00 UTC
 *   Mia (member, Amsterdam)   timer started 2026-10-31 20:00 UTC  → stops at 2026-10-31 23:00 UTC (her midnight)
 *   Mo (manager, Amsterdam)   timer started 2026-12-02 08:00 UTC  → runs on (after the period)
 *
 * Users are in Europe/Amsterdam unless they set another zone; Max sets UTC.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePeriodMessage } from '../../electron/api/resources/closed-period.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { createCard, expectForbidden, startRolesInstance, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';
import { fixTheClock } from '../helpers/test-clock.js';

// The timer start route books "now": the tests run at a fixed day (docs/architecture.md "Tests").
fixTheClock();

const entries = '/v1/time_tracking';
const periods = '/v1/time_tracking/period';
const november = 'The period 2026-11-01 – 2026-11-30 is closed for payroll';

let roles: RolesInstance;
let cardId: string;
let admin: SignedInUser;
let manager: SignedInUser;
let max: SignedInUser;
let mia: SignedInUser;
const id = {
  inside: '',
  outside: '',
  overnight: '',
  deleted: '',
  deletedBy: '',
  maxTimer: '',
  miaTimer: '',
  moTimer: '',
  november: '',
  september: '',
};

async function made(path: string, body: unknown): Promise<any> {
  const res = await roles.byKey('POST', path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function entry(entryId: string): Promise<any> {
  const res = await roles.byKey('GET', `${entries}/${entryId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function entryCount(): Promise<number> {
  const res = await roles.byKey('GET', `${entries}?limit=0`);
  expect(res.status).toBe(200);
  return res.body.count as number;
}

async function closedPeriods(): Promise<any[]> {
  const res = await roles.byKey('GET', `${periods}?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
}

/** 409 whose description names the period. */
function expectClosed(res: { status: number; body: any }, period = november): void {
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expectErrorBody(res.body, 10409, 'Conflict');
  expect(res.body.errors[0].description).toContain(period);
}

function expectUnprocessable(res: { status: number; body: any }, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expectErrorBody(res.body, 10422, 'Unprocessable Content');
  expect(res.body.errors.map((e: any) => e.field)).toContain(field);
}

beforeAll(async () => {
  roles = await startRolesInstance('periods');
  ({ cardId } = await createCard(roles.byKey, 'Frames'));
  admin = await roles.signIn('ann@example.com', 'admin');
  manager = await roles.signIn('mo@example.com', 'manager');
  max = await roles.signIn('max@example.com', 'member');
  mia = await roles.signIn('mia@example.com', 'member');
  const zone = await roles.byKey('PUT', `/v1/user/${max.id}`, { timezone: 'UTC' });
  expect(zone.status, JSON.stringify(zone.body)).toBe(200);
  const book = (user: SignedInUser, start: string, end: string | null) => made(entries, { card_id: cardId, user_id: user.id, start, end });
  id.inside = (await book(max, '2026-11-20T08:00:00Z', '2026-11-20T09:00:00Z')).id;
  id.outside = (await book(max, '2026-12-01T08:00:00Z', '2026-12-01T09:00:00Z')).id;
  id.overnight = (await book(max, '2026-10-31T23:00:00Z', '2026-11-01T01:00:00Z')).id;
  id.maxTimer = (await book(max, '2026-10-31T22:00:00Z', null)).id;
  id.miaTimer = (await book(mia, '2026-10-31T20:00:00Z', null)).id;
  id.moTimer = (await book(manager, '2026-12-02T08:00:00Z', null)).id;
  // Deleted before the close: it may not come back into the closed period.
  id.deleted = (await book(max, '2026-11-24T08:00:00Z', '2026-11-24T09:00:00Z')).id;
  const deleted = await roles.byKey('DELETE', `${entries}/${id.deleted}`);
  expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
  id.deletedBy = deleted.headers.get('x-planner-command-id')!;
});

afterAll(async () => {
  await roles?.stop();
});

describe('closing a period', () => {
  it('refuses a manager or a member with 403, and bad input with 422: nothing is written', async () => {
    for (const user of [manager, max]) {
      expectForbidden(await roles.as(user)('POST', periods, { start: '2026-11-01', end: '2026-11-30' }), closePeriodMessage);
    }
    expectUnprocessable(await roles.as(admin)('POST', periods, { start: '2026-11-30', end: '2026-11-01' }), 'end');
    expectUnprocessable(await roles.as(admin)('POST', periods, { start: '2026-11-31', end: '2026-12-01' }), 'start');
    expectUnprocessable(await roles.as(admin)('POST', periods, { start: '1 November', end: '2026-11-30' }), 'start');
    expectUnprocessable(await roles.as(admin)('POST', periods, { start: '2026-11-01' }), 'end');
    expect(await closedPeriods()).toEqual([]);
    expect((await entry(id.maxTimer)).running).toBe(true);
  });

  it('closes November as the admin: 201 with the period, a command; the timers running into it stop at its start', async () => {
    const res = await roles.as(admin)('POST', periods, { start: '2026-11-01', end: '2026-11-30' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('x-planner-command-id')).toBeTruthy();
    expect(res.body).toMatchObject({ start: '2026-11-01', end: '2026-11-30', closed_by: admin.id });
    expect(typeof res.body.id).toBe('string');
    expect(typeof res.body.created_at).toBe('string');
    id.november = res.body.id;
    expect(await closedPeriods()).toEqual([expect.objectContaining({ id: id.november, start: '2026-11-01', end: '2026-11-30' })]);

    // Max (UTC) stops at midnight UTC, Mia (Amsterdam) at her midnight; Mo's timer started after the period.
    expect(await entry(id.maxTimer)).toMatchObject({ end: '2026-11-01T00:00:00Z', running: false, duration: 120 });
    expect(await entry(id.miaTimer)).toMatchObject({ end: '2026-10-31T23:00:00Z', running: false, duration: 180 });
    expect(await entry(id.moTimer)).toMatchObject({ end: null, running: true });
  });

  it('answers an API key with closed_by null; the static path wins over /time_tracking/{id}', async () => {
    const res = await roles.byKey('POST', periods, { start: '2026-09-01', end: '2026-09-30' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.closed_by).toBeNull();
    id.september = res.body.id;
    // Readable by a member, as time entries are; the entry routes still answer entries.
    const listed = await roles.as(max)('GET', periods);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((p: any) => p.start).sort()).toEqual(['2026-09-01', '2026-11-01']);
    const one = await roles.as(max)('GET', `${periods}/${id.september}`);
    expect(one.status).toBe(200);
    expect(one.body.end).toBe('2026-09-30');
    expect((await entry(id.outside)).start).toBe('2026-12-01T08:00:00Z');
  });

  it('refuses a PUT on a period (405): a period is closed or reopened, not edited', async () => {
    const res = await roles.as(admin)('PUT', `${periods}/${id.november}`, { end: '2026-11-15' });
    expect(res.status, JSON.stringify(res.body)).toBe(405);
    expect((await closedPeriods()).find((p) => p.id === id.november).end).toBe('2026-11-30');
  });
});

describe('entries in a closed period', () => {
  it('refuses creating one inside with 409 naming the period, for anyone; nothing is written', async () => {
    const before = await entryCount();
    for (const request of [roles.byKey, roles.as(admin), roles.as(max)]) {
      expectClosed(await request('POST', entries, { card_id: cardId, user_id: max.id, start: '2026-11-10T08:00:00Z', duration: 60 }));
    }
    // Its last minute in November: an entry from 31 October into 1 November.
    expectClosed(
      await roles.byKey('POST', entries, { card_id: cardId, user_id: max.id, start: '2026-10-31T23:30:00Z', end: '2026-11-01T00:30:00Z' }),
    );
    expect(await entryCount()).toBe(before);
  });

  it('books outside it, up to its edges: the day before and an entry ending at its start', async () => {
    const before = await made(entries, { card_id: cardId, user_id: max.id, start: '2026-10-30T08:00:00Z', end: '2026-10-30T09:00:00Z' });
    const toMidnight = await made(entries, {
      card_id: cardId,
      user_id: max.id,
      start: '2026-10-31T23:00:00Z',
      end: '2026-11-01T00:00:00Z',
    });
    const after = await made(entries, { card_id: cardId, user_id: max.id, start: '2026-12-01T10:00:00Z', end: '2026-12-01T11:00:00Z' });
    expect([before.id, toMidnight.id, after.id].every((x) => typeof x === 'string')).toBe(true);
  });

  it('refuses changing or deleting one inside with 409; it stays as it was', async () => {
    const stored = await entry(id.inside);
    expectClosed(await roles.as(max)('PUT', `${entries}/${id.inside}`, { note: 'later' }));
    expectClosed(await roles.byKey('PUT', `${entries}/${id.inside}`, { end: '2026-11-20T10:00:00Z' }));
    expectClosed(await roles.as(admin)('PUT', `${entries}/${id.overnight}`, { note: 'later' }));
    expectClosed(await roles.as(max)('DELETE', `${entries}/${id.inside}`));
    expectClosed(await roles.byKey('DELETE', `${entries}/${id.overnight}`));
    expectClosed(await roles.as(admin)('POST', '/v1/command/set_time_status', { entries: [id.inside], status: 'approved' }));
    expect(await entry(id.inside)).toEqual(stored);
    expect((await entry(id.overnight)).deleted_at ?? null).toBeNull();
  });

  it('refuses bringing back an entry deleted before the close, from the trash or by undo', async () => {
    const before = await entryCount();
    expectClosed(await roles.byKey('POST', `/v1/trash/time_tracking/${id.deleted}/restore`));
    expectClosed(await roles.as(admin)('POST', `/v1/command/${id.deletedBy}/undo`));
    expect(await entryCount()).toBe(before);
    expect((await roles.byKey('GET', `${entries}/${id.deleted}`)).status).toBe(404);
  });

  it('refuses moving an entry into or out of the period', async () => {
    const outside = await entry(id.outside);
    expectClosed(await roles.as(max)('PUT', `${entries}/${id.outside}`, { start: '2026-11-30T08:00:00Z', end: '2026-11-30T09:00:00Z' }));
    expectClosed(await roles.as(max)('PUT', `${entries}/${id.inside}`, { start: '2026-12-03T08:00:00Z', end: '2026-12-03T09:00:00Z' }));
    expect(await entry(id.outside)).toEqual(outside);
    expect((await entry(id.inside)).start).toBe('2026-11-20T08:00:00Z');
  });

  it('changes entries outside it, and keeps the export bookkeeping of those inside writable', async () => {
    const changed = await roles.as(max)('PUT', `${entries}/${id.outside}`, { note: 'welding frames' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const exported = await roles.byKey('PUT', `${entries}/${id.inside}`, { external_ref: 'payroll-2026-11-max' });
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    expect(exported.body.external_ref).toBe('payroll-2026-11-max');
    const deleted = await roles.as(max)('DELETE', `${entries}/${id.outside}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
  });
});

describe('reopening a period', () => {
  it('is for an admin only; it is a command, and its undo closes the period again', async () => {
    expectForbidden(await roles.as(manager)('DELETE', `${periods}/${id.november}`), closePeriodMessage);
    const reopened = await roles.as(admin)('DELETE', `${periods}/${id.november}`);
    expect(reopened.status, JSON.stringify(reopened.body)).toBe(204);
    const commandId = reopened.headers.get('x-planner-command-id');
    expect(commandId).toBeTruthy();
    expect((await closedPeriods()).map((p) => p.id)).toEqual([id.september]);

    const open = await roles.as(max)('PUT', `${entries}/${id.inside}`, { note: 'corrected after reopening' });
    expect(open.status, JSON.stringify(open.body)).toBe(200);

    const undo = await roles.as(admin)('POST', `/v1/command/${commandId!}/undo`);
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect((await closedPeriods()).map((p) => p.id).sort()).toEqual([id.november, id.september].sort());
    expectClosed(await roles.as(max)('PUT', `${entries}/${id.inside}`, { note: 'once more' }));
    expect((await entry(id.inside)).note).toBe('corrected after reopening');
  });
});

describe('timers and a period holding today', () => {
  it('refuses starting a timer in a closed period; the undo of the close lets the timer it stopped run again', async () => {
    const today = await roles.byKey('POST', periods, { start: '2026-12-07', end: '2026-12-07' });
    expect(today.status, JSON.stringify(today.body)).toBe(201);
    expectClosed(await roles.as(max)('POST', `${entries}/start`, { card_id: cardId }), 'The period 2026-12-07 – 2026-12-07 is closed');
    expect((await roles.byKey('GET', `${entries}/running?user_id=${max.id}`)).body.data).toBeNull();
    // Mo's timer (started 2 December) was stopped at the period's start, his midnight in Amsterdam.
    expect(await entry(id.moTimer)).toMatchObject({ end: '2026-12-06T23:00:00Z', running: false });

    // The undo of the close reopens the day and lets Mo's timer run again: the close and its stop were one command.
    const undo = await roles.as(admin)('POST', `/v1/command/${today.headers.get('x-planner-command-id')!}/undo`);
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(await entry(id.moTimer)).toMatchObject({ end: null, running: true });
    expect((await closedPeriods()).map((p) => p.start).sort()).toEqual(['2026-09-01', '2026-11-01']);
  });
});
