/**
 * The window and session hardening of docs/architecture.md "Electron security", checked against small fakes of the
 * Electron objects the code hands its handlers to.
 */
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HandlerDetails, Session, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { contentSecurityPolicy, secureSession, secureWebPreferences } from '../../electron/main/security.js';
import { createMainWindow, denyWindowOpen, hardenWebContents } from '../../electron/main/window.js';

const fake = vi.hoisted(() => {
  class FakeBrowserWindow {
    static made: FakeBrowserWindow[] = [];
    readonly loadURL = vi.fn(() => Promise.resolve());
    readonly show = vi.fn();
    readonly once = vi.fn((event: string, listener: () => void) => void this.listeners.set(event, listener));
    readonly listeners = new Map<string, () => void>();
    constructor(readonly options: Record<string, unknown>) {
      FakeBrowserWindow.made.push(this);
    }
  }
  return { FakeBrowserWindow, openExternal: vi.fn(() => Promise.resolve()) };
});

vi.mock('electron', () => ({
  BrowserWindow: fake.FakeBrowserWindow,
  shell: { openExternal: fake.openExternal },
  protocol: {},
}));

beforeEach(() => {
  fake.openExternal.mockClear();
  fake.FakeBrowserWindow.made.length = 0;
});

describe('web preferences', () => {
  it('are exactly the hardened ones', () => {
    expect(secureWebPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(Object.isFrozen(secureWebPreferences)).toBe(true);
  });

  it('are what the main window is made with, plus the preload', () => {
    createMainWindow({ preload: '/app/out/preload/index.cjs', url: 'app://planner/index.html' });
    const [window] = fake.FakeBrowserWindow.made;
    expect(window!.options.webPreferences).toEqual({ ...secureWebPreferences, preload: '/app/out/preload/index.cjs' });
  });

  it('enable no Blink feature and no extra power', () => {
    expect(secureWebPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(secureWebPreferences).not.toHaveProperty('additionalArguments');
    expect(
      Object.entries(secureWebPreferences)
        .filter(([, value]) => value === true)
        .map(([key]) => key)
        .sort(),
    ).toEqual(['contextIsolation', 'sandbox', 'webSecurity']);
  });

  it('stay the hardened ones when the window reopens at a remembered position', () => {
    createMainWindow({ preload: '/p.cjs', url: 'app://planner/index.html', bounds: { x: 10, y: 20, width: 900, height: 600 } });
    const [window] = fake.FakeBrowserWindow.made;
    expect(window!.options).toMatchObject({ x: 10, y: 20, width: 900, height: 600, minWidth: 800, minHeight: 500 });
    expect(window!.options.webPreferences).toEqual({ ...secureWebPreferences, preload: '/p.cjs' });
  });

  it('the main window loads the app page and shows itself only once painted', () => {
    createMainWindow({ preload: '/p.cjs', url: 'app://planner/index.html' });
    const [window] = fake.FakeBrowserWindow.made;
    expect(window!.options.show).toBe(false);
    expect(window!.loadURL).toHaveBeenCalledWith('app://planner/index.html');
    expect(window!.show).not.toHaveBeenCalled();
    window!.listeners.get('ready-to-show')!();
    expect(window!.show).toHaveBeenCalled();
  });
});

describe('web contents', () => {
  class FakeContents extends EventEmitter {
    windowOpenHandler?: (details: HandlerDetails) => unknown;
    setWindowOpenHandler(handler: (details: HandlerDetails) => unknown) {
      this.windowOpenHandler = handler;
    }
  }
  function hardened(): FakeContents {
    const contents = new FakeContents();
    hardenWebContents(contents as unknown as WebContents);
    return contents;
  }
  function navigate(contents: FakeContents, event: 'will-navigate' | 'will-frame-navigate', url: string): boolean {
    const details = { url, preventDefault: vi.fn() };
    contents.emit(event, details);
    return details.preventDefault.mock.calls.length > 0;
  }
  const opening = (url: string) => ({ url, frameName: '', features: '', disposition: 'foreground-tab' }) as HandlerDetails;

  it.each(['will-navigate', 'will-frame-navigate'] as const)('%s to another origin is prevented', (event) => {
    const contents = hardened();
    expect(navigate(contents, event, 'https://evil.example/')).toBe(true);
    expect(navigate(contents, event, 'file:///etc/passwd')).toBe(true);
    expect(navigate(contents, event, 'app://planner.evil.example/')).toBe(true);
    expect(navigate(contents, event, 'not a url')).toBe(true);
  });

  it('navigation within the app is left alone', () => {
    const contents = hardened();
    expect(navigate(contents, 'will-navigate', 'app://planner/index.html')).toBe(false);
  });

  it('the window-open handler denies every new window', () => {
    const contents = hardened();
    for (const url of ['app://planner/index.html', 'https://example.com/', 'file:///etc/passwd', 'about:blank']) {
      expect(contents.windowOpenHandler!(opening(url))).toEqual({ action: 'deny' });
    }
  });

  it('opens http and https links in the system browser instead', () => {
    denyWindowOpen(opening('https://example.com/help'));
    denyWindowOpen(opening('http://example.com/'));
    expect(fake.openExternal.mock.calls).toEqual([['https://example.com/help'], ['http://example.com/']]);
  });

  it('never hands other schemes to the system', () => {
    for (const url of ['file:///bin/sh', 'smb://host/share', 'javascript:alert(1)', 'ms-msdt:/id', 'not a url']) {
      expect(denyWindowOpen(opening(url))).toEqual({ action: 'deny' });
    }
    expect(fake.openExternal).not.toHaveBeenCalled();
  });

  it('refuses to attach a <webview>', () => {
    const contents = hardened();
    const event = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', event, {}, { src: 'https://evil.example/' });
    expect(event.preventDefault).toHaveBeenCalled();
  });
});

describe('session', () => {
  function securedSession() {
    let requestHandler: ((...args: unknown[]) => void) | undefined;
    let checkHandler: ((...args: unknown[]) => boolean) | undefined;
    let headersListener: ((...args: unknown[]) => void) | undefined;
    const session = {
      setPermissionRequestHandler: (handler: typeof requestHandler) => (requestHandler = handler),
      setPermissionCheckHandler: (handler: typeof checkHandler) => (checkHandler = handler),
      webRequest: { onHeadersReceived: (listener: typeof headersListener) => (headersListener = listener) },
    };
    secureSession(session as unknown as Session);
    return { requestHandler: requestHandler!, checkHandler: checkHandler!, headersListener: headersListener! };
  }

  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'hid'])(
    'calls back false for a %s permission request',
    (permission) => {
      const callback = vi.fn();
      securedSession().requestHandler({}, permission, callback, {});
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
    },
  );

  it('answers every permission check with false', () => {
    const { checkHandler } = securedSession();
    for (const permission of ['media', 'fullscreen', 'serial', 'usb']) {
      expect(checkHandler(null, permission, 'app://planner', {})).toBe(false);
    }
  });

  it('adds the CSP to every response, keeping the headers already there', () => {
    const callback = vi.fn();
    securedSession().headersListener({ url: 'app://planner/index.html', responseHeaders: { 'Content-Type': ['text/html'] } }, callback);
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [contentSecurityPolicy] },
    });
  });
});

describe('content security policy', () => {
  it('allows only the app itself and forbids plugins, eval and framing', () => {
    const directives = contentSecurityPolicy.split('; ');
    expect(directives).toContain("default-src 'self'");
    expect(directives).toContain("script-src 'self'");
    expect(directives).toContain("object-src 'none'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(directives).toContain("base-uri 'none'");
    expect(contentSecurityPolicy).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy).not.toMatch(/https?:|\*/);
  });
});

describe('IPC registrations in main', () => {
  const mainDir = resolve(import.meta.dirname, '../../electron/main');
  const sources = readdirSync(mainDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file: file.split('\\').join('/'), text: readFileSync(join(mainDir, file), 'utf8') }));

  it('happen only in the two modules that check the sender first', () => {
    const handling = sources.filter(({ text }) => /ipcMain\.handle\(/.test(text)).map(({ file }) => file);
    expect(handling.sort()).toEqual(['ipc.ts', 'shell-ipc.ts']);
    expect(readFileSync(join(mainDir, 'shell-ipc.ts'), 'utf8')).toMatch(/if \(!isTrustedSender\(event\)\) throw/);
    expect(readFileSync(join(mainDir, 'ipc.ts'), 'utf8')).toMatch(/if \(!isTrustedSender\(event\)\)/);
  });

  it('never listen with ipcMain.on (fire-and-forget messages would skip the invoke checks)', () => {
    expect(sources.filter(({ text }) => /ipcMain\.on\(|ipcMain\.once\(|\.handleOnce\(/.test(text)).map(({ file }) => file)).toEqual([]);
  });

  it('hand shell.openExternal only URLs main checked', () => {
    const opening = sources.filter(({ text }) => /openExternal\(/.test(text)).map(({ file }) => file);
    // window.ts checks http(s); index.ts opens the authorize URL built from a checked https remote.
    expect(opening.sort()).toEqual(['index.ts', 'window.ts']);
  });
});
