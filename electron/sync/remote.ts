/**
 * Talking to the remote instance over HTTP. Every call has a time limit; failures come back
 * as typed errors so the sync loop can tell "offline" (try again later) from "refused" (show
 * the user) from "cursor too old" (download everything again).
 */
import type { Mutation } from '../store/sync-book.js';
import type { RemoteRecord } from './merge.js';

export interface RemoteCredentials {
  remote_url: string;
  api_env?: string;
  api_key?: string;
  access_token?: string;
  refresh_token?: string;
  /** The OAuth client the tokens were issued to (needed to refresh them). */
  client_id?: string;
}

/** The remote could not be reached, or did not answer in time: we are offline. */
export class RemoteUnavailable extends Error {}
/** The pull cursor is older than what the remote keeps (410): resync from a snapshot. */
export class CursorExpired extends Error {}
/** The remote answered with an error that retrying will not fix (401, 400, …). */
export class RemoteRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PushResult {
  mutation_id: number;
  status: 'applied' | 'rejected';
  error?: unknown;
  record?: Record<string, unknown> | null;
  clocks?: Record<string, string>;
}

export interface RemoteApi {
  push(clientId: string, mutations: Mutation[]): Promise<PushResult[]>;
  changes(since: number, limit: number): Promise<{ changes: unknown[]; cursor: number; more: boolean }>;
  snapshot(cursor: string | null, limit: number): Promise<{ records: unknown[]; cursor: string | null; seq: number }>;
}

function describe(body: unknown, status: number): string {
  const errors = (body as { errors?: { description?: string }[] } | null)?.errors;
  return errors?.[0]?.description ?? `the remote answered ${status}`;
}

export function httpRemote(
  credentials: () => RemoteCredentials | null,
  options: { timeoutMs: number; onTokens?: (tokens: { access_token: string; refresh_token: string }) => void },
): RemoteApi {
  async function call(method: string, path: string, body?: unknown, retried = false): Promise<unknown> {
    const creds = credentials();
    if (!creds) throw new RemoteRefused(0, 'no remote is set up');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (creds.access_token) headers.authorization = `Bearer ${creds.access_token}`;
    else if (creds.api_key && creds.api_env) Object.assign(headers, { 'x-api-key': creds.api_key, 'x-api-env': creds.api_env });
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(new URL(path, creds.remote_url), {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(options.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new RemoteUnavailable(`the remote could not be reached (${(error as Error).message})`);
    }
    let parsed: unknown = null;
    try {
      parsed = await response.json();
    } catch {
      if (response.ok) throw new RemoteUnavailable('the remote sent an answer that is not JSON (cut off?)');
    }
    if (response.status === 410) throw new CursorExpired(describe(parsed, 410));
    if (response.status === 401 && creds.refresh_token && creds.client_id && !retried) {
      await refresh(creds);
      return call(method, path, body, true);
    }
    if (response.status >= 500 || response.status === 429 || response.status === 503) throw new RemoteUnavailable(describe(parsed, response.status));
    if (!response.ok) throw new RemoteRefused(response.status, describe(parsed, response.status));
    return parsed;
  }

  async function refresh(creds: RemoteCredentials): Promise<void> {
    let response: Response;
    try {
      response = await fetch(new URL('/v1/oauth/token', creds.remote_url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: creds.refresh_token!, client_id: creds.client_id! }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new RemoteUnavailable(`the remote could not be reached (${(error as Error).message})`);
    }
    const body = (await response.json().catch(() => null)) as { access_token?: string; refresh_token?: string } | null;
    if (!response.ok || !body?.access_token || !body.refresh_token) throw new RemoteRefused(401, 'the sign-in to the remote has expired; sign in again');
    options.onTokens?.({ access_token: body.access_token, refresh_token: body.refresh_token });
  }

  return {
    async push(clientId, mutations) {
      const body = (await call('POST', '/v1/sync/push', { client_id: clientId, mutations })) as { results?: PushResult[] };
      if (!Array.isArray(body?.results)) throw new RemoteUnavailable('the remote sent a push answer without results');
      return body.results;
    },
    async changes(since, limit) {
      const body = (await call('GET', `/v1/sync/changes?since=${since}&limit=${limit}`)) as { changes: RemoteRecord[]; cursor: number; more: boolean };
      if (!Array.isArray(body?.changes) || typeof body.cursor !== 'number') throw new RemoteUnavailable('the remote sent a malformed changes page');
      return body;
    },
    async snapshot(cursor, limit) {
      const query = cursor ? `cursor=${encodeURIComponent(cursor)}&limit=${limit}` : `limit=${limit}`;
      const body = (await call('GET', `/v1/sync/snapshot?${query}`)) as { records: RemoteRecord[]; cursor: string | null; seq: number };
      if (!Array.isArray(body?.records) || typeof body.seq !== 'number') throw new RemoteUnavailable('the remote sent a malformed snapshot page');
      return body;
    },
  };
}
