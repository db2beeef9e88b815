/**
 * The local instance the desktop app (and the browser host) runs: a data folder, the Planning
 * API on it, and the bridge that answers renderer requests through Fastify `inject`, exactly
 * as HTTP would. The renderer never holds a credential: the bridge adds this launch's key.
 *
 * The bridge key is made fresh at every launch and the previous one revoked, so no working
 * key is ever stored in plain text.
 */
import type { FastifyInstance } from 'fastify';
import type { BinaryBody } from '../../shared/bridge-body.js';
import type { BridgeRequest, BridgeResponse, ChangeEvent } from '../../shared/ipc.js';
import { join } from 'node:path';
import { buildApi } from '../api/app.js';
import { DataDir } from '../store/data-dir.js';
import type { Environment } from '../store/system.js';
import type { SyncClient, SyncTiming } from '../sync/client.js';
import { FileVault, type CredentialVault } from '../sync/credentials.js';
import { startReplicaSync } from './replica-sync.js';

/** The environment a desktop install keeps its own data in. */
export const localEnvironmentName = 'local';
const bridgeKeyLabel = 'bridge';

/** Response headers the renderer may see; everything else stays in main. */
const exposedHeaders = ['content-type', 'content-disposition', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

export interface LocalInstance {
  dataDir: DataDir;
  api: FastifyInstance;
  environment: Environment;
  request(request: BridgeRequest): Promise<BridgeResponse>;
  onChange(listener: (events: ChangeEvent[]) => void): () => void;
  /** The sync client; it syncs once a remote is set in the sync settings. */
  sync: SyncClient;
  close(): Promise<void>;
}

export interface LocalInstanceOptions {
  /**
   * Where the remote's credentials are kept. The desktop app passes one encrypted with the
   * OS keychain; by default a file only the user can read, in the data folder.
   */
  vault?: CredentialVault;
  syncTiming?: Partial<SyncTiming>;
}

export async function openLocalInstance(dataPath: string, options: LocalInstanceOptions = {}): Promise<LocalInstance> {
  const dataDir = DataDir.open(dataPath);
  try {
    const environment = dataDir.system.ensureEnvironment(localEnvironmentName);
    dataDir.system.revokeApiKeys(environment.id, bridgeKeyLabel);
    const { key } = dataDir.system.addApiKey(environment.id, undefined, bridgeKeyLabel);
    // The API is built first (it installs the sync bookkeeping the client needs); the sync
    // routes find the client through this holder once it exists.
    const holder: { client?: SyncClient } = {};
    // The desktop's own webhooks may post to this machine or the local network.
    const api = await buildApi({ dataDir, role: 'local', sync: () => holder.client, allowPrivateWebhookTargets: true });
    await api.ready();
    const store = dataDir.environment(environment.id);
    const client = startReplicaSync({
      dataDir,
      environmentId: environment.id,
      vault: options.vault ?? new FileVault(join(dataPath, 'sync-credentials.json')),
      ...(options.syncTiming ? { timing: options.syncTiming } : {}),
    });
    holder.client = client;
    const credentials = { 'x-api-key': key, 'x-api-env': environment.name };

    return {
      dataDir,
      api,
      environment,
      async request(request) {
        const response = await api.inject({
          method: request.method,
          url: request.path,
          ...(request.query ? { query: request.query } : {}),
          headers: {
            ...credentials,
            ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
        });
        const headers: Record<string, string> = {};
        for (const name of exposedHeaders) {
          const value = response.headers[name];
          if (value !== undefined) headers[name] = String(value);
        }
        const contentType = headers['content-type'] ?? '';
        let body: unknown = null;
        if (response.rawPayload.length > 0) {
          if (contentType.includes('json')) body = response.json();
          else if (contentType.startsWith('text/')) body = response.payload;
          else body = { encoding: 'base64', contentType, data: response.rawPayload.toString('base64') } satisfies BinaryBody;
        }
        return { status: response.statusCode, headers, body };
      },
      onChange(listener) {
        return store.onChange(listener);
      },
      sync: client,
      async close() {
        await client.stop();
        await api.close();
        dataDir.close();
      },
    };
  } catch (error) {
    dataDir.close();
    throw error;
  }
}
