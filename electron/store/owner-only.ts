/**
 * A data folder and everything in it are for its owner only (docs/deployment.md "The data
 * folder"; security audit N5): `system.sqlite` holds the secret that signs access tokens and
 * every environment's data, so another user of the computer who reads it can read the planning
 * and sign in as anyone who has a live sign-in. Folders are made 0700 and files 0600, whatever
 * the umask, and a folder that others may read (one made by an older version, or by hand) is
 * tightened when it is opened, and the caller says so in its log.
 *
 * SQLite makes a new database file with the umask's mode (0644 under the usual 022), and its
 * -wal and -shm files with the database file's mode: so a database is created empty with 0600
 * before SQLite opens it (`ownerOnlyFile`), and its companions follow.
 *
 * Windows has no such modes (Node ignores them there); its per-user profile folders are private
 * to their user already.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ownerOnlyFolderMode = 0o700;
export const ownerOnlyFileMode = 0o600;

const modesApply = process.platform !== 'win32';

/** Makes `path` (and any missing parent) a folder only its owner may enter; an existing one is left as it is. */
export function ownerOnlyFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: ownerOnlyFolderMode });
}

/** Creates `path` empty and readable by its owner only unless it exists (then it is left as it is). */
export function ownerOnlyFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', ownerOnlyFileMode));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** What tightening a folder did: the folder's mode before, what it changed, and what it could not change. */
export interface Tightening {
  folder: string;
  /** The folder's permission bits before (e.g. 0o755). */
  wasMode: number;
  changed: number;
  /** Files and folders whose mode could not be changed (another owner's), with why. */
  failed: string[];
}

/** Permission bits without the group's and others'. */
const ownerBits = (mode: number) => mode & 0o700;

/**
 * Takes away every permission of the group and others from `folder` and, when the folder was
 * open to them, from everything in it (symbolic links are not followed: what they point at is
 * not the folder's). A folder that is for its owner only already is not walked: nothing in it
 * can be reached by others, and files made here are made 0600. Undefined when nothing needed
 * tightening (or on Windows).
 */
export function tightenFolder(folder: string): Tightening | undefined {
  if (!modesApply) return undefined;
  const wasMode = statSync(folder).mode & 0o777;
  if ((wasMode & 0o077) === 0) return undefined;
  const outcome: Tightening = { folder, wasMode, changed: 0, failed: [] };
  const tighten = (path: string, mode: number) => {
    if ((mode & 0o077) === 0) return;
    try {
      chmodSync(path, ownerBits(mode));
      outcome.changed++;
    } catch (error) {
      outcome.failed.push(`${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isSymbolicLink()) continue;
      tighten(path, lstatSync(path).mode & 0o777);
      if (entry.isDirectory()) walk(path);
    }
  };
  tighten(folder, wasMode);
  walk(folder);
  return outcome;
}

/** The log line for a tightened folder. */
export function tighteningNotice(t: Tightening): string {
  const failed = t.failed.length > 0 ? ` Could not tighten ${t.failed.length} (another user's): ${t.failed.slice(0, 5).join(', ')}.` : '';
  return (
    `The data folder ${t.folder} was open to other users of this computer (mode ${t.wasMode.toString(8)}): ` +
    `it and what is in it are now for its owner only (700 for folders, 600 for files; ${t.changed} changed).${failed}`
  );
}
