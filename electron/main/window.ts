/**
 * The app window, and the rules every web contents lives by: it stays on the app's own pages,
 * opens no windows of its own and embeds no <webview>. A page that could navigate elsewhere
 * would take the preload bridge (and so the planner's data) with it.
 */
import { BrowserWindow, shell, type HandlerDetails, type Rectangle, type WebContents, type WindowOpenHandlerResponse } from 'electron';
import { isAppUrl } from './protocol.js';
import { secureWebPreferences } from './security.js';
import { minWindowSize } from './window-state.js';

export interface MainWindowOptions {
  /** The built preload script (CommonJS, because sandboxed preloads cannot be ES modules). */
  preload: string;
  url: string;
  /** Where it was last time (already checked against the displays there are now). */
  bounds?: Rectangle;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    ...options.bounds,
    minWidth: minWindowSize.width,
    minHeight: minWindowSize.height,
    title: 'Planner',
    // Shown once painted, so the planner never sees a blank white frame at start.
    show: false,
    webPreferences: { ...secureWebPreferences, preload: options.preload },
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(options.url).catch((error: unknown) => {
    console.error(`The app page ${options.url} did not load:`, error);
  });
  return window;
}

/**
 * Applied from `web-contents-created`, so it also covers contents nobody here created
 * (devtools, a window some future code opens) rather than relying on each caller to remember.
 */
export function hardenWebContents(contents: WebContents): void {
  const stayInApp = (event: { url: string; preventDefault(): void }) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  };
  // will-navigate covers the main frame; will-frame-navigate also covers iframes.
  contents.on('will-navigate', stayInApp);
  contents.on('will-frame-navigate', stayInApp);
  contents.setWindowOpenHandler(denyWindowOpen);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/**
 * A link with target=_blank still does what the planner expects (the page opens in their
 * browser), but only for web links: other schemes (file:, smb:, custom handlers) can start
 * programs, so they are dropped.
 */
export function denyWindowOpen(details: HandlerDetails): WindowOpenHandlerResponse {
  if (isWebUrl(details.url)) {
    shell.openExternal(details.url).catch((error: unknown) => {
      console.error('Could not open the link in the browser:', error);
    });
  }
  return { action: 'deny' };
}

function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
