/**
 * The floor view's sign-in (docs/API.md "The floor", docs/decisions/floor-sign-in.md): the
 * tokens of `POST /v1/floor/sign_in`, kept in this tab's sessionStorage only (never in the
 * address, never logged), renewed at `POST /v1/oauth/token` when the access token runs out,
 * revoked by `POST /v1/floor/sign_out`. A sign-in lasts a shift; then the form shows again.
 */
import type { FloorJobs } from '../../shared/operations/floor.js';
import { nowMs } from '../../shared/clock.js';
import { ApiRequestError, TransportError, isApiErrorBody } from '../api/request-error.js';

export const floorClientId = 'planner-floor';
/** The client of an operator's sign-in on a kiosk (docs/decisions/kiosk-pins.md): kept in memory only. */
export const kioskClientId = 'planner-kiosk';

export interface FloorSession {
  accessToken: string;
  refreshToken: string;
  environment: string;
  /** When the shift's sign-in ends (ISO 8601). */
  endsAt: string;
  /** The client it was made for, when not `planner-floor`: a kiosk's operator sign-in. */
  clientId?: string;
}

const storageKey = 'planner.floor.session';

function isSession(value: unknown): value is FloorSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>; // read field by field below
  return (
    typeof v.accessToken === 'string' &&
    typeof v.refreshToken === 'string' &&
    typeof v.environment === 'string' &&
    typeof v.endsAt === 'string'
  );
}

/** The tab's sign-in, if it has one whose shift has not ended. */
export function storedSession(): FloorSession | null {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null');
    return isSession(parsed) && Date.parse(parsed.endsAt) > nowMs() ? parsed : null;
  } catch {
    return null;
  }
}

function keep(session: FloorSession | null): void {
  // An operator's sign-in on a kiosk lives in the page's memory only: the next operator finds none of it.
  if (session?.clientId === kioskClientId) return;
  try {
    if (session) sessionStorage.setItem(storageKey, JSON.stringify(session));
    else {
      sessionStorage.removeItem(storageKey);
      // What the sign-in read goes with it: the next operator of the tablet sees none of it.
      sessionStorage.removeItem(jobsStorageKey);
    }
  } catch {
    // Storage switched off: the sign-in lasts as long as the page.
  }
}

const jobsStorageKey = 'planner-floor-jobs';

/**
 * The jobs list this tab's sign-in read last, and when: the page shows it when the server cannot
 * be reached, after a reload too (docs/API.md "The floor"). Kept beside the sign-in, in this
 * tab's sessionStorage, and dropped with it.
 */
export function keptJobs(): { jobs: FloorJobs; at: number } | undefined {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(jobsStorageKey) ?? 'null');
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    // Read as unknown, field by field, before it is taken for what keepJobs wrote.
    const { jobs, at } = parsed as { jobs?: { date?: unknown; data?: unknown }; at?: unknown };
    if (typeof at !== 'number' || typeof jobs?.date !== 'string' || !Array.isArray(jobs.data)) return undefined;
    // The shape keepJobs wrote, as checked above.
    return { jobs: jobs as FloorJobs, at };
  } catch {
    return undefined;
  }
}

export function keepJobs(jobs: FloorJobs): void {
  try {
    sessionStorage.setItem(jobsStorageKey, JSON.stringify({ jobs, at: nowMs() }));
  } catch {
    // Storage switched off or full: the list stays on the screen while the page is open.
  }
}

export async function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      // Same origin: in workshop mode the device's pairing cookie goes along (docs/decisions/workshop-mode.md); the bearer token is the credential.
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (cause) {
    throw new TransportError('The server could not be reached.', { cause });
  }
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

export function failed(status: number, body: unknown): ApiRequestError {
  return new ApiRequestError(status, isApiErrorBody(body) ? body : null);
}

interface TokenAnswer {
  access_token: string;
  refresh_token: string;
}

export function isTokenAnswer(value: unknown): value is TokenAnswer & { environment?: string; ends_at?: string } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>; // read field by field below
  return typeof v.access_token === 'string' && typeof v.refresh_token === 'string';
}

/** The environment the sign-in form starts with: the server's only one, else empty. */
export async function onlyEnvironment(): Promise<string> {
  try {
    const response = await fetch('/v1/floor/sign_in', {
      // Same origin: in workshop mode the device's pairing cookie goes along (docs/decisions/workshop-mode.md).
      credentials: 'same-origin',
      cache: 'no-store',
    });
    const body: unknown = await response.json();
    const environment = typeof body === 'object' && body !== null ? (body as { environment?: unknown }).environment : null; // read as unknown
    return typeof environment === 'string' ? environment : '';
  } catch {
    return '';
  }
}

export async function signIn(environment: string, email: string, password: string): Promise<FloorSession> {
  const answer = await postJson('/v1/floor/sign_in', { environment, email, password });
  if (answer.status !== 200 || !isTokenAnswer(answer.body)) throw failed(answer.status, answer.body);
  const session: FloorSession = {
    accessToken: answer.body.access_token,
    refreshToken: answer.body.refresh_token,
    environment: answer.body.environment ?? environment,
    endsAt: answer.body.ends_at ?? '',
  };
  keep(session);
  return session;
}

/** New tokens for the sign-in; null when it has ended (revoked, shift over): sign in again. */
export async function refresh(session: FloorSession): Promise<FloorSession | null> {
  const answer = await postJson('/v1/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: session.refreshToken,
    client_id: session.clientId ?? floorClientId,
  });
  if (answer.status === 200 && isTokenAnswer(answer.body)) {
    const renewed = { ...session, accessToken: answer.body.access_token, refreshToken: answer.body.refresh_token };
    keep(renewed);
    return renewed;
  }
  if (answer.status >= 500 || answer.status === 429) throw failed(answer.status, answer.body);
  if (session.clientId !== kioskClientId) keep(null);
  return null;
}

/** Revokes the sign-in on the server, then forgets it here (also when the server cannot be reached). */
export async function signOut(session: FloorSession): Promise<void> {
  try {
    await postJson('/v1/floor/sign_out', {}, { authorization: `Bearer ${session.accessToken}` });
  } finally {
    if (session.clientId !== kioskClientId) keep(null);
  }
}

/** The claims of the access token, read (not verified: the server checks every token). */
function claimsOf(session: FloorSession): Record<string, unknown> {
  try {
    const part = session.accessToken.split('.')[1] ?? '';
    const claims: unknown = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
    // Read field by field by the callers.
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Whether the sign-in is a planner's (admin, manager, organiser), who may turn the tablet into a kiosk. */
export function isPlannerSession(session: FloorSession): boolean {
  const role = claimsOf(session).role;
  return role === 'admin' || role === 'manager' || role === 'organiser';
}

/**
 * Who the sign-in is (the access token's `sub`), so that taps kept on a shared device are sent
 * only by the operator who made them. Read, not verified: the server checks every token.
 */
export function userOf(session: FloorSession): string {
  const sub = claimsOf(session).sub;
  return typeof sub === 'string' ? sub : '';
}
