/**
 * The browser host on a data folder, as `npm start` runs it where there is no Electron: the
 * app when the folder opens; when it cannot be opened (a damaged file, a newer schema), the
 * recovery page at the same address instead of an exit (recovery-routes.ts), until one of
 * its choices opens the data.
 */
import { DatabaseOpenError } from '../store/database.js';
import { DataDirLock } from '../store/data-dir-lock.js';
import { startBrowserHost, type BrowserHost, type HostedApp } from './browser-host.js';
import { LocalApi } from './local-api.js';
import { openLocalInstance } from './local-instance.js';
import { DataFolderRecovery } from './recovery.js';

export interface BrowserApp {
  host: BrowserHost;
  /** Set when the data folder did not open: what the recovery page tells. */
  recovery?: DataFolderRecovery<HostedApp>;
  /** The data folder in use now (another one once the planner chose so on the recovery page). */
  dataPath(): string;
  /** Stops the host, closes the data and lets go of the folder. */
  stop(): Promise<void>;
}

export interface BrowserAppOptions {
  dataPath: string;
  /** The data folder's lock, taken by the caller; it passes to another folder with the data. */
  lock: DataDirLock;
  rendererDir: string;
  port?: number;
  /** Told when the data folder in use changes. */
  onFolder?(dataPath: string): void;
}

/** The app on a data folder: its local instance, and the local API (off unless Settings switched it on). */
async function openApp(dataPath: string): Promise<HostedApp> {
  const instance = await openLocalInstance(dataPath);
  const localApi = new LocalApi({ dataPath, instance: async () => instance });
  // A port taken since shows in Settings, not here.
  const state = await localApi.resume();
  if (state.enabled) console.log(`Local API for other programs: ${state.url} (x-api-env: ${state.environment})`);
  return { instance, localApi };
}

export async function serveDataFolder(options: BrowserAppOptions): Promise<BrowserApp> {
  const { rendererDir, port } = options;
  let folderLock = options.lock;
  let host: BrowserHost;
  let recovery: DataFolderRecovery<HostedApp> | undefined;
  try {
    host = await startBrowserHost({ ...(await openApp(options.dataPath)), rendererDir, ...(port !== undefined ? { port } : {}) });
  } catch (error) {
    if (!(error instanceof DatabaseOpenError)) throw error;
    recovery = new DataFolderRecovery<HostedApp>(error, async (path) => {
      if (path === folderLock.folder) return openApp(path);
      // Another folder: it is this process's from now on, and the first one is let go.
      const next = DataDirLock.acquire(path, 'browser host');
      try {
        const hosted = await openApp(path);
        folderLock.release();
        folderLock = next;
        options.onFolder?.(path);
        return hosted;
      } catch (failure) {
        next.release();
        throw failure;
      }
    });
    host = await startBrowserHost({ recovery, rendererDir, ...(port !== undefined ? { port } : {}) });
  }
  let stopped = false;
  return {
    host,
    ...(recovery ? { recovery } : {}),
    dataPath: () => folderLock.folder,
    async stop() {
      if (stopped) return;
      stopped = true;
      const hosted = host.served();
      await hosted?.localApi?.close();
      await host.close();
      await hosted?.instance.close();
      folderLock.release();
    },
  };
}
