/**
 * The desktop app's way back from a data folder that cannot be opened: instead of "Planner
 * could not start" and nothing else, a dialog names the file and what is wrong with it and
 * offers the ways out (electron/host/recovery.ts does the work):
 *
 *   Restore a backup…          the open dialog for a .sqlite backup; the files from before,
 *                              the broken one too, go to before-restore-<time>/ in the folder
 *   Start fresh                the broken file goes to broken-<time>/ in the folder
 *   Open another data folder…  the folder dialog
 *   Try again                  (instead of the first two, for a file another program holds)
 *   Quit
 *
 * A choice that works starts the app again on the folder it opened (a clean start, with every
 * window, channel and lock made as usual); one that does not says why and asks again.
 */
import type { Dialog } from 'electron';
import { DatabaseOpenError, type DatabaseProblem } from '../store/database.js';
import { DataDirLock } from '../store/data-dir-lock.js';
import { checkDataFolder, DataFolderRecovery, RecoveryRefused, type RecoveryFacts } from '../host/recovery.js';
import { chooseOpenPath, type DialogApi } from './file-dialogs.js';
import type { MessageKey, Translate } from './messages.js';

export interface RecoveryDialogOptions {
  dialog: DialogApi & Pick<Dialog, 'showMessageBox'>;
  t: Translate;
  /** The data folder that did not open. */
  dataPath: string;
  /** Starts the app again on `dataPath` (the same folder, or another one the planner chose). */
  restart(dataPath: string): void;
  quit(): void;
}

const problemKeys: Record<DatabaseProblem, MessageKey> = {
  corrupt: 'recovery.problem.corrupt',
  'not-a-database': 'recovery.problem.notADatabase',
  'newer-schema': 'recovery.problem.newerSchema',
  locked: 'recovery.problem.locked',
  unreadable: 'recovery.problem.unreadable',
};

type Choice = 'restore' | 'fresh' | 'folder' | 'retry' | 'quit';

/**
 * The command line to start again with: the same one for the same folder (a plain launch
 * keeps its profile), else with `--data-dir` naming the new folder instead of any before.
 */
export function argsForFolder(args: readonly string[], dataPath: string, folder: string): string[] {
  if (folder === dataPath) return [...args];
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--data-dir') {
      if (args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) i++;
      continue;
    }
    if (!arg.startsWith('--data-dir=')) kept.push(arg);
  }
  return [...kept, `--data-dir=${folder}`];
}

function detailOf(facts: RecoveryFacts, t: Translate, note: string | undefined): string {
  return [
    ...(note ? [note] : []),
    t('recovery.folder', { folder: facts.dataPath }),
    facts.keptAside.length > 0 ? t('recovery.kept', { folders: facts.keptAside.join(', ') }) : '',
    facts.canStartFresh ? t('recovery.choices', { file: facts.fileName }) : t('recovery.lockedChoices'),
    t('recovery.details', { detail: facts.detail }),
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** Shows the recovery dialog until a choice opens the data (then restarts) or the planner quits. */
export async function recoverDataFolder(error: DatabaseOpenError, options: RecoveryDialogOptions): Promise<void> {
  const { dialog, t } = options;
  // The folder is only checked here; the restarted app opens it for real. Another folder is
  // checked under its lock, so a folder another Planner has open is refused, not touched.
  const recovery = new DataFolderRecovery<string>(error, async (path) => {
    const lock = path === options.dataPath ? undefined : DataDirLock.acquire(path, 'desktop app');
    try {
      await checkDataFolder(path);
    } finally {
      lock?.release();
    }
    return path;
  });
  let note: string | undefined;
  for (;;) {
    const facts = recovery.facts;
    const choices: Choice[] = facts.canStartFresh ? ['restore', 'fresh', 'folder', 'quit'] : ['retry', 'folder', 'quit'];
    const labels: Record<Choice, string> = {
      restore: t('recovery.restore'),
      fresh: t('recovery.startFresh'),
      folder: t('recovery.otherFolder'),
      retry: t('recovery.tryAgain'),
      quit: t('menu.quit'),
    };
    const { response } = await dialog.showMessageBox({
      type: 'error',
      title: t('recovery.title'),
      message: t('recovery.message', { file: facts.fileName, problem: t(problemKeys[facts.problem]) }),
      detail: detailOf(facts, t, note),
      buttons: choices.map((choice) => labels[choice]),
      defaultId: 0,
      cancelId: choices.length - 1,
      noLink: true,
    });
    const choice = choices[response] ?? 'quit';
    note = undefined;
    try {
      let opened: string | undefined;
      if (choice === 'quit') {
        options.quit();
        return;
      } else if (choice === 'restore') {
        const file = await chooseOpenPath(dialog, undefined, {
          title: t('restore.title'),
          extension: 'sqlite',
          filterName: t('filter.backup'),
        });
        if (file) opened = await recovery.restore(file);
      } else if (choice === 'folder') {
        const picked = await dialog.showOpenDialog({ title: t('recovery.folderTitle'), properties: ['openDirectory', 'createDirectory'] });
        const folder = picked.canceled ? undefined : picked.filePaths[0];
        if (folder) opened = await recovery.openFolder(folder);
      } else if (choice === 'fresh') {
        opened = await recovery.startFresh();
      } else {
        opened = await recovery.retry();
      }
      if (opened !== undefined) {
        options.restart(opened);
        return;
      }
    } catch (failure) {
      if (failure instanceof RecoveryRefused) note = t('recovery.refused', { reason: failure.message });
      else if (failure instanceof DatabaseOpenError)
        note = t('recovery.stillBroken', { file: failure.fileName, problem: t(problemKeys[failure.problem]) });
      else {
        console.error('The recovery choice failed:', failure);
        note = t('recovery.refused', { reason: (failure as Error).message });
      }
    }
  }
}
