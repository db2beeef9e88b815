/**
 * Talking to the remote instance over HTTP. Every call has a time limit; failures come back
 * as typed errors so the sync loop can tell "offline" (try again later) from "refused" (show
 * the user) from "cursor too old" (download everything again).
 */
import { operationPath, type BodyOf } from '../../shared/operation.js';
import { pushOperation, type Mutation, type PushAnswer as WirePushAnswer, type PushResult } from '../../shared/operations/sync.js';
import { isSyncCursor, minSyncProtocol, syncProtocol, syncProtocolHeader, syncSchemaHeader, type SyncCursor } from '../../shared/sync.js';
import { environmentMigrations } from '../store/migrations/environment/index.js';
import type { RemoteRecord } from './merge.js';

export interface RemoteCredentials {
  remote_url: string;
  api_env?: string;
  api_key?: string;
  access_token?: string;
  refresh_token?: string;
  /** The OAuth client the tokens were issued to (needed to refresh them). */
  client_id?: string;
  /** Plain http to a remote on another computer was explicitly allowed. */
  allow_insecure_http?: boolean;
}

/**
 * One side speaks a sync protocol the other does not accept (docs/API.md "Sync", "Versions and
 * unknown data"): `this app` when the remote refused ours (426), `the server` when the remote's
 * is below ours. Nothing it answered is used, so every change stays in the outbox.
 */
export class UpdateRequired extends Error {
  constructor(
    readonly side: 'this app' | 'the server',
    message: string,
  ) {
    super(message);
  }
}

/** The remote could not be reached, or did not answer in time: we are offline. */
export class RemoteUnavailable extends Error {}
/**
 * Nothing answered at all (the connection was refused, no route, no name): asking again costs
 * the remote nothing, so the replica asks again soon, and notices within seconds when the remote
 * is back (sync/client.ts `unreachableMaxBackoffMs`).
 */
export class RemoteUnreachable extends RemoteUnavailable {}
/**
 * The remote is limiting our requests (429): nothing is wrong with the credentials, so the
 * replica tries again after `retryAfterMs` (the remote's `Retry-After`) and says why it waits.
 */
export class RemoteRateLimited extends RemoteUnavailable {
  constructor(
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(message);
  }
}
/** The pull cursor is older than what the remote keeps (410): resync from a snapshot. */
export class CursorExpired extends Error {}
/** The remote answered with an error that retrying will not fix (401, 400, …). */
export class RemoteRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The field the remote's error names, when it names one (`client_id`: the replica id is another's). */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** What the sync client reads of a push's answer (a remote of an older version may send no `server_time`). */
export type PushAnswer = Pick<WirePushAnswer, 'results'> & Partial<Pick<WirePushAnswer, 'server_time'>>;
export type { PushResult };

export interface RemoteApi {
  push(clientId: string, mutations: Mutation[]): Promise<PushAnswer>;
  changes(since: SyncCursor, limit: number): Promise<{ changes: unknown[]; cursor: SyncCursor; more: boolean; server_time?: number }>;
  /**
   * A snapshot page; with `rows` asked in rows (docs/API.md "Snapshot in rows"), which come as
   * `tables` beside the `records` (a remote of an older version answers records only).
   */
  snapshot(
    cursor: string | null,
    limit: number,
    options?: { rows?: boolean },
  ): Promise<{ records: unknown[]; tables?: unknown; cursor: string | null; seq: SyncCursor }>;
  /** Sends an attachment's content; the remote checks it against its record (409 while it has none). */
  sendContent(attachmentId: string, content: Buffer): Promise<void>;
  /** An attachment's content from the remote (404 while it has none), at most `maxBytes`. */
  fetchContent(attachmentId: string, maxBytes: number): Promise<Buffer>;
  /**
   * Opens the live channel (`GET /v1/sync/stream`, live.ts): its body as it arrives, until the
   * remote ends it or `signal` aborts. A remote without one answers 404 (RemoteRefused). A
   * remote other than HTTP (tests) may have none.
   */
  stream?(signal: AbortSignal): Promise<ReadableStreamDefaultReader<Uint8Array>>;
}

const contentPath = (attachmentId: string) => `/v1/sync/attachment/${encodeURIComponent(attachmentId)}/content`;

/** A whole binary answer, refused once it grows past `maxBytes` (the remote is not trusted with our disk). */
async function readAtMost(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  const tooLarge = () => new RemoteRefused(413, `the remote sent content larger than ${maxBytes} bytes`);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  // A reader rather than `for await`: the e2e helpers compile this with the DOM's types too.
  const reader = response.body?.getReader();
  try {
    // Ends when the body does, or once it has grown past `maxBytes`.
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof RemoteRefused) throw error;
    throw new RemoteUnavailable(`the remote's answer was cut off (${(error as Error).message})`);
  }
  return Buffer.concat(chunks);
}

function describe(body: unknown, status: number): string {
  const errors = (body as { errors?: { description?: string }[] } | null)?.errors;
  return errors?.[0]?.description ?? `the remote answered ${status}`;
}

/** A longer `Retry-After` than this is not waited for (the run tries again after this). */
const longestRateLimitWaitMs = 5 * 60_000;

/** A 429 of the remote: how long it asks us to wait (`Retry-After` in seconds), and what it is doing. */
function rateLimited(response: Response, body: unknown, during: string): RemoteRateLimited {
  const seconds = Number(response.headers.get('retry-after'));
  const retryAfterMs = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, longestRateLimitWaitMs) : 0;
  const when = retryAfterMs > 0 ? `in ${Math.ceil(retryAfterMs / 1000)} s` : 'later';
  return new RemoteRateLimited(
    retryAfterMs,
    `the remote is rate limiting this app (429) ${during}; it tries again ${when} (${describe(body, 429)})`,
  );
}

function fieldOf(body: unknown): string | undefined {
  const field = (body as { errors?: { field?: unknown }[] } | null)?.errors?.[0]?.field;
  return typeof field === 'string' ? field : undefined;
}

interface Exchange {
  json?: unknown;
  bytes?: Buffer;
  accept?: string;
  timeoutMs: number;
  /** Instead of the time limit (a stream's body has none). */
  signal?: AbortSignal;
}

export function httpRemote(
  credentials: () => RemoteCredentials | null,
  options: {
    timeoutMs: number;
    /** For attachment content, which may be megabytes on a slow line. */
    contentTimeoutMs?: number;
    onTokens?: (tokens: { access_token: string; refresh_token: string }) => void;
  },
): RemoteApi {
  /** One request with the credentials; an answer that is not 2xx comes back as a typed error. */
  async function send(method: string, path: string, exchange: Exchange, retried = false): Promise<Response> {
    const creds = credentials();
    if (!creds) throw new RemoteRefused(0, 'no remote is set up');
    const headers: Record<string, string> = {
      accept: exchange.accept ?? 'application/json',
      // Which protocol and fields this app knows, on every sync request (wire-versions.ts on the remote).
      [syncProtocolHeader]: String(syncProtocol),
      [syncSchemaHeader]: String(environmentMigrations.length),
    };
    if (creds.access_token) headers.authorization = `Bearer ${creds.access_token}`;
    else if (creds.api_key && creds.api_env) Object.assign(headers, { 'x-api-key': creds.api_key, 'x-api-env': creds.api_env });
    let body: string | Uint8Array<ArrayBuffer> | undefined;
    if (exchange.bytes) {
      headers['content-type'] = 'application/octet-stream';
      body = new Uint8Array(exchange.bytes);
    } else if (exchange.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(exchange.json);
    }
    let response: Response;
    try {
      response = await fetch(new URL(path, creds.remote_url), {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: exchange.signal ?? AbortSignal.timeout(exchange.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new RemoteUnreachable(`the remote could not be reached (${(error as Error).message})`);
    }
    if (response.ok) return response;
    const parsed: unknown = await response.json().catch(() => null);
    if (response.status === 410) throw new CursorExpired(describe(parsed, 410));
    if (response.status === 426)
      throw new UpdateRequired('this app', `The server needs a newer version of this app: ${describe(parsed, 426)}`);
    if (response.status === 401 && creds.refresh_token && creds.client_id && !retried) {
      await refresh(creds);
      return send(method, path, exchange, true);
    }
    if (response.status === 429) throw rateLimited(response, parsed, 'while syncing');
    if (response.status >= 500) throw new RemoteUnavailable(describe(parsed, response.status));
    throw new RemoteRefused(response.status, describe(parsed, response.status), fieldOf(parsed));
  }

  async function call(method: string, path: string, json?: unknown): Promise<unknown> {
    const response = await send(method, path, { json, timeoutMs: options.timeoutMs });
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new RemoteUnavailable('the remote sent an answer that is not JSON (cut off?)');
    }
    // A remote from before versions on the wire says none: protocol 1, which drops the fields it
    // does not know. Its answer is not used (a push it applied stays in the outbox, and is sent
    // again once it is updated: the same clocks change nothing twice).
    const protocol = (body as { protocol?: unknown } | null)?.protocol;
    const spoken = typeof protocol === 'number' && Number.isInteger(protocol) ? protocol : 1;
    if (spoken < minSyncProtocol) {
      throw new UpdateRequired(
        'the server',
        `The server runs an older version of Planner (sync protocol ${spoken}; this app needs ${minSyncProtocol} or later). Update the server to sync again; changes made here are kept until then.`,
      );
    }
    return body;
  }

  const contentTimeoutMs = options.contentTimeoutMs ?? options.timeoutMs;

  async function refresh(creds: RemoteCredentials): Promise<void> {
    let response: Response;
    try {
      response = await fetch(new URL('/v1/oauth/token', creds.remote_url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: creds.refresh_token!,
          client_id: creds.client_id!,
        }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      throw new RemoteUnreachable(`the remote could not be reached (${(error as Error).message})`);
    }
    const body = (await response.json().catch(() => null)) as { access_token?: string; refresh_token?: string } | null;
    // Only a refusal of the token itself ends the sign-in; a limit or a failure of the remote's
    // own is waited out, and the refresh token, which the remote did not use, is sent again then.
    if (response.status === 429) throw rateLimited(response, body, 'while refreshing its sign-in');
    if (response.status >= 500)
      throw new RemoteUnavailable(`the remote could not refresh the sign-in (${describe(body, response.status)})`);
    if (!response.ok || !body?.access_token || !body.refresh_token)
      throw new RemoteRefused(401, 'the sign-in to the remote has expired; sign in again');
    options.onTokens?.({ access_token: body.access_token, refresh_token: body.refresh_token });
  }

  return {
    async push(clientId, mutations) {
      // The body of the push operation's own type (shared/operations/sync.ts), as the remote checks it.
      const sent: BodyOf<typeof pushOperation> = { client_id: clientId, mutations };
      const body = (await call(pushOperation.method, operationPath(pushOperation), sent)) as Partial<PushAnswer> | null;
      if (!Array.isArray(body?.results)) throw new RemoteUnavailable('the remote sent a push answer without results');
      return { results: body.results, ...(typeof body.server_time === 'number' ? { server_time: body.server_time } : {}) };
    },
    async changes(since, limit) {
      const body = (await call('GET', `/v1/sync/changes?since=${encodeURIComponent(since)}&limit=${limit}`)) as {
        changes: RemoteRecord[];
        cursor: SyncCursor;
        more: boolean;
        server_time?: number;
      };
      if (!Array.isArray(body?.changes) || !isSyncCursor(body.cursor))
        throw new RemoteUnavailable('the remote sent a malformed changes page');
      return body;
    },
    async snapshot(cursor, limit, options = {}) {
      const query =
        (cursor ? `cursor=${encodeURIComponent(cursor)}&limit=${limit}` : `limit=${limit}`) + (options.rows ? '&format=rows' : '');
      const body = (await call('GET', `/v1/sync/snapshot?${query}`)) as {
        records: RemoteRecord[];
        tables?: unknown;
        cursor: string | null;
        seq: SyncCursor;
      };
      if (!Array.isArray(body?.records) || !isSyncCursor(body.seq))
        throw new RemoteUnavailable('the remote sent a malformed snapshot page');
      return body;
    },
    async sendContent(attachmentId, content) {
      const response = await send('PUT', contentPath(attachmentId), { bytes: content, timeoutMs: contentTimeoutMs });
      await response.body?.cancel();
    },
    async fetchContent(attachmentId, maxBytes) {
      const response = await send('GET', contentPath(attachmentId), { accept: 'application/octet-stream', timeoutMs: contentTimeoutMs });
      return readAtMost(response, maxBytes);
    },
    async stream(signal) {
      // The answer's head must come within the time limit; its body may last for hours.
      const controller = new AbortController();
      const abort = () => controller.abort();
      signal.addEventListener('abort', abort, { once: true });
      const timer = setTimeout(abort, options.timeoutMs);
      try {
        const response = await send('GET', '/v1/sync/stream', {
          accept: 'text/event-stream',
          timeoutMs: options.timeoutMs,
          signal: controller.signal,
        });
        if (!response.body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
          await response.body?.cancel();
          throw new RemoteRefused(415, 'the remote answered the live channel with something other than an event stream');
        }
        return response.body.getReader();
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
