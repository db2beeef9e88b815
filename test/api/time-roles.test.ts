/**
 * Whose time entries a signed-in user may act on (docs/API.md "Permissions", security audit
 * finding 4), over real HTTP with real OAuth Bearer tokens: a member books, changes, starts,
 * stops, deletes and restores only their own entries and never marks any exported; admins,
 * managers and API keys do all of it for anyone. A member's replica push is held to the same
 * rules: each refused change comes back `rejected` with the API's reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportMessage, ownEntriesMessage } from '../../electron/api/resources/time-tracking.js';
import { formatHlc } from '../../shared/hlc.js';
import { createCard, expectForbidden, startRolesInstance, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';
import { nowMs } from '../../shared/clock.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const path = '/v1/time_tracking';

let roles: RolesInstance;
let cardId: string;
let admin: SignedInUser;
let manager: SignedInUser;
/** The member whose requests are checked, and the colleague whose entries they try to touch. */
let max: SignedInUser;
let mia: SignedInUser;
let day = 0;

/** A stopped hour on a day of its own (no two entries share a day, so no timer stops another). */
function hour(): { start: string; end: string } {
  const date = new Date(Date.UTC(2026, 0, 1 + ++day)).toISOString().slice(0, 10);
  return { start: `${date}T08:00:00Z`, end: `${date}T09:00:00Z` };
}

/** An entry of `user`, made with the API key. */
async function entryOf(user: SignedInUser, extra: Record<string, unknown> = {}): Promise<any> {
  const res = await roles.byKey('POST', path, { card_id: cardId, user_id: user.id, ...hour(), ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function stored(id: string): Promise<any> {
  const res = await roles.byKey('GET', `${path}/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function count(filter?: string): Promise<number> {
  const res = await roles.byKey('GET', `${path}?limit=0${filter ? `&filter=${encodeURIComponent(filter)}` : ''}`);
  expect(res.status).toBe(200);
  return res.body.count as number;
}

async function running(user: SignedInUser): Promise<any> {
  return (await roles.byKey('GET', `${path}/running?user_id=${user.id}`)).body.data;
}

beforeAll(async () => {
  roles = await startRolesInstance('roles');
  ({ cardId } = await createCard(roles.byKey, 'Frames'));
  admin = await roles.signIn('ann@example.com', 'admin');
  manager = await roles.signIn('mo@example.com', 'manager');
  max = await roles.signIn('max@example.com', 'member');
  mia = await roles.signIn('mia@example.com', 'member');
});

afterAll(async () => {
  await roles?.stop();
});

describe('a member and time entries', () => {
  it('books time only for themselves: for another user a 403 that writes nothing; user_id left out or null is theirs', async () => {
    const before = await count();
    expectForbidden(await roles.as(max)('POST', path, { card_id: cardId, user_id: mia.id, ...hour() }), ownEntriesMessage);
    expect(await count()).toBe(before);

    for (const user_id of [max.id, null, undefined]) {
      const own = await roles.as(max)('POST', path, { card_id: cardId, ...(user_id !== undefined ? { user_id } : {}), ...hour() });
      expect(own.status, JSON.stringify(own.body)).toBe(201);
      expect(own.body.user_id).toBe(max.id);
    }
    // A planner and an integration book for anyone.
    for (const planner of [roles.as(admin), roles.as(manager), roles.byKey]) {
      const booked = await planner('POST', path, { card_id: cardId, user_id: mia.id, ...hour() });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      expect(booked.body.user_id).toBe(mia.id);
    }
  });

  it("changes only their own entries: another user's is a 403 and stays as it was, and their own cannot be given away", async () => {
    const hers = await entryOf(mia);
    for (const change of [{ end: hers.start.replace('T08', 'T20') }, { note: 'not mine' }, { user_id: max.id }]) {
      expectForbidden(await roles.as(max)('PUT', `${path}/${hers.id as string}`, change), ownEntriesMessage);
    }
    expect(await stored(hers.id)).toEqual(hers);

    const mine = await entryOf(max);
    const changed = await roles.as(max)('PUT', `${path}/${mine.id as string}`, { end: mine.start.replace('T08', 'T10'), note: 'welded' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ duration: 120, note: 'welded', user_id: max.id });
    expectForbidden(await roles.as(max)('PUT', `${path}/${mine.id as string}`, { user_id: mia.id }), ownEntriesMessage);
    expect((await stored(mine.id)).user_id).toBe(max.id);

    for (const planner of [roles.as(admin), roles.as(manager), roles.byKey]) {
      expect((await planner('PUT', `${path}/${hers.id as string}`, { note: 'checked' })).status).toBe(200);
    }
    expect((await stored(hers.id)).note).toBe('checked');
  });

  it("starts and stops only their own timer: another user's is a 403 and keeps running", async () => {
    expectForbidden(await roles.as(max)('POST', `${path}/start`, { card_id: cardId, user_id: mia.id }), ownEntriesMessage);
    expect(await running(mia)).toBeNull();

    const started = await roles.byKey('POST', `${path}/start`, { card_id: cardId, user_id: mia.id });
    expect(started.status).toBe(201);
    expectForbidden(await roles.as(max)('POST', `${path}/stop`, { user_id: mia.id }), ownEntriesMessage);
    expectForbidden(await roles.as(max)('POST', `${path}/${started.body.id as string}/stop`, {}), ownEntriesMessage);
    expect(await running(mia)).toMatchObject({ id: started.body.id, running: true, end: null });
    // Reading a colleague's timer stays open, like every entry.
    expect((await roles.as(max)('GET', `${path}/running?user_id=${mia.id}`)).body.data).toMatchObject({ id: started.body.id });

    const own = await roles.as(max)('POST', `${path}/start`, { card_id: cardId });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body).toMatchObject({ user_id: max.id, running: true });
    const stopped = await roles.as(max)('POST', `${path}/${own.body.id as string}/stop`, {});
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(stopped.body.running).toBe(false);

    const byManager = await roles.as(manager)('POST', `${path}/stop`, { user_id: mia.id });
    expect(byManager.status, JSON.stringify(byManager.body)).toBe(200);
    expect(await running(mia)).toBeNull();
    const again = await roles.as(admin)('POST', `${path}/start`, { card_id: cardId, user_id: mia.id });
    expect(again.status).toBe(201);
    expect((await roles.as(admin)('POST', `${path}/${again.body.id as string}/stop`, {})).status).toBe(200);
  });

  it('deletes and restores only their own entries', async () => {
    const hers = await entryOf(mia);
    expectForbidden(await roles.as(max)('DELETE', `${path}/${hers.id as string}`), ownEntriesMessage);
    expect(await stored(hers.id)).toEqual(hers);

    const mine = await entryOf(max);
    expect((await roles.as(max)('DELETE', `${path}/${mine.id as string}`)).status).toBe(204);
    const restored = await roles.as(max)('POST', `/v1/trash/time_tracking/${mine.id as string}/restore`);
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);

    expect((await roles.as(manager)('DELETE', `${path}/${hers.id as string}`)).status).toBe(204);
    expectForbidden(await roles.as(max)('POST', `/v1/trash/time_tracking/${hers.id as string}/restore`), ownEntriesMessage);
    expect((await roles.byKey('GET', `${path}/${hers.id as string}`)).status).toBe(404);
    expect((await roles.as(admin)('POST', `/v1/trash/time_tracking/${hers.id as string}/restore`)).status).toBe(200);
    expect(await stored(hers.id)).toMatchObject({ id: hers.id, user_id: mia.id });
  });

  it('marks nothing exported: mark_exported and the export fields are a 403, and nothing is marked', async () => {
    const mine = await entryOf(max);
    await entryOf(mia);
    const open = await count('synchronized_at:eq:null');
    expectForbidden(await roles.as(max)('POST', `${path}/mark_exported?all=true`), exportMessage);
    expectForbidden(
      await roles.as(max)('POST', `${path}/mark_exported?filter=${encodeURIComponent(`user_id:eq:${max.id}`)}`, { external_note: 'paid' }),
      exportMessage,
    );
    expect(await count('synchronized_at:eq:null')).toBe(open);

    for (const change of [
      { synchronized_at: '2026-02-01T00:00:00Z' },
      { external_ref: 'PAY-1' },
      { external_note: 'paid' },
      { external_failed: true },
    ]) {
      expectForbidden(await roles.as(max)('PUT', `${path}/${mine.id as string}`, change), exportMessage);
    }
    expect(await stored(mine.id)).toEqual(mine);
    // Their own entry read and written back whole (export fields unchanged) saves.
    const whole = await roles.as(max)('PUT', `${path}/${mine.id as string}`, { ...mine, note: 'as read' });
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);

    const byManager = await roles.as(manager)('POST', `${path}/mark_exported?filter=${encodeURIComponent(`user_id:eq:${mia.id}`)}`);
    expect(byManager.status, JSON.stringify(byManager.body)).toBe(200);
    expect(byManager.body.count).toBeGreaterThan(0);
    const byKey = await roles.byKey('POST', `${path}/mark_exported`);
    expect(byKey.status).toBe(200);
    expect(await count('synchronized_at:eq:null')).toBe(0);
  });
});

describe("a member's replica and time entries", () => {
  let mutationId = 0;
  const hlc = () => formatHlc({ millis: nowMs(), counter: 0, node: 'max-replica' });

  async function push(user: SignedInUser, clientId: string, mutations: Record<string, unknown>[]): Promise<any[]> {
    const res = await roles.as(user)('POST', '/v1/sync/push', {
      client_id: clientId,
      mutations: mutations.map((m) => ({ mutation_id: ++mutationId, hlc: hlc(), ...m })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.results as any[];
  }

  it("rejects a pushed entry for another user, and pushed changes to others' entries or to export fields, with the API's reason; their own land", async () => {
    const hers = await entryOf(mia);
    const mine = await entryOf(max);
    const forHer = '01900000-0000-7000-8000-0000000000a1';
    const fromDesktop = '01900000-0000-7000-8000-0000000000a2';
    const results = await push(max, 'max-replica', [
      { resource: 'time_tracking', id: forHer, op: 'create', fields: { card_id: cardId, user_id: mia.id, ...hour() } },
      { resource: 'time_tracking', id: hers.id, op: 'update', fields: { end: hers.start.replace('T08', 'T20') } },
      { resource: 'time_tracking', id: hers.id, op: 'delete', fields: null },
      { resource: 'time_tracking', id: mine.id, op: 'update', fields: { synchronized_at: '2026-02-01T00:00:00Z' } },
      // The desktop app tracks time without a user: on the remote it is the member's.
      { resource: 'time_tracking', id: fromDesktop, op: 'create', fields: { card_id: cardId, user_id: null, ...hour(), note: 'offline' } },
      { resource: 'time_tracking', id: mine.id, op: 'update', fields: { note: 'edited offline' } },
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected', 'applied', 'applied']);
    for (const [i, description] of [
      [0, ownEntriesMessage],
      [1, ownEntriesMessage],
      [2, ownEntriesMessage],
      [3, exportMessage],
    ] as const) {
      expect(results[i].error.errors[0]).toMatchObject({ code: 10403, message: 'Forbidden', description });
    }
    expect(results[1].record).toMatchObject({ id: hers.id, end: hers.end, deleted_at: null });

    expect((await roles.byKey('GET', `${path}/${forHer}`)).status).toBe(404);
    expect(await stored(hers.id)).toEqual(hers);
    expect(await stored(mine.id)).toMatchObject({ synchronized_at: null, note: 'edited offline' });
    expect(await stored(fromDesktop)).toMatchObject({ user_id: max.id, note: 'offline' });

    // A manager's replica books for anyone.
    const byManager = await push(manager, 'mo-replica', [
      { resource: 'time_tracking', id: forHer, op: 'create', fields: { card_id: cardId, user_id: mia.id, ...hour() } },
    ]);
    expect(byManager.map((r) => r.status)).toEqual(['applied']);
    expect(await stored(forHer)).toMatchObject({ user_id: mia.id });
  });
});
