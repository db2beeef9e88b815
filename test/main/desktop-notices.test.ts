/**
 * Desktop notifications shown for the page (electron/main/desktop-notices.ts): main shows the
 * system's notification, keeps it until it closes, and a click brings the asking window to the
 * front and hands its page the notice's tag. Only `electron` is faked, as it cannot run here.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { showDesktopNotice } from '../../electron/main/desktop-notices.js';
import { shellChannels } from '../../shared/ipc.js';

const fake = vi.hoisted(() => {
  class FakeNotification {
    static supported = true;
    static made: FakeNotification[] = [];
    static isSupported = () => FakeNotification.supported;
    readonly handlers = new Map<string, () => void>();
    shown = 0;
    constructor(readonly options: { title: string; body: string }) {
      FakeNotification.made.push(this);
    }
    on(event: string, handler: () => void) {
      this.handlers.set(event, handler);
      return this;
    }
    show() {
      this.shown++;
    }
  }
  class FakeBrowserWindow {
    static all: FakeBrowserWindow[] = [];
    static getAllWindows = () => FakeBrowserWindow.all;
    url = 'app://planner/index.html';
    minimized = true;
    destroyed = false;
    readonly calls: string[] = [];
    readonly webContents = { send: vi.fn(), isDestroyed: () => false, getURL: () => this.url };
    isDestroyed = () => this.destroyed;
    isMinimized = () => this.minimized;
    restore = () => this.calls.push('restore');
    show = () => this.calls.push('show');
    focus = () => this.calls.push('focus');
  }
  return { FakeNotification, FakeBrowserWindow };
});

vi.mock('electron', () => ({ Notification: fake.FakeNotification, BrowserWindow: fake.FakeBrowserWindow, protocol: {} }));

const notice = { title: '3 new exceptions', body: 'SO-1 will be late', tag: 'exceptions' };

beforeEach(() => {
  fake.FakeNotification.made = [];
  fake.FakeNotification.supported = true;
  fake.FakeBrowserWindow.all = [];
});

describe('a desktop notice', () => {
  it('is shown once with the title and body the page gave', () => {
    const window = new fake.FakeBrowserWindow();
    expect(showDesktopNotice(window as never, notice)).toEqual({ shown: true });
    expect(fake.FakeNotification.made).toHaveLength(1);
    const [shown] = fake.FakeNotification.made;
    expect(shown!.options).toEqual({ title: notice.title, body: notice.body });
    expect(shown!.shown).toBe(1);
  });

  it('clicked, brings the asking window up and tells its page the tag', () => {
    const window = new fake.FakeBrowserWindow();
    showDesktopNotice(window as never, notice);
    fake.FakeNotification.made[0]!.handlers.get('click')!();
    expect(window.calls).toEqual(['restore', 'show', 'focus']);
    expect(window.webContents.send).toHaveBeenCalledExactlyOnceWith(shellChannels.noticeClicked, 'exceptions');
  });

  it('clicked after its window closed, goes to the window there is', () => {
    const gone = new fake.FakeBrowserWindow();
    const other = new fake.FakeBrowserWindow();
    fake.FakeBrowserWindow.all = [other];
    showDesktopNotice(gone as never, notice);
    gone.destroyed = true;
    fake.FakeNotification.made[0]!.handlers.get('click')!();
    expect(gone.webContents.send).not.toHaveBeenCalled();
    expect(other.webContents.send).toHaveBeenCalledExactlyOnceWith(shellChannels.noticeClicked, 'exceptions');
  });

  it('clicked while the window shows another page, tells that page nothing', () => {
    const window = new fake.FakeBrowserWindow();
    window.url = 'https://elsewhere.example/';
    showDesktopNotice(window as never, notice);
    fake.FakeNotification.made[0]!.handlers.get('click')!();
    expect(window.webContents.send).not.toHaveBeenCalled();
  });

  it('is not shown, and says so, where the system has no notifications', () => {
    fake.FakeNotification.supported = false;
    expect(showDesktopNotice(new fake.FakeBrowserWindow() as never, notice)).toEqual({ shown: false });
    expect(fake.FakeNotification.made).toHaveLength(0);
  });
});
