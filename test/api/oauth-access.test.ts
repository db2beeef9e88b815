/**
 * What a signed-in user may reach: only their own environment, only with the right role for
 * administration; invitations accepted with a password; clients managed by an admin; and the
 * rate limit of the sign-in and token endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import type { Environment } from '../../electron/store/system.js';
import { call, prepareFolder, startInstance, type Instance } from '../helpers/instance.js';
import { openSignInPage, signInForCode, submitSignIn, tokenRequest, type Credentials } from '../helpers/oauth-flow.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';

const redirectUri = 'https://app.example.com/callback';
const password = 'pass-word-123';

let instance: Instance;
let folder: ReturnType<typeof prepareFolder>;
let alpha: Environment;
let beta: Environment;
let client: { id: string; secret: string };

const alphaKey = { 'x-api-key': 'alpha-key-123', 'x-api-env': 'alpha' };
const betaKey = { 'x-api-key': 'beta-key-123', 'x-api-env': 'beta' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function addUser(environment: Environment, email: string, role: string) {
  const store = instance.dataDir.environment(environment.id);
  return createUserWithPassword(requestContext({ kind: 'api-key', environment }, recordsOf(store)), { email, role }, password);
}

async function tokensFor(credentials: Credentials, clientId = client.id, secret = client.secret) {
  const code = await signInForCode(instance.baseUrl, { client_id: clientId, redirect_uri: redirectUri, state: 'st' }, credentials);
  const answer = await tokenRequest(instance.baseUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: clientId,
    client_secret: secret,
    redirect_uri: redirectUri,
  });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string };
}

beforeAll(async () => {
  folder = prepareFolder([
    { name: 'alpha', key: 'alpha-key-123' },
    { name: 'beta', key: 'beta-key-123' },
  ]);
  [alpha, beta] = folder.environments as [Environment, Environment];
  instance = await startInstance(folder.folder, { oauthRateLimit: { limit: 1000, windowMs: 60_000 } });
  await addUser(alpha, 'ann@example.com', 'admin');
  await addUser(alpha, 'max@example.com', 'member');
  await addUser(beta, 'ann@example.com', 'admin'); // same address, another environment, same password
  const made = createClient(instance.dataDir.system, {
    name: 'Integrator',
    redirect_uris: [redirectUri],
    confidential: true,
    environment_id: null,
  });
  client = { id: made.client.id, secret: made.client_secret! };
});

afterAll(async () => {
  await instance.stop();
  folder.remove();
});

describe('environment isolation', () => {
  it('refuses a token of one environment that names another with x-api-env', async () => {
    const { access_token } = await tokensFor({ environment: 'alpha', email: 'ann@example.com', password });
    const answer = await call(instance.baseUrl, 'GET', '/v1/project', { ...bearer(access_token), 'x-api-env': 'beta' });
    expect(answer.status).toBe(401);
    expect(JSON.stringify(answer.body)).not.toContain('beta-secret');
  });

  it("never shows another environment's records to a token", async () => {
    const secret = await call(instance.baseUrl, 'POST', '/v1/project', betaKey, { name: 'beta-secret project' });
    expect(secret.status).toBe(201);
    const own = await call(instance.baseUrl, 'POST', '/v1/project', alphaKey, { name: 'alpha project' });
    const { access_token } = await tokensFor({ environment: 'alpha', email: 'ann@example.com', password });

    const direct = await call(instance.baseUrl, 'GET', `/v1/project/${secret.body.id}`, bearer(access_token));
    expect(direct.status).toBe(404);
    expect(JSON.stringify(direct.body)).not.toContain('beta-secret');
    const list = await call(instance.baseUrl, 'GET', '/v1/project?limit=1000', bearer(access_token));
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(own.body.id);
    expect(JSON.stringify(list.body)).not.toContain('beta-secret');
    const change = await call(instance.baseUrl, 'PUT', `/v1/project/${secret.body.id}`, bearer(access_token), { name: 'taken over' });
    expect(change.status).toBe(404);
    expect((await call(instance.baseUrl, 'GET', `/v1/project/${secret.body.id}`, betaKey)).body.name).toBe('beta-secret project');
  });

  it('signs the same person into each environment separately', async () => {
    const inAlpha = await tokensFor({ environment: 'alpha', email: 'ann@example.com', password });
    const inBeta = await tokensFor({ environment: 'beta', email: 'ann@example.com', password });
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(inAlpha.access_token))).body.environment.id).toBe(alpha.id);
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(inBeta.access_token))).body.environment.id).toBe(beta.id);
  });

  it("keeps a client registered by one environment's admin to that environment", async () => {
    const { access_token } = await tokensFor({ environment: 'alpha', email: 'ann@example.com', password });
    const made = await call(instance.baseUrl, 'POST', '/v1/oauth_client', bearer(access_token), {
      name: 'Alpha tool',
      redirect_uris: [redirectUri],
    });
    expect(made.status).toBe(201);
    const page = await openSignInPage(instance.baseUrl, {
      client_id: made.body.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 's',
    });
    expect(page.html).toContain('value="alpha"');
    const intoBeta = await submitSignIn(instance.baseUrl, page, { environment: 'beta', email: 'ann@example.com', password });
    expect(intoBeta.status).toBe(401);
    expect(intoBeta.location).toBeNull();
    const intoAlpha = await submitSignIn(instance.baseUrl, page, { environment: 'alpha', email: 'ann@example.com', password });
    expect(intoAlpha.status).toBe(303);
  });
});

describe('administration', () => {
  it('lets an admin manage OAuth clients; the secret is shown once', async () => {
    const { access_token } = await tokensFor({ environment: 'alpha', email: 'ann@example.com', password });
    const made = await call(instance.baseUrl, 'POST', '/v1/oauth_client', bearer(access_token), {
      name: 'Reporting',
      redirect_uris: [redirectUri],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Reporting', redirect_uris: [redirectUri], confidential: true, environment_id: alpha.id });
    expect(made.body.client_secret).toMatch(/^[\w-]{43}$/);
    const got = await call(instance.baseUrl, 'GET', `/v1/oauth_client/${made.body.id}`, alphaKey);
    expect(got.status).toBe(200);
    expect(got.body.client_secret).toBeUndefined();
    expect(JSON.stringify((await call(instance.baseUrl, 'GET', '/v1/oauth_client', alphaKey)).body)).not.toContain(made.body.client_secret);
    // Another environment does not see it.
    expect((await call(instance.baseUrl, 'GET', `/v1/oauth_client/${made.body.id}`, betaKey)).status).toBe(404);
    // The secret works at the token endpoint.
    await tokensFor({ environment: 'alpha', email: 'ann@example.com', password }, made.body.id, made.body.client_secret);

    const renamed = await call(instance.baseUrl, 'PUT', `/v1/oauth_client/${made.body.id}`, alphaKey, { name: 'Reports' });
    expect(renamed.body.name).toBe('Reports');
    const bad = await call(instance.baseUrl, 'POST', '/v1/oauth_client', alphaKey, {
      name: 'x',
      redirect_uris: ['http://example.com/cb', 'javascript:alert(1)'],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('redirect_uris');

    // Deleting a client ends every sign-in through it.
    const tokens = await tokensFor({ environment: 'alpha', email: 'ann@example.com', password }, made.body.id, made.body.client_secret);
    expect((await call(instance.baseUrl, 'DELETE', `/v1/oauth_client/${made.body.id}`, alphaKey)).status).toBe(204);
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(tokens.access_token))).status).toBe(401);
  });

  it('refuses webhooks and OAuth clients to a user who is not an admin (403)', async () => {
    const { access_token } = await tokensFor({ environment: 'alpha', email: 'max@example.com', password });
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(access_token))).body.user.role).toBe('member');
    for (const [method, path] of [
      ['GET', '/v1/webhook'],
      ['POST', '/v1/webhook'],
      ['GET', '/v1/oauth_client'],
    ] as const) {
      const answer = await call(instance.baseUrl, method, path, bearer(access_token), method === 'POST' ? {} : undefined);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.errors[0].code).toBe(10403);
    }
    // Planning data is theirs to use.
    expect((await call(instance.baseUrl, 'GET', '/v1/project', bearer(access_token))).status).toBe(200);
  });

  it("records which OAuth client an admin's webhook came through", async () => {
    const { access_token } = await tokensFor({ environment: 'alpha', email: 'ann@example.com', password });
    const made = await call(instance.baseUrl, 'POST', '/v1/webhook', bearer(access_token), {
      url: 'https://hooks.example.com/x',
      event_types: ['card.created'],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ developer_client_id: client.id, api_key_id: null });
  });
});

describe('invitations', () => {
  it('lets an invited user choose a password once, then sign in', async () => {
    const invited = await call(instance.baseUrl, 'POST', '/v1/user', alphaKey, { email: 'new@example.com', role: 'organiser' });
    expect(invited.status).toBe(201);
    const users = await call(instance.baseUrl, 'GET', "/v1/user?filter=email:eq:'new@example.com'", alphaKey);
    const inviteId = users.body.data[0].invite_id as string;
    expect(inviteId).toBeTruthy();

    const short = await call(
      instance.baseUrl,
      'POST',
      '/v1/user/accept',
      {},
      { environment: 'alpha', invite_id: inviteId, password: 'short' },
    );
    expect(short.status).toBe(422);
    expect(short.body.errors[0].field).toBe('password');
    const elsewhere = await call(instance.baseUrl, 'POST', '/v1/user/accept', {}, { environment: 'beta', invite_id: inviteId, password });
    expect(elsewhere.status).toBe(404);

    const accepted = await call(instance.baseUrl, 'POST', '/v1/user/accept', { 'x-api-env': 'alpha' }, { invite_id: inviteId, password });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ email: 'new@example.com', status: 'active' });
    // Used up; and only an admin sees the field at all (the new organiser answers for themselves).
    expect(accepted.body).not.toHaveProperty('invite_id');
    expect((await call(instance.baseUrl, 'GET', `/v1/user/${accepted.body.id as string}`, alphaKey)).body.invite_id).toBeNull();
    const again = await call(
      instance.baseUrl,
      'POST',
      '/v1/user/accept',
      {},
      { environment: 'alpha', invite_id: inviteId, password: 'another password' },
    );
    expect(again.status).toBe(404);

    const { access_token } = await tokensFor({ environment: 'alpha', email: 'new@example.com', password });
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(access_token))).body.user.role).toBe('organiser');
  });

  it('does not let an invited user sign in before accepting', async () => {
    await call(instance.baseUrl, 'POST', '/v1/user', alphaKey, { email: 'later@example.com', role: 'member' });
    const page = await openSignInPage(instance.baseUrl, {
      client_id: client.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 's',
    });
    const answer = await submitSignIn(instance.baseUrl, page, { environment: 'alpha', email: 'later@example.com', password });
    expect(answer.status).toBe(401);
  });
});

describe('rate limits', () => {
  it('answer the token endpoint with RateLimit headers and 429 past the limit', async () => {
    const own = prepareFolder([{ name: 'alpha', key: 'alpha-key-123' }]);
    const limited = await startInstance(own.folder, { oauthRateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const made = createClient(limited.dataDir.system, {
        name: 'Integrator',
        redirect_uris: [redirectUri],
        confidential: true,
        environment_id: null,
      });
      const client = { id: made.client.id, secret: made.client_secret! };
      const form = { grant_type: 'refresh_token', refresh_token: '0'.repeat(32), client_id: client.id, client_secret: client.secret };
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof tokenRequest>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await tokenRequest(limited.baseUrl, form);
        statuses.push(last.status);
        if (i < 3) {
          expect(last.headers.get('ratelimit-limit')).toBe('3');
          expect(last.headers.get('ratelimit-remaining')).toBe(String(2 - i));
        }
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
      expect(last!.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(last!.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.body.errors[0]).toMatchObject({ code: 10429, message: 'Too Many Requests' });
      // Another client from the same address has its own budget.
      const other = await tokenRequest(limited.baseUrl, { ...form, client_id: 'someone-else' });
      expect(other.status).toBe(401);

      // The sign-in form is limited the same way.
      const page = await openSignInPage(limited.baseUrl, {
        client_id: client.id,
        redirect_uri: redirectUri,
        response_type: 'code',
        state: 's',
      });
      const answers: number[] = [];
      for (let i = 0; i < 4; i++) {
        answers.push(
          (await submitSignIn(limited.baseUrl, page, { environment: 'alpha', email: 'ann@example.com', password: 'wrong one!' })).status,
        );
      }
      expect(answers).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.stop();
      own.remove();
    }
  });
});
