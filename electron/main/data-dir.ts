/**
 * Where the planner's data lives. Normally Electron's per-user folder; `--data-dir <path>` (or
 * `--data-dir=<path>`) points one launch at another folder, for a second workspace, a support
 * copy, or a test that must not touch the user's data.
 */
import { resolve } from 'node:path';

/**
 * The folder named by `--data-dir`, resolved against `cwd`, or undefined when the flag is
 * absent. A flag without a value is an error rather than a silent fall-back: the user asked
 * for a specific folder, and writing to their usual one instead would mix the two.
 */
export function dataDirFromArgs(argv: readonly string[], cwd: string = process.cwd()): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let value: string | undefined;
    if (arg === '--data-dir') {
      value = argv[i + 1];
      if (value?.startsWith('--')) value = undefined;
    } else if (arg.startsWith('--data-dir=')) {
      value = arg.slice('--data-dir='.length);
    } else {
      continue;
    }
    if (!value) throw new Error('--data-dir needs a folder, as in --data-dir /path/to/folder');
    return resolve(cwd, value);
  }
  return undefined;
}
