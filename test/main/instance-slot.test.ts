/**
 * The slot the bridge talks through: a restore swaps the instance under it, requests that
 * arrive meanwhile wait for the new one, and change listeners move over.
 */
import { describe, expect, it, vi } from 'vitest';
import { InstanceSlot, type SlotInstance } from '../../electron/main/instance-slot.js';
import type { BridgeRequest, ChangeEvent } from '../../shared/ipc.js';

vi.mock('electron', () => ({}));

function fakeInstance(name: string) {
  const listeners = new Set<(events: ChangeEvent[]) => void>();
  return {
    name,
    closed: false,
    request: vi.fn(async (request: BridgeRequest) => ({ status: 200, headers: {}, body: { from: name, path: request.path } })),
    onChange: vi.fn((listener: (events: ChangeEvent[]) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
    close: vi.fn(async function (this: { closed: boolean }) {
      this.closed = true;
    }),
    emit: (events: ChangeEvent[]) => listeners.forEach((listener) => listener(events)),
    listenerCount: () => listeners.size,
  } satisfies SlotInstance & Record<string, unknown>;
}

const change: ChangeEvent[] = [{ resource: 'project', id: '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', op: 'create' }];

describe('the instance slot', () => {
  it('answers requests with the current instance', async () => {
    const slot = new InstanceSlot(Promise.resolve(fakeInstance('first')));
    await expect(slot.request({ method: 'GET', path: '/v1/project' })).resolves.toMatchObject({ body: { from: 'first' } });
  });

  it('holds requests made during a swap and answers them from the new instance', async () => {
    const first = fakeInstance('first');
    const second = fakeInstance('second');
    const slot = new InstanceSlot(Promise.resolve(first));
    let finish!: () => void;
    const swapping = slot.replace(async (old) => {
      await old.close();
      await new Promise<void>((resolve) => (finish = resolve));
      return second;
    });
    const during = slot.request({ method: 'GET', path: '/v1/project' });
    await vi.waitFor(() => expect(first.close).toHaveBeenCalled());
    finish();
    await swapping;
    await expect(during).resolves.toMatchObject({ body: { from: 'second' } });
    expect(first.request).not.toHaveBeenCalled();
  });

  it('moves change listeners to the new instance and lets go of the old one', async () => {
    const first = fakeInstance('first');
    const second = fakeInstance('second');
    const slot = new InstanceSlot(Promise.resolve(first));
    const listener = vi.fn();
    slot.onChange(listener);
    await slot.get();
    first.emit(change);
    await slot.replace(async () => second);
    expect(first.listenerCount()).toBe(0);
    second.emit(change);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('keeps calling the other listeners when one throws', async () => {
    const first = fakeInstance('first');
    const slot = new InstanceSlot(Promise.resolve(first));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const good = vi.fn();
    slot.onChange(() => {
      throw new Error('window gone');
    });
    slot.onChange(good);
    await slot.get();
    expect(() => first.emit(change)).not.toThrow();
    expect(good).toHaveBeenCalled();
    vi.mocked(console.error).mockRestore();
  });

  it('closes the instance once', async () => {
    const first = fakeInstance('first');
    const slot = new InstanceSlot(Promise.resolve(first));
    await slot.close();
    await slot.close();
    expect(first.close).toHaveBeenCalledTimes(1);
  });

  it('reports an instance that failed to open through get(), without an unhandled rejection', async () => {
    const slot = new InstanceSlot<ReturnType<typeof fakeInstance>>(Promise.reject(new Error('database is locked')));
    await expect(slot.get()).rejects.toThrow('database is locked');
    await expect(slot.close()).resolves.toBeUndefined();
  });
});
