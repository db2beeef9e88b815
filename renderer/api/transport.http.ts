/**
 * The browser-host transport: the same bridge contract over HTTP on 127.0.0.1. Requests are
 * POSTed to `/bridge/request`; change events arrive as server-sent events on `/bridge/events`.
 *
 * The `x-planner-bridge` header is what a cross-site form or image tag cannot send, so the
 * host can refuse requests that did not come from this page; the page key (page-key.ts) is
 * what no other page or local program has.
 */
import type { BridgeRequest, BridgeResponse, ChangeEvent } from '../../shared/ipc.js';
import { pageKey, pageKeyHeaders } from './page-key.js';
import { ApiRequestError, TransportError, isApiErrorBody } from './request-error.js';
import type { ChangeNotice, Transport } from './transport-types.js';

const requestUrl = '/bridge/request';
const eventsUrl = '/bridge/events';

export function createHttpTransport(): Transport {
  // The key leaves the address bar as the page starts, not at the first call: a screenshot or
  // a bookmark taken meanwhile would keep it, and a call made from outside the app (a test's
  // own fetch) would find no key in storage yet.
  pageKey();
  const listeners = new Set<(notice: ChangeNotice) => void>();
  // One stream for all subscribers; opened on the first, closed after the last, so a page
  // with no live views holds no connection. EventSource reconnects by itself.
  let source: EventSource | null = null;

  function openStream(): EventSource {
    // EventSource cannot send headers: the key goes in the address (same origin only).
    const key = pageKey();
    const stream = new EventSource(key ? `${eventsUrl}?key=${encodeURIComponent(key)}` : eventsUrl);
    // Until the stream is open (at first, and after every reconnect) changes go by unheard:
    // a record written by an integration while the page loaded would stay off the screen.
    stream.onopen = () => {
      for (const listener of listeners) listener('missed');
    };
    stream.onmessage = (message: MessageEvent<string>) => {
      const events = parseChangeEvents(message.data);
      if (!events) {
        console.warn('Ignoring a malformed change event message from the host.');
        return;
      }
      for (const listener of listeners) listener(events);
    };
    return stream;
  }

  return {
    async request(req: BridgeRequest): Promise<BridgeResponse> {
      let response: Response;
      try {
        response = await fetch(requestUrl, {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', 'x-planner-bridge': '1', ...pageKeyHeaders() },
          body: JSON.stringify(req),
        });
      } catch (cause) {
        throw new TransportError('The planner host could not be reached. Is it still running?', { cause });
      }
      const body: unknown = await response.json().catch(() => undefined);
      // The host answers with a BridgeResponse whatever the API said; anything else means the
      // host itself refused the call (no session, bad payload) before the API saw it. It says
      // why in the API's error body, which is worth showing as it is.
      if (isBridgeResponse(body)) return body;
      if (isApiErrorBody(body)) throw new ApiRequestError(response.status, body);
      throw new TransportError(`The planner host refused the request (HTTP ${response.status}).`);
    },

    onChange(listener) {
      listeners.add(listener);
      source ??= openStream();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && source) {
          source.close();
          source = null;
        }
      };
    },
  };
}

function isBridgeResponse(value: unknown): value is BridgeResponse {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<BridgeResponse>;
  return typeof candidate.status === 'number' && typeof candidate.headers === 'object' && candidate.headers !== null;
}

function parseChangeEvents(data: string): ChangeEvent[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const valid = parsed.every(
    (item: unknown) =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as ChangeEvent).resource === 'string' &&
      typeof (item as ChangeEvent).id === 'string',
  );
  return valid ? (parsed as ChangeEvent[]) : null;
}
