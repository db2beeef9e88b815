/**
 * Every request names its environment and proves access to it: `x-api-key` + `x-api-env`, or
 * `Authorization: Bearer <access token>` from the OAuth flow (oauth/bearer.ts). Anything else
 * is 401 "Not Logged In". The request then only ever sees that environment's database.
 *
 * Failed authentication is limited per client (docs/API.md "Authentication"; the client behind
 * a trusted proxy, an IPv6 client by its /64: client-address.ts): past 20 failures a minute the
 * answer to a failure is 429. A right credential is never refused for it: every key and token
 * is still checked, since checking costs one keyed digest and one indexed lookup (a key) or a
 * signature (a token), so a flood from a shared address (a NAT, a proxy, any program on this
 * computer for the local API) locks no one out. Only the slow check of a key stored before
 * digests (scrypt, store/system.ts) is not made past the limit. Successes are not counted.
 */
import type { FastifyRequest } from 'fastify';
import type { DataDir } from '../store/data-dir.js';
import type { PostgresPool } from '../store/postgres/postgres-database.js';
import { ApiKeyCheckBusy, type ApiKeyGrant, type Environment } from '../store/system.js';
import { ApiError } from './errors.js';
import { limitKeyOf } from './client-address.js';
import { authenticateBearer } from './oauth/bearer.js';
import { defaultRateLimit, SlidingWindowLimiter, tooManyRequests, type RequestLimiter } from './rate-limit.js';
import { PostgresRateLimiter } from '../store/postgres/rate-limits.js';
import type { OAuthAccess } from './oauth/access.js';
import { recordsOf, type RecordStore } from '../store/record-store.js';
import type { RequestContext } from './resource.js';
import { requestContext } from './resource.js';

/** What checks an API key: the data folder's system store, or a team database's (postgres/system-store.ts). */
export interface ApiKeyVerifier {
  verifyApiKey(environmentName: string, key: string, mayCheckSlowly?: () => Promise<boolean>): Promise<ApiKeyGrant | undefined>;
}

/**
 * The team server's database (`npm run server -- --database …`, docs/architecture.md "Team
 * server on PostgreSQL"): its environments and keys, each environment's records, and OAuth's
 * state (oauth/access.ts). A request then has no synchronous store; a part of the API still on
 * it answers 503.
 */
export interface TeamDatabaseAccess {
  system: ApiKeyVerifier & {
    listEnvironments(): Promise<Environment[]>;
    findEnvironment(name: string): Promise<Environment | undefined>;
    environmentById(id: string): Promise<Environment | undefined>;
  };
  /** The database, shared by the nodes: the webhook workers claim deliveries there (webhooks/team-service.ts). */
  pool: PostgresPool;
  recordsOf(environment: Pick<Environment, 'id' | 'name'>): RecordStore;
}

/**
 * Failed authentications of the clients that send them: one table per data folder, or for a
 * team server one in its database, which every node counts in (PostgresRateLimiter).
 */
export class FailedAuthentications {
  constructor(private readonly limiter: RequestLimiter = new SlidingWindowLimiter(defaultRateLimit)) {}

  /** Whether `client` is under the limit: only then is a key from before digests checked with scrypt. */
  async underLimit(client: string): Promise<boolean> {
    return (await this.limiter.peek(client)).allowed;
  }

  /** Counts a failure of `client`: the refusal to send, 401 as given or 429 past the limit. */
  async failed(client: string, refusal: ApiError): Promise<ApiError> {
    const state = await this.limiter.take(client);
    return state.allowed ? refusal : tooManyRequests(state, 'Too many failed sign-ins from this address.');
  }
}

const failures = new WeakMap<object, FailedAuthentications>();

/**
 * The failed-authentication limit of a data folder (the API and the local API count together),
 * or of a team server's database (all nodes count together).
 */
export function failedAuthenticationsOf(dataDir: DataDir, team?: TeamDatabaseAccess): FailedAuthentications {
  const owner: object = team ?? dataDir;
  let table = failures.get(owner);
  if (!table) {
    table = new FailedAuthentications(team ? new PostgresRateLimiter(team.pool, 'failed-authentication', defaultRateLimit) : undefined);
    failures.set(owner, table);
  }
  return table;
}

/**
 * The grant of an API key; 429 when too many keys from before digests are being checked. Such
 * a key is checked with scrypt only while `mayCheckSlowly` says so (its client is under the
 * failure limit); the digest lookup every key gets is always made.
 */
export async function checkApiKey(
  system: ApiKeyVerifier,
  environmentName: string,
  key: string,
  mayCheckSlowly: () => Promise<boolean>,
): Promise<ApiKeyGrant | undefined> {
  try {
    return await system.verifyApiKey(environmentName, key, mayCheckSlowly);
  } catch (error) {
    if (!(error instanceof ApiKeyCheckBusy)) throw error;
    throw new ApiError('tooManyRequests', [{ description: 'Too many API keys are being checked at once. Try again in 1 s.' }], {
      'retry-after': '1',
    });
  }
}

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

export async function authenticate(
  dataDir: DataDir,
  request: FastifyRequest,
  oauth: OAuthAccess,
  team?: TeamDatabaseAccess,
): Promise<RequestContext> {
  const failed = failedAuthenticationsOf(dataDir, team);
  try {
    return await checkCredentials(dataDir, request, failed, oauth, team);
  } catch (error) {
    // A request that sent no credentials at all guessed nothing: it is not counted.
    const sentCredentials = request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined;
    if (error instanceof ApiError && error.kind === 'notLoggedIn' && sentCredentials)
      throw await failed.failed(limitKeyOf(request.ip), error);
    throw error;
  }
}

async function checkCredentials(
  dataDir: DataDir,
  request: FastifyRequest,
  failed: FailedAuthentications,
  oauth: OAuthAccess,
  team: TeamDatabaseAccess | undefined,
): Promise<RequestContext> {
  const token = bearerToken(request);
  if (token !== undefined) return authenticateBearer(oauth, token, header(request, 'x-api-env'));
  const key = header(request, 'x-api-key');
  const environmentName = header(request, 'x-api-env');
  if (!key || !environmentName) throw ApiError.notLoggedIn();
  const client = limitKeyOf(request.ip);
  const grant = await checkApiKey(team?.system ?? dataDir.system, environmentName, key, () => failed.underLimit(client));
  if (!grant) throw ApiError.notLoggedIn('The API key does not open that environment.');
  const caller = { kind: 'api-key', environment: grant.environment, keyId: grant.keyId } as const;
  if (team) return requestContext(caller, team.recordsOf(grant.environment));
  // Once its openers are done: kept data is in the tables before a request reads them.
  return requestContext(caller, recordsOf(await dataDir.ready(grant.environment.id)));
}
