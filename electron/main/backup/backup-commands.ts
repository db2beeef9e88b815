/**
 * Backup and restore as the planner starts them (File menu, or the settings screen through
 * the bridge): the dialogs, the confirmation, and the swap of the running instance.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { BaseWindow, Dialog } from 'electron';
import type { BackupResult, RestoreResult, ShellLanguage } from '../../../shared/ipc.js';
import type { LocalInstance } from '../../host/local-instance.js';
import { chooseOpenPath, chooseSavePath, writeChosenFile, type DialogApi } from '../file-dialogs.js';
import type { InstanceSlot } from '../instance-slot.js';
import type { Translate } from '../messages.js';
import { BackupRefused, writeBackup } from './backup-file.js';
import { stageBackup, swapInBackup, type StagedBackup } from './restore.js';
import { nowDate } from '../../../shared/clock.js';

export interface BackupCommandOptions {
  slot: InstanceSlot<LocalInstance>;
  dataPath: string;
  /** Opens the data folder again (after a restore, or to roll one back). */
  reopen(): Promise<LocalInstance>;
  dialog: DialogApi & Pick<Dialog, 'showMessageBox'>;
  t(): Translate;
  language(): ShellLanguage;
  /** Where the save dialog starts. */
  documentsDir: string;
  appVersion: string;
  /** After a restore: the pages reload, so nothing shows data that is gone. */
  afterRestore(): void;
  stage?: (file: string) => StagedBackup;
}

function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export async function backUp(options: BackupCommandOptions, window: BaseWindow | undefined, now: Date = nowDate()): Promise<BackupResult> {
  const t = options.t();
  const choice = await chooseSavePath(
    options.dialog,
    window,
    {
      title: t('backup.title'),
      defaultPath: join(options.documentsDir, `${t('backup.fileName', { date: localDate(now) })}.sqlite`),
      extension: 'sqlite',
      filterName: t('filter.backup'),
    },
    t,
  );
  if (choice.status === 'canceled') return choice;
  if (choice.status === 'refused') return { status: 'failed', message: choice.message };
  // Packed in a private temp folder and then copied, so the chosen path is the only file
  // written outside it (and a half-made backup never sits under the chosen name).
  const staging = mkdtempSync(join(tmpdir(), 'planner-backup-file-'));
  try {
    const file = join(staging, 'backup.sqlite');
    const instance = await options.slot.get();
    await writeBackup(instance.dataDir, file, { appVersion: options.appVersion, now });
    const written = await writeChosenFile(choice, { from: file }, t);
    return written.status === 'saved'
      ? written
      : { status: 'failed', message: 'message' in written ? written.message : t('backup.failed') };
  } catch (error) {
    console.error('The backup failed:', error);
    return { status: 'failed', message: `${t('backup.failed')}: ${(error as Error).message}` };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function pendingCount(instance: Pick<LocalInstance, 'request'>): Promise<number> {
  const response = await instance.request({ method: 'GET', path: '/v1/sync/status' });
  const pending = (response.body as { pending?: unknown } | null)?.pending;
  return response.status === 200 && typeof pending === 'number' ? pending : 0;
}

export async function restoreFromBackup(options: BackupCommandOptions, window: BaseWindow | undefined): Promise<RestoreResult> {
  const t = options.t();
  const file = await chooseOpenPath(options.dialog, window, {
    title: t('restore.title'),
    extension: 'sqlite',
    filterName: t('filter.backup'),
  });
  if (!file) return { status: 'canceled' };
  if (extname(file).toLowerCase() !== '.sqlite') return { status: 'refused', message: t('save.wrongExtension', { extension: 'sqlite' }) };

  let staged: StagedBackup;
  try {
    staged = (options.stage ?? stageBackup)(file);
  } catch (error) {
    if (error instanceof BackupRefused) return { status: 'refused', message: `${t('restore.refused')}: ${error.message}` };
    console.error(`Could not read the backup ${file}:`, error);
    return { status: 'refused', message: `${t('restore.refused')}: ${(error as Error).message}` };
  }

  try {
    const createdAt = staged.info.createdAt;
    const date = Number.isNaN(Date.parse(createdAt))
      ? createdAt
      : new Intl.DateTimeFormat(options.language(), { dateStyle: 'long', timeStyle: 'short' }).format(new Date(createdAt));
    const pending = await pendingCount(await options.slot.get());
    const confirmOptions = {
      type: 'warning' as const,
      title: t('restore.title'),
      message: t('restore.confirm', { date }),
      detail: [
        t('restore.confirmDetail', { folder: options.dataPath }),
        ...(pending > 0 ? [t('restore.pendingWarning', { count: pending })] : []),
      ].join('\n\n'),
      buttons: [t('restore.button'), t('common.cancel')],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    };
    const { response } = window
      ? await options.dialog.showMessageBox(window, confirmOptions)
      : await options.dialog.showMessageBox(confirmOptions);
    if (response !== 0) return { status: 'canceled' };

    let failure: unknown;
    let restored = false;
    await options.slot.replace(async (current) => {
      await current.close();
      const outcome = await swapInBackup(options.dataPath, staged, options.reopen);
      restored = outcome.restored;
      failure = outcome.error;
      if (outcome.restored) console.info(`Restored the backup of ${createdAt}; the data from before is in ${outcome.asideDir}.`);
      return outcome.instance;
    });
    if (!restored) {
      console.error('The restored data could not be opened; the previous data is back:', failure);
      return { status: 'failed', message: `${t('restore.failed')}: ${(failure as Error)?.message ?? String(failure)}` };
    }
    options.afterRestore();
    return { status: 'restored', createdAt };
  } finally {
    staged.discard();
  }
}
