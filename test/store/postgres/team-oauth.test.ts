/**
 * OAuth on a team server (docs/architecture.md "Team server on PostgreSQL", "Shared state"):
 * two API nodes on one PostgreSQL database, each with a data folder of its own that holds
 * nothing of OAuth's. Every step of a sign-in may land on either node: an invitation accepted
 * on one, the sign-in page from one and its form posted to the other, the code exchanged on the
 * first, the token used on the second. Codes, refresh-token families, signing keys and rate
 * limits are the database's, so a replayed code or refresh token is caught whichever node sees
 * it, and the limits count the requests of all nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSystemStore } from '../../../electron/store/postgres/system-store.js';
import { pkcePair, signInForCode, tokenRequest } from '../../helpers/oauth-flow.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';
import { startTeamNodes, type TeamNodes } from '../../helpers/team-nodes.js';

let team: TeamDatabase;
let nodes: TeamNodes | undefined;
let urls: string[] = [];
const key = 'team-oauth-key-1234';
const env = 'workshop';
const headers = { 'x-api-env': env, 'x-api-key': key };
const redirect = 'https://app.example.com/callback';
/** A sign-in limit low enough to reach: 8 requests a minute per address and client, across nodes. */
const oauthLimit = { limit: 8, windowMs: 60_000 };

beforeAll(async () => {
  team = await startTeamDatabase('oauth');
  const system = new PostgresSystemStore(team.nodes[0]);
  const environment = await system.ensureEnvironment(env);
  await system.ensureApiKey(environment.id, key);
  await system.ensureEnvironment('elsewhere');
  nodes = await startTeamNodes(team, { oauthRateLimit: oauthLimit });
  urls = nodes.urls;
}, 120_000);

afterAll(async () => {
  await nodes?.close();
  await team?.stop();
});

async function call(url: string, method: string, path: string, extra: Record<string, string>, body?: unknown) {
  const response = await fetch(url + path, {
    method,
    headers: { ...extra, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

const [a, b] = [0, 1];
let client: { id: string; secret: string };
const password = 'correct horse battery';

describe('OAuth on two nodes of one database', () => {
  it('registers a client on one node and shows it on the other', async () => {
    const made = await call(urls[a]!, 'POST', '/v1/oauth_client', headers, {
      name: 'Shop floor app',
      redirect_uris: [redirect],
      confidential: true,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    client = { id: made.body.id, secret: made.body.client_secret };
    const seen = await call(urls[b]!, 'GET', `/v1/oauth_client/${client.id}`, headers);
    expect(seen.body).toMatchObject({ id: client.id, name: 'Shop floor app', confidential: true });
    expect((await call(urls[b]!, 'GET', '/v1/oauth_client', headers)).body.count).toBe(1);
  });

  it('signs in a user invited on one node, whose invitation was accepted on the other, through both', async () => {
    expect((await call(urls[b]!, 'POST', '/v1/user', headers, { email: 'mia@example.com', role: 'member' })).status).toBe(201);
    const users = await call(urls[b]!, 'GET', '/v1/user?filter=email:eq:mia@example.com', headers);
    const inviteId: string = users.body.data[0].invite_id;
    expect(inviteId).toMatch(/^[0-9a-f-]{36}$/);
    const accepted = await call(urls[a]!, 'POST', '/v1/user/accept', {}, { environment: env, invite_id: inviteId, password });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toMatchObject({ email: 'mia@example.com', status: 'active' });
    // Used up, on either node.
    expect((await call(urls[b]!, 'POST', '/v1/user/accept', {}, { environment: env, invite_id: inviteId, password })).status).toBe(404);

    // The page from node A, its form posted to node B (the CSRF token is the database's signing key's).
    const { verifier, challenge } = pkcePair();
    const query = { client_id: client.id, redirect_uri: redirect, state: 's1', code_challenge: challenge, code_challenge_method: 'S256' };
    const page = await fetch(`${urls[a]}/v1/oauth/authorize?${new URLSearchParams({ response_type: 'code', ...query })}`);
    expect(page.status).toBe(200);
    const code = await signInForCode(urls[b]!, query, { environment: env, email: 'mia@example.com', password });
    const exchange = { grant_type: 'authorization_code', client_id: client.id, client_secret: client.secret, code, redirect_uri: redirect };
    const tokens = await tokenRequest(urls[a]!, { ...exchange, code_verifier: verifier });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);

    // The access token works on the other node, as that user.
    const me = await call(urls[b]!, 'GET', '/v1/me', { authorization: `Bearer ${tokens.body.access_token}` });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body).toMatchObject({ type: 'user', environment: { name: env } });
    expect(me.body.user).toMatchObject({ email: 'mia@example.com', role: 'member', status: 'active' });
    const cards = await call(urls[a]!, 'GET', '/v1/card', { authorization: `Bearer ${tokens.body.access_token}` });
    expect(cards.status).toBe(200);
    // Not for another environment.
    const foreign = await call(urls[a]!, 'GET', '/v1/me', {
      authorization: `Bearer ${tokens.body.access_token}`,
      'x-api-env': 'elsewhere',
    });
    expect(foreign.status).toBe(401);

    // The code again, on the other node: refused, and the sign-in it made is revoked.
    const replay = await tokenRequest(urls[b]!, { ...exchange, code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect(replay.body.errors[0].description).toMatch(/already been used/);
    expect((await call(urls[b]!, 'GET', '/v1/me', { authorization: `Bearer ${tokens.body.access_token}` })).status).toBe(401);
  });

  it('rotates a refresh token once when both nodes get it at once, and ends the sign-in', async () => {
    const { verifier, challenge } = pkcePair();
    const query = { client_id: client.id, redirect_uri: redirect, state: 's2', code_challenge: challenge, code_challenge_method: 'S256' };
    const code = await signInForCode(urls[a]!, query, { environment: env, email: 'mia@example.com', password });
    const tokens = await tokenRequest(urls[b]!, {
      grant_type: 'authorization_code',
      client_id: client.id,
      client_secret: client.secret,
      code,
      redirect_uri: redirect,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    const refresh = {
      grant_type: 'refresh_token',
      client_id: client.id,
      client_secret: client.secret,
      refresh_token: tokens.body.refresh_token,
    };
    const answers = await Promise.all(urls.map((url) => tokenRequest(url, refresh)));
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    // The token that was reused ended the whole sign-in: the new tokens are refused too.
    const rotated = answers.find((x) => x.status === 200)!.body;
    expect((await call(urls[a]!, 'GET', '/v1/me', { authorization: `Bearer ${rotated.access_token}` })).status).toBe(401);
    expect((await tokenRequest(urls[a]!, { ...refresh, refresh_token: rotated.refresh_token })).status).toBe(400);
  });

  it('counts the sign-in limit and failed API keys over both nodes together', async () => {
    // The token endpoint: this client has used some of its 8 already; alternate until refused.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await tokenRequest(urls[i % 2]!, {
        grant_type: 'refresh_token',
        client_id: client.id,
        client_secret: client.secret,
        refresh_token: 'x'.repeat(32),
      });
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
        break;
      }
    }
    expect(statuses.at(-1)).toBe(429);
    // Fewer than one node alone would allow twice over.
    expect(statuses.length).toBeLessThanOrEqual(oauthLimit.limit + 1);

    // Wrong keys (20 a minute per address; this file's refused tokens counted too), alternating
    // nodes: refused within 21 tries, which two limits of their own would take 40 to reach.
    const wrong = { 'x-api-env': env, 'x-api-key': 'not-the-key-0000' };
    const failed: number[] = [];
    for (let i = 0; i < 21 && failed.at(-1) !== 429; i++) failed.push((await call(urls[i % 2]!, 'GET', '/v1/me', wrong)).status);
    expect(failed.at(-1)).toBe(429);
    expect(failed.slice(0, -1).every((status) => status === 401)).toBe(true);
    // And then on both.
    for (const url of urls) expect((await call(url, 'GET', '/v1/me', wrong)).status).toBe(429);
  });
});
