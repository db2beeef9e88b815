/**
 * Desktop notifications the page asks for (docs/API.md "Notifications"). The page is refused
 * every web permission (security.ts), notifications included, so it cannot show them itself;
 * it asks main over one checked channel, and main shows the system's own notification. A click
 * brings the window that asked to the front and tells its page which notice it was, so the
 * page opens what it is about (the exception inbox).
 */
import { BrowserWindow, Notification, type BaseWindow } from 'electron';
import { shellChannels, type DesktopNotice } from '../../shared/ipc.js';
import { isAppUrl } from './protocol.js';

/**
 * Notifications on screen, held until they close: the system drops a notification's click
 * handler once nothing refers to it, so a notice would stop answering clicks at random.
 */
const onScreen = new Set<Notification>();

export function showDesktopNotice(window: BaseWindow | undefined, notice: DesktopNotice): { shown: boolean } {
  if (!Notification.isSupported()) return { shown: false };
  const shown = new Notification({ title: notice.title, body: notice.body });
  onScreen.add(shown);
  const forget = () => onScreen.delete(shown);
  shown.on('close', forget);
  shown.on('click', () => {
    forget();
    const target = window instanceof BrowserWindow && !window.isDestroyed() ? window : BrowserWindow.getAllWindows()[0];
    if (!target || target.isDestroyed()) return;
    if (target.isMinimized()) target.restore();
    target.show();
    target.focus();
    const contents = target.webContents;
    if (!contents.isDestroyed() && isAppUrl(contents.getURL())) contents.send(shellChannels.noticeClicked, notice.tag);
  });
  shown.show();
  return { shown: true };
}
