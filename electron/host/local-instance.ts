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
import type { BridgeRequest, BridgeResponse, BridgeUpload, ChangeEvent } from '../../shared/ipc.js';
import { scenarioHeader } from '../../shared/operations/scenarios.js';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buildApi } from '../api/app.js';
import type { DataDir } from '../store/data-dir.js';
import { openDataFolder } from './data-folder.js';
import type { Environment } from '../store/system.js';
import type { SyncClient, SyncTiming } from '../sync/client.js';
import { FileVault, type CredentialVault } from '../sync/credentials.js';
import { startReplicaSync } from './replica-sync.js';
import { signedInUserId } from './signed-in-user.js';

/** The environment a desktop install keeps its own data in. */
export const localEnvironmentName = 'local';
const bridgeKeyLabel = 'bridge';

/** Response headers the renderer may see; everything else stays in main. */
// `x-planner-command-id` names a write's command, which the renderer's undo takes (docs/API.md "Commands and undo").
const exposedHeaders = [
  'content-type',
  'content-disposition',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-planner-command-id',
];

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
  const dataDir = openDataFolder(dataPath);
  try {
    const environment = dataDir.system.ensureEnvironment(localEnvironmentName);
    dataDir.system.revokeApiKeys(environment.id, bridgeKeyLabel);
    const { id: bridgeKeyId, key } = dataDir.system.addApiKey(environment.id, undefined, bridgeKeyLabel);
    const vault = options.vault ?? new FileVault(join(dataPath, 'sync-credentials.json'));
    // The API is built first (it installs the sync bookkeeping the client needs); the sync
    // routes find the client through this holder once it exists.
    const holder: { client?: SyncClient } = {};
    const api = await buildApi({
      dataDir,
      role: 'local',
      sync: () => holder.client,
      // The desktop's own webhooks may post to this machine or the local network.
      allowPrivateWebhookTargets: true,
      // The bridge acts as the planner's own user (docs/API.md "The app's user").
      appUser: { bridgeKeyId, signedInUserId: () => signedInUserId(vault) },
    });
    await api.ready();
    const store = dataDir.environment(environment.id);
    const client = startReplicaSync({
      dataDir,
      environmentId: environment.id,
      vault,
      ...(options.syncTiming ? { timing: options.syncTiming } : {}),
    });
    holder.client = client;
    const credentials = { 'x-api-key': key, 'x-api-env': environment.name };

    return {
      dataDir,
      api,
      environment,
      async request(request) {
        const form = request.upload ? multipartBody(request.upload) : undefined;
        const response = await api.inject({
          method: request.method,
          url: request.path,
          ...(request.query ? { query: request.query } : {}),
          headers: {
            ...credentials,
            ...(request.scenario !== undefined ? { [scenarioHeader]: request.scenario } : {}),
            ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(form ? { 'content-type': form.contentType } : {}),
          },
          ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
          ...(form ? { payload: form.payload } : {}),
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

/**
 * The `multipart/form-data` body a browser would send for a bridge upload: the text fields,
 * then the content as the `file` part. Header values are quoted the way browsers do it
 * (`"`, CR and LF percent-encoded), so a file name can never add a header or a part; the
 * exact name can travel as a `filename` field, which the upload route prefers.
 */
export function multipartBody(upload: BridgeUpload): { contentType: string; payload: Buffer } {
  const content = Buffer.from(upload.data, 'base64');
  const fields = Object.entries(upload.fields ?? {});
  let boundary: string;
  do boundary = `----planner-${randomBytes(16).toString('hex')}`;
  while (content.includes(boundary) || fields.some(([, text]) => text.includes(boundary)));
  const quoted = (text: string) => text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const parts: Buffer[] = [];
  for (const [name, text] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${text}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${quoted(upload.filename)}"\r\ncontent-type: ${upload.contentType}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, payload: Buffer.concat(parts) };
}
