/**
 * The few message boxes main shows on its own: the outcome of a backup or restore started
 * from the menu (a page that starts one shows the outcome itself), and errors nobody caught.
 */
import { app, BrowserWindow, dialog, shell, type BaseWindow } from 'electron';
import type { BackupResult, RestoreResult } from '../../shared/ipc.js';
import type { ShownError } from './error-reports.js';
import type { Translate } from './messages.js';
import { isAppUrl } from './protocol.js';

export async function showCommandOutcome(
  window: BaseWindow | undefined,
  outcome: BackupResult | RestoreResult,
  t: Translate,
  restoredDate?: string,
): Promise<void> {
  if (outcome.status === 'canceled') return;
  const options =
    outcome.status === 'saved'
      ? { type: 'info' as const, message: t('backup.done', { file: outcome.fileName }) }
      : outcome.status === 'restored'
        ? { type: 'info' as const, message: t('restore.done', { date: restoredDate ?? outcome.createdAt }) }
        : { type: 'error' as const, message: outcome.message };
  const box = { ...options, title: 'Planner', buttons: [t('common.ok')], noLink: true };
  if (window) await dialog.showMessageBox(window, box);
  else await dialog.showMessageBox(box);
}

/** Every app window whose page crashed or was killed gets reloaded. */
function reloadGoneWindows(): void {
  for (const window of BrowserWindow.getAllWindows()) {
    const contents = window.webContents;
    if (!contents.isDestroyed() && contents.isCrashed() && isAppUrl(contents.getURL())) contents.reload();
  }
}

export async function presentError(error: ShownError, t: Translate, logsDir: string): Promise<void> {
  const gone = error.origin === 'renderer-gone';
  const message = gone ? t('error.rendererGone', { reason: error.message }) : error.message;
  const detail = [
    t('error.detail', { reference: error.reference }),
    ...(error.unshown > 0 ? [t('error.more', { count: error.unshown })] : []),
  ].join('\n');
  if (!app.isReady()) {
    // Before 'ready' only the synchronous error box can be shown.
    dialog.showErrorBox(t('error.title'), `${message}\n\n${detail}`);
    return;
  }
  const buttons = [t('common.ok'), t('error.openLogs'), ...(gone ? [t('error.reload')] : [])];
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: t('error.title'),
    message,
    detail,
    buttons,
    defaultId: gone ? 2 : 0,
    noLink: true,
  });
  if (response === 1) {
    const failure = await shell.openPath(logsDir);
    if (failure) console.warn(`Could not open the logs folder: ${failure}`);
  }
  if (response === 2) reloadGoneWindows();
}
