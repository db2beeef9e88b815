/**
 * A browser that has signed a user in keeps a cookie that says so (docs/API.md "Rate limits"):
 * its later sign-ins as that user count against the cookie, not against the address it comes
 * from. So a flood of wrong passwords from the same address (a NAT, the addresses of a proxy's
 * clients when the proxy is not trusted) does not lock a planner out of the browser they use,
 * while every sign-in still costs a password hash only within a limit: the flood's own, per
 * address, or a known browser's, per cookie. (OWASP calls these "device cookies".)
 *
 * The cookie holds `<nonce>.<expires>.<mac>`, the MAC over the nonce, the expiry, the
 * environment and the email under a key derived from the instance's signing key, so it is
 * good on every node of a team server and for that one account only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthState } from '../../store/oauth-store.js';
import { nowMs } from '../../../shared/clock.js';
import { randomToken } from './tokens.js';

const cookieName = 'planner_oauth_known';
const lifetimeMs = 90 * 24 * 60 * 60_000;

/** A cookie of the request's `Cookie` header. */
export function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

async function macOf(oauth: OAuthState, nonce: string, expires: number, environmentId: string, email: string): Promise<string> {
  const key = createHmac('sha256', (await oauth.signingKey()).secret)
    .update('oauth-known-browser')
    .digest();
  return createHmac('sha256', key).update([nonce, expires, environmentId, email.trim().toLowerCase()].join('\n')).digest('base64url');
}

/**
 * The nonce of this browser's cookie when it signed in as `email` of the environment before
 * (and the cookie has not expired); the sign-in then counts against it.
 */
export async function knownBrowser(
  oauth: OAuthState,
  request: FastifyRequest,
  environmentId: string,
  email: string,
): Promise<string | undefined> {
  const [nonce, expiresText, mac] = (cookieOf(request, cookieName) ?? '').split('.');
  const expires = Number(expiresText);
  if (!nonce || !mac || !Number.isSafeInteger(expires) || expires < nowMs()) return undefined;
  const expected = Buffer.from(await macOf(oauth, nonce, expires, environmentId, email));
  const actual = Buffer.from(mac);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? nonce : undefined;
}

/** After a sign-in: the browser is known for this account, for another 90 days. */
export async function rememberBrowser(
  oauth: OAuthState,
  request: FastifyRequest,
  reply: FastifyReply,
  environmentId: string,
  email: string,
): Promise<void> {
  const nonce = randomToken(16);
  const expires = nowMs() + lifetimeMs;
  const value = `${nonce}.${expires}.${await macOf(oauth, nonce, expires, environmentId, email)}`;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${cookieName}=${value}; Path=/v1/oauth/authorize; HttpOnly; SameSite=Strict; Max-Age=${lifetimeMs / 1000}${secure}`,
  );
}
