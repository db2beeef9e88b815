/**
 * Kiosk mode of the floor view (docs/API.md "The floor", docs/decisions/kiosk-pins.md): the
 * kiosk key a planner's sign-in got for this tablet, kept in its localStorage (a kiosk stays one
 * after a reload or a restart of the browser); the operators it lists; an operator's PIN opening
 * a short sign-in as them, kept in the page's memory only.
 */
import { ApiRequestError, TransportError, isApiErrorBody } from '../api/request-error.js';
import { failed, isTokenAnswer, kioskClientId, postJson, type FloorSession } from './session.js';

export interface KioskSetting {
  key: string;
  /** The board's or stage's name the kiosk serves. */
  name: string;
  environment: string;
}

export interface KioskOperator {
  user_id: string;
  name: string;
  has_pin: boolean;
}

const storageKey = 'planner.floor.kiosk';

export function storedKiosk(): KioskSetting | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const v = parsed as Record<string, unknown>; // read field by field below
    return typeof v.key === 'string' && typeof v.name === 'string' && typeof v.environment === 'string'
      ? { key: v.key, name: v.name, environment: v.environment }
      : null;
  } catch {
    return null;
  }
}

export function keepKiosk(kiosk: KioskSetting | null): void {
  try {
    if (kiosk) localStorage.setItem(storageKey, JSON.stringify(kiosk));
    else localStorage.removeItem(storageKey);
  } catch {
    // Storage switched off: the kiosk lasts as long as the page.
  }
}

async function kioskRequest(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { 'x-kiosk-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (cause) {
    throw new TransportError('The server could not be reached.', { cause });
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    // Not JSON (a proxy's page): the status says what happened.
  }
  return { status: response.status, body: parsed };
}

/** The kiosk's operators; an ApiRequestError with status 401 when the kiosk was revoked. */
export async function kioskOperators(kiosk: KioskSetting): Promise<KioskOperator[]> {
  const answer = await kioskRequest('GET', '/v1/floor/kiosk', kiosk.key);
  if (answer.status !== 200) throw new ApiRequestError(answer.status, isApiErrorBody(answer.body) ? answer.body : null);
  // The route's answer (docs/API.md "The floor"), read as such.
  const data = (answer.body as { data?: unknown }).data;
  return Array.isArray(data) ? (data as KioskOperator[]) : [];
}

/** The operator's PIN: a sign-in as them for the floor's routes, in memory only. */
export async function unlock(kiosk: KioskSetting, userId: string, pin: string): Promise<FloorSession> {
  const answer = await kioskRequest('POST', '/v1/floor/kiosk/unlock', kiosk.key, { user_id: userId, pin });
  if (answer.status !== 200 || !isTokenAnswer(answer.body)) throw failed(answer.status, answer.body);
  return {
    accessToken: answer.body.access_token,
    refreshToken: answer.body.refresh_token,
    environment: answer.body.environment ?? kiosk.environment,
    endsAt: answer.body.ends_at ?? '',
    clientId: kioskClientId,
  };
}

/** Leaving kiosk mode: the kiosk revokes its own key, then this tablet forgets it. */
export async function leaveKiosk(kiosk: KioskSetting): Promise<void> {
  try {
    await kioskRequest('DELETE', '/v1/floor/kiosk', kiosk.key);
  } finally {
    keepKiosk(null);
  }
}

/** A planner's sign-in turns this tablet into a kiosk for a board or a stage. */
export async function createKiosk(session: FloorSession, target: { board_id: string } | { stage_id: string }): Promise<KioskSetting> {
  const answer = await postJson('/v1/floor/kiosks', target, { authorization: `Bearer ${session.accessToken}` });
  if (answer.status !== 201) throw failed(answer.status, answer.body);
  // The route's answer (docs/API.md "The floor"), read as such.
  const made = answer.body as { key: string; name: string; environment: string };
  const kiosk = { key: made.key, name: made.name, environment: made.environment };
  keepKiosk(kiosk);
  return kiosk;
}
