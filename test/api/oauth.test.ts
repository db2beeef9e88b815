/**
 * OAuth 2 authorization code over real HTTP (docs/API.md "OAuth"): the sign-in page, codes,
 * PKCE, single-use refresh tokens with reuse detection, and access tokens as credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { signAccessToken } from '../../electron/api/oauth/tokens.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { userModule } from '../../electron/api/resources/user.js';
import { OAuthStore, sqliteOAuthState } from '../../electron/store/oauth-store.js';
import type { Environment } from '../../electron/store/system.js';
import { call, prepareFolder, startInstance, type Instance } from '../helpers/instance.js';
import { openSignInPage, pkcePair, signInForCode, submitSignIn, tokenRequest } from '../helpers/oauth-flow.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';

const redirectUri = 'http://127.0.0.1:9/callback';
const password = 'correct horse battery';

let instance: Instance;
let folder: ReturnType<typeof prepareFolder>;
let alpha: Environment;
let confidential: { id: string; secret: string };
let publicClient: string;
let aliceId: string;
/** How far the OAuth routes' clock runs ahead of the real one: moves codes towards their expiry. */
let codeClockAhead = 0;

const keyHeaders = () => ({ 'x-api-key': 'alpha-key-123', 'x-api-env': 'alpha' });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const alice = { environment: 'alpha', email: 'alice@example.com', password };

async function addUser(environment: Environment, email: string, role: string, pass = password) {
  const store = instance.dataDir.environment(environment.id);
  return createUserWithPassword(requestContext({ kind: 'api-key', environment }, recordsOf(store)), { email, role }, pass);
}

/** A full sign-in of alice through the confidential client: the token answer. */
async function signInAlice(state = 'xyz') {
  const code = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state }, alice);
  const answer = await tokenRequest(instance.baseUrl, {
    grant_type: 'authorization_code',
    code,
    client_id: confidential.id,
    client_secret: confidential.secret,
    redirect_uri: redirectUri,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { access_token: string; refresh_token: string; token_type: string; expires_in: number };
}

beforeAll(async () => {
  folder = prepareFolder([
    { name: 'alpha', key: 'alpha-key-123' },
    { name: 'beta', key: 'beta-key-123' },
  ]);
  [alpha] = folder.environments as [Environment];
  instance = await startInstance(folder.folder, {
    oauthRateLimit: { limit: 1000, windowMs: 60_000 },
    oauthNow: () => Date.now() + codeClockAhead,
  });
  aliceId = (await addUser(alpha, alice.email, 'admin')).id;
  const made = createClient(instance.dataDir.system, {
    name: 'Integrator',
    redirect_uris: [redirectUri],
    confidential: true,
    environment_id: null,
  });
  confidential = { id: made.client.id, secret: made.client_secret! };
  publicClient = createClient(instance.dataDir.system, {
    name: 'Desktop',
    redirect_uris: ['http://127.0.0.1/desktop'],
    confidential: false,
    environment_id: null,
  }).client.id;
});

afterAll(async () => {
  await instance.stop();
  folder.remove();
});

describe('the sign-in page', () => {
  it('serves a form with a CSRF token, a strict CSP and no script', async () => {
    const page = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 's1',
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('script-src');
    expect(page.html).not.toMatch(/<script/i);
    expect(page.html).toContain('Integrator');
    expect(page.hidden.csrf_token).toMatch(/^[0-9a-f]+\.\d+\.[\w-]+$/);
    expect(page.cookie).toMatch(/^planner_oauth_csrf=/);
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(page.headers.get('set-cookie')).toMatch(/SameSite=Strict/);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('escapes what the request brought', async () => {
    const state = '"><script>alert(1)</script>';
    const page = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state,
    });
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<script>');
    expect(page.hidden.state).toBe(state);
  });

  it('refuses an unknown client on the page itself, without redirecting', async () => {
    const page = await openSignInPage(instance.baseUrl, {
      client_id: 'nobody',
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 's',
    });
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.html).toContain('not known');
  });

  it('refuses a redirect URI the client did not register, on the page and on the form post', async () => {
    const page = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: 'https://evil.example/cb',
      response_type: 'code',
      state: 's',
    });
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.html).toContain('not registered');

    const good = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 's',
    });
    const posted = await submitSignIn(instance.baseUrl, good, alice, { hidden: { redirect_uri: 'https://evil.example/cb' } });
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
  });

  it('sends other request errors back to the registered redirect URI with the state', async () => {
    const page = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: redirectUri,
      response_type: 'token',
      state: 's9',
    });
    expect(page.status).toBe(302);
    const location = new URL(page.location!);
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect(location.searchParams.get('error')).toBe('unsupported_response_type');
    expect(location.searchParams.get('state')).toBe('s9');
  });

  it('answers wrong credentials on the page (401), with the same words for every mistake', async () => {
    const page = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 's',
    });
    for (const attempt of [
      { ...alice, password: 'wrong password' },
      { ...alice, email: 'nobody@example.com' },
      { ...alice, environment: 'nowhere' },
    ]) {
      const answer = await submitSignIn(instance.baseUrl, page, attempt);
      expect(answer.status).toBe(401);
      expect(answer.location).toBeNull();
      expect(answer.html).toContain('The environment, email or password is not right.');
    }
  });

  it('refuses a form post without the CSRF cookie or with a forged token', async () => {
    const page = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 's',
    });
    const noCookie = await submitSignIn(instance.baseUrl, page, alice, { cookie: null });
    expect(noCookie.status).toBe(400);
    expect(noCookie.location).toBeNull();
    const forged = await submitSignIn(instance.baseUrl, page, alice, { hidden: { csrf_token: `${page.hidden.csrf_token}x` } });
    expect(forged.status).toBe(400);
    // The token is bound to the request it was made for: another state does not pass.
    const otherState = await submitSignIn(instance.baseUrl, page, alice, { hidden: { state: 'other' } });
    expect(otherState.status).toBe(400);
  });

  it('redirects with access_denied when the user says no', async () => {
    const page = await openSignInPage(instance.baseUrl, {
      client_id: confidential.id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 'no',
    });
    const answer = await submitSignIn(instance.baseUrl, page, { ...alice, password: '', decision: 'deny' });
    expect(answer.status).toBe(303);
    const location = new URL(answer.location!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('no');
    expect(location.searchParams.get('code')).toBeNull();
  });
});

describe('the authorization-code flow', () => {
  it('signs in, redirects with a code and state, and exchanges the code for tokens', async () => {
    const tokens = await signInAlice('state-1');
    expect(tokens.token_type).toBe('access_token');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toMatch(/^[0-9a-f]{32}$/);
    expect(tokens.access_token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ env: alpha.id, sub: aliceId, role: 'admin' });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.jti).toBe('string');
  });

  it('accepts the access token as a credential on any endpoint, and /v1/me says who it is', async () => {
    const { access_token } = await signInAlice();
    const me = await call(instance.baseUrl, 'GET', '/v1/me', bearer(access_token));
    expect(me.status).toBe(200);
    expect(me.body.type).toBe('user');
    expect(me.body.environment.name).toBe('alpha');
    expect(me.body.user).toMatchObject({ id: aliceId, email: alice.email, status: 'active' });

    const created = await call(instance.baseUrl, 'POST', '/v1/project', bearer(access_token), { name: 'Made by Alice' });
    expect(created.status).toBe(201);
    const listed = await call(instance.baseUrl, 'GET', '/v1/project', keyHeaders());
    expect(listed.body.data.map((p: { name: string }) => p.name)).toContain('Made by Alice');
    // x-api-env may come along, naming the token's own environment.
    expect((await call(instance.baseUrl, 'GET', '/v1/me', { ...bearer(access_token), 'x-api-env': 'alpha' })).status).toBe(200);
  });

  it('still answers /v1/me for an API key', async () => {
    const me = await call(instance.baseUrl, 'GET', '/v1/me', keyHeaders());
    expect(me.status).toBe(200);
    expect(me.body.type).toBe('api-key');
  });

  it('answers the token endpoint with no-store', async () => {
    const code = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state: 'a' }, alice);
    const answer = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: confidential.id,
      client_secret: confidential.secret,
      redirect_uri: redirectUri,
    });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('takes client credentials from HTTP Basic too', async () => {
    const code = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state: 'b' }, alice);
    const response = await fetch(`${instance.baseUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${confidential.id}:${confidential.secret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }).toString(),
    });
    expect(response.status).toBe(200);
  });

  it('refuses a code used twice, and revokes what the first exchange gave', async () => {
    const code = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state: 'c' }, alice);
    const form = {
      grant_type: 'authorization_code',
      code,
      client_id: confidential.id,
      client_secret: confidential.secret,
      redirect_uri: redirectUri,
    };
    const first = await tokenRequest(instance.baseUrl, form);
    expect(first.status).toBe(200);
    const second = await tokenRequest(instance.baseUrl, form);
    expect(second.status).toBe(400);
    expect(second.body.errors[0].description).toMatch(/already been used/);
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(first.body.access_token))).status).toBe(401);
    expect(
      (
        await tokenRequest(instance.baseUrl, {
          grant_type: 'refresh_token',
          refresh_token: first.body.refresh_token,
          client_id: confidential.id,
          client_secret: confidential.secret,
        })
      ).status,
    ).toBe(400);
  });

  it('refuses a code older than 60 seconds with 400 invalid_grant; a 59-second-old one still works', async () => {
    const form = (code: string) => ({
      grant_type: 'authorization_code',
      code,
      client_id: confidential.id,
      client_secret: confidential.secret,
      redirect_uri: redirectUri,
    });
    const stale = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state: 'old1' }, alice);
    const fresh = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state: 'old2' }, alice);
    try {
      codeClockAhead = 59_000;
      const inTime = await tokenRequest(instance.baseUrl, form(fresh));
      expect(inTime.status, JSON.stringify(inTime.body)).toBe(200);
      codeClockAhead = 60_000;
      const late = await tokenRequest(instance.baseUrl, form(stale));
      expect(late.status).toBe(400);
      expect(late.headers.get('cache-control')).toBe('no-store');
      expect(late.body.reference).toMatch(/^[0-9a-f-]{36}$/);
      expect(late.body.errors).toHaveLength(1);
      expect(late.body.errors[0]).toMatchObject({ code: 10400, description: 'invalid_grant: the code has expired' });
      // Refused, it gave nothing and stays refused when the clock is back.
      codeClockAhead = 0;
      expect((await tokenRequest(instance.baseUrl, form(stale))).status).toBe(400);
    } finally {
      codeClockAhead = 0;
    }
  });

  it('binds a code to its redirect URI and its client', async () => {
    const code = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state: 'd' }, alice);
    const wrongUri = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: confidential.id,
      client_secret: confidential.secret,
      redirect_uri: 'http://127.0.0.1:9/other',
    });
    expect(wrongUri.status).toBe(400);
    const code2 = await signInForCode(instance.baseUrl, { client_id: confidential.id, redirect_uri: redirectUri, state: 'e' }, alice);
    const otherClient = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code: code2,
      client_id: publicClient,
      redirect_uri: redirectUri,
      code_verifier: pkcePair().verifier,
    });
    expect(otherClient.status).toBe(400);
    // Another client's attempt does not use the code up.
    const own = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code: code2,
      client_id: confidential.id,
      client_secret: confidential.secret,
      redirect_uri: redirectUri,
    });
    expect(own.status).toBe(200);
  });

  it('answers missing or wrong fields with 400 or 401 and the error body', async () => {
    const base = { client_id: confidential.id, client_secret: confidential.secret };
    const cases: [Record<string, string>, number][] = [
      [{ ...base }, 400], // no grant_type
      [{ ...base, grant_type: 'password' }, 400],
      [{ ...base, grant_type: 'authorization_code', redirect_uri: redirectUri }, 400], // no code
      [{ ...base, grant_type: 'authorization_code', code: 'made-up', redirect_uri: redirectUri }, 400],
      [{ ...base, grant_type: 'refresh_token' }, 400], // no refresh_token
      [{ ...base, grant_type: 'refresh_token', refresh_token: '0'.repeat(32) }, 400],
      [{ grant_type: 'refresh_token', refresh_token: '0'.repeat(32) }, 400], // no client_id
      [{ ...base, client_secret: 'wrong', grant_type: 'refresh_token', refresh_token: '0'.repeat(32) }, 401],
      [{ client_id: confidential.id, grant_type: 'refresh_token', refresh_token: '0'.repeat(32) }, 401], // a confidential client must prove itself
      [{ client_id: 'unknown-client', grant_type: 'refresh_token', refresh_token: '0'.repeat(32) }, 401],
    ];
    for (const [form, status] of cases) {
      const answer = await tokenRequest(instance.baseUrl, form);
      expect(answer.status, JSON.stringify(form)).toBe(status);
      expect(answer.body.reference).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.body.errors[0].code).toBe(status === 400 ? 10400 : 10401);
    }
    const duplicated = await fetch(`${instance.baseUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&grant_type=authorization_code&client_id=${confidential.id}`,
    });
    expect(duplicated.status).toBe(400);
  });
});

describe('PKCE', () => {
  const desktopUri = 'http://127.0.0.1/desktop';

  it('lets a public client exchange its code with the right verifier', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await signInForCode(
      instance.baseUrl,
      { client_id: publicClient, redirect_uri: desktopUri, state: 'p', code_challenge: challenge, code_challenge_method: 'S256' },
      alice,
    );
    const answer = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: publicClient,
      redirect_uri: desktopUri,
      code_verifier: verifier,
    });
    expect(answer.status).toBe(200);
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(answer.body.access_token))).body.user.id).toBe(aliceId);
  });

  it('accepts any port on a loopback redirect URI (a native app listens where it can)', async () => {
    const { verifier, challenge } = pkcePair();
    const uri = 'http://127.0.0.1:51234/desktop';
    const code = await signInForCode(
      instance.baseUrl,
      { client_id: publicClient, redirect_uri: uri, state: 'p', code_challenge: challenge, code_challenge_method: 'S256' },
      alice,
    );
    expect(
      (
        await tokenRequest(instance.baseUrl, {
          grant_type: 'authorization_code',
          code,
          client_id: publicClient,
          redirect_uri: uri,
          code_verifier: verifier,
        })
      ).status,
    ).toBe(200);
  });

  it('refuses a wrong or missing verifier', async () => {
    const { challenge } = pkcePair();
    const code = await signInForCode(
      instance.baseUrl,
      { client_id: publicClient, redirect_uri: desktopUri, state: 'p', code_challenge: challenge, code_challenge_method: 'S256' },
      alice,
    );
    const wrong = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: publicClient,
      redirect_uri: desktopUri,
      code_verifier: pkcePair().verifier,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].description).toMatch(/code_verifier/);

    const code2 = await signInForCode(
      instance.baseUrl,
      { client_id: publicClient, redirect_uri: desktopUri, state: 'p', code_challenge: challenge, code_challenge_method: 'S256' },
      alice,
    );
    const missing = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code: code2,
      client_id: publicClient,
      redirect_uri: desktopUri,
    });
    expect(missing.status).toBe(400);
  });

  it('requires PKCE (S256) of a public client', async () => {
    const none = await openSignInPage(instance.baseUrl, {
      client_id: publicClient,
      redirect_uri: desktopUri,
      response_type: 'code',
      state: 'q',
    });
    expect(none.status).toBe(302);
    expect(new URL(none.location!).searchParams.get('error')).toBe('invalid_request');
    const plain = await openSignInPage(instance.baseUrl, {
      client_id: publicClient,
      redirect_uri: desktopUri,
      response_type: 'code',
      state: 'q',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'plain',
    });
    expect(new URL(plain.location!).searchParams.get('error')).toBe('invalid_request');
  });

  it('checks the verifier of a confidential client that sent a challenge too', async () => {
    const { verifier, challenge } = pkcePair();
    const code = await signInForCode(
      instance.baseUrl,
      { client_id: confidential.id, redirect_uri: redirectUri, state: 'r', code_challenge: challenge, code_challenge_method: 'S256' },
      alice,
    );
    const form = {
      grant_type: 'authorization_code',
      code,
      client_id: confidential.id,
      client_secret: confidential.secret,
      redirect_uri: redirectUri,
    };
    expect((await tokenRequest(instance.baseUrl, { ...form, code_verifier: pkcePair().verifier })).status).toBe(400);
    const code2 = await signInForCode(
      instance.baseUrl,
      { client_id: confidential.id, redirect_uri: redirectUri, state: 'r', code_challenge: challenge, code_challenge_method: 'S256' },
      alice,
    );
    expect((await tokenRequest(instance.baseUrl, { ...form, code: code2, code_verifier: verifier })).status).toBe(200);
  });
});

describe('refresh tokens', () => {
  const refresh = (refreshToken: string) =>
    tokenRequest(instance.baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: confidential.id,
      client_secret: confidential.secret,
    });

  it('work once, giving a new pair', async () => {
    const first = await signInAlice();
    const next = await refresh(first.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(first.refresh_token);
    expect(next.body.access_token).not.toBe(first.access_token);
    expect(next.body).toMatchObject({ token_type: 'access_token', expires_in: 3600 });
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(next.body.access_token))).status).toBe(200);
  });

  it('rejects a refresh token used twice with 409, and revokes its whole family', async () => {
    const first = await signInAlice();
    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(409);
    expect(replay.body.errors[0]).toMatchObject({ code: 10409, message: 'Conflict' });
    // The new refresh token of the first exchange no longer works, nor do the access tokens.
    expect((await refresh(rotated.body.refresh_token)).status).toBe(400);
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(rotated.body.access_token))).status).toBe(401);
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(first.access_token))).status).toBe(401);
    // Another sign-in of the same user is not affected.
    const other = await signInAlice();
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(other.access_token))).status).toBe(200);
  });

  it('belong to their client', async () => {
    const first = await signInAlice();
    const elsewhere = await tokenRequest(instance.baseUrl, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: publicClient,
    });
    expect(elsewhere.status).toBe(400);
    // The failed attempt did not use it up.
    expect((await refresh(first.refresh_token)).status).toBe(200);
  });
});

describe('access tokens', () => {
  const oauth = () => OAuthStore.of(instance.dataDir.system);

  it('refuses an expired token with 401', async () => {
    const family = oauth().createFamily({ client_id: confidential.id, environment_id: alpha.id, user_id: aliceId });
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await signAccessToken(
      sqliteOAuthState(oauth()),
      { environmentId: alpha.id, userId: aliceId, role: 'admin', familyId: family.id, clientId: confidential.id },
      { now: past, lifetime: 3600 },
    );
    const answer = await call(instance.baseUrl, 'GET', '/v1/me', bearer(expired));
    expect(answer.status).toBe(401);
    expect(answer.body.errors[0].description).toMatch(/expired/);
  });

  it('refuses a tampered token with 401', async () => {
    const { access_token } = await signInAlice();
    const [header, payload, signature] = access_token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const promoted = Buffer.from(JSON.stringify({ ...claims, role: 'admin', sub: '00000000-0000-7000-8000-000000000000' })).toString(
      'base64url',
    );
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${payload}.`;
    for (const token of [`${header}.${promoted}.${signature}`, `${header}.${payload}.${flipped}`, none, 'not-a-jwt', `${access_token}x`]) {
      const answer = await call(instance.baseUrl, 'GET', '/v1/me', bearer(token));
      expect(answer.status, token).toBe(401);
      expect(answer.body.errors[0].code).toBe(10401);
    }
    expect((await call(instance.baseUrl, 'GET', '/v1/me', { authorization: 'Bearer ' })).status).toBe(401);
  });

  it('stops working when its user is archived or deleted', async () => {
    const bob = await addUser(alpha, 'bob@example.com', 'member');
    const code = await signInForCode(
      instance.baseUrl,
      { client_id: confidential.id, redirect_uri: redirectUri, state: 'b' },
      { ...alice, email: 'bob@example.com' },
    );
    const tokens = (
      await tokenRequest(instance.baseUrl, {
        grant_type: 'authorization_code',
        code,
        client_id: confidential.id,
        client_secret: confidential.secret,
        redirect_uri: redirectUri,
      })
    ).body;
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(tokens.access_token))).status).toBe(200);
    instance.dataDir.environment(alpha.id).update(userModule.table, bob.id, { archived_at: '2030-01-01T00:00:00Z' });
    expect((await call(instance.baseUrl, 'GET', '/v1/me', bearer(tokens.access_token))).status).toBe(401);
    expect(
      (
        await tokenRequest(instance.baseUrl, {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: confidential.id,
          client_secret: confidential.secret,
        })
      ).status,
    ).toBe(400);
  });
});
