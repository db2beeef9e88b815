/**
 * Signing in to a remote the way a native app should (RFC 8252): the planner signs in in
 * their own browser, never in a window of ours, and the browser brings the authorization
 * code back to a one-shot HTTP server on 127.0.0.1 (a random free port). PKCE (RFC 7636,
 * S256) binds the code to this process, and `state` ties the redirect to this very attempt.
 *
 *   1. open  <remote>/v1/oauth/authorize?client_id&redirect_uri=http://127.0.0.1:P/callback
 *            &response_type=code&state&code_challenge&code_challenge_method=S256
 *   2. wait  GET /callback?code&state (or ?error) — one answer, within the time limit
 *   3. post  <remote>/v1/oauth/token (form): grant_type=authorization_code, code,
 *            redirect_uri, client_id, code_verifier  →  {access_token, refresh_token, …}
 *
 * The tokens are returned to main, which stores them; they never reach the page.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SignInRequest } from '../../shared/ipc.js';

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  token_type?: string;
  expires_in?: number;
}

export type SignInFailure = 'timeout' | 'state-mismatch' | 'refused' | 'unreachable';

export class SignInError extends Error {
  constructor(
    readonly kind: SignInFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface LoopbackSignInOptions {
  remoteUrl: string;
  clientId: string;
  /** Opens the URL in the system browser (shell.openExternal). */
  openBrowser(url: string): Promise<void>;
  /** How long the planner has to sign in. */
  timeoutMs?: number;
  /** The token request's own limit. */
  requestTimeoutMs?: number;
  /** What the browser tab says afterwards (localized by the caller). */
  pages?: { done: string; failed: string };
}

export const defaultSignInTimeoutMs = 5 * 60_000;

const clientIdPattern = /^[A-Za-z0-9._~-]{1,200}$/;
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The sign-in payload from the page. Tokens would travel in the clear over plain http, so
 * http is accepted only for a remote on this machine (development, tests).
 */
export function parseSignInRequest(payload: unknown): SignInRequest | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: 'the request must be an object' };
  const p = payload as Record<string, unknown>;
  for (const key of Object.keys(p)) if (key !== 'remote_url' && key !== 'client_id') return { error: `unknown key ${key}` };
  if (typeof p.client_id !== 'string' || !clientIdPattern.test(p.client_id))
    return { error: 'client_id must be 1-200 letters, digits or . _ ~ -' };
  if (typeof p.remote_url !== 'string' || p.remote_url.length > 512) return { error: 'remote_url must be a URL of at most 512 characters' };
  let url: URL;
  try {
    url = new URL(p.remote_url);
  } catch {
    return { error: 'remote_url must be a URL' };
  }
  if (url.username || url.password || url.search || url.hash) return { error: 'remote_url must not carry a user, query or fragment' };
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHosts.has(url.hostname))) {
    return { error: 'remote_url must use https (http only for a remote on this computer)' };
  }
  return { remote_url: p.remote_url, client_id: p.client_id };
}

/** A PKCE verifier (43 characters of base64url, 256 random bits) and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(
  remoteUrl: string,
  params: { clientId: string; redirectUri: string; state: string; challenge: string },
): string {
  const url = new URL('/v1/oauth/authorize', remoteUrl);
  url.search = new URLSearchParams({
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    response_type: 'code',
    state: params.state,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

interface Callback {
  code: string;
  /** Answers the browser tab once the outcome is known. */
  finish(ok: boolean): void;
}

interface LoopbackServer {
  redirectUri: string;
  callback: Promise<Callback>;
  close(): void;
}

function page(res: ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'",
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  res.end(`<!doctype html><meta charset="utf-8"><title>Planner</title><p style="font:16px system-ui;margin:3em">${escaped}</p>`);
}

/** Listens on 127.0.0.1 (never all interfaces) on a free port for one `/callback`. */
async function listenForCallback(state: string, pages: { done: string; failed: string }, timeoutMs: number): Promise<LoopbackServer> {
  let settle: { resolve(callback: Callback): void; reject(error: Error): void } | undefined;
  const callback = new Promise<Callback>((resolve, reject) => (settle = { resolve, reject }));
  // Browsers ask for /favicon.ico and the like; only /callback counts, and only once.
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback' || !settle) {
      res.writeHead(404, { 'content-type': 'text/plain', connection: 'close' }).end();
      return;
    }
    const { resolve, reject } = settle;
    settle = undefined;
    const params = url.searchParams;
    if (params.get('state') !== state) {
      page(res, 400, pages.failed);
      reject(new SignInError('state-mismatch', 'the redirect carried another state'));
    } else if (params.get('error')) {
      page(res, 400, pages.failed);
      reject(new SignInError('refused', params.get('error_description') ?? params.get('error')!));
    } else if (!params.get('code')) {
      page(res, 400, pages.failed);
      reject(new SignInError('refused', 'the redirect carried no code'));
    } else {
      resolve({ code: params.get('code')!, finish: (ok) => page(res, ok ? 200 : 400, ok ? pages.done : pages.failed) });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const timer = setTimeout(() => {
    settle?.reject(new SignInError('timeout', 'the sign-in was not finished in time'));
    settle = undefined;
  }, timeoutMs);
  timer.unref();
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    callback,
    close() {
      clearTimeout(timer);
      // Answers carry `Connection: close`; idle keep-alive sockets are dropped now, so the
      // port does not outlive the sign-in.
      server.close();
      server.closeIdleConnections();
    },
  };
}

async function exchangeCode(remoteUrl: string, form: Record<string, string>, timeoutMs: number): Promise<TokenSet> {
  let response: Response;
  try {
    response = await fetch(new URL('/v1/oauth/token', remoteUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new SignInError('unreachable', (error as Error).message);
  }
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Described below from the status alone.
  }
  const b = (body ?? {}) as Record<string, unknown>;
  if (!response.ok) {
    const description =
      (b.errors as { description?: string }[] | undefined)?.[0]?.description ??
      (b.error_description as string | undefined) ??
      `the remote answered ${response.status}`;
    throw new SignInError('refused', description);
  }
  if (typeof b.access_token !== 'string' || !b.access_token || typeof b.refresh_token !== 'string' || !b.refresh_token) {
    throw new SignInError('refused', 'the remote answered without tokens');
  }
  return {
    access_token: b.access_token,
    refresh_token: b.refresh_token,
    ...(typeof b.token_type === 'string' ? { token_type: b.token_type } : {}),
    ...(typeof b.expires_in === 'number' ? { expires_in: b.expires_in } : {}),
  };
}

export async function signInWithBrowser(options: LoopbackSignInOptions): Promise<TokenSet> {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(16).toString('base64url');
  const pages = options.pages ?? { done: 'Signed in. You can close this tab.', failed: 'Sign-in did not work. You can close this tab.' };
  const loopback = await listenForCallback(state, pages, options.timeoutMs ?? defaultSignInTimeoutMs);
  try {
    await options.openBrowser(
      authorizeUrl(options.remoteUrl, { clientId: options.clientId, redirectUri: loopback.redirectUri, state, challenge }),
    );
    const { code, finish } = await loopback.callback;
    try {
      const tokens = await exchangeCode(
        options.remoteUrl,
        {
          grant_type: 'authorization_code',
          code,
          redirect_uri: loopback.redirectUri,
          client_id: options.clientId,
          code_verifier: verifier,
        },
        options.requestTimeoutMs ?? 30_000,
      );
      finish(true);
      return tokens;
    } catch (error) {
      finish(false);
      throw error;
    }
  } finally {
    loopback.close();
  }
}
