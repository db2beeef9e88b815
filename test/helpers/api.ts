/**
 * A real Planning API for tests: a fresh data folder in the OS temp dir, an environment with a
 * known key, and the Fastify app listening on 127.0.0.1 on a free port. `close()` stops the
 * server, closes the databases and removes the folder. `useSeededApi(seed)` gives a test file
 * one such API, seeded with the records its tests build on, and in the `postgres` project
 * (vitest.config.ts) one served from PostgreSQL once seeded (`testEngine`, servingFromPostgres).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApi, type ApiOptions } from '../../electron/api/app.js';
import { DataDir } from '../../electron/store/data-dir.js';
import type { Environment } from '../../electron/store/system.js';
import { copyToPostgres } from '../../electron/store/postgres/copy-from-sqlite.js';
import { environmentMigrations, serverMigrations } from '../../electron/store/postgres/migrations.js';
import { ensureEnvironmentSchema } from '../../electron/store/postgres/environment-schemas.js';
import { openPostgresDatabase, type PostgresPool } from '../../electron/store/postgres/postgres-database.js';
import type { PostgresRecordStore } from '../../electron/store/postgres/record-store.js';
import { teamRecordStores } from '../../electron/api/team-records.js';
import type { EnvironmentRef } from '../../electron/api/webhooks/events.js';
import { startPostgres } from './postgres.js';

export interface TestApi {
  app: FastifyInstance;
  dataDir: DataDir;
  environment: Environment;
  baseUrl: string;
  headers: Record<string, string>;
  /** A request over real HTTP; JSON in, parsed JSON (or null) out. */
  http(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** The same request through Fastify inject. */
  inject(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

export function tempDir(prefix = 'planner-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A fresh API. In the `postgres` project (`testEngine`) it is served from PostgreSQL from the
 * start (servingFromPostgres), so a suite that starts its own APIs runs there unchanged.
 */
export async function startTestApi(options: { environment?: string; key?: string } = {}): Promise<TestApi> {
  const sqlite = await startSqliteApi(options);
  if (testEngine === 'sqlite') return sqlite;
  const onPostgres = await servingFromPostgres(sqlite).catch(async (error: unknown) => {
    await sqlite.close();
    throw error;
  });
  try {
    await onPostgres.seeded();
  } catch (error) {
    await onPostgres.close();
    throw error;
  }
  return onPostgres;
}

/**
 * A fresh API on a SQLite data folder in either project: for a test of the SQLite store itself (it
 * counts its statements), or of the server's own limits (`api`: time limits, connections).
 */
export async function startSqliteApi(
  options: {
    environment?: string;
    key?: string;
    api?: Pick<ApiOptions, 'timeLimits' | 'maxConnections' | 'logger' | 'role' | 'allowPrivateWebhookTargets' | 'webhookDelivery'>;
  } = {},
): Promise<TestApi> {
  const folder = tempDir();
  const dataDir = DataDir.open(folder);
  const environment = dataDir.system.ensureEnvironment(options.environment ?? 'test');
  const key = options.key ?? 'test-key-123';
  dataDir.system.ensureApiKey(environment.id, key);
  const app = await buildApi({ dataDir, ...options.api });
  const headers = { 'x-api-key': key, 'x-api-env': environment.name };
  const client = await listeningClient(app, headers);
  return {
    app,
    dataDir,
    environment,
    headers,
    ...client,
    async close() {
      await app.close();
      dataDir.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Listens on 127.0.0.1 on a free port and answers the `http` and `inject` of a TestApi on `app`. */
async function listeningClient(
  app: FastifyInstance,
  headers: Record<string, string>,
): Promise<Pick<TestApi, 'baseUrl' | 'http' | 'inject'>> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const parse = (text: string) => (text ? JSON.parse(text) : null);
  return {
    baseUrl,
    async http(method, path, body, extra) {
      const response = await fetch(baseUrl + path, {
        method,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extra },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      const type = response.headers.get('content-type') ?? '';
      return { status: response.status, body: type.includes('json') ? parse(text) : text, headers: response.headers };
    },
    async inject(method, path, body, extra) {
      const response = await app.inject({
        method: method as 'GET',
        url: path,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...extra },
        ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      });
      return { status: response.statusCode, body: parse(response.payload) };
    },
  };
}

/**
 * The store engine a seeded API serves from (useSeededApi): `PLANNER_TEST_ENGINE=postgres`, which
 * the `postgres` project of vitest.config.ts sets for the suites it lists, serves its reads and
 * writes from PostgreSQL (docs/architecture.md "Tests").
 */
export const testEngine: 'sqlite' | 'postgres' = process.env.PLANNER_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * `sqlite`'s API served from PostgreSQL once it is seeded: a real cluster, a copy of the seeded
 * data folder in it (copy-from-sqlite.ts), and a second server on the same folder whose records
 * are that copy's and which has no synchronous store (ApiOptions.recordsOf). While `seeding`,
 * everything goes to SQLite (a seed may use parts of the API not on PostgreSQL yet); from
 * `seeded()` on, every request, read or write, goes to PostgreSQL.
 */
async function servingFromPostgres(sqlite: TestApi): Promise<TestApi & { seeded(): Promise<void> }> {
  const cluster = await startPostgres();
  let pool: PostgresPool | undefined;
  let recordsOf: ((environment: EnvironmentRef) => PostgresRecordStore) | undefined;
  let seeding = true;
  const app = await buildApi({
    dataDir: sqlite.dataDir,
    recordsOf: (environment) => {
      if (!recordsOf) throw new Error('a request to PostgreSQL before the copy');
      return recordsOf(environment);
    },
  });
  const postgres = await listeningClient(app, sqlite.headers).catch(async (error: unknown) => {
    await app.close();
    await cluster.stop();
    throw error;
  });
  // An environment a test makes after the copy (otherEnvironment) gets its schema before its first request.
  const ensured = new Set<string>();
  const onPostgres = async (extra: Record<string, string> | undefined) => {
    const name = extra?.['x-api-env'] ?? sqlite.headers['x-api-env'];
    const environment = name === undefined ? undefined : sqlite.dataDir.system.findEnvironment(name);
    if (environment && pool && !ensured.has(environment.id)) {
      await ensureEnvironmentSchema(pool, environment.id, environmentMigrations);
      ensured.add(environment.id);
    }
    return postgres;
  };
  return {
    ...sqlite,
    app,
    baseUrl: postgres.baseUrl,
    http: async (method, path, body, extra) => (seeding ? sqlite : await onPostgres(extra)).http(method, path, body, extra),
    inject: async (method, path, body, extra) => (seeding ? sqlite : await onPostgres(extra)).inject(method, path, body, extra),
    async seeded() {
      pool = await openPostgresDatabase(await cluster.database('team'), serverMigrations);
      const report = await copyToPostgres(sqlite.dataDir, pool);
      recordsOf = teamRecordStores(pool);
      if (!report.matches) throw new Error('the PostgreSQL copy does not match the SQLite folder');
      seeding = false;
    },
    async close() {
      try {
        await app.close();
        await pool?.end();
      } finally {
        await cluster.stop();
        await sqlite.close();
      }
    },
  };
}

/**
 * The API a test file shares: started before the file's tests, handed to `seed` (which keeps it
 * and creates the records the tests build on), and closed after the tests, also when seeding
 * failed.
 */
export function useSeededApi(seed: (api: TestApi) => Promise<void>): void {
  let api: TestApi | undefined;
  beforeAll(async () => {
    const sqlite = await startSqliteApi();
    if (testEngine === 'sqlite') {
      api = sqlite;
      await seed(api);
      return;
    }
    const onPostgres = await servingFromPostgres(sqlite).catch(async (error: unknown) => {
      await sqlite.close();
      throw error;
    });
    api = onPostgres;
    await seed(api);
    await onPostgres.seeded();
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });
}
