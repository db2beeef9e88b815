/**
 * The floor view's transport (renderer/api/transport-types.ts): the Planning API over HTTP on
 * the page's own server, with the sign-in's bearer token. An expired access token is renewed
 * once with the refresh token and the request sent again; a sign-in that has ended signs out.
 * The floor hears no change events: it reads its jobs again after each action.
 */
import type { BridgeRequest, BridgeResponse } from '../../shared/ipc.js';
import { TransportError } from '../api/request-error.js';
import type { Transport } from '../api/transport-types.js';
import { refresh, type FloorSession } from './session.js';

export interface SessionHolder {
  current(): FloorSession | null;
  renewed(session: FloorSession): void;
  ended(): void;
}

function urlOf(req: BridgeRequest): string {
  const query = new URLSearchParams(req.query ?? {}).toString();
  return query ? `${req.path}?${query}` : req.path;
}

async function send(req: BridgeRequest, token: string): Promise<BridgeResponse> {
  let response: Response;
  try {
    response = await fetch(urlOf(req), {
      method: req.method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      // Same origin: in workshop mode the device's pairing cookie goes along (docs/decisions/workshop-mode.md); the bearer token is the credential.
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (cause) {
    throw new TransportError('The server could not be reached.', { cause });
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    // Not JSON (a proxy's error page): the status says what happened.
    body = null;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  return { status: response.status, headers, body };
}

export function createFloorTransport(holder: SessionHolder): Transport {
  return {
    async request(req) {
      const session = holder.current();
      if (!session) throw new TransportError('Sign in first.');
      const first = await send(req, session.accessToken);
      if (first.status !== 401) return first;
      const renewed = await refresh(session);
      if (!renewed) {
        holder.ended();
        return first;
      }
      holder.renewed(renewed);
      return send(req, renewed.accessToken);
    },
    onChange() {
      return () => undefined;
    },
  };
}

/** Opens an attachment: a link as it is, an uploaded file fetched with the token and shown from memory. */
export async function openAttachment(holder: SessionHolder, attachment: { file: string; type: string }): Promise<void> {
  if (/^https?:\/\//i.test(attachment.file)) {
    window.open(attachment.file, '_blank', 'noopener');
    return;
  }
  const session = holder.current();
  if (!session) return;
  const response = await fetch(attachment.file, {
    headers: { authorization: `Bearer ${session.accessToken}` },
    // Same origin: in workshop mode the device's pairing cookie goes along (docs/decisions/workshop-mode.md).
    credentials: 'same-origin',
  });
  if (!response.ok) throw new TransportError(`The file could not be opened (HTTP ${response.status}).`);
  const url = URL.createObjectURL(await response.blob());
  window.open(url, '_blank', 'noopener');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
