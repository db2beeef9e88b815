/**
 * Every request names its environment and proves access to it: `x-api-key` + `x-api-env`, or
 * `Authorization: Bearer <access token>` from the OAuth flow (oauth/bearer.ts). Anything else
 * is 401 "Not Logged In". The request then only ever sees that environment's database.
 */
import type { FastifyRequest } from 'fastify';
import type { DataDir } from '../store/data-dir.js';
import { ApiError } from './errors.js';
import { authenticateBearer } from './oauth/bearer.js';
import type { RequestContext } from './resource.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? undefined : value;
}

/** The token of `Authorization: Bearer …`; undefined when another scheme (or none) is used. */
function bearerToken(request: FastifyRequest): string | undefined {
  const value = header(request, 'authorization');
  if (value === undefined || !/^bearer(\s|$)/i.test(value)) return undefined;
  const token = value.slice(6).trim();
  if (!token || /\s/.test(token)) throw ApiError.notLoggedIn('Send Authorization: Bearer <access token>.');
  return token;
}

export async function authenticate(dataDir: DataDir, request: FastifyRequest): Promise<RequestContext> {
  const token = bearerToken(request);
  if (token !== undefined) return authenticateBearer(dataDir, token, header(request, 'x-api-env'));
  const key = header(request, 'x-api-key');
  const environmentName = header(request, 'x-api-env');
  if (!key || !environmentName) throw ApiError.notLoggedIn();
  const grant = dataDir.system.verifyApiKey(environmentName, key);
  if (!grant) throw ApiError.notLoggedIn('The API key does not open that environment.');
  return {
    caller: { kind: 'api-key', environment: grant.environment, keyId: grant.keyId },
    store: dataDir.environment(grant.environment.id),
  };
}
