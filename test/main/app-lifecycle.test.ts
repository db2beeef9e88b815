/**
 * The entry point's wiring, run against fakes of Electron's app, session, protocol, ipcMain,
 * Menu, screen, safeStorage and BrowserWindow, but with a real local instance on a temp folder
 * chosen with --data-dir.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IpcMainInvokeEvent, MenuItemConstructorOptions } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalInstance, LocalInstanceOptions } from '../../electron/host/local-instance.js';
import type { BridgeHandler } from '../../electron/main/ipc.js';
import { displayKey } from '../../electron/main/window-state.js';
import { shellChannels, shellChannelsFromMain } from '../../shared/ipc.js';
import type { LocalApiOutcome, LocalApiState } from '../../shared/local-api.js';
import type { WorkshopOutcome, WorkshopState } from '../../shared/workshop.js';
import { tempDir } from '../helpers/api.js';
import { connectTo, freePort } from '../helpers/ports.js';
import { runServerCommand, startServerProcess } from '../helpers/process.js';

type Listener = (...args: unknown[]) => void;

const fake = vi.hoisted(() => {
  const listeners = new Map<string, Listener[]>();
  const paths = new Map<string, string>();
  let markReady = () => {};
  const display = { bounds: { x: 0, y: 0, width: 1920, height: 1080 }, workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
  const app = {
    on: vi.fn((event: string, listener: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener]);
      return app;
    }),
    whenReady: vi.fn(() => new Promise<void>((resolve) => (markReady = resolve))),
    /** Electron's folders, under the test's temp folder (`base`) unless set. */
    getPath: vi.fn((name: string) => paths.get(name) ?? `${fake.base}/${name}`),
    setPath: vi.fn((name: string, value: string) => void paths.set(name, value)),
    setAppLogsPath: vi.fn(),
    getLocale: vi.fn(() => 'nl-NL'),
    getVersion: vi.fn(() => '0.1.0'),
    isPackaged: true,
    isReady: vi.fn(() => true),
    setAboutPanelOptions: vi.fn(),
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
  };
  class FakeBrowserWindow {
    static made: FakeBrowserWindow[] = [];
    static getAllWindows = () => FakeBrowserWindow.made;
    static getFocusedWindow = () => FakeBrowserWindow.made[0] ?? null;
    static fromWebContents = () => FakeBrowserWindow.made[0] ?? null;
    readonly loadURL = vi.fn(() => Promise.resolve());
    readonly once = vi.fn();
    readonly on = vi.fn();
    readonly isMinimized = vi.fn(() => true);
    readonly restore = vi.fn();
    readonly focus = vi.fn();
    readonly maximize = vi.fn();
    readonly webContents = {
      isDestroyed: () => false,
      isCrashed: () => true,
      getURL: () => 'app://planner/index.html',
      send: vi.fn(),
      reload: vi.fn(),
    };
    constructor(readonly options: { webPreferences: Record<string, unknown>; x?: number; y?: number; width?: number; height?: number }) {
      FakeBrowserWindow.made.push(this);
    }
  }
  const fake = {
    base: '/nonexistent',
    app,
    display,
    emit: (event: string, ...args: unknown[]) => listeners.get(event)?.forEach((listener) => listener(...args)),
    ready: () => markReady(),
    reset: () => {
      listeners.clear();
      paths.clear();
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
    dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn(async () => ({ response: 0, checkboxChecked: false })) },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
    screen: { getAllDisplays: () => [display], getDisplayMatching: () => display },
    safeStorage: {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptString: (text: string) => Buffer.from(text).reverse(),
      decryptString: (data: Buffer) => Buffer.from(data).reverse().toString(),
    },
    shell: { openExternal: vi.fn(), openPath: vi.fn(async () => '') },
    opened: [] as LocalInstance[],
    options: [] as (LocalInstanceOptions | undefined)[],
  };
  return fake;
});

vi.mock('electron', () => ({
  app: fake.app,
  BrowserWindow: fake.BrowserWindow,
  session: { defaultSession: fake.session },
  protocol: fake.protocol,
  ipcMain: fake.ipcMain,
  dialog: fake.dialog,
  shell: fake.shell,
  Menu: fake.Menu,
  screen: fake.screen,
  safeStorage: fake.safeStorage,
}));

// The real local instance, with close() observed so the test can see the database shut.
vi.mock('../../electron/host/local-instance.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../electron/host/local-instance.js')>();
  return {
    ...real,
    openLocalInstance: vi.fn(async (path: string, options?: LocalInstanceOptions) => {
      fake.options.push(options);
      const instance = await real.openLocalInstance(path, options);
      const close = instance.close;
      instance.close = vi.fn(() => close());
      fake.opened.push(instance);
      return instance;
    }),
  };
});

const argv = process.argv;
let folder: string;

const appPage = { senderFrame: { url: 'app://planner/index.html' } };

/** What main's handler of a shell channel answers (or how it refuses). */
function invokeShell(channel: string, payload?: unknown, event: unknown = appPage): Promise<unknown> {
  const handler = fake.ipcMain.handle.mock.calls.find(([name]) => name === channel)?.[1] as
    ((event: unknown, payload?: unknown) => Promise<unknown>) | undefined;
  if (!handler) throw new Error(`nothing handles ${channel}`);
  return handler(event, payload);
}

/** The local API as a program on this computer calls it. */
async function projectNames(port: number, key: string): Promise<{ status: number; names?: string[] }> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/project`, { headers: { 'x-api-env': 'local', 'x-api-key': key } });
  if (response.status !== 200) return { status: response.status };
  return { status: 200, names: ((await response.json()) as { data: { name: string }[] }).data.map((project) => project.name) };
}

async function launch(args: string[]): Promise<void> {
  fake.reset();
  vi.clearAllMocks();
  vi.resetModules();
  process.argv = [argv[0]!, '/opt/Planner/app', ...args];
  await import('../../electron/main/index.js');
}

beforeAll(() => {
  folder = tempDir();
  fake.base = join(folder, 'electron-paths');
  // Where the window was last time, in the profile the launch below uses.
  mkdirSync(join(folder, 'browser-profile'), { recursive: true });
  const bounds = { x: 300, y: 200, width: 1300, height: 850 };
  writeFileSync(
    join(folder, 'browser-profile', 'window-state.json'),
    JSON.stringify({ last: displayKey(fake.display), displays: { [displayKey(fake.display)]: { bounds, maximized: true } } }),
  );
});

afterAll(async () => {
  process.argv = argv;
  for (const instance of fake.opened) await instance.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

let localApiPort: number;
let localApiKey: string;
let workshopPort: number;

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

  it('registers only the allow-listed channels, and listens on none', () => {
    const channels = fake.ipcMain.handle.mock.calls.map(([channel]) => channel as string);
    const shellInvokes = Object.values(shellChannels).filter((channel) => !shellChannelsFromMain.includes(channel));
    expect(channels.sort()).toEqual(['planner:request', ...shellInvokes].sort());
    expect(fake.ipcMain.on).not.toHaveBeenCalled();
  });

  it('checks the sender on the shell channels too', async () => {
    const settings = fake.ipcMain.handle.mock.calls.find(([channel]) => channel === shellChannels.getSettings)![1] as (
      event: unknown,
    ) => Promise<unknown>;
    await expect(settings({ senderFrame: { url: 'https://evil.example/' } })).rejects.toThrow(/Refused/);
    await expect(settings({ senderFrame: { url: 'app://planner/index.html' } })).resolves.toEqual({
      language: 'system',
      closeWithPending: 'ask',
    });
  });

  it('gives the local instance the keychain vault for the remote’s credentials', () => {
    // (A class from the freshly imported module graph, so compared by name.)
    const vault = fake.options[0]?.vault as { constructor: { name: string }; canStore(): boolean } | undefined;
    expect(vault?.constructor.name).toBe('SafeStorageVault');
    expect(vault?.canStore()).toBe(true);
  });

  it('installs the application menu in the OS language', () => {
    const template = fake.Menu.buildFromTemplate.mock.calls.at(-1)![0] as MenuItemConstructorOptions[];
    expect(template.map((item) => item.label)).toEqual(['Bestand', 'Bewerken', 'Beeld', 'Venster', 'Help']);
    expect(fake.Menu.setApplicationMenu).toHaveBeenCalled();
  });

  it('rebuilds the menu when the language setting changes', async () => {
    const set = fake.ipcMain.handle.mock.calls.find(([channel]) => channel === shellChannels.setSettings)![1] as (
      event: unknown,
      payload: unknown,
    ) => Promise<unknown>;
    await set({ senderFrame: { url: 'app://planner/index.html' } }, { language: 'en' });
    const template = fake.Menu.buildFromTemplate.mock.calls.at(-1)![0] as MenuItemConstructorOptions[];
    expect(template[0]!.label).toBe('File');
    expect(JSON.parse(readFileSync(join(folder, 'browser-profile', 'shell-settings.json'), 'utf8'))).toMatchObject({ language: 'en' });
  });

  it('opens the window where it was last time, maximized as it was', () => {
    expect(window.options).toMatchObject({ x: 300, y: 200, width: 1300, height: 850 });
    expect(window.maximize).toHaveBeenCalled();
  });

  it('watches the window: its position and size, and closing with unsynced changes', () => {
    const events = window.on.mock.calls.map(([event]) => event as string);
    expect(events).toEqual(expect.arrayContaining(['resize', 'move', 'close']));
    expect(events.filter((event) => event === 'close')).toHaveLength(2);
  });

  it('writes its log in the log folder', () => {
    expect(readFileSync(join(fake.base, 'logs', 'main.log'), 'utf8')).toMatch(
      new RegExp(`INFO  Planner 0\\.1\\.0 starting on ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it('logs and shows a window whose page crashed, offering to reload it', async () => {
    fake.dialog.showMessageBox.mockResolvedValueOnce({ response: 2, checkboxChecked: false });
    fake.emit('render-process-gone', {}, window.webContents, { reason: 'crashed', exitCode: 139 });
    await vi.waitFor(() => expect(window.webContents.reload).toHaveBeenCalled());
    const [box] = fake.dialog.showMessageBox.mock.calls.at(-1)! as unknown as [{ message: string; buttons: string[] }];
    expect(box.message).toMatch(/crashed, exit code 139/);
    expect(box.buttons).toContain('Reload');
    expect(readFileSync(join(fake.base, 'logs', 'main.log'), 'utf8')).toMatch(
      /\[renderer-gone\] app:\/\/planner\/index\.html: Error: crashed, exit code 139/,
    );
  });

  it('does not treat a page that exited normally as a crash', () => {
    const shown = fake.dialog.showMessageBox.mock.calls.length;
    fake.emit('render-process-gone', {}, window.webContents, { reason: 'clean-exit', exitCode: 0 });
    expect(fake.dialog.showMessageBox.mock.calls.length).toBe(shown);
  });

  it('answers the app page over the bridge from the data folder', async () => {
    const handler = fake.ipcMain.handle.mock.calls[0]![1] as BridgeHandler;
    const event = { senderFrame: { url: 'app://planner/index.html' } } as unknown as IpcMainInvokeEvent;
    const created = await handler(event, { method: 'POST', path: '/v1/project', body: { name: 'Launch' } });
    expect(created.status).toBe(201);
    expect(window.webContents.send).toHaveBeenCalledWith('planner:change', expect.any(Array));
  });

  it('switches the local API on through its channel: the key once, then a program gets the data with it', async () => {
    localApiPort = await freePort();
    await expect(
      invokeShell(shellChannels.changeLocalApi, { enabled: true, port: localApiPort }, { senderFrame: { url: 'https://evil.example/' } }),
    ).rejects.toThrow(/Refused/);
    await expect(invokeShell(shellChannels.changeLocalApi, { enabled: true, port: 80 })).rejects.toThrow(/Refused: port must be/);
    expect(await connectTo(localApiPort)).toBe('refused');

    const on = (await invokeShell(shellChannels.changeLocalApi, { enabled: true, port: localApiPort })) as LocalApiOutcome & {
      key: string;
    };
    expect(on).toMatchObject({
      status: 'done',
      state: { enabled: true, port: localApiPort, environment: 'local' },
      key: expect.any(String),
    });
    localApiKey = on.key;
    expect(await projectNames(localApiPort, localApiKey)).toEqual({ status: 200, names: ['Launch'] });
    const state = (await invokeShell(shellChannels.localApiState)) as LocalApiState;
    expect(state).toMatchObject({ enabled: true, keyMadeAt: expect.any(String) });
    expect(JSON.stringify(state)).not.toContain(localApiKey);
  });

  it('makes a new local API key through its channel, and the old one stops working', async () => {
    const renewed = (await invokeShell(shellChannels.newLocalApiKey)) as LocalApiOutcome & { key: string };
    expect(await projectNames(localApiPort, localApiKey)).toEqual({ status: 401 });
    localApiKey = renewed.key;
    expect(await projectNames(localApiPort, localApiKey)).toMatchObject({ status: 200 });
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

  it('has workshop mode off at launch, and switches it on through its channel (on 127.0.0.1 here) with a fingerprint and no key', async () => {
    const off = (await invokeShell(shellChannels.workshopState)) as WorkshopState;
    expect(off).toMatchObject({ enabled: false, host: '0.0.0.0', port: 4443, fingerprint: null, devices: [] });
    await expect(invokeShell(shellChannels.changeWorkshop, { enabled: true, host: 'example.com' })).rejects.toThrow(
      /Refused: host must be/,
    );
    workshopPort = await freePort();
    const on = (await invokeShell(shellChannels.changeWorkshop, {
      enabled: true,
      host: '127.0.0.1',
      port: workshopPort,
    })) as WorkshopOutcome;
    expect(on.state).toMatchObject({
      enabled: true,
      host: '127.0.0.1',
      port: workshopPort,
      addresses: [`https://127.0.0.1:${workshopPort}/floor/`],
    });
    expect(on.state.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(await connectTo(workshopPort)).toBe('accepted');
    const pairing = ((await invokeShell(shellChannels.newPairingCode)) as WorkshopOutcome).state.pairing;
    expect(pairing?.code).toMatch(/^[A-HJKMNP-Z2-9]{8}$/);
  });

  it('holds the quit until the local API is stopped and the database closed, then quits', async () => {
    fake.app.quit.mockClear();
    const instance = fake.opened[0]!;
    const first = { preventDefault: vi.fn() };
    fake.emit('will-quit', first);
    expect(first.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalledTimes(1));
    expect(await connectTo(localApiPort)).toBe('refused');
    expect(await connectTo(workshopPort)).toBe('refused');
    expect(instance.close).toHaveBeenCalledTimes(1);
    expect(() => instance.dataDir.environment(instance.environment.id)).toThrow(/closed/);
    const again = { preventDefault: vi.fn() };
    fake.emit('will-quit', again);
    expect(again.preventDefault).not.toHaveBeenCalled();
    fake.opened.length = 0;
  });

  it('gives the console back and stops catching process errors when it quits', () => {
    const before = process.listenerCount('uncaughtException');
    fake.emit('quit');
    expect(process.listenerCount('uncaughtException')).toBe(before - 1);
  });
});

describe('the next launch', () => {
  it('serves the local API again, on its port with its key, when it was left on; and stops it on quit', async () => {
    await launch(['--data-dir', folder]);
    fake.ready();
    await vi.waitFor(() => expect(fake.BrowserWindow.made).toHaveLength(1));
    expect(await projectNames(localApiPort, localApiKey)).toEqual({ status: 200, names: ['Launch'] });

    fake.app.quit.mockClear();
    fake.emit('will-quit', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalledTimes(1));
    expect(await connectTo(localApiPort)).toBe('refused');
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

  it('refuses a data folder a headless server runs on, naming it and the server, and opens nothing', async () => {
    const busy = tempDir();
    const server = await startServerProcess(['--data-dir', busy]);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await launch(['--data-dir', busy]);
      expect(fake.dialog.showErrorBox).toHaveBeenCalledWith('Planner could not start', expect.stringContaining(busy));
      expect(fake.dialog.showErrorBox).toHaveBeenCalledWith(
        'Planner could not start',
        expect.stringContaining(`server (pid ${server.child.pid}`),
      );
      expect(fake.app.exit).toHaveBeenCalledWith(1);
      expect(fake.app.whenReady).not.toHaveBeenCalled();
      expect(fake.opened).toHaveLength(0);
    } finally {
      vi.mocked(console.error).mockRestore();
      await server.stop();
      rmSync(busy, { recursive: true, force: true });
    }
  });
});

describe('a running desktop app', () => {
  it('keeps its data folder from a headless server until it quits', async () => {
    const own = tempDir();
    try {
      await launch(['--data-dir', own]);
      const refused = await runServerCommand(['--port', '0', '--data-dir', own], 20_000);
      expect(refused.code).toBe(1);
      expect(refused.output.trim()).toContain(`desktop app (pid ${process.pid}`);

      fake.emit('quit');
      const server = await startServerProcess(['--data-dir', own]);
      await server.stop();
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });
});
