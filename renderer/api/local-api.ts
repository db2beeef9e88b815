/**
 * Reaching the local API's switch (shared/local-api.ts) from the page: the desktop shell's
 * channels when the preload offers them, the browser host's `/host/local-api` otherwise. Both
 * answer the same state and outcomes; the key is only ever in the outcome that made it.
 */
import type { PlannerBridge } from '../../shared/ipc.js';
import type { LocalApiChange, LocalApiOutcome, LocalApiState } from '../../shared/local-api.js';
import { ApiRequestError, TransportError, isApiErrorBody } from './request-error.js';

export interface LocalApiControl {
  state(): Promise<LocalApiState>;
  change(change: LocalApiChange): Promise<LocalApiOutcome>;
  newKey(): Promise<LocalApiOutcome>;
}

export function localApiControl(bridge: PlannerBridge | undefined = window.planner): LocalApiControl {
  if (bridge) {
    return {
      state: () => bridge.getLocalApi(),
      change: (change) => bridge.changeLocalApi(change),
      newKey: () => bridge.newLocalApiKey(),
    };
  }
  return {
    state: () => hostCall<LocalApiState>('GET', '/host/local-api'),
    change: (change) => hostCall<LocalApiOutcome>('POST', '/host/local-api', change),
    newKey: () => hostCall<LocalApiOutcome>('POST', '/host/local-api/key'),
  };
}

/** A call to the browser host, with the page's session cookie and the bridge header. */
async function hostCall<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { 'x-planner-bridge': '1', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
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
