/**
 * A real local instance (real SQLite files in a temp folder) behind the IPC bridge, which also
 * listens on 127.0.0.1 so any answer over IPC can be compared with the same API's answer over
 * HTTP. Test files using it mock `electron` themselves.
 */
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { vi } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { isAppFrame, registerBridge, type BridgeHandler } from '../../electron/main/ipc.js';
import type { BridgeResponse } from '../../shared/ipc.js';
import { tempDir } from '../helpers/api.js';

/** ipcMain as far as the bridge can touch it: `handle` is recorded, `on` stays a real emitter. */
export class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, BridgeHandler>();
  readonly handle = vi.fn((channel: string, handler: BridgeHandler) => void this.handlers.set(channel, handler));
  readonly removeHandler = vi.fn((channel: string) => void this.handlers.delete(channel));
}

export function frameEvent(url: string | null): IpcMainInvokeEvent {
  return { senderFrame: url === null ? null : { url } } as unknown as IpcMainInvokeEvent;
}
export const appFrame = frameEvent('app://planner/index.html');

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface BridgeFixture {
  instance: LocalInstance;
  ipcMain: FakeIpcMain;
  /** A payload sent as the app page (or as `event`) through the registered handler. */
  bridge(payload: unknown, event?: IpcMainInvokeEvent): Promise<BridgeResponse>;
  http(method: string, path: string, query?: Record<string, string>, body?: unknown): Promise<HttpAnswer>;
  projectList(): Promise<unknown>;
  close(): Promise<void>;
}

export async function openBridgeFixture(): Promise<BridgeFixture> {
  const folder = tempDir();
  const instance = await openLocalInstance(folder);
  const { key } = instance.dataDir.system.addApiKey(instance.environment.id);
  await instance.api.listen({ host: '127.0.0.1', port: 0 });
  const address = instance.api.server.address();
  if (!address || typeof address === 'string') throw new Error('the API is not listening on a port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const ipcMain = new FakeIpcMain();
  const unregister = registerBridge(ipcMain as unknown as IpcMain, instance, isAppFrame, () => []);

  const http: BridgeFixture['http'] = async (method, path, query = {}, body) => {
    const search = new URLSearchParams(query).toString();
    const response = await fetch(`${baseUrl}${path}${search ? `?${search}` : ''}`, {
      method,
      headers: {
        'x-api-key': key,
        'x-api-env': instance.environment.name,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: { 'content-type': response.headers.get('content-type') ?? '' },
      body: text ? (JSON.parse(text) as unknown) : null,
    };
  };

  return {
    instance,
    ipcMain,
    bridge: (payload, event = appFrame) => ipcMain.handlers.get('planner:request')!(event, payload),
    http,
    projectList: async () => (await http('GET', '/v1/project')).body,
    async close() {
      unregister();
      await instance.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
