/**
 * One delivery attempt: a JSON POST that counts as delivered only on a 2xx answer within the
 * time limit. Redirects are not followed (a 3xx is a failure), so a receiver cannot bounce the
 * request somewhere else. On an instance that refuses private targets, the address the socket
 * connects to is checked (see target-guard.ts).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress, PrivateTargetError } from './target-guard.js';

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Aborts the attempt (the instance is closing); the result then says `aborted`. */
  signal: AbortSignal;
}

export interface PostResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  aborted: boolean;
}

/** How much of an answer is read before the connection is dropped. */
const maxAnswerBytes = 64 * 1024;

export function postJson(target: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs' | 'aborted'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({ ...result, durationMs: elapsed(), aborted: options.signal.aborted });
    };

    let url: URL;
    try {
      url = new URL(target);
    } catch {
      resolve({ ok: false, status: null, durationMs: 0, error: 'the webhook URL is not valid', aborted: false });
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) {
      resolve({ ok: false, status: null, durationMs: 0, error: new PrivateTargetError(host, host).message, aborted: false });
      return;
    }

    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body).toString(),
        'user-agent': 'Planner-Webhooks/1',
      },
      ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
      // A fresh connection per attempt: no pooled socket outlives the instance.
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, status: null, error: `no answer within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    const onAbort = () => {
      request.destroy();
      finish({ ok: false, status: null, error: 'aborted: the instance is closing' });
    };
    options.signal.addEventListener('abort', onAbort);
    if (options.signal.aborted) onAbort();

    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > maxAnswerBytes) response.destroy();
      });
      const done = () =>
        finish(status >= 200 && status < 300 ? { ok: true, status, error: null } : { ok: false, status, error: `answered ${status}` });
      response.on('end', done);
      response.on('close', done);
      response.on('error', done);
    });
    request.on('error', (error: Error) => {
      finish({
        ok: false,
        status: null,
        error:
          error instanceof PrivateTargetError || error.message.startsWith('refused:')
            ? error.message
            : `could not deliver: ${error.message}`,
      });
    });
    request.end(body);
  });
}
