/**
 * `npm run server -- backup --data-dir DIR --to FILE`: a backup of a server's data folder,
 * made while the server runs (docs/deployment.md "Backups"). The same file as the desktop app's
 * Back up… (store/backup/backup-file.ts), so `restore --backup FILE` and the app both take it.
 *
 * It takes no lock: SQLite's online backup API copies each database as one consistent
 * snapshot while the server goes on writing (WAL). Attachment files are content-addressed and
 * never rewritten, so copying them beside a running server is safe too.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { apiVersion } from '../api/app.js';
import { writeBackup } from '../store/backup/backup-file.js';
import { openDataFolder } from './data-folder.js';
import { ArgsError, parseArgs } from './cli-args.js';

export const backupUsage = `       npm run server -- backup --data-dir DIR --to FILE`;

export function isBackupCommand(argv: readonly string[]): boolean {
  return argv[0] === 'backup';
}

export async function runBackupCommand(argv: readonly string[]): Promise<void> {
  const { options } = parseArgs(argv.slice(1), { values: ['data-dir', 'to'], flags: [] });
  if (typeof options['data-dir'] !== 'string') throw new ArgsError('--data-dir is required');
  if (typeof options.to !== 'string') throw new ArgsError('--to FILE is required');
  const folder = resolve(options['data-dir']);
  const file = resolve(options.to);
  if (!existsSync(folder)) throw new ArgsError(`--data-dir ${folder} does not exist`);
  if (existsSync(file)) throw new ArgsError(`--to ${file} exists already; a backup never overwrites a file`);
  const dataDir = openDataFolder(folder);
  try {
    const info = await writeBackup(dataDir, file, { appVersion: apiVersion });
    const environments = info.entries.filter((e) => e.kind === 'environment').length;
    const attachments = info.entries.filter((e) => e.kind === 'attachment').length;
    const mib = (statSync(file).size / 1024 / 1024).toFixed(1);
    console.log(
      `Backed up ${environments} environment${environments === 1 ? '' : 's'} and ${attachments} attachment file${attachments === 1 ? '' : 's'} to ${file} (${mib} MiB).`,
    );
  } finally {
    dataDir.close();
  }
}
