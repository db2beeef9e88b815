/**
 * What the preload puts into the page: `window.planner` with the API client, the change feed,
 * menu commands and the desktop's own requests, each on its one fixed channel, and nothing
 * that leaks ipcRenderer or its event objects.
 */
import type { EventEmitter } from 'node:events';
import { beforeAll, describe, expect, it, vi, type Mock } from 'vitest';
import { shellChannels, type ChangeEvent, type PlannerBridge } from '../../shared/ipc.js';

interface FakeElectron {
  ipcRenderer: EventEmitter & { invoke: Mock };
  contextBridge: { exposeInMainWorld: Mock };
}

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const ipcRenderer = Object.assign(new EventEmitter(), {
    invoke: vi.fn(() => Promise.resolve({ status: 200, headers: {}, body: [] })),
  });
  return { ipcRenderer, contextBridge: { exposeInMainWorld: vi.fn() } };
});

let fake: { ipcRenderer: FakeElectron['ipcRenderer']; exposeInMainWorld: Mock };
let planner: PlannerBridge;
const events: ChangeEvent[] = [{ resource: 'project', id: '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', op: 'update' }];

beforeAll(async () => {
  const electron = (await import('electron')) as unknown as FakeElectron;
  fake = { ipcRenderer: electron.ipcRenderer, exposeInMainWorld: electron.contextBridge.exposeInMainWorld };
  await import('../../electron/preload/index.js');
  planner = fake.exposeInMainWorld.mock.calls[0]![1] as PlannerBridge;
});

describe('preload', () => {
  it('exposes exactly the bridge methods, as window.planner', () => {
    expect(fake.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect(fake.exposeInMainWorld.mock.calls[0]![0]).toBe('planner');
    expect(Object.keys(planner).sort()).toEqual([
      'backup',
      'changeLocalApi',
      'changeWorkshop',
      'getDataFolder',
      'getLocalApi',
      'getShellSettings',
      'getWorkshop',
      'newLocalApiKey',
      'newPairingCode',
      'notify',
      'onChange',
      'onMenuCommand',
      'onNoticeClick',
      'openAttachment',
      'openDataFolder',
      'reportError',
      'request',
      'restore',
      'revokeDevice',
      'saveFile',
      'setShellSettings',
      'signIn',
    ]);
    for (const method of Object.values(planner)) expect(typeof method).toBe('function');
  });

  it('sends a request on the bridge channel and hands back the answer', async () => {
    const request = { method: 'GET' as const, path: '/v1/project' };
    await expect(planner.request(request)).resolves.toEqual({ status: 200, headers: {}, body: [] });
    expect(fake.ipcRenderer.invoke).toHaveBeenCalledWith('planner:request', request);
  });

  it('gives a change listener the events only, never the IPC event', () => {
    const listener = vi.fn();
    const unsubscribe = planner.onChange(listener);
    fake.ipcRenderer.emit('planner:change', { sender: fake.ipcRenderer, ports: [] }, events);
    expect(listener).toHaveBeenCalledExactlyOnceWith(events);
    unsubscribe();
  });

  it('onChange returns an unsubscribe that removes exactly that listener', () => {
    const first = vi.fn();
    const second = vi.fn();
    const stopFirst = planner.onChange(first);
    const stopSecond = planner.onChange(second);
    expect(fake.ipcRenderer.listenerCount('planner:change')).toBe(2);
    stopFirst();
    expect(fake.ipcRenderer.listenerCount('planner:change')).toBe(1);
    fake.ipcRenderer.emit('planner:change', {}, events);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    stopSecond();
    expect(fake.ipcRenderer.listenerCount('planner:change')).toBe(0);
  });

  it('listens on no channel but the change, menu and notice-click channels', () => {
    const stop = planner.onChange(() => {});
    const stopMenu = planner.onMenuCommand(() => {});
    const stopNotice = planner.onNoticeClick(() => {});
    expect(fake.ipcRenderer.eventNames().sort()).toEqual(['planner:change', 'planner:menu', 'planner:notice-clicked']);
    stop();
    stopMenu();
    stopNotice();
    expect(fake.ipcRenderer.eventNames()).toEqual([]);
  });

  it('refuses a listener that is not a function', () => {
    expect(() => planner.onChange('alert(1)' as unknown as () => void)).toThrow(TypeError);
    expect(fake.ipcRenderer.listenerCount('planner:change')).toBe(0);
  });
});

describe('notice clicks', () => {
  it('reach a listener as the tag alone, never the IPC event, until it stops listening', () => {
    const listener = vi.fn();
    const stop = planner.onNoticeClick(listener);
    fake.ipcRenderer.emit('planner:notice-clicked', { sender: fake.ipcRenderer, ports: [] }, 'exceptions');
    expect(listener).toHaveBeenCalledExactlyOnceWith('exceptions');
    stop();
    fake.ipcRenderer.emit('planner:notice-clicked', {}, 'exceptions');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(() => planner.onNoticeClick(undefined as unknown as () => void)).toThrow(TypeError);
  });
});

describe('menu commands', () => {
  it('reach a listener as the command alone, never the IPC event', () => {
    const listener = vi.fn();
    const stop = planner.onMenuCommand(listener);
    fake.ipcRenderer.emit('planner:menu', { sender: fake.ipcRenderer, ports: [] }, { command: 'undo' });
    expect(listener).toHaveBeenCalledExactlyOnceWith('undo');
    stop();
    fake.ipcRenderer.emit('planner:menu', {}, { command: 'redo' });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('need a listener function', () => {
    expect(() => planner.onMenuCommand(null as unknown as () => void)).toThrow(TypeError);
    expect(fake.ipcRenderer.listenerCount('planner:menu')).toBe(0);
  });
});

describe('the desktop requests', () => {
  const calls: [string, () => Promise<unknown>, unknown[]][] = [
    [
      'saveFile',
      () => planner.saveFile({ format: 'csv', suggestedName: 'h.csv', data: '' }),
      [shellChannels.saveFile, { format: 'csv', suggestedName: 'h.csv', data: '' }],
    ],
    ['openAttachment', () => planner.openAttachment({ extensions: ['pdf'] }), [shellChannels.openAttachment, { extensions: ['pdf'] }]],
    ['backup', () => planner.backup(), [shellChannels.backup]],
    ['restore', () => planner.restore(), [shellChannels.restore]],
    [
      'signIn',
      () => planner.signIn({ remote_url: 'https://p.example', client_id: 'desktop' }),
      [shellChannels.signIn, { remote_url: 'https://p.example', client_id: 'desktop' }],
    ],
    ['getShellSettings', () => planner.getShellSettings(), [shellChannels.getSettings]],
    ['setShellSettings', () => planner.setShellSettings({ language: 'nl' }), [shellChannels.setSettings, { language: 'nl' }]],
    ['reportError', () => planner.reportError({ message: 'x' }), [shellChannels.reportError, { message: 'x' }]],
    ['getLocalApi', () => planner.getLocalApi(), [shellChannels.localApiState]],
    ['changeLocalApi', () => planner.changeLocalApi({ enabled: true }), [shellChannels.changeLocalApi, { enabled: true }]],
    ['newLocalApiKey', () => planner.newLocalApiKey(), [shellChannels.newLocalApiKey]],
    ['getWorkshop', () => planner.getWorkshop(), [shellChannels.workshopState]],
    ['changeWorkshop', () => planner.changeWorkshop({ enabled: true }), [shellChannels.changeWorkshop, { enabled: true }]],
    ['newPairingCode', () => planner.newPairingCode(), [shellChannels.newPairingCode]],
    ['revokeDevice', () => planner.revokeDevice('d1'), [shellChannels.revokeDevice, { id: 'd1' }]],
    ['getDataFolder', () => planner.getDataFolder(), [shellChannels.dataFolder]],
    ['openDataFolder', () => planner.openDataFolder(), [shellChannels.openDataFolder]],
    [
      'notify',
      () => planner.notify({ title: 'Late', body: 'SO-1', tag: 'exceptions' }),
      [shellChannels.notify, { title: 'Late', body: 'SO-1', tag: 'exceptions' }],
    ],
  ];

  it.each(calls)('%s invokes its one channel with the payload as given', async (_name, call, expected) => {
    fake.ipcRenderer.invoke.mockClear();
    await call();
    expect(fake.ipcRenderer.invoke).toHaveBeenCalledExactlyOnceWith(...expected);
  });
});

describe('errors the page does not catch', () => {
  it('are reported to main from the window’s error and unhandledrejection events, as strings', async () => {
    const { watchPageErrors } = (await import('../../electron/preload/index.js')) as unknown as {
      watchPageErrors(page: EventTarget): void;
    };
    const page = new EventTarget();
    watchPageErrors(page);
    fake.ipcRenderer.invoke.mockClear();
    page.dispatchEvent(
      Object.assign(new Event('error'), {
        message: 'x is not a function',
        filename: 'app://planner/assets/index.js',
        lineno: 3,
        colno: 9,
        error: new Error('x is not a function'),
      }),
    );
    page.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: new Error('save failed') }));
    page.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: null }));
    expect(fake.ipcRenderer.invoke.mock.calls).toEqual([
      [
        shellChannels.reportError,
        {
          message: 'x is not a function (app://planner/assets/index.js:3:9)',
          source: 'window.onerror',
          stack: expect.stringContaining('x is not a function'),
        },
      ],
      [shellChannels.reportError, { message: 'save failed', source: 'unhandledrejection', stack: expect.any(String) }],
      [shellChannels.reportError, { message: 'A promise was rejected and nothing handled it', source: 'unhandledrejection' }],
    ]);
  });
});
