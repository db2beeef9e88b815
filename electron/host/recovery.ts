/**
 * A way back from a data folder that cannot be opened: the facts the planner needs (which
 * file, what is wrong with it, where earlier data is kept) and the ways out. The desktop app
 * offers them in dialogs, the browser host on a page, the headless server in words
 * (docs/API.md, "A data folder that cannot be opened").
 *
 *   restore a backup   the backup is checked first; then every database file of the folder,
 *                      the broken one included, moves to `before-restore-<time>/` and the
 *                      backup's files go in (electron/store/backup/restore.ts)
 *   start fresh        the broken file moves to `broken-<time>/` and an empty one is made on
 *                      the next open; a broken `system.sqlite` takes the environment files
 *                      with it, since nothing else says which environment they belong to
 *   another folder     open a folder the planner names instead
 *
 * Nothing here deletes a file the planner had: the broken file is only ever moved aside.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { BackupRefused } from '../store/backup/backup-file.js';
import { stageBackup, swapInBackup, type RestoreOutcome } from '../store/backup/restore.js';
import { DataDir } from '../store/data-dir.js';
import { openDataFolder } from './data-folder.js';
import { DatabaseOpenError, type DatabaseProblem } from '../store/database.js';
import { nowDate } from '../../shared/clock.js';
import { ownerOnlyFolderMode } from '../store/owner-only.js';

export interface RecoveryFacts {
  /** The data folder the broken file is in. */
  dataPath: string;
  /** The file that cannot be opened, full path and name. */
  file: string;
  fileName: string;
  problem: DatabaseProblem;
  /** What is wrong, in plain words: "the file is damaged". */
  words: string;
  /** SQLite's own words, or the schema versions. */
  detail: string;
  /** Folders in the data folder that keep earlier data (`before-restore-*`, `broken-*`), newest first. */
  keptAside: string[];
  /**
   * Starting fresh is not offered for a file another program holds: moving it would not stop
   * that program writing to it. Closing that program and trying again is the way out.
   */
  canStartFresh: boolean;
}

/** A choice the planner cannot make as asked; the message is for the planner. */
export class RecoveryRefused extends Error {}

const keptAsideFolder = /^(before-restore|broken)-/;
const databaseFile = /^(system|env-[0-9a-f-]{36})\.sqlite(-wal|-shm|-journal)?$/;

function folderTime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** The `before-restore-*` and `broken-*` folders in a data folder, newest first. */
export function keptAsideIn(dataPath: string): string[] {
  try {
    return readdirSync(dataPath, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && keptAsideFolder.test(entry.name))
      .map((entry) => join(dataPath, entry.name))
      .sort((a, b) => folderTime(b) - folderTime(a) || b.localeCompare(a));
  } catch {
    // An unreadable folder is told by the error that brought us here.
    return [];
  }
}

export function recoveryFacts(error: DatabaseOpenError): RecoveryFacts {
  const dataPath = dirname(error.file);
  const keptAside = keptAsideIn(dataPath);
  return {
    dataPath,
    file: error.file,
    fileName: error.fileName,
    problem: error.problem,
    words: error.words,
    detail: error.detail,
    keptAside,
    canStartFresh: error.problem !== 'locked',
  };
}

/** The facts as a few lines for a console: the headless server's last words, the browser host's log. */
export function describeRecovery(facts: RecoveryFacts, howToRecover: string): string {
  return [
    `Planner cannot open ${facts.file}: ${facts.words} (${facts.detail}).`,
    `Data folder: ${facts.dataPath}`,
    facts.keptAside.length > 0
      ? `Earlier data kept in this folder: ${facts.keptAside.map((path) => basename(path)).join(', ')}`
      : 'No earlier data is kept in this folder (no before-restore-* or broken-* folder).',
    facts.problem === 'locked'
      ? 'What to do: close the other program that uses this file, then start Planner again.'
      : `What to do: ${howToRecover}`,
  ].join('\n');
}

/** What the headless server tells an operator to do: its recovery commands (recovery-cli.ts). */
export function serverRecoveryAdvice(error: DatabaseOpenError): string {
  const folder = JSON.stringify(dirname(error.file));
  return [
    `restore a backup:  npm run server -- restore --data-dir ${folder} --backup <backup file>`,
    `  (the files now in the folder, ${error.fileName} too, move to a before-restore-<time> folder in it)`,
    `or start fresh:    npm run server -- start-fresh --data-dir ${folder}`,
    `  (${error.fileName === 'system.sqlite' ? 'system.sqlite and the environment files that belong to it move' : `${error.fileName} moves`} to a broken-<time> folder in it; nothing is deleted)`,
  ].join('\n');
}

/**
 * Checks the backup, moves every database file of `dataPath` into `before-restore-<time>/`,
 * puts the backup's in and opens them with `open`. A refused backup throws `RecoveryRefused`;
 * so does one whose data does not open when the files from before (put back) do not either.
 * When those do open, the outcome says `restored: false` with why, and holds what they opened.
 */
export async function restoreBackup<T>(
  dataPath: string,
  backupFile: string,
  open: (dataPath: string) => Promise<T>,
  now: Date = nowDate(),
): Promise<RestoreOutcome<T>> {
  let staged;
  try {
    staged = stageBackup(backupFile);
  } catch (error) {
    if (error instanceof BackupRefused) throw new RecoveryRefused(error.message);
    throw new RecoveryRefused(`The backup cannot be read: ${(error as Error).message}`);
  }
  let attempts = 0;
  let restoredFailure: unknown;
  try {
    const outcome = await swapInBackup(
      dataPath,
      staged,
      async () => {
        attempts++;
        try {
          return await open(dataPath);
        } catch (error) {
          if (attempts === 1) restoredFailure = error;
          throw error;
        }
      },
      now,
    );
    return outcome;
  } catch (error) {
    // Put back, the files from before do not open either (they are the broken ones): what
    // the planner needs to hear is why the backup's did not.
    if (attempts > 1 && restoredFailure !== undefined) {
      throw new RecoveryRefused(
        `The backup's data could not be opened (${(restoredFailure as Error).message}); the files from before are back in place.`,
      );
    }
    throw error;
  } finally {
    staged.discard();
  }
}

/**
 * Opens a data folder and every environment it lists, then closes it again: whether the
 * folder would open, for a process that starts over on it afterwards (the desktop app, the
 * server's recovery commands). Throws `DatabaseOpenError` naming the file that does not.
 */
export async function checkDataFolder(dataPath: string): Promise<void> {
  const dataDir = openDataFolder(dataPath);
  try {
    for (const environment of dataDir.system.listEnvironments()) {
      if (existsSync(DataDir.environmentFile(dataPath, environment.id))) dataDir.environment(environment.id);
    }
  } finally {
    dataDir.close();
  }
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

/**
 * Moves the broken file (with its -wal, -shm and -journal) into `broken-<time>/` in the data
 * folder; a broken `system.sqlite` takes every database file of the folder. Returns the folder.
 */
export function setBrokenFilesAside(facts: RecoveryFacts, now: Date = nowDate()): string {
  if (!facts.canStartFresh) throw new RecoveryRefused(`${facts.fileName} is in use by another program; close it and try again.`);
  const aside = join(facts.dataPath, `broken-${stamp(now)}`);
  // The broken files hold the same data and secrets as the folder: for its owner only (store/owner-only.ts).
  mkdirSync(aside, { mode: ownerOnlyFolderMode });
  const names =
    facts.fileName === 'system.sqlite'
      ? readdirSync(facts.dataPath).filter((name) => databaseFile.test(name))
      : [facts.fileName, `${facts.fileName}-wal`, `${facts.fileName}-shm`, `${facts.fileName}-journal`];
  for (const name of names) {
    const from = join(facts.dataPath, name);
    if (existsSync(from)) renameSync(from, join(aside, name));
  }
  return aside;
}

/**
 * The ways out of one data folder that does not open, for whatever `open` makes of a folder
 * (the browser host opens the app on it; the desktop app only checks it, then starts again).
 * A choice answers what `open` made, or throws: `RecoveryRefused` for a choice that cannot be
 * made as asked, a `DatabaseOpenError` when the folder still (or the other folder also) does
 * not open, and then `facts` tells about that one.
 */
export class DataFolderRecovery<T> {
  private current: RecoveryFacts;

  constructor(
    error: DatabaseOpenError,
    private readonly open: (dataPath: string) => Promise<T>,
  ) {
    this.current = recoveryFacts(error);
  }

  get facts(): RecoveryFacts {
    return this.current;
  }

  /** Opens the folder again as it is: for a file another program had locked. */
  retry(): Promise<T> {
    return this.opening(this.current.dataPath);
  }

  async startFresh(now: Date = nowDate()): Promise<T> {
    setBrokenFilesAside(this.current, now);
    return this.opening(this.current.dataPath);
  }

  /** Restores the backup file at `backupFile` (a Planner backup, as File → Back up… makes). */
  async restore(backupFile: string, now: Date = nowDate()): Promise<T> {
    if (!this.current.canStartFresh)
      throw new RecoveryRefused(`${this.current.fileName} is in use by another program; close it and try again.`);
    try {
      // Not restored but open: the files from before opened after all on the way back (a
      // lock let go in between), so that is the data to go on with.
      return (await restoreBackup(this.current.dataPath, backupFile, this.open, now)).instance;
    } catch (error) {
      throw this.noted(error);
    }
  }

  /** Opens another data folder (a full path), made if it does not exist yet. */
  async openFolder(path: string): Promise<T> {
    const trimmed = path.trim();
    if (!trimmed || !isAbsolute(trimmed))
      throw new RecoveryRefused('Type the full path of the data folder, from the root (for example /home/you/Planner).');
    if (existsSync(trimmed) && !statSync(trimmed).isDirectory()) throw new RecoveryRefused(`${trimmed} is a file, not a folder.`);
    return this.opening(resolve(trimmed));
  }

  private async opening(dataPath: string): Promise<T> {
    try {
      return await this.open(dataPath);
    } catch (error) {
      throw this.noted(error);
    }
  }

  /** A folder that (still) does not open becomes the one the facts tell about. */
  private noted(error: unknown): unknown {
    if (error instanceof DatabaseOpenError) this.current = recoveryFacts(error);
    return error;
  }
}
