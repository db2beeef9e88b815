/**
 * The bridge contract between the renderer and the Planning API. The renderer sends a
 * `BridgeRequest`; main (over IPC) or the browser host (over HTTP) answers with the
 * `BridgeResponse` that the very same Fastify route produced. Change events flow back the
 * other way so react-query can refresh what changed.
 *
 * The payload check lives here so that both hosts refuse exactly the same malformed input.
 */

export const bridgeChannels = {
  /** renderer → main, invoke/handle: one API request. */
  request: 'planner:request',
  /** main → renderer, send/on: a batch of change events. */
  change: 'planner:change',
} as const;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface BridgeRequest {
  method: HttpMethod;
  /** Path under the API root, starting with `/v1/`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

export interface BridgeResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface ChangeEvent {
  /** Resource name as in `shared/resources`, e.g. `project`. */
  resource: string;
  id: string;
  op: 'create' | 'update' | 'delete';
}

/** What the preload exposes as `window.planner`. */
export interface PlannerBridge {
  request(request: BridgeRequest): Promise<BridgeResponse>;
  /** Returns a function that removes the listener. */
  onChange(listener: (events: ChangeEvent[]) => void): () => void;
}

const methods: readonly string[] = ['GET', 'POST', 'PUT', 'DELETE'];
const maxPathLength = 2048;

/**
 * Validates an untrusted bridge payload. Returns the request, or a description of what is
 * wrong. Paths must stay inside `/v1/` so the bridge cannot reach anything else the host
 * might serve.
 */
export function parseBridgeRequest(payload: unknown): BridgeRequest | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { error: 'request must be an object' };
  }
  const p = payload as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!['method', 'path', 'query', 'body'].includes(key)) return { error: `unknown key ${key}` };
  }
  if (typeof p.method !== 'string' || !methods.includes(p.method)) {
    return { error: 'method must be one of GET, POST, PUT, DELETE' };
  }
  if (
    typeof p.path !== 'string' ||
    !p.path.startsWith('/v1/') ||
    p.path.length > maxPathLength ||
    p.path.includes('?') ||
    p.path.includes('#') ||
    p.path.split('/').some((segment) => segment === '..' || segment === '.')
  ) {
    return { error: 'path must be an API path under /v1/ without a query string' };
  }
  if (p.query !== undefined) {
    if (typeof p.query !== 'object' || p.query === null || Array.isArray(p.query)) {
      return { error: 'query must be an object of strings' };
    }
    for (const value of Object.values(p.query)) {
      if (typeof value !== 'string') return { error: 'query must be an object of strings' };
    }
  }
  const request: BridgeRequest = { method: p.method as HttpMethod, path: p.path };
  if (p.query !== undefined) request.query = p.query as Record<string, string>;
  if (p.body !== undefined) request.body = p.body;
  return request;
}
