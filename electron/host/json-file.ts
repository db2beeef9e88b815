/**
 * The app's small JSON settings files (the shell's window positions and settings in userData,
 * the local API's settings in the data folder). A file that is missing or damaged reads as
 * "nothing saved", since each has safe defaults; writes go to a temporary name and are
 * renamed, so a crash never leaves half a file behind.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ownerOnlyFolderMode } from '../store/owner-only.js';

export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    console.warn(`${path} is not valid JSON; using defaults instead.`);
    return undefined;
  }
}

export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true, mode: ownerOnlyFolderMode });
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}
