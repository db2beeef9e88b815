/**
 * Where OAuth keeps its state and finds the users it signs in: a data folder (its system
 * database and each environment's file), or a team server's database, shared by every node
 * (docs/architecture.md "Team server on PostgreSQL", "Shared state"). The sign-in, the token
 * endpoint, bearer tokens and the client routes read and write only through this, so they run
 * the same on both engines.
 */
import type { DataDir } from '../../store/data-dir.js';
import { OAuthStore, sqliteOAuthState, type OAuthState } from '../../store/oauth-store.js';
import { PostgresOAuthStore } from '../../store/postgres/oauth-state.js';
import type { PostgresPool } from '../../store/postgres/postgres-database.js';
import { PostgresRateLimiter } from '../../store/postgres/rate-limits.js';
import { recordsOf } from '../../store/record-store.js';
import type { RecordStore } from '../../store/record-store.js';
import type { Environment } from '../../store/system.js';
import { SlidingWindowLimiter, type RateLimitOptions, type RequestLimiter } from '../rate-limit.js';
import { requestContext, type Caller, type RequestContext } from '../resource.js';

function onlyOne(environments: Environment[]): string | undefined {
  return environments.length === 1 ? environments[0]!.name : undefined;
}

export interface OAuthAccess {
  state: OAuthState;
  findEnvironment(name: string): Promise<Environment | undefined>;
  environmentById(id: string): Promise<Environment | undefined>;
  /** The name of the instance's environment when it has exactly one (the floor's sign-in form fills it in). */
  onlyEnvironment(): Promise<string | undefined>;
  /** The environment's records: its users, their passwords. */
  recordsOf(environment: Environment): RecordStore;
  /**
   * The context of a request by `caller`, signed in to `environment`: on a data folder once the
   * environment's openers are done (DataDir.ready), so kept data is in the tables before a request reads them.
   */
  contextOf(caller: Caller, environment: Environment): Promise<RequestContext>;
  /** A limiter named `name` with these limits: in this process, or in the database for every node. */
  limiter(name: string, options: RateLimitOptions): RequestLimiter;
}

/**
 * OAuth on a data folder: the system database's OAuthStore and the environments' files; with
 * `records` (ApiOptions.recordsOf), the users are those of that engine, as the rest of the API's.
 */
export function dataFolderOAuth(dataDir: DataDir, records?: (environment: Environment) => RecordStore): OAuthAccess {
  const { system } = dataDir;
  const oauth = OAuthStore.of(system);
  return {
    state: sqliteOAuthState(oauth),
    findEnvironment: async (name) => system.findEnvironment(name),
    environmentById: async (id) => oauth.environmentById(id),
    onlyEnvironment: async () => onlyOne(system.listEnvironments()),
    recordsOf: (environment) => records?.(environment) ?? recordsOf(dataDir.environment(environment.id)),
    contextOf: async (caller, environment) =>
      requestContext(caller, records?.(environment) ?? recordsOf(await dataDir.ready(environment.id))),
    limiter: (_name, options) => new SlidingWindowLimiter(options),
  };
}

/** What a team server's OAuth needs of its database (auth.ts, TeamDatabaseAccess, has it). */
export interface TeamOAuthDatabase {
  pool: PostgresPool;
  system: {
    findEnvironment(name: string): Promise<Environment | undefined>;
    environmentById(id: string): Promise<Environment | undefined>;
    listEnvironments(): Promise<Environment[]>;
  };
  recordsOf(environment: Environment): RecordStore;
}

/** OAuth on a team server: codes, token families, signing keys and rate limits in the database. */
export function teamOAuth(team: TeamOAuthDatabase): OAuthAccess {
  return {
    state: new PostgresOAuthStore(team.pool),
    findEnvironment: (name) => team.system.findEnvironment(name),
    environmentById: (id) => team.system.environmentById(id),
    onlyEnvironment: async () => onlyOne(await team.system.listEnvironments()),
    recordsOf: (environment) => team.recordsOf(environment),
    contextOf: async (caller, environment) => requestContext(caller, team.recordsOf(environment)),
    limiter: (name, options) => new PostgresRateLimiter(team.pool, name, options),
  };
}
