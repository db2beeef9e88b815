/**
 * The app's user (docs/API.md "The app's user", electron/api/app-user.ts): a local instance on
 * real SQLite files, called through its bridge (`instance.request`, what the desktop window and
 * the browser host send) and over real HTTP on 127.0.0.1 with a local API key. Entries booked
 * through the bridge belong to the chosen user, or to the user the replica is signed in as;
 * other keys act as nobody; the choice survives a restart; bad choices are 4xx and change
 * nothing.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { MemoryVault } from '../../electron/sync/credentials.js';
import { tempDir } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';

const opened: { instance: LocalInstance; folder: string; keep?: boolean }[] = [];

afterEach(async () => {
  for (const { instance, folder, keep } of opened.splice(0)) {
    await instance.close();
    if (!keep) rmSync(folder, { recursive: true, force: true });
  }
});

async function open(folder = tempDir('planner-app-user-'), vault?: MemoryVault): Promise<{ instance: LocalInstance; folder: string }> {
  const instance = await openLocalInstance(folder, vault ? { vault } : {});
  const entry = { instance, folder };
  opened.push(entry);
  return entry;
}

async function bridge(
  instance: LocalInstance,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  query?: Record<string, string>,
) {
  return instance.request({ method, path, ...(query ? { query } : {}), ...(body !== undefined ? { body } : {}) });
}

async function made(instance: LocalInstance, method: 'POST' | 'PUT', path: string, body: unknown): Promise<any> {
  const answer = await bridge(instance, method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

/** A board with a Sawing stage, a collection SO-1001 and one card on it. */
async function aCard(instance: LocalInstance): Promise<string> {
  const activity = await made(instance, 'POST', '/v1/activity', { description: 'Sawing', resource_type: 'employee' });
  const board = await made(instance, 'POST', '/v1/board?with=stages', {
    name: 'Shop',
    statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    stages: [{ name: 'Saw', priority: 0, activities: [{ id: activity.id, priority: 0 }] }],
  });
  const collection = await made(instance, 'POST', '/v1/collection', { name: 'SO-1001', board_id: board.id });
  return (await made(instance, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id })).id;
}

/** A user invited through the bridge (an admin key), found by e-mail. */
async function aUser(instance: LocalInstance, email: string, role = 'member'): Promise<string> {
  const invited = await bridge(instance, 'POST', '/v1/user', { email, role, firstname: email.split('@')[0] });
  expect(invited.status).toBe(201);
  const found = await bridge(instance, 'GET', '/v1/user', undefined, { filter: `email:eq:'${email}'` });
  return (found.body as any).data[0].id;
}

const entryAt = (cardId: string, hour: number) => ({
  card_id: cardId,
  start: `2026-12-01T${String(hour).padStart(2, '0')}:00:00Z`,
  end: `2026-12-01T${String(hour + 1).padStart(2, '0')}:00:00Z`,
});

/** An access token as a remote issues it: only its subject matters here. */
function accessTokenFor(userId: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: userId, env: 'team', role: 'member' })}.signature`;
}

describe("the app's user", () => {
  it("books the timer and the week sheet's entries for the chosen user, where they had no user before", async () => {
    const { instance } = await open();
    const card = await aCard(instance);
    expect((await bridge(instance, 'GET', '/v1/app_user')).body).toEqual({ user_id: null, signed_in: false, user: null });
    const before = await made(instance, 'POST', '/v1/time_tracking', entryAt(card, 8));
    expect(before.user_id).toBeNull();

    const anna = await aUser(instance, 'anna@example.com');
    const chosen = await made(instance, 'PUT', '/v1/app_user', { user_id: anna });
    expect(chosen).toMatchObject({ user_id: anna, signed_in: false, user: { id: anna, email: 'anna@example.com' } });

    const booked = await made(instance, 'POST', '/v1/time_tracking', entryAt(card, 9));
    expect(booked.user_id).toBe(anna);
    const timer = await made(instance, 'POST', '/v1/time_tracking/start', { card_id: card });
    expect(timer.user_id).toBe(anna);
    const running = await bridge(instance, 'GET', '/v1/time_tracking/running');
    expect((running.body as any).data.id).toBe(timer.id);
    const me = await bridge(instance, 'GET', '/v1/me');
    expect(me.body).toMatchObject({ type: 'api-key', user: { id: anna } });
    // Booking for someone else stays possible: the bridge keeps its key's powers.
    const bert = await aUser(instance, 'bert@example.com');
    expect((await made(instance, 'POST', '/v1/time_tracking', { ...entryAt(card, 11), user_id: bert })).user_id).toBe(bert);
  });

  it('keeps the choice across a restart, and only the bridge acts as the user (a local API key books for nobody)', async () => {
    const first = await open();
    const card = await aCard(first.instance);
    const anna = await aUser(first.instance, 'anna@example.com');
    await made(first.instance, 'PUT', '/v1/app_user', { user_id: anna });
    opened.splice(opened.indexOf(first as never), 1);
    await first.instance.close();

    const again = await open(first.folder);
    expect((await bridge(again.instance, 'GET', '/v1/app_user')).body).toMatchObject({ user_id: anna });
    expect((await made(again.instance, 'POST', '/v1/time_tracking', entryAt(card, 8))).user_id).toBe(anna);

    const { key } = again.instance.dataDir.system.addApiKey(again.instance.environment.id, undefined, 'local-api');
    await again.instance.api.listen({ host: '127.0.0.1', port: 0 });
    const address = again.instance.api.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    const response = await fetch(`http://127.0.0.1:${address.port}/v1/time_tracking`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'x-api-env': again.instance.environment.name, 'content-type': 'application/json' },
      body: JSON.stringify(entryAt(card, 10)),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as any).user_id).toBeNull();
  });

  it("creates the planner's user and chooses it in one call; the first user of a data folder is its admin", async () => {
    const { instance } = await open();
    const answer = await made(instance, 'PUT', '/v1/app_user', {
      user: { email: 'Piet@Example.com', firstname: 'Piet', lastname: 'Jansen' },
    });
    expect(answer).toMatchObject({ signed_in: false, user: { email: 'piet@example.com', fullname: 'Piet Jansen', role: 'admin' } });
    expect(answer.user_id).toBe(answer.user.id);
    const second = await made(instance, 'PUT', '/v1/app_user', { user: { email: 'kees@example.com', firstname: 'Kees' } });
    expect(second.user.role).toBe('member');
  });

  it('refuses bad choices with 4xx and the error body, and keeps the user it had', async () => {
    const { instance } = await open();
    const anna = await aUser(instance, 'anna@example.com');
    await aUser(instance, 'taken@example.com');
    await made(instance, 'PUT', '/v1/app_user', { user_id: anna });
    const refusals: [unknown, number, string][] = [
      [{ user_id: '0190f5a0-0000-7000-8000-000000000000' }, 422, 'user_id'],
      [{ user_id: 'anna' }, 422, 'user_id'],
      [{}, 422, 'user_id'],
      [{ user_id: anna, user: { email: 'x@example.com' } }, 422, 'user_id'],
      [{ user_id: anna, admin: true }, 422, 'admin'],
      [{ user: { email: 'not an e-mail' } }, 422, 'user.email'],
      [{ user: { email: 'taken@example.com' } }, 422, 'user.email'],
      [{ user: { email: 'x@example.com', status: 'active' } }, 422, 'user.status'],
      [{ user: 'Piet' }, 422, 'user'],
      [[anna], 400, ''],
    ];
    for (const [body, status, field] of refusals) {
      const answer = await bridge(instance, 'PUT', '/v1/app_user', body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      if (status === 422) expectErrorBody(answer.body, 10422, 'Unprocessable Content');
      else expectErrorBody(answer.body, 10400, 'Bad Request');
      if (field) expect((answer.body as any).errors.map((e: any) => e.field)).toContain(field);
    }
    expect((await bridge(instance, 'GET', '/v1/app_user')).body).toMatchObject({ user_id: anna });
    const users = await bridge(instance, 'GET', '/v1/user', undefined, { filter: `email:eq:'x@example.com'` });
    expect((users.body as any).data).toEqual([]);
  });

  it('is the user the replica is signed in to its remote as, and that cannot be chosen over', async () => {
    const vault = new MemoryVault(null);
    const { instance } = await open(undefined, vault);
    const card = await aCard(instance);
    // The remote's users arrive by sync; here they are invited locally, which is the same record.
    const anna = await aUser(instance, 'anna@example.com');
    const bert = await aUser(instance, 'bert@example.com');
    await made(instance, 'PUT', '/v1/app_user', { user_id: bert });

    vault.save({ remote_url: 'http://127.0.0.1:9', access_token: accessTokenFor(anna), refresh_token: 'r' });
    expect((await bridge(instance, 'GET', '/v1/app_user')).body).toMatchObject({ user_id: anna, signed_in: true, user: { id: anna } });
    const refused = await bridge(instance, 'PUT', '/v1/app_user', { user_id: bert });
    expect(refused.status).toBe(409);
    expectErrorBody(refused.body, 10409, 'Conflict');
    expect((await made(instance, 'POST', '/v1/time_tracking/start', { card_id: card })).user_id).toBe(anna);

    // Signed in as a user whose record has not arrived yet: the id is known, the record not.
    vault.save({
      remote_url: 'http://127.0.0.1:9',
      access_token: accessTokenFor('0190f5a0-1111-7000-8000-000000000abc'),
      refresh_token: 'r',
    });
    expect((await bridge(instance, 'GET', '/v1/app_user')).body).toEqual({
      user_id: '0190f5a0-1111-7000-8000-000000000abc',
      signed_in: true,
      user: null,
    });

    // Signed out (the credentials gone), the chosen user is the user again.
    vault.save(null);
    expect((await bridge(instance, 'GET', '/v1/app_user')).body).toMatchObject({ user_id: bert, signed_in: false });
  });
});
