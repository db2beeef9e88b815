/**
 * Sync replicas inside the test process, for the tests that need many quick rounds (the
 * protocol and property tests, the benchmark's seeding): a remote built with `buildApi`
 * (role `remote`) and local instances opened with `openLocalInstance`, exactly as the desktop
 * app opens them. Each listens on 127.0.0.1 on a free port and answers the same credentials as
 * the process cluster (test/helpers/sync-cluster.ts), so the same `call`, `dump` and
 * `syncUntilQuiet` work on them over real HTTP.
 *
 * Clients sync only when told (`POST /v1/sync/run` or `instance.sync.run()`): their timers
 * are set to an hour and the live channel is off, unless `timing` says otherwise.
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApi, type ApiOptions } from '../../electron/api/app.js';
import { createClient } from '../../electron/api/oauth/clients.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { DataDir } from '../../electron/store/data-dir.js';
import type { Environment } from '../../electron/store/system.js';
import type { SyncTiming } from '../../electron/sync/client.js';
import { MemoryVault } from '../../electron/sync/credentials.js';
import { tempDir, testEngine } from './api.js';
import { startPostgres } from './postgres.js';
import { teamRecordStores } from '../../electron/api/team-records.js';
import { copyToPostgres } from '../../electron/store/postgres/copy-from-sqlite.js';
import { ensureEnvironmentSchema } from '../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations, serverMigrations } from '../../electron/store/postgres/migrations.js';
import { openPostgresDatabase } from '../../electron/store/postgres/postgres-database.js';
import { activeUserThroughApi, signInForCode, tokenRequest } from './oauth-flow.js';
import { localHeaders, localKey, remoteEnv, remoteHeaders, remoteKey } from './sync-cluster.js';

export interface InProcessRemote {
  name: string;
  url: string;
  headers: Record<string, string>;
  app: FastifyInstance;
  dataDir: DataDir;
  environment: Environment;
  /** Makes another environment with its own key (for the "never crosses environments" checks). */
  addEnvironment(name: string, key: string): Environment;
  close(): Promise<void>;
}

/**
 * A remote; in the `postgres` project (`testEngine`) a team-server node whose records are a
 * throwaway PostgreSQL cluster's (the folder, with its environments and keys, is copied there
 * empty, and every request of the remote reads and writes PostgreSQL: ApiOptions.recordsOf).
 */
export async function startInProcessRemote(
  options: { retention?: number; name?: string; keptLimits?: ApiOptions['keptLimits'] } = {},
): Promise<InProcessRemote> {
  const folder = tempDir('planner-remote-');
  const dataDir = DataDir.open(folder);
  const environment = dataDir.system.ensureEnvironment(remoteEnv);
  dataDir.system.ensureApiKey(environment.id, remoteKey);
  const team = testEngine === 'postgres' ? await teamDatabaseOf(dataDir) : undefined;
  const app = await buildApi({
    dataDir,
    role: 'remote',
    ...(options.retention !== undefined ? { syncRetention: options.retention } : {}),
    ...(options.keptLimits ? { keptLimits: options.keptLimits } : {}),
    ...(team ? { recordsOf: teamRecordStores(team.pool) } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    name: options.name ?? 'remote',
    url: `http://127.0.0.1:${address.port}`,
    headers: remoteHeaders,
    app,
    dataDir,
    environment,
    addEnvironment(name, key) {
      const env = dataDir.system.ensureEnvironment(name);
      dataDir.system.ensureApiKey(env.id, key);
      team?.ensure(env.id);
      return env;
    },
    async close() {
      await app.close();
      await team?.stop();
      dataDir.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A throwaway cluster with the folder's (empty) environments copied in; `ensure` gives an
 * environment made later its schema before a request reaches it.
 */
async function teamDatabaseOf(dataDir: DataDir) {
  const cluster = await startPostgres();
  const pool = await openPostgresDatabase(await cluster.database('remote'), serverMigrations);
  if (!(await copyToPostgres(dataDir, pool)).matches) throw new Error('the PostgreSQL copy does not match the folder');
  const pending = new Set<Promise<unknown>>();
  return {
    pool,
    ensure(environmentId: string) {
      const made = ensureEnvironmentSchema(pool, environmentId, environmentMigrations);
      pending.add(made);
    },
    async stop() {
      await Promise.allSettled(pending);
      await pool.end();
      await cluster.stop();
    },
  };
}

export interface InProcessClient {
  name: string;
  url: string;
  headers: Record<string, string>;
  instance: LocalInstance;
  close(): Promise<void>;
}

const never = 3_600_000;

export async function startInProcessClient(remoteUrl: string, name = 'client', timing: Partial<SyncTiming> = {}): Promise<InProcessClient> {
  const folder = tempDir('planner-client-');
  const instance = await openLocalInstance(folder, {
    vault: new MemoryVault({ remote_url: remoteUrl, api_env: remoteEnv, api_key: remoteKey }),
    syncTiming: { pullIntervalMs: never, pushDelayMs: never, backoffMs: never, maxBackoffMs: never, live: false, ...timing },
  });
  // The desktop instance answers only its bridge; tests call it over HTTP with a known key.
  instance.dataDir.system.ensureApiKey(instance.environment.id, localKey);
  await instance.api.listen({ host: '127.0.0.1', port: 0 });
  const address = instance.api.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    name,
    url: `http://127.0.0.1:${address.port}`,
    headers: localHeaders,
    instance,
    async close() {
      await instance.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * Signs a new member in on the remote through OAuth (authorization code with a confidential
 * client), as a member's replica would, and returns the headers that call as them.
 */
export async function signInMemberOn(remote: InProcessRemote, email: string): Promise<Record<string, string>> {
  const redirectUri = 'https://app.example.com/callback';
  const made = createClient(remote.dataDir.system, {
    name: 'Member app',
    redirect_uris: [redirectUri],
    confidential: true,
    environment_id: null,
  });
  await activeUserThroughApi(remote.url, remote.headers, { environment: remoteEnv, email, role: 'member', password: 'member-pass-1' });
  const code = await signInForCode(
    remote.url,
    { client_id: made.client.id, redirect_uri: redirectUri, state: 'st' },
    { environment: remoteEnv, email, password: 'member-pass-1' },
  );
  const answer = await tokenRequest(remote.url, {
    grant_type: 'authorization_code',
    code,
    client_id: made.client.id,
    client_secret: made.client_secret!,
    redirect_uri: redirectUri,
  });
  if (answer.status !== 200) throw new Error(`the member could not sign in: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { authorization: `Bearer ${answer.body.access_token as string}` };
}
