/**
 * The headless server's way back from a data folder that cannot be opened, run instead of
 * starting it (the server prints these when it stops on a broken file; recovery.ts):
 *
 *   npm run server -- restore --data-dir DIR --backup FILE   put a Planner backup in place; the
 *                                                            files from before go to before-restore-<time>/
 *   npm run server -- start-fresh --data-dir DIR             move the broken file to broken-<time>/
 *
 * Each takes the data folder's lock, so it never runs under a server on the same folder, and
 * checks that the folder opens afterwards.
 */
import { resolve } from 'node:path';
import { DatabaseOpenError } from '../store/database.js';
import { DataDirLock } from '../store/data-dir-lock.js';
import { ArgsError, parseArgs } from './cli-args.js';
import {
  checkDataFolder,
  DataFolderRecovery,
  describeRecovery,
  keptAsideIn,
  RecoveryRefused,
  restoreBackup,
  serverRecoveryAdvice,
} from './recovery.js';

export const recoveryUsage = `       npm run server -- restore --data-dir DIR --backup FILE
       npm run server -- start-fresh --data-dir DIR`;

export function isRecoveryCommand(argv: readonly string[]): boolean {
  return argv[0] === 'restore' || argv[0] === 'start-fresh';
}

/** Runs `restore` or `start-fresh`; a refusal is an Error whose message says why. */
export async function runRecoveryCommand(argv: readonly string[]): Promise<void> {
  const [command, ...rest] = argv;
  const { options } = parseArgs(rest, { values: ['data-dir', 'backup'], flags: [] });
  if (typeof options['data-dir'] !== 'string') throw new ArgsError('--data-dir is required');
  const dataPath = resolve(options['data-dir']);
  const backup = options.backup;
  if (command === 'restore' && typeof backup !== 'string') throw new ArgsError('restore needs --backup FILE');
  if (command === 'start-fresh' && backup !== undefined) throw new ArgsError('start-fresh takes no --backup');

  const lock = DataDirLock.acquire(dataPath, 'server');
  try {
    if (command === 'restore') {
      // Whether the folder opens or not: its files move aside before the backup's go in.
      const outcome = await restoreBackup(dataPath, resolve(backup as string), checkDataFolder);
      if (!outcome.restored)
        throw new RecoveryRefused(
          `The backup's data could not be opened (${(outcome.error as Error)?.message ?? String(outcome.error)}); the files from before are back in place.`,
        );
      console.log(`Restored the backup into ${dataPath}; the files from before are in ${keptAsideIn(dataPath)[0]}.`);
      return;
    }
    let broken: DatabaseOpenError;
    try {
      await checkDataFolder(dataPath);
      throw new RecoveryRefused(`The data folder ${dataPath} opens as it is; there is nothing to start fresh from.`);
    } catch (error) {
      if (!(error instanceof DatabaseOpenError)) throw error;
      broken = error;
    }
    const recovery = new DataFolderRecovery(broken, checkDataFolder);
    try {
      await recovery.startFresh();
    } catch (error) {
      // Another file of the folder is broken too: the same facts and advice for that one.
      if (error instanceof DatabaseOpenError) throw new RecoveryRefused(describeRecovery(recovery.facts, serverRecoveryAdvice(error)));
      throw error;
    }
    console.log(`Started fresh in ${dataPath}; ${broken.fileName} is kept in ${keptAsideIn(dataPath)[0]}.`);
  } finally {
    lock.release();
  }
}
