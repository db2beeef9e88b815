/**
 * The desktop app's entry: one local instance (database + Planning API) per launch, served to
 * hardened windows over the IPC bridge. Startup order matters: the scheme is privileged before
 * 'ready', the log catches errors before anything else can throw, and the session rules and
 * every IPC channel exist before any page can load.
 */
import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, safeStorage, screen, session, shell, type BaseWindow } from 'electron';
import { LocalApi } from '../host/local-api.js';
import { openLocalInstance, type LocalInstance } from '../host/local-instance.js';
import { WorkshopMode } from '../host/workshop-mode.js';
import { DatabaseOpenError } from '../store/database.js';
import { DataDirLock, DataFolderInUseError } from '../store/data-dir-lock.js';
import { showCommandOutcome, presentError } from './app-dialogs.js';
import { backUp, restoreFromBackup, type BackupCommandOptions } from './backup/backup-commands.js';
import { guardClose } from './close-guard.js';
import { dataDirFromArgs } from './data-dir.js';
import { catchProcessErrors, ErrorReporter } from './error-reports.js';
import { saveExport, openAttachment } from './file-dialogs.js';
import { InstanceSlot } from './instance-slot.js';
import { isAppFrame, registerBridge } from './ipc.js';
import { captureConsole, RotatingLog } from './log-file.js';
import { installApplicationMenu, sendMenuCommand } from './menu.js';
import { resolveLanguage, translator, type Translate } from './messages.js';
import { argsForFolder, recoverDataFolder } from './recovery-dialogs.js';
import { appEntryUrl, isAppUrl, registerAppScheme, serveRenderer } from './protocol.js';
import { createRemoteSignIn } from './remote-sign-in.js';
import { showDesktopNotice } from './desktop-notices.js';
import { SafeStorageVault } from './safe-storage-vault.js';
import { secureSession } from './security.js';
import { registerShellHandlers } from './shell-ipc.js';
import type { OpenFolderResult } from '../../shared/ipc.js';
import { ShellSettingsFile } from './shell-settings.js';
import { createMainWindow, hardenWebContents } from './window.js';
import { WindowStateKeeper } from './window-state.js';

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
  // Electron's lock is per profile; this one is per folder, and also keeps out a headless
  // server or browser host on it (and a launch with --data-dir of the default folder).
  let folderLock: DataDirLock;
  try {
    folderLock = DataDirLock.acquire(dataPath, 'desktop app');
  } catch (error) {
    failToStart(error);
    return;
  }

  const log = openLog();
  const restoreConsole = captureConsole(log);
  let t: Translate = translator('en');
  const reporter = new ErrorReporter(log, { present: (error) => presentError(error, t, log.dir) });
  const stopCatching = catchProcessErrors(reporter);
  console.info(`Planner ${app.getVersion()} starting on ${dataPath}`);

  let slot: InstanceSlot<LocalInstance> | undefined;
  let localApi: LocalApi | undefined;
  let workshop: WorkshopMode | undefined;
  let settings: ShellSettingsFile | undefined;
  let windowState: WindowStateKeeper | undefined;
  let quitRequested = false;
  let closing = false;
  let closed = false;

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('second-instance', () => focusWindow());
  app.on('render-process-gone', (_event, contents, details) => {
    if (details.reason === 'clean-exit') return;
    reporter.report('renderer-gone', new Error(`${details.reason}, exit code ${details.exitCode}`), { context: contents.getURL() });
  });
  app.on('window-all-closed', () => {
    // macOS apps stay in the dock with no window; elsewhere closing the last one quits.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => {
    quitRequested = true;
  });
  // will-quit rather than before-quit: by now every window is closed, so no renderer request
  // can arrive on a closed database. The local API and workshop mode stop first, for the same
  // reason from other programs and devices. Quitting waits until SQLite has closed cleanly.
  app.on('will-quit', (event) => {
    if (!slot || closed) return;
    event.preventDefault();
    if (closing) return;
    closing = true;
    const instanceSlot = slot;
    Promise.all([localApi?.close(), workshop?.close()])
      .catch((error: unknown) => console.error('Stopping the local API or workshop mode failed:', error))
      .then(() => instanceSlot.close())
      .catch((error: unknown) => console.error('Closing the local instance failed:', error))
      .finally(() => {
        closed = true;
        app.quit();
      });
  });
  app.on('quit', () => {
    stopCatching();
    restoreConsole();
    folderLock.release();
  });

  app
    .whenReady()
    .then(async () => {
      secureSession(session.defaultSession);
      serveRenderer(rendererDir);
      const userData = app.getPath('userData');
      const shellSettings = new ShellSettingsFile(join(userData, 'shell-settings.json'));
      settings = shellSettings;
      const language = () => resolveLanguage(shellSettings.get().language, app.getLocale());
      t = translator(language());
      windowState = new WindowStateKeeper(join(userData, 'window-state.json'), screen);

      const vault = new SafeStorageVault(join(userData, 'remote-credentials.bin'), safeStorage);
      vault.adoptPlainFile(join(dataPath, 'sync-credentials.json'));
      if (!vault.canStore())
        console.warn('No system keychain is available: remote credentials cannot be stored, so syncing needs a sign-in each launch.');
      const open = () => openLocalInstance(dataPath, { vault });
      const instanceSlot = new InstanceSlot(open());
      slot = instanceSlot;
      registerBridge(ipcMain, instanceSlot, isAppFrame);
      // Served from whichever instance the slot holds, so it carries on across a restore.
      const api = new LocalApi({ dataPath, instance: () => instanceSlot.get() });
      localApi = api;
      // Workshop mode serves the floor page from the same build as the windows.
      const workshopMode = new WorkshopMode({ dataPath, instance: () => instanceSlot.get(), rendererDir });
      workshop = workshopMode;

      const backupOptions: BackupCommandOptions = {
        slot: instanceSlot,
        dataPath,
        reopen: open,
        dialog,
        t: () => t,
        language,
        documentsDir: app.getPath('documents'),
        appVersion: app.getVersion(),
        afterRestore: reloadAppWindows,
      };
      const signIn = createRemoteSignIn({
        vault,
        instance: () => instanceSlot.get(),
        openBrowser: (url) => shell.openExternal(url),
        t: () => t,
      });
      registerShellHandlers(
        ipcMain,
        {
          saveFile: (window, request) => saveExport(dialog, window, request, app.getPath('downloads'), t),
          openAttachment: (window, extensions) => openAttachment(dialog, window, extensions, t),
          backup: (window) => backUp(backupOptions, window),
          restore: (window) => restoreFromBackup(backupOptions, window),
          signIn,
          getSettings: () => shellSettings.get(),
          setSettings: (change) => shellSettings.update(change),
          reportError: (report) => reporter.reportFromRenderer(report),
          localApiState: () => api.state(),
          changeLocalApi: (change) => api.change(change),
          newLocalApiKey: () => api.newKey(),
          workshopState: () => workshopMode.state(),
          changeWorkshop: (change) => workshopMode.change(change),
          newPairingCode: () => workshopMode.newPairingCode(),
          revokeDevice: (id) => workshopMode.revokeDevice(id),
          dataFolder: () => ({ path: dataPath }),
          openDataFolder: () => openFolder(dataPath),
          notify: showDesktopNotice,
        },
        isAppFrame,
      );

      const installMenu = () =>
        installApplicationMenu({
          platform: process.platform,
          isDev: !app.isPackaged,
          t,
          actions: {
            command: (command, window) => void sendMenuCommand(command, window),
            backup: () => void runFromMenu((window) => backUp(backupOptions, window)),
            restore: () => void runFromMenu((window) => restoreFromBackup(backupOptions, window)),
            openDataFolder: () => void openFolder(dataPath),
            openLogs: () => void openFolder(log.dir),
          },
        });
      app.setAboutPanelOptions({ applicationName: 'Planner', applicationVersion: app.getVersion() });
      installMenu();
      shellSettings.onChange(() => {
        t = translator(language());
        installMenu();
      });

      await instanceSlot.get();
      await api.resume();
      await workshopMode.resume();
      openWindow();
      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openWindow();
      });
    })
    .catch((error: unknown) => failToStart(error, { t, dataPath }));

  function openWindow(): BrowserWindow {
    const restored = windowState?.restore();
    const window = createMainWindow({ preload: preloadPath, url: appEntryUrl, ...(restored ? { bounds: restored.bounds } : {}) });
    if (restored?.maximized) window.maximize();
    windowState?.track(window);
    guardClose(
      window,
      {
        instance: () => slot!.get(),
        settings: () => settings!.get(),
        t: () => t,
        dialog,
      },
      (closingWindow) => {
        // macOS cancels a quit when a window refuses to close; carry the quit on once it may.
        if (!closingWindow) quitRequested = false;
        else if (quitRequested) setImmediate(() => app.quit());
      },
    );
    return window;
  }

  async function runFromMenu(
    command: (window: BaseWindow | undefined) => Promise<Parameters<typeof showCommandOutcome>[1]>,
  ): Promise<void> {
    const window = BrowserWindow.getFocusedWindow() ?? undefined;
    try {
      await showCommandOutcome(window, await command(window), t);
    } catch (error) {
      reporter.report('main', error);
    }
  }
}

/** Per data folder on Linux and Windows (inside userData), ~/Library/Logs/Planner on macOS. */
function openLog(): RotatingLog {
  try {
    app.setAppLogsPath();
    return new RotatingLog(app.getPath('logs'));
  } catch {
    return new RotatingLog(join(app.getPath('userData'), 'logs'));
  }
}

async function openFolder(path: string): Promise<OpenFolderResult> {
  const failure = await shell.openPath(path);
  if (failure) console.warn(`Could not open ${path}: ${failure}`);
  return { problem: failure || null };
}

/** After a restore every page reloads, so none keeps showing data that was replaced. */
function reloadAppWindows(): void {
  for (const window of BrowserWindow.getAllWindows()) {
    const contents = window.webContents;
    if (!contents.isDestroyed() && isAppUrl(contents.getURL())) contents.reload();
  }
}

function focusWindow(): void {
  const [window] = BrowserWindow.getAllWindows();
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
}

/**
 * Said plainly in a dialog (safe before 'ready'), since a packaged app has no console. A data
 * folder that does not open gets its way back instead: restore, start fresh, another folder.
 */
function failToStart(error: unknown, recovery?: { t: Translate; dataPath: string }): void {
  if (recovery && error instanceof DatabaseOpenError) {
    console.error('Planner could not open its data:', error.message);
    void recoverDataFolder(error, {
      dialog,
      t: recovery.t,
      dataPath: recovery.dataPath,
      restart: (folder) => {
        app.relaunch({ args: argsForFolder(process.argv.slice(1), recovery.dataPath, folder) });
        app.exit(0);
      },
      quit: () => app.exit(1),
    }).catch((failure: unknown) => failToStart(failure));
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  // A folder in use is an answer, not a fault: its one line says all.
  console.error('Planner could not start:', error instanceof DataFolderInUseError ? message : error);
  dialog.showErrorBox('Planner could not start', message);
  app.exit(1);
}

main();
