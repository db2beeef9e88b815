/**
 * Data folders with a broken database, made the way the security audit broke them (finding 9):
 * pages in the middle of an environment file overwritten (`dd … bs=4096 seek=3 count=20
 * conv=notrunc`), or the first bytes of `system.sqlite`. A fixed pattern rather than random
 * bytes, so every run breaks the same way.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Overwrites `pages` pages of 4 KiB from page number `seek` (counted from 0), as dd does. */
export function damagePages(file: string, seek = 3, pages = 20): void {
  const fd = openSync(file, 'r+');
  try {
    const page = Buffer.alloc(4096);
    for (let i = 0; i < page.length; i++) page[i] = (i * 151 + 17) & 0xff;
    for (let n = 0; n < pages; n++) writeSync(fd, page, 0, page.length, (seek + n) * 4096);
  } finally {
    closeSync(fd);
  }
}

/** Overwrites the first bytes of a file (SQLite's header), as an overwritten file would look. */
export function overwriteStart(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, Buffer.from('This is not a database any more, it was overwritten.\n'), 0, undefined, 0);
  } finally {
    closeSync(fd);
  }
}

/** The one environment file of a data folder. */
export function environmentFileIn(folder: string): string {
  const names = readdirSync(folder).filter((name) => /^env-[0-9a-f-]{36}\.sqlite$/.test(name));
  if (names.length !== 1) throw new Error(`expected one environment file in ${folder}, found ${names.join(', ') || 'none'}`);
  return join(folder, names[0]!);
}

export function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The folders a recovery keeps earlier data in (`before-restore-*`, `broken-*`), by prefix. */
export function keptFolders(folder: string, prefix: 'before-restore-' | 'broken-'): string[] {
  return readdirSync(folder)
    .filter((name) => name.startsWith(prefix))
    .map((name) => join(folder, name));
}
