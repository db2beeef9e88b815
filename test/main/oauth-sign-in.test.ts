/**
 * Signing in to a remote with the system browser (RFC 8252) against a fake authorization
 * server on 127.0.0.1: the loopback redirect, `state`, PKCE, the code exchange, and where the
 * tokens end up (encrypted in the vault, never in an answer to the page).
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { translator } from '../../electron/main/messages.js';
import { authorizeUrl, pkcePair, SignInError, signInWithBrowser } from '../../electron/main/oauth-loopback.js';
import { createRemoteSignIn } from '../../electron/main/remote-sign-in.js';
import { SafeStorageVault, type SafeStorageApi } from '../../electron/main/safe-storage-vault.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

interface TokenRequest {
  contentType: string | undefined;
  form: Record<string, string>;
}

/** An authorization server as the remote runs it: authorize redirects, token checks PKCE. */
class FakeAuthorizationServer {
  server!: Server;
  url = '';
  authorizeRequests: URLSearchParams[] = [];
  tokenRequests: TokenRequest[] = [];
  /** What the authorize endpoint sends the browser back with. */
  redirect: (params: URLSearchParams) => Record<string, string> = (params) => ({ code: 'the-code', state: params.get('state')! });
  tokenAnswer: (form: Record<string, string>, challenge: string) => [number, unknown] = (form, challenge) => {
    const verified =
      createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url') === challenge;
    if (form.grant_type !== 'authorization_code' || form.code !== 'the-code' || !verified) {
      return [400, { errors: [{ code: 'bad_request', description: 'invalid_grant: code_verifier does not match the code_challenge' }] }];
    }
    return [200, { access_token: 'access-jwt-SECRET', refresh_token: 'refresh-SECRET', token_type: 'Bearer', expires_in: 3600 }];
  };

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === '/v1/oauth/authorize') {
        this.authorizeRequests.push(url.searchParams);
        const target = new URL(url.searchParams.get('redirect_uri')!);
        for (const [name, value] of Object.entries(this.redirect(url.searchParams))) target.searchParams.set(name, value);
        res.writeHead(303, { location: target.toString() }).end();
        return;
      }
      if (req.method === 'POST' && url.pathname === '/v1/oauth/token') {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          const form = Object.fromEntries(new URLSearchParams(body));
          this.tokenRequests.push({ contentType: req.headers['content-type'], form });
          const challenge = this.authorizeRequests.at(-1)?.get('code_challenge') ?? '';
          const [status, answer] = this.tokenAnswer(form, challenge);
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        });
        return;
      }
      // The sync client tries new tokens before it stores them (docs/API.md "Checked before saved").
      if (req.method === 'GET' && url.pathname === '/v1/me') {
        const signedIn = req.headers.authorization === 'Bearer access-jwt-SECRET';
        res.writeHead(signedIn ? 200 : 401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            signedIn
              ? { type: 'user', environment: { id: 'e1', name: 'prod', created_at: '2026-01-01T00:00:00Z' }, user: null }
              : { errors: [{ description: 'Not Logged In' }] },
          ),
        );
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/**
 * The system browser, as far as the flow can tell: it follows the authorize redirect to the
 * loopback port and remembers what the tab finally shows.
 */
function fakeBrowser(tamper: (callback: URL) => URL = (url) => url) {
  const browser = {
    opened: [] as string[],
    page: undefined as Promise<{ status: number; text: string }> | undefined,
    open: async (url: string) => {
      browser.opened.push(url);
      const answer = await fetch(url, { redirect: 'manual' });
      const callback = tamper(new URL(answer.headers.get('location')!));
      browser.page = fetch(callback).then(async (response) => ({ status: response.status, text: await response.text() }));
    },
  };
  return browser;
}

let server: FakeAuthorizationServer;

beforeEach(async () => {
  server = new FakeAuthorizationServer();
  await server.start();
});

afterEach(async () => {
  await server.stop();
});

describe('PKCE', () => {
  it('makes a 43-character verifier and its S256 challenge', () => {
    const { verifier, challenge } = pkcePair();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(pkcePair().verifier).not.toBe(verifier);
  });

  it('asks for a code with every parameter RFC 8252 and RFC 7636 need', () => {
    const url = new URL(
      authorizeUrl('https://planner.example.com', {
        clientId: 'desktop',
        redirectUri: 'http://127.0.0.1:5555/callback',
        state: 's',
        challenge: 'c',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://planner.example.com/v1/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'desktop',
      redirect_uri: 'http://127.0.0.1:5555/callback',
      response_type: 'code',
      state: 's',
      code_challenge: 'c',
      code_challenge_method: 'S256',
    });
  });
});

describe('the loopback sign-in', () => {
  it('opens the browser at the authorize page, catches the code on 127.0.0.1 and exchanges it with the verifier', async () => {
    const browser = fakeBrowser();
    const tokens = await signInWithBrowser({
      remoteUrl: server.url,
      clientId: 'desktop',
      openBrowser: browser.open,
      pages: { done: 'Signed in!', failed: 'Failed.' },
    });
    expect(tokens).toEqual({ access_token: 'access-jwt-SECRET', refresh_token: 'refresh-SECRET', token_type: 'Bearer', expires_in: 3600 });

    const asked = server.authorizeRequests[0]!;
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('client_id')).toBe('desktop');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('state')).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const redirect = new URL(asked.get('redirect_uri')!);
    expect(redirect.protocol).toBe('http:');
    expect(redirect.hostname).toBe('127.0.0.1');
    expect(Number(redirect.port)).toBeGreaterThan(0);
    expect(redirect.pathname).toBe('/callback');

    const [exchange] = server.tokenRequests;
    expect(exchange!.contentType).toBe('application/x-www-form-urlencoded');
    expect(exchange!.form).toEqual({
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: redirect.toString(),
      client_id: 'desktop',
      code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(createHash('sha256').update(exchange!.form.code_verifier!).digest('base64url')).toBe(asked.get('code_challenge'));

    const page = await browser.page!;
    expect(page).toEqual({ status: 200, text: expect.stringContaining('Signed in!') });
    // The port is closed once the sign-in is over.
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it('refuses a redirect with another state, and never exchanges its code', async () => {
    const browser = fakeBrowser((url) => {
      url.searchParams.set('state', 'forged');
      return url;
    });
    const failure = await signInWithBrowser({ remoteUrl: server.url, clientId: 'desktop', openBrowser: browser.open }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SignInError);
    expect((failure as SignInError).kind).toBe('state-mismatch');
    expect(server.tokenRequests).toEqual([]);
    expect((await browser.page!).status).toBe(400);
  });

  it('refuses a redirect with no state at all', async () => {
    const browser = fakeBrowser((url) => {
      url.searchParams.delete('state');
      return url;
    });
    await expect(signInWithBrowser({ remoteUrl: server.url, clientId: 'desktop', openBrowser: browser.open })).rejects.toMatchObject({
      kind: 'state-mismatch',
    });
    expect(server.tokenRequests).toEqual([]);
  });

  it('reports an error the authorization server redirected with', async () => {
    server.redirect = (params) => ({ error: 'access_denied', error_description: 'The user said no', state: params.get('state')! });
    const browser = fakeBrowser();
    await expect(signInWithBrowser({ remoteUrl: server.url, clientId: 'desktop', openBrowser: browser.open })).rejects.toMatchObject({
      kind: 'refused',
      message: 'The user said no',
    });
    expect(server.tokenRequests).toEqual([]);
  });

  it('reports a refused exchange (a wrong verifier) and tells the browser tab', async () => {
    server.tokenAnswer = () => [400, { errors: [{ description: 'invalid_grant: code_verifier does not match the code_challenge' }] }];
    const browser = fakeBrowser();
    await expect(
      signInWithBrowser({
        remoteUrl: server.url,
        clientId: 'desktop',
        openBrowser: browser.open,
        pages: { done: 'ok', failed: 'Did not work' },
      }),
    ).rejects.toMatchObject({
      kind: 'refused',
      message: expect.stringMatching(/code_verifier does not match/),
    });
    expect(await browser.page!).toEqual({ status: 400, text: expect.stringContaining('Did not work') });
  });

  it('refuses an answer without tokens', async () => {
    server.tokenAnswer = () => [200, { token_type: 'Bearer' }];
    await expect(signInWithBrowser({ remoteUrl: server.url, clientId: 'desktop', openBrowser: fakeBrowser().open })).rejects.toMatchObject({
      kind: 'refused',
    });
  });

  it('gives up after the time limit and closes the port', async () => {
    let redirectUri = '';
    const failure = signInWithBrowser({
      remoteUrl: server.url,
      clientId: 'desktop',
      timeoutMs: 150,
      openBrowser: async (url) => {
        redirectUri = new URL(url).searchParams.get('redirect_uri')!;
      },
    });
    await expect(failure).rejects.toMatchObject({ kind: 'timeout' });
    await expect(fetch(redirectUri)).rejects.toThrow();
  });

  it('answers other requests to the port (a favicon) with 404 and keeps waiting for the callback', async () => {
    const browser = {
      page: undefined as Promise<Response> | undefined,
      open: async (url: string) => {
        const answer = await fetch(url, { redirect: 'manual' });
        const callback = new URL(answer.headers.get('location')!);
        const favicon = await fetch(new URL('/favicon.ico', callback));
        expect(favicon.status).toBe(404);
        const wrongPath = await fetch(new URL(`/other${callback.search}`, callback));
        expect(wrongPath.status).toBe(404);
        browser.page = fetch(callback);
      },
    };
    await expect(signInWithBrowser({ remoteUrl: server.url, clientId: 'desktop', openBrowser: browser.open })).resolves.toMatchObject({
      access_token: 'access-jwt-SECRET',
    });
  });

  it('reports a remote that cannot be reached for the exchange', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const flow = signInWithBrowser({
      remoteUrl: `http://127.0.0.1:${port}`,
      clientId: 'desktop',
      requestTimeoutMs: 2000,
      // A browser that comes straight back with a code, as if the remote had answered.
      openBrowser: async (url) => {
        const asked = new URL(url).searchParams;
        void fetch(`${asked.get('redirect_uri')}?code=c&state=${asked.get('state')}`).catch(() => undefined);
      },
    });
    await expect(flow).rejects.toMatchObject({ kind: 'unreachable' });
  });
});

/** Stands in for the OS keychain: reversible, but never the plain text. */
function fakeSafeStorage(available = true, backend: 'gnome_libsecret' | 'basic_text' = 'gnome_libsecret'): SafeStorageApi {
  return {
    isEncryptionAvailable: vi.fn(() => available),
    getSelectedStorageBackend: vi.fn(() => backend),
    encryptString: vi.fn((text: string) => Buffer.from(`v10${Buffer.from(text).reverse().toString('base64')}`)),
    decryptString: vi.fn((data: Buffer) => Buffer.from(data.toString().slice(3), 'base64').reverse().toString()),
  } as SafeStorageApi;
}

describe('signing in from the sync screen', () => {
  let folder: string;
  let instance: LocalInstance;
  let vault: SafeStorageVault;
  let safeStorage: SafeStorageApi;

  beforeEach(async () => {
    folder = tempDir();
    safeStorage = fakeSafeStorage();
    vault = new SafeStorageVault(join(folder, 'remote-credentials.bin'), safeStorage, 'linux');
    instance = await openLocalInstance(join(folder, 'data'), { vault, syncTiming: { pullIntervalMs: 60_000, backoffMs: 60_000 } });
  });

  afterEach(async () => {
    await instance.close();
    rmSync(folder, { recursive: true, force: true });
  });

  function signIn(openBrowser = fakeBrowser().open) {
    return createRemoteSignIn({ vault, instance: async () => instance, openBrowser, t: () => translator('en') });
  }

  it('stores the tokens encrypted with the keychain and tells the page only that it worked', async () => {
    const result = await signIn()({ remote_url: server.url, client_id: 'desktop' });
    expect(result).toEqual({ status: 'signed-in', remote_url: server.url });
    expect(JSON.stringify(result)).not.toMatch(/SECRET/);

    expect(safeStorage.encryptString).toHaveBeenCalled();
    const onDisk = readFileSync(join(folder, 'remote-credentials.bin'));
    expect(onDisk.toString()).not.toMatch(/SECRET|access_token/);
    expect(JSON.parse(safeStorage.decryptString(onDisk))).toEqual({
      remote_url: server.url,
      access_token: 'access-jwt-SECRET',
      refresh_token: 'refresh-SECRET',
      client_id: 'desktop',
    });
    // A fresh vault (the next launch) reads them back through the keychain.
    expect(new SafeStorageVault(join(folder, 'remote-credentials.bin'), safeStorage, 'linux').load()).toMatchObject({
      access_token: 'access-jwt-SECRET',
    });
  });

  it('never hands the tokens to the page through the API either', async () => {
    await signIn()({ remote_url: server.url, client_id: 'desktop' });
    const settings = await instance.request({ method: 'GET', path: '/v1/sync/settings' });
    expect(settings.body).toEqual({
      remote_url: server.url,
      api_env: null,
      auth: 'oauth',
      has_credentials: true,
      allow_insecure_http: false,
    });
    const status = await instance.request({ method: 'GET', path: '/v1/sync/status' });
    expect(JSON.stringify([settings, status])).not.toMatch(/SECRET/);
  });

  it('refuses before opening the browser when there is no keychain, and stores nothing', async () => {
    for (const storage of [fakeSafeStorage(false), fakeSafeStorage(true, 'basic_text')]) {
      const noKeychain = new SafeStorageVault(join(folder, 'remote-credentials.bin'), storage, 'linux');
      const open = vi.fn(async () => {});
      const result = await createRemoteSignIn({
        vault: noKeychain,
        instance: async () => instance,
        openBrowser: open,
        t: () => translator('en'),
      })({
        remote_url: server.url,
        client_id: 'desktop',
      });
      expect(result).toMatchObject({ status: 'failed', message: expect.stringMatching(/cannot store the sign-in securely/) });
      expect(open).not.toHaveBeenCalled();
    }
    expect(() => readFileSync(join(folder, 'remote-credentials.bin'))).toThrow();
  });

  it('says in the planner’s language why a sign-in failed, and stores nothing', async () => {
    const browser = fakeBrowser((url) => {
      url.searchParams.set('state', 'forged');
      return url;
    });
    const result = await createRemoteSignIn({
      vault,
      instance: async () => instance,
      openBrowser: browser.open,
      t: () => translator('nl'),
    })({ remote_url: server.url, client_id: 'desktop' });
    expect(result).toEqual({ status: 'failed', message: expect.stringMatching(/andere aanmelding/) });
    expect(vault.load()).toBeNull();
  });

  it('runs one sign-in at a time', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const browser = fakeBrowser();
    const start = signIn(async (url) => {
      await held;
      await browser.open(url);
    });
    const first = start({ remote_url: server.url, client_id: 'desktop' });
    await expect(start({ remote_url: server.url, client_id: 'desktop' })).resolves.toMatchObject({
      status: 'failed',
      message: expect.stringMatching(/already in progress/),
    });
    release();
    await expect(first).resolves.toMatchObject({ status: 'signed-in' });
  });
});
