/**
 * A real Planning API for tests: a fresh data folder in the OS temp dir, an environment with a
 * known key, and the Fastify app listening on 127.0.0.1 on a free port. `close()` stops the
 * server, closes the databases and removes the folder. `useSeededApi(seed)` gives a test file
 * one such API, seeded with the records its tests build on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApi } from '../../electron/api/app.js';
import { DataDir } from '../../electron/store/data-dir.js';
import type { Environment } from '../../electron/store/system.js';

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

export async function startTestApi(options: { environment?: string; key?: string } = {}): Promise<TestApi> {
  const folder = tempDir();
  const dataDir = DataDir.open(folder);
  const environment = dataDir.system.ensureEnvironment(options.environment ?? 'test');
  const key = options.key ?? 'test-key-123';
  dataDir.system.ensureApiKey(environment.id, key);
  const app = await buildApi({ dataDir });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const headers = { 'x-api-key': key, 'x-api-env': environment.name };

  const parse = (text: string) => (text ? JSON.parse(text) : null);
  return {
    app,
    dataDir,
    environment,
    baseUrl,
    headers,
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
    async close() {
      await app.close();
      dataDir.close();
      rmSync(folder, { recursive: true, force: true });
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
    api = await startTestApi();
    await seed(api);
  });
  afterAll(async () => {
    await api?.close();
  });
}
