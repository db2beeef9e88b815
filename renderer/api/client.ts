/**
 * A small typed client for the Planning API over whichever transport the app runs on. It
 * knows the REST shape (collection path, `/{id}`, list envelope) and turns non-2xx answers
 * into `ApiRequestError`; it knows nothing about any particular resource.
 */
import type { BridgeRequest, BridgeResponse } from '../../shared/ipc.js';
import type { ListEnvelope } from '../../shared/list.js';
import { ApiRequestError, isApiErrorBody } from './request-error.js';
import type { Transport } from './transport.js';

export { ApiRequestError, TransportError, describeError, fieldErrors, formErrors, placeFieldErrors } from './request-error.js';

/** The list conventions every index endpoint accepts (limit, offset, sort, filter, …). */
export interface ListQuery {
  limit?: number;
  offset?: number;
  /** `field:asc|desc`, comma-separated. */
  sort?: string;
  /** `field:op:value` with `,and,` / `,or,`; quote values with single quotes. */
  filter?: string;
  show?: string;
  hide?: string;
  with?: string;
}

/** What shapes one record: fields to show or hide, related records to include (`with`). */
export type RecordQuery = Pick<ListQuery, 'show' | 'hide' | 'with'>;

export interface ApiClient {
  list<T>(path: string, query?: ListQuery): Promise<ListEnvelope<T>>;
  get<T>(path: string, id: string, query?: RecordQuery): Promise<T>;
  create<T>(path: string, input: unknown): Promise<T>;
  /** Partial update: only the fields sent change. */
  update<T>(path: string, id: string, changes: unknown): Promise<T>;
  remove(path: string, id: string): Promise<void>;
}

/**
 * One call over the transport, answered with its status and headers. A non-2xx answer throws
 * `ApiRequestError` carrying the API's error body, so every caller reads failures one way.
 */
export async function sendRequest(transport: Transport, request: BridgeRequest): Promise<BridgeResponse> {
  const response = await transport.request(request);
  if (response.status < 200 || response.status >= 300) {
    throw new ApiRequestError(response.status, isApiErrorBody(response.body) ? response.body : null);
  }
  return response;
}

/** One call over the transport, answered with the body only (see `sendRequest`). */
export async function send<T>(transport: Transport, request: BridgeRequest): Promise<T> {
  return (await sendRequest(transport, request)).body as T;
}

export function createApiClient(transport: Transport): ApiClient {
  const recordPath = (path: string, id: string) => `${path}/${encodeURIComponent(id)}`;

  return {
    list: (path, query) => send(transport, { method: 'GET', path, query: toQueryStrings(query ?? {}) }),
    get: (path, id, query) =>
      send(transport, { method: 'GET', path: recordPath(path, id), ...(query ? { query: toQueryStrings(query) } : {}) }),
    create: (path, input) => send(transport, { method: 'POST', path, body: input }),
    update: (path, id, changes) => send(transport, { method: 'PUT', path: recordPath(path, id), body: changes }),
    remove: async (path, id) => {
      await send<unknown>(transport, { method: 'DELETE', path: recordPath(path, id) });
    },
  };
}

/** The bridge carries query values as strings only; unset options are left out. */
function toQueryStrings(query: ListQuery): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) strings[key] = String(value);
  }
  return strings;
}
