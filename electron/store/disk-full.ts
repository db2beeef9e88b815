/**
 * Whether a write failed because the disk has no room for it (docs/API.md "Errors": 507), as
 * opposed to a bug or a broken disk (500).
 *
 * - Node's file calls say so in their code: `ENOSPC` (no space), `EDQUOT` (the user's quota)
 *   and `EFBIG` (past the largest file this process may write, RLIMIT_FSIZE).
 * - SQLite answers `SQLITE_FULL` when a write hits ENOSPC. A write refused whole with any other
 *   errno, EFBIG among them, is only `SQLITE_IOERR_WRITE` ("disk I/O error"), and better-sqlite3
 *   does not hand on the errno. So an I/O error of a write counts as a full disk when the disk
 *   of the data folder is indeed (nearly) full, or when a database file there has reached this
 *   process's file size limit; any other I/O error stays what it was.
 * - PostgreSQL (a team server) says `53100` (disk_full).
 */
import { readFileSync, readdirSync, statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/** Less room than this on the data folder's disk is "full": a write of a page or two did not fit. */
const nearlyFullBytes = 1024 * 1024;

const fullCodes = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL', '53100']);
/** The SQLite codes a write that found no room can end in besides SQLITE_FULL. */
const writeErrors = new Set(['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_IOERR_FSYNC', 'SQLITE_IOERR_TRUNCATE', 'SQLITE_IOERR_SHMSIZE']);

/**
 * The soft limit on the size of a file this process writes (RLIMIT_FSIZE), in bytes; undefined
 * when there is none or it cannot be read (only Linux shows it, in /proc/self/limits).
 */
function fileSizeLimit(): number | undefined {
  try {
    const line = /^Max file size\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    const limit = Number(line?.[1]);
    return Number.isSafeInteger(limit) ? limit : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a database file of `folder` (with its -wal and -shm) is within a page or two of `limit` bytes. */
function reachesLimit(folder: string, limit: number): boolean {
  for (const name of readdirSync(folder)) {
    if (!/\.sqlite(-wal|-shm|-journal)?$/.test(name)) continue;
    try {
      if (statSync(join(folder, name)).size + 64 * 1024 > limit) return true;
    } catch {
      // Gone meanwhile (a checkpoint removed a WAL): not the one at its limit.
    }
  }
  return false;
}

function roomIsShort(folder: string): boolean {
  try {
    const disk = statfsSync(folder);
    if (disk.bavail * disk.bsize < nearlyFullBytes) return true;
    const limit = fileSizeLimit();
    return limit !== undefined && reachesLimit(folder, limit);
  } catch {
    return false;
  }
}

/**
 * Whether `error` is a write that found no room: a full disk, a quota, a file at its size limit.
 * `folder` is the data folder, where an I/O error of SQLite is looked into (see above).
 */
export function isDiskFull(error: unknown, folder: string | undefined): boolean {
  // Node's, SQLite's and pg's errors all carry a text `code`, some under a wrapping error's
  // `cause`; anything else is read as having none.
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: unknown };
  if (typeof code !== 'string') return cause !== undefined && cause !== error && isDiskFull(cause, folder);
  if (fullCodes.has(code)) return true;
  return folder !== undefined && writeErrors.has(code) && roomIsShort(folder);
}
