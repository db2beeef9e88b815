/**
 * One process per data folder. Two processes on the same SQLite files fail each other's
 * writes ("database is locked") and both deliver the same webhooks, so the headless server,
 * the browser host and the desktop app each hold this lock for as long as they run, and a
 * second one is refused with a line that names the first.
 *
 * The lock is an exclusive SQLite lock on `<folder>/.lock`, kept by a connection that stays
 * open. SQLite takes it with POSIX advisory locks, which the kernel drops when the process
 * ends, however it ends (kill -9 and power cuts included): a crash never leaves a folder
 * locked, and there is no stale lock file to clean up by hand. Who holds it is written to
 * `.lock-holder.json` beside it (the locked file cannot be read by the refused process).
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { nowDate, nowMs } from '../../shared/clock.js';
import { ownerOnlyFile, ownerOnlyFileMode, ownerOnlyFolder } from './owner-only.js';

/** What runs on a data folder, in the words the refusal uses. */
export type FolderUser = 'server' | 'browser host' | 'desktop app';

export interface LockHolder {
  pid: number;
  kind: FolderUser;
  /** When it took the folder, ISO 8601 UTC. */
  since: string;
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly folder: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder ? `a Planner ${holder.kind} (pid ${holder.pid}, since ${holder.since})` : 'another Planner process';
    super(`The data folder ${folder} is in use by ${who}; stop that one first, or choose another data folder.`);
  }
}

/** How long a refused process waits for the holder to write who it is (it locks first, then writes). */
const holderWaitMs = 1000;

export class DataDirLock {
  private released = false;

  private constructor(
    readonly folder: string,
    private readonly db: Database.Database,
    private readonly holderFile: string,
  ) {}

  static lockFile(folder: string): string {
    return join(folder, '.lock');
  }

  static holderFile(folder: string): string {
    return join(folder, '.lock-holder.json');
  }

  /**
   * Takes the folder for this process, or throws DataFolderInUseError naming who has it. Keep
   * the lock referenced for as long as the process runs: a collected connection lets go.
   */
  static acquire(folder: string, kind: FolderUser): DataDirLock {
    // The first to make the folder makes it for its owner only (owner-only.ts).
    ownerOnlyFolder(folder);
    ownerOnlyFile(DataDirLock.lockFile(folder));
    // timeout 0: a held lock is an answer, not something to wait for.
    const db = new Database(DataDirLock.lockFile(folder), { timeout: 0 });
    try {
      // No journal file beside the lock, and the lock kept after the transaction starts.
      db.pragma('journal_mode = MEMORY');
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataFolderInUseError(folder, DataDirLock.waitForHolder(folder));
      throw new Error(`Cannot lock the data folder ${folder}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const holder: LockHolder = { pid: process.pid, kind, since: nowDate().toISOString() };
    const file = DataDirLock.holderFile(folder);
    try {
      // Written whole, then renamed, so a refused process never reads half a file.
      writeFileSync(`${file}.${process.pid}`, JSON.stringify(holder), { mode: ownerOnlyFileMode });
      renameSync(`${file}.${process.pid}`, file);
    } catch {
      // The lock holds without it; the refusal then says "another Planner process".
    }
    return new DataDirLock(folder, db, file);
  }

  /** Who holds the folder now, as far as its holder file tells (undefined when nobody says). */
  static holder(folder: string): LockHolder | undefined {
    try {
      const holder = JSON.parse(readFileSync(DataDirLock.holderFile(folder), 'utf8')) as LockHolder;
      return Number.isInteger(holder.pid) && isAlive(holder.pid) ? holder : undefined;
    } catch {
      return undefined;
    }
  }

  /** Lets the folder go (ending the process does the same). */
  release(): void {
    if (this.released) return;
    this.released = true;
    // The holder file first: once the lock is gone, it may already be someone else's.
    rmSync(this.holderFile, { force: true });
    this.db.close();
  }

  private static waitForHolder(folder: string): LockHolder | undefined {
    // The file may still name a process that died (kill -9) until the new holder rewrites it.
    const until = nowMs() + holderWaitMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      const holder = DataDirLock.holder(folder);
      if (holder || nowMs() >= until) return holder;
      Atomics.wait(pause, 0, 0, 50);
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
