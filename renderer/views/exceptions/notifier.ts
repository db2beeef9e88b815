/**
 * Where a notification goes (docs/API.md "Notifications"): in the desktop app, the system's
 * notifications through the shell (window.planner.notify), since the page itself is refused
 * every web permission; in the browser host, the browser's Notification, once the planner
 * allowed it for the page.
 */
import type { DesktopNotice } from '../../../shared/ipc.js';

export type NoticePermission = 'granted' | 'default' | 'denied' | 'unsupported';

export interface Notifier {
  /** `desktop`: the shell shows them and needs no permission; `browser`: the page's own. */
  readonly kind: 'desktop' | 'browser';
  permission(): NoticePermission;
  /** Asks the browser to allow notifications (after a click of the planner's). */
  ask(): Promise<NoticePermission>;
  show(notice: DesktopNotice): Promise<boolean>;
  /** A click on a notice shown here: its tag. Returns a function that stops listening. */
  onClick(listener: (tag: string) => void): () => void;
}

const browserListeners = new Set<(tag: string) => void>();

function browserNotification(): typeof Notification | undefined {
  return typeof globalThis.Notification === 'function' ? globalThis.Notification : undefined;
}

const browserNotifier: Notifier = {
  kind: 'browser',
  permission: () => browserNotification()?.permission ?? 'unsupported',
  async ask() {
    const api = browserNotification();
    return api ? await api.requestPermission() : 'unsupported';
  },
  async show(notice) {
    const api = browserNotification();
    if (api?.permission !== 'granted') return false;
    const shown = new api(notice.title, { body: notice.body, tag: notice.tag });
    shown.onclick = () => {
      globalThis.focus?.();
      for (const listener of browserListeners) listener(notice.tag);
      shown.close();
    };
    return true;
  },
  onClick(listener) {
    browserListeners.add(listener);
    return () => browserListeners.delete(listener);
  },
};

export function notifier(): Notifier {
  const bridge = globalThis.window?.planner;
  if (bridge && typeof bridge.notify === 'function') {
    return {
      kind: 'desktop',
      permission: () => 'granted',
      ask: async () => 'granted',
      show: async (notice) => (await bridge.notify(notice)).shown,
      onClick: (listener) => bridge.onNoticeClick(listener),
    };
  }
  return browserNotifier;
}
