/**
 * Closing the window while changes still wait to be sent to the remote. Nothing is lost
 * either way (the outbox is in the local database and is sent at the next launch), but the
 * planner may expect colleagues to see the changes now, so closing never silently leaves
 * them behind. The `closeWithPending` setting chooses:
 *
 *   ask         a dialog: Sync now / Quit anyway / Cancel
 *   sync-first  sync (with a time limit) and close; only if changes are still pending
 *               afterwards (offline, refused), fall back to the dialog
 *
 * Without a remote, or with nothing pending, the window simply closes.
 */
import type { BrowserWindow, Dialog, Event } from 'electron';
import type { ShellSettings } from '../../shared/ipc.js';
import type { LocalInstance } from '../host/local-instance.js';
import type { Translate } from './messages.js';

export interface CloseGuardOptions {
  instance(): Promise<Pick<LocalInstance, 'request' | 'sync'>>;
  settings(): ShellSettings;
  t(): Translate;
  dialog: Pick<Dialog, 'showMessageBox'>;
  /** The longest a sync before closing may take. */
  syncTimeoutMs?: number;
}

interface PendingStatus {
  configured: boolean;
  pending: number;
  remote_url: string | null;
  last_error: string | null;
}

/** The sync status as the API reports it (`GET /v1/sync/status`); undefined if it cannot say. */
async function pendingStatus(instance: Pick<LocalInstance, 'request'>): Promise<PendingStatus | undefined> {
  const response = await instance.request({ method: 'GET', path: '/v1/sync/status' });
  const body = response.body as Partial<PendingStatus> | null;
  if (response.status !== 200 || !body || typeof body.pending !== 'number') return undefined;
  return {
    configured: body.configured === true,
    pending: body.pending,
    remote_url: body.remote_url ?? null,
    last_error: body.last_error ?? null,
  };
}

async function syncWithin(instance: Pick<LocalInstance, 'sync'>, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${Math.ceil(timeoutMs / 1000)} s`), timeoutMs);
  });
  try {
    return await Promise.race([instance.sync.run().then((summary) => summary.error), timeout]);
  } catch (error) {
    return (error as Error).message;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the window may close now; may ask the planner or sync first. */
export async function mayClose(window: BrowserWindow, options: CloseGuardOptions): Promise<boolean> {
  const instance = await options.instance();
  let status = await pendingStatus(instance);
  if (!status || !status.configured || status.pending === 0) return true;
  const timeoutMs = options.syncTimeoutMs ?? 20_000;
  let syncError: string | null = null;
  if (options.settings().closeWithPending === 'sync-first') {
    const error = await syncWithin(instance, timeoutMs);
    status = await pendingStatus(instance);
    if (!status || status.pending === 0) return true;
    syncError = error ?? status.last_error ?? 'the remote did not take every change';
  }
  for (;;) {
    const t = options.t();
    const detail = [t('pending.detail'), ...(syncError ? [t('pending.syncFailed', { error: syncError })] : [])].join('\n\n');
    const { response } = await options.dialog.showMessageBox(window, {
      type: 'warning',
      title: t('pending.title'),
      message: t('pending.message', { count: status.pending, remote: status.remote_url ?? 'the remote' }),
      detail,
      buttons: [t('pending.syncNow'), t('pending.quitAnyway'), t('common.cancel')],
      defaultId: 0,
      cancelId: 2,
      noLink: true,
    });
    if (response === 1) return true;
    if (response !== 0) return false;
    const error = await syncWithin(instance, timeoutMs);
    status = await pendingStatus(instance);
    if (!status || status.pending === 0) return true;
    syncError = error ?? status.last_error ?? 'the remote did not take every change';
  }
}

/**
 * Holds the window's close until `mayClose` decides. `decided` hears the outcome (main uses
 * it to carry on or forget a quit that was in progress). If deciding fails, the window closes
 * anyway: a broken check must never trap the planner in the app.
 */
export function guardClose(window: BrowserWindow, options: CloseGuardOptions, decided: (closing: boolean) => void = () => {}): void {
  let allowed = false;
  let deciding = false;
  window.on('close', (event: Event) => {
    if (allowed) return;
    event.preventDefault();
    if (deciding) return;
    deciding = true;
    void mayClose(window, options)
      .catch((error: unknown) => {
        console.error('Could not check for unsynced changes before closing:', error);
        return true;
      })
      .then((closing) => {
        deciding = false;
        decided(closing);
        if (closing && !window.isDestroyed()) {
          allowed = true;
          window.close();
        }
      });
  });
}
