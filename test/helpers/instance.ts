/**
 * A Planning API on a data folder the test keeps, with any ApiOptions: for tests that restart
 * the server on the same data (webhook deliveries survive a restart) or need options the
 * default helper does not set (private webhook targets, fast retries, a small rate limit).
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApi, type ApiOptions } from '../../electron/api/app.js';
import { DataDir } from '../../electron/store/data-dir.js';
import type { Environment } from '../../electron/store/system.js';
import { tempDir } from './api.js';

export interface Instance {
  app: FastifyInstance;
  dataDir: DataDir;
  folder: string;
  baseUrl: string;
  /** Closes the app and the data folder (the folder stays on disk). */
  stop(): Promise<void>;
}

export async function startInstance(folder: string, options: Omit<ApiOptions, 'dataDir'> = {}): Promise<Instance> {
  const dataDir = DataDir.open(folder);
  const app = await buildApi({ dataDir, ...options });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  let stopped = false;
  return {
    app,
    dataDir,
    folder,
    baseUrl: `http://127.0.0.1:${address.port}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await app.close();
      dataDir.close();
    },
  };
}

/** A fresh folder with environments and API keys made before the API starts. */
export function prepareFolder(environments: { name: string; key: string }[]): {
  folder: string;
  environments: Environment[];
  remove(): void;
} {
  const folder = tempDir('planner-instance-');
  const dataDir = DataDir.open(folder);
  const made = environments.map(({ name, key }) => {
    const environment = dataDir.system.ensureEnvironment(name);
    dataDir.system.ensureApiKey(environment.id, key);
    return environment;
  });
  dataDir.close();
  return { folder, environments: made, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** JSON over real HTTP with the given headers. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, body: type.includes('json') && text ? JSON.parse(text) : text, headers: response.headers };
}
