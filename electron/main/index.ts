/**
 * The desktop app's entry: one local instance (database + Planning API) per launch, served to
 * hardened windows over the IPC bridge. Startup order matters: the scheme is privileged before
 * 'ready', and the session rules and the bridge exist before any page can load.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron';
import { openLocalInstance, type LocalInstance } from '../host/local-instance.js';
import { dataDirFromArgs } from './data-dir.js';
import { isAppFrame, registerBridge } from './ipc.js';
import { appEntryUrl, registerAppScheme, serveRenderer } from './protocol.js';
import { secureSession } from './security.js';
import { createMainWindow, hardenWebContents } from './window.js';

// electron-vite bundles main into out/main/index.js; preload and renderer are built beside it.
const preloadPath = join(import.meta.dirname, '../preload/index.cjs');
const rendererDir = join(import.meta.dirname, '../renderer');

function main(): void {
  registerAppScheme();

  let dataPath: string;
  try {
    const explicit = dataDirFromArgs(process.argv);
    // A chosen data folder gets its own browser profile, which also gives it its own
    // single-instance lock: two folders can be open at once, one folder only once.
    if (explicit) app.setPath('userData', join(explicit, 'browser-profile'));
    dataPath = explicit ?? app.getPath('userData');
  } catch (error) {
    failToStart(error);
    return;
  }

  // A second process on the same folder would revoke this one's bridge key and share its
  // SQLite files; hand over to the running window instead.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }

  let instance: Promise<LocalInstance> | undefined;
  let closing = false;
  let closed = false;

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('second-instance', () => focusWindow());
  app.on('window-all-closed', () => {
    // macOS apps stay in the dock with no window; elsewhere closing the last one quits.
    if (process.platform !== 'darwin') app.quit();
  });
  // will-quit rather than before-quit: by now every window is closed, so no renderer request
  // can arrive on a closed database. Quitting waits until SQLite has closed cleanly.
  app.on('will-quit', (event) => {
    if (!instance || closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    instance
      .then((local) => local.close())
      .catch((error: unknown) => console.error('Closing the local instance failed:', error))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });

  app
    .whenReady()
    .then(async () => {
      secureSession(session.defaultSession);
      serveRenderer(rendererDir);
      instance = openLocalInstance(dataPath);
      registerBridge(ipcMain, await instance, isAppFrame);
      openWindow();
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openWindow();
      });
    })
    .catch(failToStart);
}

function openWindow(): BrowserWindow {
  return createMainWindow({ preload: preloadPath, url: appEntryUrl });
}

function focusWindow(): void {
  const [window] = BrowserWindow.getAllWindows();
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
}

/** Said plainly in a dialog (safe before 'ready'), since a packaged app has no console. */
function failToStart(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  console.error('Planner could not start:', error);
  dialog.showErrorBox('Planner could not start', message);
  app.exit(1);
}

main();
