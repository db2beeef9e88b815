/**
 * The browser host's own endpoints under `/host/…` (the local API switch, the data folder):
 * what the desktop shell answers through its channels. Same session cookie, page key and
 * bridge header as bridge calls, so no other page can use them.
 */
import { pageKeyHeaders } from './page-key.js';
import { ApiRequestError, TransportError, isApiErrorBody } from './request-error.js';

/** A call to the browser host, with the page's session cookie, its page key and the bridge header. */
export async function hostCall<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { 'x-planner-bridge': '1', ...pageKeyHeaders(), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (cause) {
    throw new TransportError('The planner host could not be reached. Is it still running?', { cause });
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.ok && answer !== undefined) return answer as T;
  if (isApiErrorBody(answer)) throw new ApiRequestError(response.status, answer);
  throw new TransportError(`The planner host refused the request (HTTP ${response.status}).`);
}
