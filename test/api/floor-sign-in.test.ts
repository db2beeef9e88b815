/**
 * The floor view's sign-in (docs/API.md "The floor", docs/decisions/floor-sign-in.md): a JSON
 * sign-in that makes a token family of the built-in client `planner-floor`, lasting a shift;
 * its refresh tokens rotate at the token endpoint with the replay rule; sign-out revokes it; a
 * wrong password is one 401 whatever was wrong, counted in the sign-in limit. Over real HTTP,
 * on SQLite and (vitest's postgres project) on PostgreSQL.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { floorShiftHours } from '../../electron/api/oauth/floor-client.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { nowMs, startClockAt } from '../../shared/clock.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { call } from '../helpers/instance.js';
import { tokenRequest } from '../helpers/oauth-flow.js';
import { fixTheClock, runNow } from '../helpers/test-clock.js';

fixTheClock();

const password = 'pass-word-123';
let api: TestApi;

useSeededApi(async (seeded) => {
  api = seeded;
  const resource = await api.http('POST', '/v1/resource', { name: 'Max' });
  expect(resource.status).toBe(201);
  // As test/api/floor.test.ts does: the seed is written to the data folder, then (postgres project) copied.
  const ctx = requestContext({ kind: 'api-key', environment: api.environment }, recordsOf(api.dataDir.environment(api.environment.id)));
  await createUserWithPassword(ctx, { email: 'max@example.com', role: 'member', resource_id: resource.body.id }, password);
});

afterAll(() => fixTheClock());

function signIn(fields: Record<string, string>) {
  return call(api.baseUrl, 'POST', '/v1/floor/sign_in', {}, fields);
}
const right = () => signIn({ environment: api.environment.name, email: 'max@example.com', password });
const jobs = (token: string) => call(api.baseUrl, 'GET', '/v1/floor/jobs', { authorization: `Bearer ${token}` });
const refresh = (token: string) =>
  tokenRequest(api.baseUrl, { grant_type: 'refresh_token', refresh_token: token, client_id: 'planner-floor' });

describe('the floor sign-in', () => {
  it('names the server’s one environment for the form', async () => {
    const answer = await call(api.baseUrl, 'GET', '/v1/floor/sign_in', {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ environment: api.environment.name });
  });

  it('signs in for a shift: tokens that open the floor, no-store, ending in 12 hours', async () => {
    const answer = await right();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.body).toMatchObject({ token_type: 'access_token', environment: api.environment.name });
    expect(answer.body.expires_in).toBeLessThanOrEqual(3600);
    expect(Date.parse(answer.body.ends_at) - nowMs()).toBeGreaterThan((floorShiftHours * 60 - 1) * 60_000);
    expect((await jobs(answer.body.access_token)).status).toBe(200);
  });

  it('refuses a wrong password, email or environment with the same 401', async () => {
    const answers = await Promise.all([
      signIn({ environment: api.environment.name, email: 'max@example.com', password: 'wrong-password' }),
      signIn({ environment: api.environment.name, email: 'nobody@example.com', password }),
      signIn({ environment: 'nowhere', email: 'max@example.com', password }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body.errors[0].description).toBe('The environment, email or password is not right.');
    }
  });

  it('rotates refresh tokens; a replayed one revokes the sign-in', async () => {
    const first = (await right()).body;
    const renewed = await refresh(first.refresh_token);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect((await jobs(renewed.body.access_token)).status).toBe(200);
    expect((await refresh(first.refresh_token)).status).toBe(409);
    expect((await jobs(renewed.body.access_token)).status).toBe(401);
    expect((await refresh(renewed.body.refresh_token)).status).toBe(400);
  });

  it('signs out: every token of that sign-in stops at once, others keep working', async () => {
    const mine = (await right()).body;
    const other = (await right()).body;
    const out = await call(api.baseUrl, 'POST', '/v1/floor/sign_out', { authorization: `Bearer ${mine.access_token}` }, {});
    expect(out.status, JSON.stringify(out.body)).toBe(204);
    expect((await jobs(mine.access_token)).status).toBe(401);
    expect((await refresh(mine.refresh_token)).status).toBe(400);
    expect((await jobs(other.access_token)).status).toBe(200);
    expect((await call(api.baseUrl, 'POST', '/v1/floor/sign_out', api.headers, {})).status).toBe(400);
  });

  it('ends with the shift: refreshing never lengthens it', async () => {
    const signedIn = (await right()).body;
    const endsAt = Date.parse(signedIn.ends_at);
    try {
      startClockAt(endsAt - 30 * 60_000);
      const late = await refresh(signedIn.refresh_token);
      expect(late.status, JSON.stringify(late.body)).toBe(200);
      // Half an hour is left: the access token lives no longer than that.
      expect(late.body.expires_in).toBeLessThanOrEqual(30 * 60);
      startClockAt(endsAt + 60_000);
      expect((await jobs(late.body.access_token)).status).toBe(401);
      const after = await refresh(late.body.refresh_token);
      expect(after.status).toBe(400);
      expect(after.body.errors[0].description).toMatch(/expired/);
    } finally {
      startClockAt(runNow());
    }
  });

  it('counts failed sign-ins in the sign-in limit: past 20 a minute, 429', async () => {
    let last = 0;
    for (let i = 0; i < 21 && last !== 429; i++) {
      last = (await signIn({ environment: api.environment.name, email: 'max@example.com', password: `wrong-${i}-password` })).status;
    }
    expect(last).toBe(429);
  });
});
