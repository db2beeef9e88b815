/**
 * A replica signed in with OAuth whose token refresh is answered 429 (audit 2, N2): that is a
 * limit to wait out, not a sign-in that ended. The replica says it is being rate limited,
 * comes back when `Retry-After` says, keeps its refresh token (which the remote never used)
 * and refreshes with it once the limit has passed. The 429 comes from a proxy of the test's own
 * in front of a real API on 127.0.0.1, as a proxy's own rate limit answers (nginx's
 * `limit_req`); the API itself no longer refuses a right refresh token for a limit.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '../../shared/clock.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { MemoryVault } from '../../electron/sync/credentials.js';
import { tempDir } from '../helpers/api.js';
import { startForwardingProxy, type ForwardingProxy } from '../helpers/forwarding-proxy.js';
import { call, prepareFolder, startInstance, type Instance } from '../helpers/instance.js';
import { activeUserThroughApi, pkcePair, signInForCode, tokenRequest } from '../helpers/oauth-flow.js';

const environment = 'workshop';
const key = 'workshop-key-123';
const redirectUri = 'http://127.0.0.1:5555/cb';
const localKey = 'replica-local-key-123';

describe('a replica whose token refresh is rate limited', () => {
  let folder: ReturnType<typeof prepareFolder>;
  let remote: Instance;
  let proxy: ForwardingProxy;
  let replicaFolder: string;
  let replica: LocalInstance;
  let replicaUrl: string;
  let vault: MemoryVault;
  let refreshToken: string;

  beforeAll(async () => {
    folder = prepareFolder([{ name: environment, key }]);
    remote = await startInstance(folder.folder);
    const headers = { 'x-api-env': environment, 'x-api-key': key };
    const client = await call(remote.baseUrl, 'POST', '/v1/oauth_client', headers, {
      name: 'Planner desktop',
      redirect_uris: [redirectUri],
      confidential: false,
    });
    const email = 'anna@workshop.test';
    await activeUserThroughApi(remote.baseUrl, headers, { environment, email, role: 'member', password: 'planner-pass-1' });
    const { verifier, challenge } = pkcePair();
    const code = await signInForCode(
      remote.baseUrl,
      { client_id: client.body.id, redirect_uri: redirectUri, state: 'st', code_challenge: challenge, code_challenge_method: 'S256' },
      { environment, email, password: 'planner-pass-1' },
    );
    const tokens = await tokenRequest(remote.baseUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: client.body.id,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
    refreshToken = tokens.body.refresh_token;
    proxy = await startForwardingProxy(remote.baseUrl);
    // An access token the remote refuses (its signature spoiled), so the first call refreshes.
    const access = tokens.body.access_token as string;
    vault = new MemoryVault({
      remote_url: proxy.url,
      access_token: `${access.slice(0, -4)}${access.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`,
      refresh_token: refreshToken,
      client_id: client.body.id,
    });
    replicaFolder = tempDir('planner-replica-');
    const never = 3_600_000;
    // A failed run is tried again within 0.1 s, unless something asks for longer.
    replica = await openLocalInstance(replicaFolder, {
      vault,
      syncTiming: { pullIntervalMs: never, pushDelayMs: never, backoffMs: 100, maxBackoffMs: 100, live: false },
    });
    replica.dataDir.system.ensureApiKey(replica.environment.id, localKey);
    await replica.api.listen({ host: '127.0.0.1', port: 0 });
    const address = replica.api.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    replicaUrl = `http://127.0.0.1:${address.port}`;
  }, 60_000);

  afterAll(async () => {
    await replica?.close();
    await proxy?.close();
    await remote?.stop();
    folder?.remove();
    if (replicaFolder) rmSync(replicaFolder, { recursive: true, force: true });
  });

  const local = (method: string, path: string) => call(replicaUrl, method, path, { 'x-api-env': 'local', 'x-api-key': localKey });

  it('says it is being rate limited, waits as long as the remote asks, and refreshes with the same token once it may', async () => {
    proxy.refuseWith429(/^POST \/v1\/oauth\/token/, 42);
    const limited = await local('POST', '/v1/sync/run');
    expect(limited.status, JSON.stringify(limited.body)).toBe(200);
    expect(proxy.refused()).toBeGreaterThan(0);
    expect(limited.body.error).toContain('rate limiting this app (429) while refreshing its sign-in');
    expect(limited.body.error).not.toMatch(/sign in again|expired/);
    const status = await local('GET', '/v1/sync/status');
    expect(status.body.last_error).toBe(limited.body.error);
    // Not after its own 0.1 s backoff: after the 42 s the remote asked for.
    expect(Date.parse(status.body.next_attempt_at) - nowMs()).toBeGreaterThan(30_000);
    expect(vault.load()?.refresh_token).toBe(refreshToken);

    // The limit has passed: the refresh token the remote never used brings a new pair, and it syncs.
    proxy.refuseWith429(undefined);
    const run = await local('POST', '/v1/sync/run');
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.error).toBeNull();
    expect(vault.load()?.refresh_token).toMatch(/^[0-9a-f]{32}$/);
    expect(vault.load()?.refresh_token).not.toBe(refreshToken);
    expect((await local('GET', '/v1/sync/status')).body.last_error).toBeNull();
  });
});
