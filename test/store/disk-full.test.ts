/**
 * Which failed writes count as a full disk (store/disk-full.ts): the codes that say so, and an
 * I/O error of SQLite only when the data folder's disk or this process's file size limit has no
 * room left, so a fault of the disk is never passed off as a full one.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { isDiskFull } from '../../electron/store/disk-full.js';
import { tempDir } from '../helpers/api.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const failure = (code: string) => Object.assign(new Error('write failed'), { code });

describe('isDiskFull', () => {
  it('takes no space, a quota and a file size limit for a full disk, from files, SQLite and PostgreSQL', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'EFBIG', 'SQLITE_FULL', '53100']) expect(isDiskFull(failure(code), undefined), code).toBe(true);
    expect(isDiskFull(new Error('could not store', { cause: failure('ENOSPC') }), undefined)).toBe(true);
  });

  it('leaves a disk I/O error with room on the disk, and every other error, as it was', () => {
    const folder = tempDir('planner-room-');
    folders.push(folder);
    expect(isDiskFull(failure('SQLITE_IOERR_WRITE'), folder)).toBe(false);
    expect(isDiskFull(failure('SQLITE_IOERR_WRITE'), undefined)).toBe(false);
    for (const error of [failure('EACCES'), failure('SQLITE_CORRUPT'), new Error('bug'), null, 'text'])
      expect(isDiskFull(error, folder)).toBe(false);
  });
});
