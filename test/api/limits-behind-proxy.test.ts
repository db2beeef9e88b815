/**
 * The limits that count per client, behind the reverse proxy docs/deployment.md puts in front
 * of every server (audit 2, N2 and I2; docs/API.md "Authentication", "Rate limits"). A proxy of
 * the test's own forwards to the API on 127.0.0.1 and appends each client's address to
 * X-Forwarded-For; the API trusts that proxy (it connects from 127.0.0.2) and no one else. On
 * SQLite one API; on PostgreSQL two nodes of one team database, each behind its proxy, the
 * requests alternating between them, so the limits are the ones counted in the database.
 *
 * What is shown: each client counts apart; the right credential (a hand-chosen API key, a
 * refresh token, a sign-in from a browser that signed in before) is never refused while wrong
 * ones flood from its very address; a forged X-Forwarded-For gains nothing; an IPv6 client
 * counts by its /64. Client addresses are from the documentation ranges (RFC 5737, RFC 3849).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustedProxies } from '../../electron/api/client-address.js';
import type { ApiOptions } from '../../electron/api/app.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { startForwardingProxy, testClientHeader, type ForwardingProxy } from '../helpers/forwarding-proxy.js';
import { closeAgents, loopbackAddress, requestFrom } from '../helpers/from-address.js';
import { call, prepareFolder, startInstance } from '../helpers/instance.js';
import { runServerCommand, startServerProcess } from '../helpers/process.js';
import { activeUserThroughApi, openSignInPage, pkcePair, postForm } from '../helpers/oauth-flow.js';
import { startKeyedTeam } from '../helpers/team-nodes.js';

const environment = 'workshop';
/** Chosen by hand, as `--api-key-file` takes one: not in the generated `pk_…` form. */
const handKey = 'workshop-key-chosen-by-hand';
const redirectUri = 'http://127.0.0.1:5555/cb';
/** The proxy connects from here; clients that connect directly come from elsewhere on 127/8. */
const proxyAddress = '127.0.0.2';
/** Sign-ins a minute per address (or known browser) before 429: low, since each wrong one costs a password hash. */
const signInLimit = 5;
const failedKeyLimit = 20;

interface Deployment {
  /** The API behind each proxy, directly (one on SQLite, two nodes on PostgreSQL). */
  nodes: string[];
  proxies: ForwardingProxy[];
  stop(): Promise<void>;
}

const options: Partial<ApiOptions> = {
  trustedProxies: TrustedProxies.parse(proxyAddress),
  oauthRateLimit: { limit: signInLimit, windowMs: 60_000 },
};

async function behindProxies(nodes: string[], stopNodes: () => Promise<void>): Promise<Deployment> {
  const proxies: ForwardingProxy[] = [];
  try {
    for (const node of nodes) proxies.push(await startForwardingProxy(node, { from: proxyAddress }));
  } catch (error) {
    for (const proxy of proxies) await proxy.close();
    await stopNodes();
    throw error;
  }
  return {
    nodes,
    proxies,
    async stop() {
      for (const proxy of proxies) await proxy.close();
      await stopNodes();
    },
  };
}

const engines: Record<'sqlite' | 'postgres', () => Promise<Deployment>> = {
  async sqlite() {
    const folder = prepareFolder([{ name: environment, key: handKey }]);
    const instance = await startInstance(folder.folder, options);
    return behindProxies([instance.baseUrl], async () => {
      await instance.stop();
      folder.remove();
    });
  },
  async postgres() {
    const team = await startKeyedTeam('proxy_limits', environment, handKey, options);
    return behindProxies(team.nodes.urls, () => team.stop());
  },
};

describe.each(Object.keys(engines) as (keyof typeof engines)[])('limits behind a trusted proxy (%s)', (engine) => {
  let deployment: Deployment;
  let clientId: string;
  let turn = 0;
  const password = 'planner-pass-1';

  beforeAll(async () => {
    deployment = await engines[engine]();
    const direct = deployment.nodes[0]!;
    const keyHeaders = { 'x-api-env': environment, 'x-api-key': handKey };
    const client = await call(direct, 'POST', '/v1/oauth_client', keyHeaders, {
      name: 'Planner desktop',
      redirect_uris: [redirectUri],
      confidential: false,
    });
    expect(client.status, JSON.stringify(client.body)).toBe(201);
    clientId = client.body.id;
    for (const email of ['anna@workshop.test', 'bram@workshop.test', 'cor@workshop.test'])
      await activeUserThroughApi(direct, keyHeaders, { environment, email, role: 'member', password });
  }, 120_000);

  afterAll(async () => {
    closeAgents();
    await deployment?.stop();
  });

  /** The next proxy in turn: on PostgreSQL the requests alternate between the nodes. */
  const nextProxy = () => deployment.proxies[turn++ % deployment.proxies.length]!.url;

  /** A request of `client` (the address its proxy sees) through the proxy. */
  async function through(client: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const response = await fetch(nextProxy() + path, {
      ...init,
      redirect: 'manual',
      headers: { ...init.headers, [testClientHeader]: client },
    });
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json') && text;
    return { status: response.status, headers: response.headers, body: json ? JSON.parse(text) : text };
  }

  const withKey = (client: string, key: string, extra: Record<string, string> = {}) =>
    through(client, '/v1/project?limit=1', { headers: { 'x-api-env': environment, 'x-api-key': key, ...extra } });

  /** Wrong keys from `client` until the limit answers (at most one more than it allows). */
  async function floodWithWrongKeys(client: string): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i <= failedKeyLimit; i++) statuses.push((await withKey(client, `guess-${i}`)).status);
    return statuses;
  }

  const tokenVia = (client: string, fields: Record<string, string>) =>
    through(client, '/v1/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  /** The sign-in form of a fresh page, posted by `client` with `cookies` besides the page's own. */
  async function signInVia(client: string, email: string, secret: string, cookies: string[] = []) {
    const { challenge, verifier } = pkcePair();
    const page = await openSignInPage(nextProxy(), {
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 'st',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(page.status, page.html).toBe(200);
    const answer = await postForm(
      nextProxy(),
      '/v1/oauth/authorize',
      { ...page.hidden, decision: 'allow', environment, email, password: secret },
      { cookie: [page.cookie!, ...cookies].join('; '), [testClientHeader]: client },
    );
    const known = /planner_oauth_known=[^;]+/.exec(answer.headers.get('set-cookie') ?? '')?.[0];
    const code = answer.location ? new URL(answer.location).searchParams.get('code') : null;
    return { ...answer, code, verifier, known };
  }

  /** Signs `email` in from `client` and answers its tokens and the browser's known-browser cookie. */
  async function signedIn(client: string, email: string) {
    const signIn = await signInVia(client, email, password);
    expect(signIn.status, signIn.html).toBe(303);
    const tokens = await tokenVia(client, {
      grant_type: 'authorization_code',
      code: signIn.code!,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: signIn.verifier,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    return { refreshToken: tokens.body.refresh_token as string, known: signIn.known! };
  }

  it('counts each client behind the proxy apart: a flood of wrong keys from one refuses no other', async () => {
    const attacker = '203.0.113.66';
    const statuses = await floodWithWrongKeys(attacker);
    expect(statuses.slice(0, failedKeyLimit).every((status) => status === 401)).toBe(true);
    const limited = await withKey(attacker, 'guess-again');
    expect(limited.status).toBe(429);
    expectErrorBody(limited.body, 10429, 'Too Many Requests');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    // A planner behind the same proxy: a typo of theirs is their own failure, and their key opens.
    expect((await withKey('198.51.100.7', 'typo-in-the-key')).status).toBe(401);
    expect((await withKey('198.51.100.7', handKey)).status).toBe(200);
  });

  it('never refuses the right key chosen by hand, even from the address that floods', async () => {
    const shared = '203.0.113.70';
    await floodWithWrongKeys(shared);
    for (let i = 0; i < 5; i++) {
      expect((await withKey(shared, handKey)).status).toBe(200);
      // The wrong keys from there go on being refused with 429, right key or not in between.
      expect((await withKey(shared, `guess-more-${i}`)).status).toBe(429);
    }
    // A key for an environment that does not exist is as wrong as any other.
    expect((await through(shared, '/v1/me', { headers: { 'x-api-env': 'nowhere', 'x-api-key': handKey } })).status).toBe(429);
  });

  it('believes X-Forwarded-For only from the trusted proxy, and only the address the proxy appended', async () => {
    const attacker = '203.0.113.80';
    await floodWithWrongKeys(attacker);
    // What the client wrote into the header itself stands left of its own address: ignored.
    expect((await withKey(attacker, 'guess-x', { 'x-forwarded-for': '198.51.100.200' })).status).toBe(429);
    expect((await withKey('198.51.100.200', 'typo-in-the-key')).status).toBe(401);

    // A client that connects directly is not a proxy: its header is ignored and it counts as itself.
    const direct = loopbackAddress(61, 0);
    const url = `${deployment.nodes[0]!}/v1/project?limit=1`;
    const forged = { 'x-api-env': environment, 'x-forwarded-for': '198.51.100.201' };
    for (let i = 0; i < failedKeyLimit; i++)
      expect((await requestFrom(direct, url, { headers: { ...forged, 'x-api-key': `guess-${i}` } })).status).toBe(401);
    expect((await requestFrom(direct, url, { headers: { ...forged, 'x-api-key': 'guess-last' } })).status).toBe(429);
    expect((await withKey('198.51.100.201', 'typo-in-the-key')).status).toBe(401);
  });

  it('counts an IPv6 client by its /64, whichever address of it each request comes from', async () => {
    for (let i = 0; i < failedKeyLimit; i++)
      expect((await withKey(`2001:db8:1:2::${(i + 1).toString(16)}`, `guess-${i}`)).status).toBe(401);
    expect((await withKey('2001:db8:1:2:ffff:ffff:ffff:fffe', 'guess-last')).status).toBe(429);
    expect((await withKey('2001:db8:1:2::1', handKey)).status).toBe(200);
    // The next /64 is another client.
    expect((await withKey('2001:db8:1:3::1', 'typo-in-the-key')).status).toBe(401);
  });

  it('exchanges a right refresh token however many refused token requests came from its address', async () => {
    const planner = '198.51.100.20';
    let { refreshToken } = await signedIn(planner, 'anna@workshop.test');
    // Junk refresh tokens naming the app's public client, from the planner's own address (a NAT).
    const junk: number[] = [];
    for (let i = 0; i <= signInLimit; i++)
      junk.push((await tokenVia(planner, { grant_type: 'refresh_token', refresh_token: `junk-${i}`, client_id: clientId })).status);
    expect(junk.slice(0, signInLimit).every((status) => status === 400)).toBe(true);
    expect(junk.at(-1)).toBe(429);

    for (let i = 0; i < 3; i++) {
      const refreshed = await tokenVia(planner, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId });
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      refreshToken = refreshed.body.refresh_token;
      const limited = await tokenVia(planner, { grant_type: 'refresh_token', refresh_token: `junk-again-${i}`, client_id: clientId });
      expect(limited.status).toBe(429);
      expectErrorBody(limited.body, 10429, 'Too Many Requests');
    }
    // Another address behind the proxy has a budget of its own.
    expect((await tokenVia('198.51.100.21', { grant_type: 'refresh_token', refresh_token: 'junk', client_id: clientId })).status).toBe(400);
  });

  it('lets a planner sign in from a browser that signed in before, while wrong passwords flood from the same address', async () => {
    const office = '198.51.100.30';
    const { known } = await signedIn(office, 'bram@workshop.test');
    const flood: number[] = [];
    for (let i = 0; i < signInLimit; i++) flood.push((await signInVia(office, 'bram@workshop.test', `wrong-${i}`)).status);
    expect(flood.every((status) => status === 401 || status === 429)).toBe(true);
    expect(flood.at(-1)).toBe(429);

    // Bram's browser, which signed him in before, still does, with the right password.
    const again = await signInVia(office, 'bram@workshop.test', password, [known]);
    expect(again.status, again.html).toBe(303);
    expect(again.code).toMatch(/^[0-9a-f]+$/);
    // The cookie is Bram's only: it does not open the door to guesses at Cor's password, and
    // a browser that never signed in waits, like the flood, on that address.
    expect((await signInVia(office, 'cor@workshop.test', password, [known])).status).toBe(429);
    expect((await signInVia(office, 'bram@workshop.test', password)).status).toBe(429);
    // A planner elsewhere behind the proxy is not held up by that address.
    expect((await signInVia('198.51.100.31', 'cor@workshop.test', password)).status).toBe(303);
  });

  it('limits guesses made with a known browser cookie by that cookie', async () => {
    const { known } = await signedIn('198.51.100.40', 'cor@workshop.test');
    const statuses: number[] = [];
    for (let i = 0; i <= signInLimit; i++)
      statuses.push((await signInVia('203.0.113.90', 'cor@workshop.test', `wrong-${i}`, [known])).status);
    expect(statuses.slice(0, signInLimit).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('npm run server -- --trust-proxy', () => {
  // The option and its variable on the real server process; the limits themselves are above.
  let folder: ReturnType<typeof prepareFolder> | undefined;

  afterAll(() => folder?.remove());

  it('refuses a list that is not addresses or ranges, naming the entry', async () => {
    folder = prepareFolder([{ name: environment, key: handKey }]);
    const bad = await runServerCommand(['--data-dir', folder.folder, '--port', '0', '--trust-proxy', '10.0.0.0/8,proxy.internal']);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('--trust-proxy: "proxy.internal" is not an IP address or a CIDR range');
    const badVariable = await runServerCommand(['--data-dir', folder.folder, '--port', '0'], 30_000, {
      PLANNER_TRUST_PROXY: '10.0.0.0/33',
    });
    expect(badVariable.code).toBe(2);
    expect(badVariable.output).toContain('PLANNER_TRUST_PROXY: "10.0.0.0/33" has a prefix length that is not 0 to 32');
  });

  it('counts the clients of the proxy it names apart, and says so at start', async () => {
    folder ??= prepareFolder([{ name: environment, key: handKey }]);
    const server = await startServerProcess(['--data-dir', folder.folder], 30_000, { PLANNER_TRUST_PROXY: proxyAddress });
    const proxy = await startForwardingProxy(server.url, { from: proxyAddress });
    try {
      expect(server.output()).toContain(`Trusting X-Forwarded-For from ${proxyAddress}.`);
      const get = (client: string, key: string) =>
        fetch(`${proxy.url}/v1/project?limit=1`, { headers: { 'x-api-env': environment, 'x-api-key': key, [testClientHeader]: client } });
      for (let i = 0; i < failedKeyLimit; i++) expect((await get('203.0.113.66', `guess-${i}`)).status).toBe(401);
      expect((await get('203.0.113.66', 'guess-last')).status).toBe(429);
      expect((await get('198.51.100.7', 'typo-in-the-key')).status).toBe(401);
      expect((await get('203.0.113.66', handKey)).status).toBe(200);
    } finally {
      await proxy.close();
      await server.stop();
    }
  });

  it('says once, without the option, that a proxy it does not trust is sending X-Forwarded-For', async () => {
    folder ??= prepareFolder([{ name: environment, key: handKey }]);
    const server = await startServerProcess(['--data-dir', folder.folder]);
    const proxy = await startForwardingProxy(server.url, { from: proxyAddress });
    try {
      const said = () =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('X-Forwarded-For'));
      for (let i = 0; i < 3; i++)
        await (await fetch(`${proxy.url}/v1/openapi.json`, { headers: { [testClientHeader]: '198.51.100.7' } })).text();
      // The line is written before the first answer; its way through the pipe may take a moment.
      for (let waited = 0; said().length === 0 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(said()).toEqual([expect.stringContaining(`start with --trust-proxy ${proxyAddress}`)]);
    } finally {
      await proxy.close();
      await server.stop();
    }
  });
});
