/**
 * What the preload puts into the page: `window.planner` with `request` and `onChange`, and
 * nothing that leaks ipcRenderer or its event objects.
 */
import type { EventEmitter } from 'node:events';
import { beforeAll, describe, expect, it, vi, type Mock } from 'vitest';
import type { ChangeEvent, PlannerBridge } from '../../shared/ipc.js';

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
  it('exposes exactly request and onChange, as window.planner', () => {
    expect(fake.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect(fake.exposeInMainWorld.mock.calls[0]![0]).toBe('planner');
    expect(Object.keys(planner).sort()).toEqual(['onChange', 'request']);
    expect(typeof planner.request).toBe('function');
    expect(typeof planner.onChange).toBe('function');
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

  it('listens on no channel but the change channel', () => {
    const stop = planner.onChange(() => {});
    expect(fake.ipcRenderer.eventNames()).toEqual(['planner:change']);
    stop();
  });

  it('refuses a listener that is not a function', () => {
    expect(() => planner.onChange('alert(1)' as unknown as () => void)).toThrow(TypeError);
    expect(fake.ipcRenderer.listenerCount('planner:change')).toBe(0);
  });
});
