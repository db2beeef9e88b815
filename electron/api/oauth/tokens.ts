/**
 * The tokens of the OAuth flow (docs/API.md "OAuth"):
 *
 *  - access token: a JWT (HS256, `kid` naming the instance's signing key) with claims
 *    `env` (environment id), `sub` (user id), `role`, `sid` (the sign-in: token family),
 *    `client_id`, `iat`, `exp` (one hour), `jti`, `iss`, `aud`;
 *  - refresh token: 32 random hex characters, stored as a SHA-256 digest, usable once;
 *  - authorization code: random, stored as a digest, usable once within 60 seconds.
 */
import { createHash, randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { uuidv7 } from '../../../shared/ids.js';
import type { OAuthState, TokenFamily } from '../../store/oauth-store.js';
import { nowDate, nowMs } from '../../../shared/clock.js';

export const accessTokenSeconds = 3600;
export const refreshTokenDays = 30;
export const codeSeconds = 60;
/** The public API answers `token_type: "access_token"`; clients send the token as `Bearer`. */
export const tokenType = 'access_token';

const issuer = 'planner';
const audience = 'planning-api';

export interface AccessClaims {
  environmentId: string;
  userId: string;
  role: string;
  familyId: string;
  clientId: string;
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
}

export function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export async function signAccessToken(
  oauth: OAuthState,
  claims: AccessClaims,
  /** For tests: the issue time (seconds) and lifetime to use. */
  options: { now?: number; lifetime?: number } = {},
): Promise<string> {
  const key = await oauth.signingKey();
  const now = options.now ?? Math.floor(nowMs() / 1000);
  return new SignJWT({ env: claims.environmentId, role: claims.role, sid: claims.familyId, client_id: claims.clientId })
    .setProtectedHeader({ alg: 'HS256', kid: key.id, typ: 'at+jwt' })
    .setSubject(claims.userId)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.lifetime ?? accessTokenSeconds))
    .setJti(uuidv7())
    .sign(key.secret);
}

export class InvalidTokenError extends Error {}

/** The claims of a valid access token; an expired, tampered or foreign token throws InvalidTokenError. */
export async function verifyAccessToken(oauth: OAuthState, token: string): Promise<AccessClaims> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(
      token,
      async (header) => {
        const key = header.kid ? await oauth.keyById(header.kid) : undefined;
        if (!key || key.retired) throw new InvalidTokenError('The token was signed with a key this instance does not use.');
        return key.secret;
      },
      { algorithms: ['HS256'], issuer, audience, typ: 'at+jwt', requiredClaims: ['exp', 'iat', 'sub', 'jti'], currentDate: nowDate() },
    ));
  } catch (error) {
    if (error instanceof InvalidTokenError) throw error;
    if (error instanceof joseErrors.JWTExpired)
      throw new InvalidTokenError('The access token has expired; use the refresh token to get a new one.');
    if (error instanceof joseErrors.JOSEError) throw new InvalidTokenError('The access token is not valid.');
    throw error;
  }
  const { env, role, sid, client_id: clientId, sub } = payload;
  if (
    typeof env !== 'string' ||
    typeof role !== 'string' ||
    typeof sid !== 'string' ||
    typeof clientId !== 'string' ||
    typeof sub !== 'string'
  ) {
    throw new InvalidTokenError('The access token is not valid.');
  }
  return { environmentId: env, userId: sub, role, familyId: sid, clientId };
}

/**
 * A new access token and refresh token for a sign-in (token family). `endsAt` (ms): a sign-in
 * with a fixed end (the floor's shift, floor-client.ts): the refresh token expires then, and the
 * access token no later.
 */
export async function issueTokens(oauth: OAuthState, family: TokenFamily, role: string, endsAt?: number): Promise<TokenResponse> {
  const refreshToken = randomToken(16);
  const now = nowMs();
  const refreshEnds = Math.min(now + refreshTokenDays * 86_400_000, endsAt ?? Infinity);
  const lifetime = Math.max(1, Math.min(accessTokenSeconds, Math.floor((refreshEnds - now) / 1000)));
  await oauth.insertRefreshToken(digest(refreshToken), family.id, refreshEnds);
  const accessToken = await signAccessToken(
    oauth,
    {
      environmentId: family.environment_id,
      userId: family.user_id,
      role,
      familyId: family.id,
      clientId: family.client_id,
    },
    { lifetime },
  );
  return { access_token: accessToken, refresh_token: refreshToken, token_type: tokenType, expires_in: lifetime };
}
