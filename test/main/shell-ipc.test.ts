/**
 * The shell's IPC channels: every one checks the sender frame first and the payload second,
 * and only then calls main's service. Nothing reaches a service from a foreign frame or with
 * a malformed payload.
 */
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { isAppFrame } from '../../electron/main/ipc.js';
import { registerShellHandlers, type ShellServices } from '../../electron/main/shell-ipc.js';
import { shellChannels, shellChannelsFromMain } from '../../shared/ipc.js';
import { appFrame, FakeIpcMain, frameEvent } from './bridge-fixture.js';

vi.mock('electron', () => ({ BrowserWindow: { fromWebContents: () => null, getAllWindows: () => [] }, protocol: {} }));

type Handler = (event: IpcMainInvokeEvent, payload?: unknown) => Promise<unknown>;

const window = { id: 3 };
let ipcMain: FakeIpcMain;
let services: { [K in keyof ShellServices]: ReturnType<typeof vi.fn> };
let unregister: () => void;

function invoke(channel: string, payload?: unknown, event: IpcMainInvokeEvent = appFrame): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel) as unknown as Handler | undefined;
  if (!handler) throw new Error(`nothing handles ${channel}`);
  return handler(event, payload);
}

const validPayloads: Record<string, unknown> = {
  [shellChannels.saveFile]: { format: 'pdf', suggestedName: 'report.pdf', data: Buffer.from('%PDF').toString('base64') },
  [shellChannels.openAttachment]: { extensions: ['pdf'] },
  [shellChannels.backup]: undefined,
  [shellChannels.restore]: undefined,
  [shellChannels.signIn]: { remote_url: 'https://planner.example.com', client_id: 'desktop' },
  [shellChannels.getSettings]: undefined,
  [shellChannels.setSettings]: { language: 'nl' },
  [shellChannels.reportError]: { message: 'boom' },
  [shellChannels.localApiState]: undefined,
  [shellChannels.changeLocalApi]: { enabled: true, port: 4317 },
  [shellChannels.newLocalApiKey]: undefined,
  [shellChannels.workshopState]: undefined,
  [shellChannels.changeWorkshop]: { enabled: true, host: '0.0.0.0', port: 4443 },
  [shellChannels.newPairingCode]: undefined,
  [shellChannels.revokeDevice]: { id: '0190a0a0-0000-7000-8000-000000000000' },
  [shellChannels.dataFolder]: undefined,
  [shellChannels.openDataFolder]: undefined,
  [shellChannels.notify]: { title: '2 new exceptions', body: 'Order SO-1 will be late', tag: 'exceptions' },
};

const localApiState = { enabled: false, port: 4317, url: 'http://127.0.0.1:4317/v1', environment: 'local', keyMadeAt: null, problem: null };

const workshopState = {
  enabled: false,
  host: '0.0.0.0',
  port: 4443,
  addresses: [],
  fingerprint: null,
  pairing: null,
  devices: [],
  problem: null,
};

const invokeChannels = Object.values(shellChannels).filter((channel) => !shellChannelsFromMain.includes(channel));

beforeEach(() => {
  ipcMain = new FakeIpcMain();
  services = {
    saveFile: vi.fn(async () => ({ status: 'saved', fileName: 'report.pdf' })),
    openAttachment: vi.fn(async () => ({ status: 'canceled' })),
    backup: vi.fn(async () => ({ status: 'canceled' })),
    restore: vi.fn(async () => ({ status: 'canceled' })),
    signIn: vi.fn(async () => ({ status: 'signed-in', remote_url: 'https://planner.example.com' })),
    getSettings: vi.fn(() => ({ language: 'system', closeWithPending: 'ask' })),
    setSettings: vi.fn((change) => ({ language: 'system', closeWithPending: 'ask', ...change })),
    reportError: vi.fn(() => 'abcd1234'),
    localApiState: vi.fn(async () => localApiState),
    changeLocalApi: vi.fn(async () => ({ status: 'done', state: localApiState })),
    newLocalApiKey: vi.fn(async () => ({ status: 'done', state: localApiState, key: 'k' })),
    workshopState: vi.fn(async () => workshopState),
    changeWorkshop: vi.fn(async () => ({ status: 'done', state: workshopState })),
    newPairingCode: vi.fn(async () => ({ status: 'done', state: workshopState })),
    revokeDevice: vi.fn(async () => ({ status: 'done', state: workshopState })),
    dataFolder: vi.fn(() => ({ path: '/home/p/.config/Planner' })),
    openDataFolder: vi.fn(async () => ({ problem: null })),
    notify: vi.fn(() => ({ shown: true })),
  };
  unregister = registerShellHandlers(
    ipcMain as unknown as IpcMain,
    services as unknown as ShellServices,
    isAppFrame,
    () => window as never,
  );
});

describe('the shell channels', () => {
  it('are exactly the allow-listed invoke channels', () => {
    expect([...ipcMain.handlers.keys()].sort()).toEqual([...invokeChannels].sort());
    expect(invokeChannels.every((channel) => channel.startsWith('planner:'))).toBe(true);
    expect(ipcMain.listenerCount('planner:menu')).toBe(0);
    expect(ipcMain.listenerCount('planner:notice-clicked')).toBe(0);
  });

  it('are all removed again by the function registering them returns', () => {
    unregister();
    expect(ipcMain.handlers.size).toBe(0);
  });

  describe.each(invokeChannels)('%s', (channel) => {
    it('answers the app page', async () => {
      await expect(invoke(channel, validPayloads[channel])).resolves.toBeDefined();
    });

    it.each([
      ['another origin', frameEvent('https://evil.example/')],
      ['a look-alike host', frameEvent('app://planner.evil.example/index.html')],
      ['a file: page', frameEvent('file:///home/p/index.html')],
      ['a frame that is gone', frameEvent(null)],
    ])('refuses %s and calls nothing', async (_who, event) => {
      await expect(invoke(channel, validPayloads[channel], event)).rejects.toThrow(/^Refused: the request did not come from the app/);
      for (const service of Object.values(services)) expect(service).not.toHaveBeenCalled();
    });

    it('refuses a malformed payload and calls nothing', async () => {
      await expect(invoke(channel, { unexpected: true, __proto__: { x: 1 } })).rejects.toThrow(/^Refused: /);
      await expect(invoke(channel, 'a string')).rejects.toThrow(/^Refused: /);
      for (const service of Object.values(services)) expect(service).not.toHaveBeenCalled();
    });
  });
});

describe('what each channel hands to main', () => {
  it('save-file: the decoded bytes and the window that asked', async () => {
    await invoke(shellChannels.saveFile, validPayloads[shellChannels.saveFile]);
    const [asker, request] = services.saveFile.mock.calls[0]!;
    expect(asker).toBe(window);
    expect(request).toMatchObject({ format: 'pdf', suggestedName: 'report.pdf' });
    expect((request as { content: Buffer }).content.toString()).toBe('%PDF');
  });

  it('save-file: refuses a format main does not allow', async () => {
    await expect(invoke(shellChannels.saveFile, { format: 'html', suggestedName: 'x.html', data: '' })).rejects.toThrow(
      /format must be one of csv, xlsx, pdf/,
    );
  });

  it('notify: the notice and the window that asked', async () => {
    await expect(invoke(shellChannels.notify, validPayloads[shellChannels.notify])).resolves.toEqual({ shown: true });
    expect(services.notify.mock.calls[0]).toEqual([window, validPayloads[shellChannels.notify]]);
  });

  it.each([
    ['an empty title', { title: '', body: '', tag: 'exceptions' }, /title must be text/],
    ['a title of 201 characters', { title: 'x'.repeat(201), body: '', tag: 'exceptions' }, /title must be text/],
    ['a body of 1,001 characters', { title: 'x', body: 'y'.repeat(1001), tag: 'exceptions' }, /body must be text/],
    ['a tag that is a path', { title: 'x', body: '', tag: '../settings' }, /tag must be/],
    ['a key it does not know', { title: 'x', body: '', tag: 'exceptions', icon: '/etc/passwd' }, /unknown key icon/],
  ])('notify: refuses %s and shows nothing', async (_what, payload, problem) => {
    await expect(invoke(shellChannels.notify, payload)).rejects.toThrow(problem);
    expect(services.notify).not.toHaveBeenCalled();
  });

  it('open-attachment: the narrowed list, or every allowed type', async () => {
    await invoke(shellChannels.openAttachment, { extensions: ['PNG'] });
    await invoke(shellChannels.openAttachment);
    expect(services.openAttachment.mock.calls[0]).toEqual([window, ['png']]);
    expect(services.openAttachment.mock.calls[1]![1]).toContain('pdf');
  });

  it('open-attachment: refuses a widened list', async () => {
    await expect(invoke(shellChannels.openAttachment, { extensions: ['exe'] })).rejects.toThrow(/Refused/);
  });

  it('backup and restore: take no payload at all', async () => {
    await invoke(shellChannels.backup);
    await invoke(shellChannels.restore);
    expect(services.backup).toHaveBeenCalledWith(window);
    expect(services.restore).toHaveBeenCalledWith(window);
    await expect(invoke(shellChannels.backup, { path: '/tmp/x.sqlite' })).rejects.toThrow(/takes no payload/);
    await expect(invoke(shellChannels.restore, '/tmp/x.sqlite')).rejects.toThrow(/takes no payload/);
  });

  it('sign-in: the remote and client, and only an https remote (http on this computer only)', async () => {
    await expect(invoke(shellChannels.signIn, { remote_url: 'https://planner.example.com', client_id: 'desktop' })).resolves.toEqual({
      status: 'signed-in',
      remote_url: 'https://planner.example.com',
    });
    await invoke(shellChannels.signIn, { remote_url: 'http://127.0.0.1:4010', client_id: 'desktop' });
    expect(services.signIn).toHaveBeenCalledTimes(2);
    for (const bad of [
      { remote_url: 'http://planner.example.com', client_id: 'desktop' },
      { remote_url: 'javascript:alert(1)', client_id: 'desktop' },
      { remote_url: 'file:///etc/passwd', client_id: 'desktop' },
      { remote_url: 'https://user:pw@planner.example.com', client_id: 'desktop' },
      { remote_url: 'https://planner.example.com/?next=evil', client_id: 'desktop' },
      { remote_url: 'https://planner.example.com', client_id: 'a b' },
      { remote_url: 'https://planner.example.com', client_id: 'desktop', client_secret: 'x' },
    ]) {
      await expect(invoke(shellChannels.signIn, bad)).rejects.toThrow(/Refused/);
    }
    expect(services.signIn).toHaveBeenCalledTimes(2);
  });

  it('settings: read, and changed only to known values', async () => {
    await expect(invoke(shellChannels.getSettings)).resolves.toEqual({ language: 'system', closeWithPending: 'ask' });
    await expect(invoke(shellChannels.setSettings, { closeWithPending: 'sync-first' })).resolves.toMatchObject({
      closeWithPending: 'sync-first',
    });
    await expect(invoke(shellChannels.setSettings, { closeWithPending: 'never' })).rejects.toThrow(/closeWithPending must be one of/);
    await expect(invoke(shellChannels.setSettings, { language: 'klingon' })).rejects.toThrow(/language must be one of/);
    await expect(invoke(shellChannels.setSettings, { theme: 'dark' })).rejects.toThrow(/unknown setting theme/);
    expect(services.setSettings).toHaveBeenCalledTimes(1);
  });

  it('report-error: a cut-to-size report, answered with its log reference', async () => {
    await expect(
      invoke(shellChannels.reportError, { message: 'x'.repeat(5000), stack: 'at y', source: 'boundary', shown: true }),
    ).resolves.toEqual({ reference: 'abcd1234' });
    const [report] = services.reportError.mock.calls[0]!;
    expect((report as { message: string }).message).toHaveLength(2000);
    await expect(invoke(shellChannels.reportError, { message: 42 })).rejects.toThrow(/Refused/);
    services.reportError.mockReturnValueOnce(undefined);
    await expect(invoke(shellChannels.reportError, { message: 'too many' })).resolves.toEqual({ reference: 'not-logged' });
  });

  it('local API: a switch and a port in range, nothing else; state and new key take no payload', async () => {
    await invoke(shellChannels.changeLocalApi, { enabled: false });
    await invoke(shellChannels.changeLocalApi, { port: 5000 });
    expect(services.changeLocalApi.mock.calls).toEqual([[{ enabled: false }], [{ port: 5000 }]]);
    for (const [bad, message] of [
      [{ port: 80 }, /port must be a whole number from 1024 to 65535/],
      [{ port: 70000 }, /port must be a whole number/],
      [{ port: '4317' }, /port must be a whole number/],
      [{ port: 4317.5 }, /port must be a whole number/],
      [{ enabled: 'yes' }, /enabled must be true or false/],
      [{}, /needs enabled or port/],
      [{ enabled: true, keyId: 'x' }, /unknown key keyId/],
      [undefined, /must be an object/],
    ] as const) {
      await expect(invoke(shellChannels.changeLocalApi, bad)).rejects.toThrow(message);
    }
    expect(services.changeLocalApi).toHaveBeenCalledTimes(2);
    await expect(invoke(shellChannels.localApiState, { port: 1 })).rejects.toThrow(/takes no payload/);
    await expect(invoke(shellChannels.newLocalApiKey, { key: 'chosen-by-the-page' })).rejects.toThrow(/takes no payload/);
    expect(services.localApiState).not.toHaveBeenCalled();
    expect(services.newLocalApiKey).not.toHaveBeenCalled();
  });

  it('workshop mode: a switch, an IPv4 address and a port, nothing else; a device by its id alone', async () => {
    await invoke(shellChannels.changeWorkshop, { enabled: true, host: '127.0.0.1', port: 5443 });
    expect(services.changeWorkshop.mock.calls).toEqual([[{ enabled: true, host: '127.0.0.1', port: 5443 }]]);
    for (const [bad, message] of [
      [{ host: 'workshop.example' }, /host must be an IPv4 address/],
      [{ host: '10.0.0.256' }, /host must be an IPv4 address/],
      [{ host: '010.0.0.1' }, /host must be an IPv4 address/],
      [{ port: 443 }, /port must be a whole number from 1024 to 65535/],
      [{ enabled: true, devices: [] }, /unknown key devices/],
      [{}, /needs enabled, host or port/],
    ] as const) {
      await expect(invoke(shellChannels.changeWorkshop, bad)).rejects.toThrow(message);
    }
    await invoke(shellChannels.revokeDevice, { id: 'abc-1' });
    expect(services.revokeDevice.mock.calls).toEqual([['abc-1']]);
    for (const bad of [{ id: 'a b' }, { id: 'x', key: 'y' }, { id: 7 }, ['abc-1']])
      await expect(invoke(shellChannels.revokeDevice, bad)).rejects.toThrow(/^Refused: /);
    await expect(invoke(shellChannels.newPairingCode, { code: 'CHOSEN12' })).rejects.toThrow(/takes no payload/);
    expect(services.newPairingCode).not.toHaveBeenCalled();
    expect(services.revokeDevice).toHaveBeenCalledTimes(1);
  });

  it('data folder: where it is, and opening it, take no payload', async () => {
    await expect(invoke(shellChannels.dataFolder)).resolves.toEqual({ path: '/home/p/.config/Planner' });
    await expect(invoke(shellChannels.openDataFolder)).resolves.toEqual({ problem: null });
    await expect(invoke(shellChannels.openDataFolder, { path: '/etc' })).rejects.toThrow(/takes no payload/);
    expect(services.openDataFolder).toHaveBeenCalledTimes(1);
  });
});
