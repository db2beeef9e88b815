/**
 * The whole surface the renderer gets: `window.planner`, an API client, a change feed, menu
 * commands and the desktop's own few requests (file dialogs, backup, sign-in, settings, error
 * reports, the local API). ipcRenderer itself and its event objects never cross into the page, since either
 * would let page script send on any channel or reach `event.sender`. Each method sends on
 * exactly one fixed channel; main checks the sender and the payload of each.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  bridgeChannels,
  shellChannels,
  type ChangeEvent,
  type ErrorReport,
  type MenuCommandMessage,
  type PlannerBridge,
} from '../../shared/ipc.js';

/** One listener on one main → renderer channel, unwrapped from the IPC event. */
function subscribe<T>(channel: string, listener: (message: T) => void, name: string): () => void {
  if (typeof listener !== 'function') throw new TypeError(`${name} needs a listener function`);
  // A wrapper per subscription, so unsubscribing removes exactly this one and the page only
  // ever sees the message, not the IPC event.
  const forward = (_event: IpcRendererEvent, message: T) => listener(message);
  ipcRenderer.on(channel, forward);
  return () => {
    ipcRenderer.removeListener(channel, forward);
  };
}

const bridge: PlannerBridge = {
  request(request) {
    return ipcRenderer.invoke(bridgeChannels.request, request);
  },
  onChange(listener) {
    return subscribe<ChangeEvent[]>(bridgeChannels.change, listener, 'onChange');
  },
  onMenuCommand(listener) {
    if (typeof listener !== 'function') throw new TypeError('onMenuCommand needs a listener function');
    return subscribe<MenuCommandMessage>(shellChannels.menu, (message) => listener(message.command), 'onMenuCommand');
  },
  saveFile(request) {
    return ipcRenderer.invoke(shellChannels.saveFile, request);
  },
  openAttachment(request) {
    return ipcRenderer.invoke(shellChannels.openAttachment, request);
  },
  backup() {
    return ipcRenderer.invoke(shellChannels.backup);
  },
  restore() {
    return ipcRenderer.invoke(shellChannels.restore);
  },
  signIn(request) {
    return ipcRenderer.invoke(shellChannels.signIn, request);
  },
  getShellSettings() {
    return ipcRenderer.invoke(shellChannels.getSettings);
  },
  setShellSettings(changes) {
    return ipcRenderer.invoke(shellChannels.setSettings, changes);
  },
  reportError(report) {
    return ipcRenderer.invoke(shellChannels.reportError, report);
  },
  getLocalApi() {
    return ipcRenderer.invoke(shellChannels.localApiState);
  },
  changeLocalApi(change) {
    return ipcRenderer.invoke(shellChannels.changeLocalApi, change);
  },
  newLocalApiKey() {
    return ipcRenderer.invoke(shellChannels.newLocalApiKey);
  },
  getWorkshop() {
    return ipcRenderer.invoke(shellChannels.workshopState);
  },
  changeWorkshop(change) {
    return ipcRenderer.invoke(shellChannels.changeWorkshop, change);
  },
  newPairingCode() {
    return ipcRenderer.invoke(shellChannels.newPairingCode);
  },
  revokeDevice(id) {
    return ipcRenderer.invoke(shellChannels.revokeDevice, { id });
  },
  getDataFolder() {
    return ipcRenderer.invoke(shellChannels.dataFolder);
  },
  openDataFolder() {
    return ipcRenderer.invoke(shellChannels.openDataFolder);
  },
  notify(notice) {
    return ipcRenderer.invoke(shellChannels.notify, notice);
  },
  onNoticeClick(listener) {
    return subscribe<string>(shellChannels.noticeClicked, listener, 'onNoticeClick');
  },
};

contextBridge.exposeInMainWorld('planner', bridge);

/**
 * Errors the page does not catch reach main's log (and a dialog) even before the page wires
 * up its own reporting. The DOM is shared with the page, so its error events arrive here too.
 * Only strings are read from them: values from the page's world may be withheld (Chromium
 * gives an isolated world `null` for another world's error objects) or be hostile.
 */
interface PageErrorEvent {
  message?: unknown;
  filename?: unknown;
  lineno?: unknown;
  colno?: unknown;
  error?: unknown;
}
interface PageRejectionEvent {
  reason?: unknown;
}
interface PageEvents {
  addEventListener(type: 'error', listener: (event: PageErrorEvent) => void): void;
  addEventListener(type: 'unhandledrejection', listener: (event: PageRejectionEvent) => void): void;
}

function describe(value: unknown): { message?: string; stack?: string } {
  try {
    if (typeof value === 'string') return { message: value };
    if (typeof value === 'object' && value !== null) {
      const { message, stack } = value as { message?: unknown; stack?: unknown };
      return { ...(typeof message === 'string' ? { message } : {}), ...(typeof stack === 'string' ? { stack } : {}) };
    }
  } catch {
    // A getter that throws: report without it.
  }
  return {};
}

function reportUncaught(report: ErrorReport): void {
  ipcRenderer.invoke(shellChannels.reportError, report).catch(() => {
    // Main is gone or refused: nothing more can be done from here.
  });
}

export function watchPageErrors(page: PageEvents): void {
  page.addEventListener('error', (event) => {
    const { stack } = describe(event.error);
    const where =
      typeof event.filename === 'string' && event.filename ? ` (${event.filename}:${String(event.lineno)}:${String(event.colno)})` : '';
    const message = typeof event.message === 'string' && event.message ? event.message : 'Script error';
    reportUncaught({ message: `${message}${where}`, source: 'window.onerror', ...(stack ? { stack } : {}) });
  });
  page.addEventListener('unhandledrejection', (event) => {
    const { message, stack } = describe(event.reason);
    reportUncaught({
      message: message || 'A promise was rejected and nothing handled it',
      source: 'unhandledrejection',
      ...(stack ? { stack } : {}),
    });
  });
}

const page = (globalThis as { window?: PageEvents }).window;
if (page) watchPageErrors(page);
