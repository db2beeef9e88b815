/**
 * Closing the window with changes not yet sent to the remote: asked, or synced first,
 * according to the `closeWithPending` setting; never silent, never trapping the planner.
 */
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserWindow, MessageBoxOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { guardClose, mayClose, type CloseGuardOptions } from '../../electron/main/close-guard.js';
import { translator } from '../../electron/main/messages.js';
import { MemoryVault } from '../../electron/sync/credentials.js';
import type { ShellSettings } from '../../shared/ipc.js';
import type { SyncRunSummary } from '../../shared/sync.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

const window = {} as BrowserWindow;
const buttons = { syncNow: 0, quitAnyway: 1, cancel: 2 };

/** A local instance as close-guard sees it: a sync status and a sync run. */
function fakeInstance(pendingSequence: number[], options: { configured?: boolean; run?: () => Promise<Partial<SyncRunSummary>> } = {}) {
  const pending = [...pendingSequence];
  const request = vi.fn(async () => ({
    status: 200,
    headers: {},
    body: {
      configured: options.configured ?? true,
      remote_url: 'https://planner.example.com',
      pending: pending.length > 1 ? pending.shift()! : pending[0]!,
      last_error: null,
    },
  }));
  const run = vi.fn(options.run ?? (async () => ({ error: null })));
  return { request, sync: { run } } as unknown as Pick<LocalInstance, 'request' | 'sync'> & {
    request: typeof request;
    sync: { run: typeof run };
  };
}

function guard(
  instance: Pick<LocalInstance, 'request' | 'sync'>,
  closeWithPending: ShellSettings['closeWithPending'],
  answers: number[] = [],
  language: 'en' | 'nl' = 'en',
) {
  const showMessageBox = vi.fn(async (_window: unknown, _options: MessageBoxOptions) => ({
    response: answers.shift() ?? buttons.cancel,
    checkboxChecked: false,
  }));
  const options: CloseGuardOptions = {
    instance: async () => instance,
    settings: () => ({ language: 'system', closeWithPending }),
    t: () => translator(language),
    dialog: { showMessageBox } as unknown as CloseGuardOptions['dialog'],
    syncTimeoutMs: 200,
  };
  return { options, showMessageBox };
}

describe('deciding whether the window may close', () => {
  it('closes at once with nothing pending', async () => {
    const { options, showMessageBox } = guard(fakeInstance([0]), 'ask');
    await expect(mayClose(window, options)).resolves.toBe(true);
    expect(showMessageBox).not.toHaveBeenCalled();
  });

  it('closes at once when no remote is set up (nothing could be sent anyway)', async () => {
    const instance = fakeInstance([12], { configured: false });
    const { options, showMessageBox } = guard(instance, 'ask');
    await expect(mayClose(window, options)).resolves.toBe(true);
    expect(showMessageBox).not.toHaveBeenCalled();
    expect(instance.sync.run).not.toHaveBeenCalled();
  });

  it('reads the pending count from the API’s sync status', async () => {
    const instance = fakeInstance([0]);
    await mayClose(window, guard(instance, 'ask').options);
    expect(instance.request).toHaveBeenCalledWith({ method: 'GET', path: '/v1/sync/status' });
  });

  describe('with "ask"', () => {
    it('asks with Sync now / Quit anyway / Cancel, saying how many changes wait', async () => {
      const { options, showMessageBox } = guard(fakeInstance([3]), 'ask', [buttons.quitAnyway]);
      await expect(mayClose(window, options)).resolves.toBe(true);
      const [parent, box] = showMessageBox.mock.calls[0]!;
      expect(parent).toBe(window);
      expect(box).toMatchObject({
        type: 'warning',
        message: 'Changes not sent to https://planner.example.com yet: 3.',
        buttons: ['Sync now', 'Quit anyway', 'Cancel'],
        defaultId: 0,
        cancelId: 2,
      });
    });

    it('stays open on Cancel', async () => {
      const instance = fakeInstance([3]);
      const { options } = guard(instance, 'ask', [buttons.cancel]);
      await expect(mayClose(window, options)).resolves.toBe(false);
      expect(instance.sync.run).not.toHaveBeenCalled();
    });

    it('syncs on Sync now and closes once nothing is pending', async () => {
      const instance = fakeInstance([3, 0]);
      const { options, showMessageBox } = guard(instance, 'ask', [buttons.syncNow]);
      await expect(mayClose(window, options)).resolves.toBe(true);
      expect(instance.sync.run).toHaveBeenCalledTimes(1);
      expect(showMessageBox).toHaveBeenCalledTimes(1);
    });

    it('asks again, with the reason, when Sync now could not send everything', async () => {
      const instance = fakeInstance([3, 3], { run: async () => ({ error: 'the remote could not be reached (ECONNREFUSED)' }) });
      const { options, showMessageBox } = guard(instance, 'ask', [buttons.syncNow, buttons.cancel]);
      await expect(mayClose(window, options)).resolves.toBe(false);
      expect(showMessageBox).toHaveBeenCalledTimes(2);
      expect(showMessageBox.mock.calls[1]![1].detail).toMatch(/Syncing did not finish: the remote could not be reached \(ECONNREFUSED\)/);
    });

    it('speaks the planner’s language', async () => {
      const { options, showMessageBox } = guard(fakeInstance([2]), 'ask', [buttons.cancel], 'nl');
      await mayClose(window, options);
      expect(showMessageBox.mock.calls[0]![1]).toMatchObject({
        title: 'Wijzigingen nog niet gesynchroniseerd',
        buttons: ['Nu synchroniseren', 'Toch afsluiten', 'Annuleren'],
      });
    });
  });

  describe('with "sync-first"', () => {
    it('syncs without asking and closes when everything went out', async () => {
      const instance = fakeInstance([5, 0]);
      const { options, showMessageBox } = guard(instance, 'sync-first');
      await expect(mayClose(window, options)).resolves.toBe(true);
      expect(instance.sync.run).toHaveBeenCalledTimes(1);
      expect(showMessageBox).not.toHaveBeenCalled();
    });

    it('asks after all when the sync takes longer than the time limit', async () => {
      const instance = fakeInstance([5, 5], { run: () => new Promise(() => {}) });
      const { options, showMessageBox } = guard(instance, 'sync-first', [buttons.quitAnyway]);
      const started = Date.now();
      await expect(mayClose(window, options)).resolves.toBe(true);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(showMessageBox.mock.calls[0]![1].detail).toMatch(/Syncing did not finish: no answer within 1 s/);
    });
  });
});

describe('the close event', () => {
  class FakeWindow extends EventEmitter {
    destroyed = false;
    isDestroyed = () => this.destroyed;
    close = vi.fn(() => {
      const event = { preventDefault: vi.fn() };
      this.emit('close', event);
      if (!event.preventDefault.mock.calls.length) this.destroyed = true;
    });
  }

  it('is held while deciding, then the window closes when it may', async () => {
    const fake = new FakeWindow();
    const decided = vi.fn();
    const { options } = guard(fakeInstance([3]), 'ask', [buttons.quitAnyway]);
    guardClose(fake as unknown as BrowserWindow, options, decided);
    const first = { preventDefault: vi.fn() };
    fake.emit('close', first);
    expect(first.preventDefault).toHaveBeenCalled();
    // A second close while the dialog is up is held too, and asks nothing more.
    const second = { preventDefault: vi.fn() };
    fake.emit('close', second);
    expect(second.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(fake.destroyed).toBe(true));
    expect(decided).toHaveBeenCalledExactlyOnceWith(true);
  });

  it('keeps the window when the planner cancels', async () => {
    const fake = new FakeWindow();
    const decided = vi.fn();
    guardClose(fake as unknown as BrowserWindow, guard(fakeInstance([3]), 'ask', [buttons.cancel]).options, decided);
    fake.emit('close', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(decided).toHaveBeenCalledWith(false));
    expect(fake.close).not.toHaveBeenCalled();
    expect(fake.destroyed).toBe(false);
  });

  it('closes anyway when the check itself fails, so the planner is never trapped', async () => {
    const fake = new FakeWindow();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = {
      request: vi.fn(async () => Promise.reject(new Error('database is closed'))),
      sync: { run: vi.fn() },
    } as unknown as LocalInstance;
    guardClose(fake as unknown as BrowserWindow, guard(broken, 'ask').options);
    fake.emit('close', { preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.destroyed).toBe(true));
    vi.mocked(console.error).mockRestore();
  });
});

describe('with a real local instance and a remote that is down', () => {
  let folder: string;
  let instance: LocalInstance;

  beforeEach(async () => {
    folder = tempDir();
    instance = await openLocalInstance(join(folder, 'data'), {
      vault: new MemoryVault({ remote_url: 'http://127.0.0.1:9', api_env: 'demo', api_key: 'key' }),
      syncTiming: { pushDelayMs: 60_000, pullIntervalMs: 60_000, backoffMs: 60_000, requestTimeoutMs: 500 },
    });
    await instance.request({ method: 'POST', path: '/v1/project', body: { name: 'Unsent' } });
  });

  afterEach(async () => {
    await instance.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('tries to sync first, then asks, saying why the changes are still here', async () => {
    const { options, showMessageBox } = guard(instance, 'sync-first', [buttons.cancel]);
    options.syncTimeoutMs = 5000;
    await expect(mayClose(window, options)).resolves.toBe(false);
    const box = showMessageBox.mock.calls[0]![1];
    expect(box.message).toBe('Changes not sent to http://127.0.0.1:9 yet: 1.');
    expect(box.detail).toMatch(/Syncing did not finish: the remote could not be reached/);
  });
});
