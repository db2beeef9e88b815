/**
 * The entry point's wiring, run against fakes of Electron's app, session, protocol, ipcMain and
 * BrowserWindow, but with a real local instance on a temp folder chosen with --data-dir.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IpcMainInvokeEvent } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalInstance } from '../../electron/host/local-instance.js';
import type { BridgeHandler } from '../../electron/main/ipc.js';
import { tempDir } from '../helpers/api.js';

type Listener = (...args: unknown[]) => void;

const fake = vi.hoisted(() => {
  const listeners = new Map<string, Listener[]>();
  let markReady = () => {};
  const app = {
    on: vi.fn((event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return app;
    }),
    whenReady: vi.fn(() => new Promise<void>((resolve) => (markReady = resolve))),
    getPath: vi.fn(() => '/nonexistent/user-data'),
    setPath: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
  };
  class FakeBrowserWindow {
    static made: FakeBrowserWindow[] = [];
    static getAllWindows = () => FakeBrowserWindow.made;
    readonly loadURL = vi.fn(() => Promise.resolve());
    readonly once = vi.fn();
    readonly isMinimized = vi.fn(() => true);
    readonly restore = vi.fn();
    readonly focus = vi.fn();
    readonly webContents = { isDestroyed: () => false, getURL: () => 'app://planner/index.html', send: vi.fn() };
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      FakeBrowserWindow.made.push(this);
    }
  }
  return {
    app,
    emit: (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((listener) => listener(...args)),
    ready: () => markReady(),
    reset: () => {
      listeners.clear();
      FakeBrowserWindow.made.length = 0;
    },
    BrowserWindow: FakeBrowserWindow,
    session: {
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      webRequest: { onHeadersReceived: vi.fn() },
    },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    ipcMain: { handle: vi.fn(), on: vi.fn(), removeHandler: vi.fn() },
    dialog: { showErrorBox: vi.fn() },
    opened: [] as LocalInstance[],
  };
});

vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: fake.BrowserWindow,
  session: { defaultSession: fake.session },
  protocol: fake.protocol,
  ipcMain: fake.ipcMain,
  dialog: fake.dialog,
  shell: { openExternal: vi.fn() },
}));

// The real local instance, with close() observed so the test can see the database shut.
vi.mock('../../electron/host/local-instance.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../electron/host/local-instance.js')>();
  return {
    ...real,
    openLocalInstance: vi.fn(async (path: string) => {
      const instance = await real.openLocalInstance(path);
      const close = instance.close;
      instance.close = vi.fn(() => close());
      fake.opened.push(instance);
      return instance;
    }),
  };
});

const argv = process.argv;
let folder: string;

async function launch(args: string[]): Promise<void> {
  fake.reset();
  vi.clearAllMocks();
  vi.resetModules();
  process.argv = [argv[0]!, '/opt/Planner/app', ...args];
  await import('../../electron/main/index.js');
}

beforeAll(() => {
  folder = tempDir();
});

afterAll(async () => {
  process.argv = argv;
  for (const instance of fake.opened) await instance.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('a normal launch', () => {
  let window: InstanceType<typeof fake.BrowserWindow>;

  it('privileges the app scheme before ready, and opens nothing until then', async () => {
    await launch(['--data-dir', folder]);
    expect(fake.protocol.registerSchemesAsPrivileged).toHaveBeenCalledTimes(1);
    expect(fake.app.setPath).toHaveBeenCalledWith('userData', join(folder, 'browser-profile'));
    expect(fake.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(fake.opened).toHaveLength(0);
    expect(fake.BrowserWindow.made).toHaveLength(0);
  });

  it('on ready secures the session, serves the renderer, opens the data folder, then the window', async () => {
    fake.ready();
    await vi.waitFor(() => expect(fake.BrowserWindow.made).toHaveLength(1));
    window = fake.BrowserWindow.made[0]!;
    expect(fake.opened[0]!.dataDir.path).toBe(folder);
    expect(fake.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    expect(window.loadURL).toHaveBeenCalledWith('app://planner/index.html');
    expect(String(window.options.webPreferences.preload)).toMatch(/preload[/\\]index\.cjs$/);
    const order = (mock: { mock: { invocationCallOrder: number[] } }) => mock.mock.invocationCallOrder[0]!;
    expect(order(fake.session.setPermissionRequestHandler)).toBeLessThan(order(fake.ipcMain.handle));
    expect(order(fake.ipcMain.handle)).toBeLessThan(order(window.loadURL));
  });

  it('registers only the allow-listed channel', () => {
    expect(fake.ipcMain.handle).toHaveBeenCalledTimes(1);
    expect(fake.ipcMain.handle).toHaveBeenCalledWith('planner:request', expect.any(Function));
    expect(fake.ipcMain.on).not.toHaveBeenCalled();
  });

  it('answers the app page over the bridge from the data folder', async () => {
    const handler = fake.ipcMain.handle.mock.calls[0]![1] as BridgeHandler;
    const event = { senderFrame: { url: 'app://planner/index.html' } } as unknown as IpcMainInvokeEvent;
    const created = await handler(event, { method: 'POST', path: '/v1/project', body: { name: 'Launch' } });
    expect(created.status).toBe(201);
    expect(window.webContents.send).toHaveBeenCalledWith('planner:change', expect.any(Array));
  });

  it('hardens every web contents as it is created', () => {
    const contents = { on: vi.fn(), setWindowOpenHandler: vi.fn() };
    fake.emit('web-contents-created', {}, contents);
    expect(contents.setWindowOpenHandler).toHaveBeenCalled();
    expect(contents.on).toHaveBeenCalledWith('will-navigate', expect.any(Function));
  });

  it('focuses the open window when a second copy is started', () => {
    fake.emit('second-instance', {}, [], '/');
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
  });

  it('quits when the last window closes, except on macOS', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    try {
      Object.defineProperty(process, 'platform', { value: 'darwin' });
      fake.emit('window-all-closed');
      expect(fake.app.quit).not.toHaveBeenCalled();
      Object.defineProperty(process, 'platform', { value: 'linux' });
      fake.emit('window-all-closed');
      expect(fake.app.quit).toHaveBeenCalledTimes(1);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });

  it('holds the quit until the database is closed, then quits', async () => {
    fake.app.quit.mockClear();
    const instance = fake.opened[0]!;
    const first = { preventDefault: vi.fn() };
    fake.emit('will-quit', first);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalledTimes(1));
    expect(instance.close).toHaveBeenCalledTimes(1);
    expect(() => instance.dataDir.environment(instance.environment.id)).toThrow(/closed/);
    const again = { preventDefault: vi.fn() };
    fake.emit('will-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
    fake.opened.length = 0;
  });
});

describe('launches that stop early', () => {
  it('leaves the data folder to the copy already running', async () => {
    fake.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    await launch(['--data-dir', folder]);
    expect(fake.app.quit).toHaveBeenCalled();
    expect(fake.app.whenReady).not.toHaveBeenCalled();
    expect(fake.opened).toHaveLength(0);
  });

  it('says plainly that --data-dir needs a folder, and exits', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await launch(['--data-dir']);
    expect(fake.dialog.showErrorBox).toHaveBeenCalledWith('Planner could not start', expect.stringMatching(/--data-dir/));
    expect(fake.app.exit).toHaveBeenCalledWith(1);
    expect(fake.app.requestSingleInstanceLock).not.toHaveBeenCalled();
    vi.mocked(console.error).mockRestore();
  });
});
