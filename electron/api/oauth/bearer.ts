/**
 * `Authorization: Bearer <access token>`: the OAuth alternative to x-api-key + x-api-env. The
 * token names its environment; an `x-api-env` sent with it must name the same one. It is
 * refused (401) when expired, tampered with, signed by a key this instance does not use, when
 * its sign-in was revoked (a refresh token was replayed, the client deleted) or when its user
 * can no longer sign in. The caller's role is read from the user record, so a change of role
 * applies at once.
 */
import { ApiError } from '../errors.js';
import type { Caller, RequestContext } from '../resource.js';
import type { OAuthAccess } from './access.js';
import { InvalidTokenError, verifyAccessToken } from './tokens.js';
import { activeUser } from './users.js';

/** A user caller as a bearer token makes it: it also knows the OAuth client it came through. */
export type UserCaller = Caller & { kind: 'user'; userId: string; role: string; clientId: string; familyId: string };

export async function authenticateBearer(
  access: OAuthAccess,
  token: string,
  environmentHeader: string | undefined,
): Promise<RequestContext> {
  const oauth = access.state;
  let claims;
  try {
    claims = await verifyAccessToken(oauth, token);
  } catch (error) {
    if (error instanceof InvalidTokenError) throw ApiError.notLoggedIn(error.message);
    throw error;
  }
  const environment = await access.environmentById(claims.environmentId);
  if (!environment) throw ApiError.notLoggedIn('The access token names no environment of this instance.');
  if (environmentHeader !== undefined && environmentHeader !== environment.name) {
    throw ApiError.notLoggedIn('The access token belongs to another environment than x-api-env names.');
  }
  const family = await oauth.family(claims.familyId);
  if (!family || family.revoked_at || family.user_id !== claims.userId || family.environment_id !== environment.id) {
    throw ApiError.notLoggedIn('This sign-in has been revoked; sign in again.');
  }
  const user = await activeUser(access.recordsOf(environment), claims.userId);
  if (!user) throw ApiError.notLoggedIn('The user of this access token can no longer sign in.');
  const caller: UserCaller = {
    kind: 'user',
    environment,
    userId: user.id,
    role: user.role,
    clientId: claims.clientId,
    familyId: family.id,
  };
  return access.contextOf(caller, environment);
}
