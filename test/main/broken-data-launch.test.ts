/**
 * The desktop app started on a data folder with a broken database (security audit, finding 9):
 * failToStart shows the way back instead of one line, and each choice does what it says on
 * real files, then starts the app again. Only `electron` is faked (its app, dialogs and
 * windows); the data folder, the backup and the recovery are real.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openLocalInstance } from '../../electron/host/local-instance.js';
import { argsForFolder } from '../../electron/main/recovery-dialogs.js';
import { writeBackup } from '../../electron/store/backup/backup-file.js';
import { tempDir } from '../helpers/api.js';
import { damagePages, environmentFileIn, keptFolders, sha256Of } from '../helpers/broken-data.js';

type Listener = (...args: unknown[]) => void;
type Box = { message: string; detail: string; buttons: string[]; cancelId: number };

const fake = vi.hoisted(() => {
  const listeners = new Map<string, Listener[]>();
  let markReady = () => {};
  const app = {
    on: vi.fn((event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return app;
    }),
    whenReady: vi.fn(() => new Promise<void>((resolve) => (markReady = resolve))),
    getPath: vi.fn((name: string) => `${fake.base}/${name}`),
    setPath: vi.fn(),
    setAppLogsPath: vi.fn(),
    getLocale: vi.fn(() => 'en-US'),
    getVersion: vi.fn(() => '0.1.0'),
    isPackaged: true,
    isReady: vi.fn(() => true),
    setAboutPanelOptions: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
    relaunch: vi.fn(),
  };
  const display = { bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
  class FakeBrowserWindow {
    static made: FakeBrowserWindow[] = [];
    static getAllWindows = () => FakeBrowserWindow.made;
    static getFocusedWindow = () => null;
    readonly loadURL = vi.fn(() => Promise.resolve());
    readonly once = vi.fn();
    readonly on = vi.fn();
    readonly maximize = vi.fn();
    readonly webContents = { isDestroyed: () => false, getURL: () => 'app://planner/index.html', send: vi.fn(), reload: vi.fn() };
    constructor() {
      FakeBrowserWindow.made.push(this);
    }
  }
  const fake = {
    base: '/nonexistent',
    app,
    emit: (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((listener) => listener(...args)),
    ready: () => markReady(),
    reset: () => {
      listeners.clear();
      FakeBrowserWindow.made.length = 0;
    },
    BrowserWindow: FakeBrowserWindow,
    dialog: {
      showErrorBox: vi.fn(),
      showMessageBox: vi.fn(async (_box: Box) => ({ response: 0, checkboxChecked: false })),
      showOpenDialog: vi.fn(async (_options: { properties: string[] }) => ({ canceled: true, filePaths: [] as string[] })),
      showSaveDialog: vi.fn(),
    },
    display,
  };
  return fake;
});

vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: fake.BrowserWindow,
  session: {
    defaultSession: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    },
  },
  protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
  ipcMain: { handle: vi.fn(), on: vi.fn(), removeHandler: vi.fn() },
  dialog: fake.dialog,
  shell: { openExternal: vi.fn(), openPath: vi.fn(async () => '') },
  Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
  screen: { getAllDisplays: () => [fake.display], getDisplayMatching: () => fake.display },
  safeStorage: {
    isEncryptionAvailable: () => false,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString: vi.fn(),
    decryptString: vi.fn(),
  },
}));

const argv = process.argv;
let folder: string;
let cases = 0;

/** A data folder the app used, with a project, its backup, and then a damaged environment file. */
async function brokenFolder(): Promise<{ dataPath: string; backup: string; file: string; damaged: string }> {
  const dataPath = join(folder, `data-${++cases}`);
  const instance = await openLocalInstance(dataPath);
  await instance.request({ method: 'POST', path: '/v1/project', body: { name: 'Kitchen' } });
  const backup = join(folder, `backup-${cases}.sqlite`);
  await writeBackup(instance.dataDir, backup, { appVersion: '0.1.0' });
  await instance.close();
  const file = environmentFileIn(dataPath);
  damagePages(file);
  return { dataPath, backup, file, damaged: sha256Of(file) };
}

/** Starts the desktop app on `dataPath` as `Planner --data-dir <dataPath>`, up to its first recovery dialog. */
async function launchOn(dataPath: string): Promise<Box> {
  fake.reset();
  vi.clearAllMocks();
  vi.resetModules();
  fake.base = join(folder, `electron-${cases}`);
  process.argv = [argv[0]!, '/opt/Planner/app', '--data-dir', dataPath];
  await import('../../electron/main/index.js');
  fake.ready();
  await vi.waitFor(() => expect(fake.dialog.showMessageBox).toHaveBeenCalled(), { timeout: 15_000 });
  return fake.dialog.showMessageBox.mock.calls[0]![0];
}

/** Answers the dialogs in turn with the buttons named, then waits for the app to exit. */
function answer(...buttons: string[]): void {
  for (const button of buttons) {
    fake.dialog.showMessageBox.mockImplementationOnce(async (box: Box) => ({
      response: box.buttons.indexOf(button),
      checkboxChecked: false,
    }));
  }
}

beforeAll(() => {
  folder = tempDir('planner-desktop-recovery-');
});

afterEach(() => {
  // The app's quit releases its data folder lock and gives the console back.
  fake.emit('quit');
  fake.dialog.showMessageBox.mockReset();
  fake.dialog.showOpenDialog.mockReset();
});

afterAll(() => {
  process.argv = argv;
  rmSync(folder, { recursive: true, force: true });
});

describe('the desktop app on a data folder that cannot be opened', () => {
  it('names the file and offers restore, start fresh, another folder and quit; Quit exits and moves nothing', async () => {
    const { dataPath, file, damaged } = await brokenFolder();
    answer('Quit Planner');
    const box = await launchOn(dataPath);
    expect(box.message).toBe(`The file ${file.split('/').pop()} cannot be opened: the file is damaged.`);
    expect(box.detail).toContain(`Data folder: ${dataPath}`);
    expect(box.buttons).toEqual(['Restore a backup…', 'Start fresh', 'Open another data folder…', 'Quit Planner']);
    expect(box.cancelId).toBe(3);
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(1));
    expect(fake.app.relaunch).not.toHaveBeenCalled();
    expect(fake.dialog.showErrorBox).not.toHaveBeenCalled();
    expect(sha256Of(file)).toBe(damaged);
    expect(fake.BrowserWindow.made).toHaveLength(0);
  });

  it('Start fresh keeps the damaged file aside byte for byte and starts again on the same folder', async () => {
    const { dataPath, file, damaged } = await brokenFolder();
    answer('Start fresh');
    await launchOn(dataPath);
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0));
    const [aside] = keptFolders(dataPath, 'broken-');
    expect(sha256Of(join(aside!, file.split('/').pop()!))).toBe(damaged);
    expect(fake.app.relaunch).toHaveBeenCalledWith({ args: ['/opt/Planner/app', '--data-dir', dataPath] });
  });

  it('Restore a backup… takes the file from the open dialog, restores it and starts again', async () => {
    const { dataPath, backup, file, damaged } = await brokenFolder();
    answer('Restore a backup…');
    fake.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [backup] });
    await launchOn(dataPath);
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0));
    expect(fake.dialog.showOpenDialog.mock.calls[0]![0]).toMatchObject({ properties: ['openFile'] });
    const [aside] = keptFolders(dataPath, 'before-restore-');
    expect(sha256Of(join(aside!, file.split('/').pop()!))).toBe(damaged);
    const restored = await openLocalInstance(dataPath);
    try {
      const names = ((await restored.request({ method: 'GET', path: '/v1/project' })).body as { data: { name: string }[] }).data.map(
        (p) => p.name,
      );
      expect(names).toEqual(['Kitchen']);
    } finally {
      await restored.close();
    }
    expect(fake.app.relaunch).toHaveBeenCalledWith({ args: ['/opt/Planner/app', '--data-dir', dataPath] });
  });

  it('says why a file that is not a backup was refused, asks again, and changes nothing', async () => {
    const { dataPath, file, damaged } = await brokenFolder();
    const notABackup = join(folder, 'notes.sqlite');
    writeFileSync(notABackup, 'just some notes');
    answer('Restore a backup…', 'Quit Planner');
    fake.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [notABackup] });
    await launchOn(dataPath);
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(1));
    const second = fake.dialog.showMessageBox.mock.calls[1]![0];
    expect(second.detail).toMatch(/^That did not work: /);
    expect(sha256Of(file)).toBe(damaged);
    expect(keptFolders(dataPath, 'before-restore-')).toEqual([]);
    expect(fake.app.relaunch).not.toHaveBeenCalled();
  });

  it('Open another data folder… takes the folder dialog’s choice and starts again on it, leaving this one as it is', async () => {
    const { dataPath, file, damaged } = await brokenFolder();
    const other = join(folder, 'other-data');
    mkdirSync(other, { recursive: true });
    answer('Open another data folder…');
    fake.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [other] });
    await launchOn(dataPath);
    await vi.waitFor(() => expect(fake.app.exit).toHaveBeenCalledWith(0));
    expect(fake.dialog.showOpenDialog.mock.calls[0]![0].properties).toContain('openDirectory');
    expect(fake.app.relaunch).toHaveBeenCalledWith({ args: ['/opt/Planner/app', `--data-dir=${other}`] });
    expect(sha256Of(file)).toBe(damaged);
    expect(readFileSync(join(other, 'system.sqlite')).subarray(0, 15).toString()).toBe('SQLite format 3');
  });
});

describe('the command line to start again with', () => {
  it('is the same for the same folder, and names the other folder instead of any --data-dir before', () => {
    expect(argsForFolder(['app', '--data-dir', '/a'], '/a', '/a')).toEqual(['app', '--data-dir', '/a']);
    expect(argsForFolder(['app', '--data-dir', '/a', '--x'], '/a', '/b')).toEqual(['app', '--x', '--data-dir=/b']);
    expect(argsForFolder(['app', '--data-dir=/a'], '/a', '/b')).toEqual(['app', '--data-dir=/b']);
    expect(argsForFolder(['app'], '/home/me/.config/Planner', '/b')).toEqual(['app', '--data-dir=/b']);
  });
});
