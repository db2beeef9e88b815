/**
 * Every request names its environment and proves access to it: `x-api-key` + `x-api-env`
 * (or, once OAuth lands, a bearer token). Anything else is 401 "Not Logged In". The request
 * then only ever sees that environment's database.
 */
import type { FastifyRequest } from 'fastify';
import type { DataDir } from '../store/data-dir.js';
import { ApiError } from './errors.js';
import type { RequestContext } from './resource.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? undefined : value;
}

export function authenticate(dataDir: DataDir, request: FastifyRequest): RequestContext {
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
