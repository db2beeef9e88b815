/**
 * `npm run server -- migrate-to-postgres --data-dir DIR --database postgres://…`: copies an
 * SQLite remote's data folder into a PostgreSQL database and prints the check of every table
 * (electron/store/postgres/copy-from-sqlite.ts; docs/API.md "Moving a remote to PostgreSQL").
 * The data folder must not be in use: the copy is of a folder no server is writing to.
 * `PLANNER_DATABASE_URL` may name the database instead of `--database` (a password in a URL
 * on the command line shows in `ps`).
 */
import { resolve } from 'node:path';
import { openDataFolder } from './data-folder.js';
import { DataDirLock } from '../store/data-dir-lock.js';
import { copyToPostgres, notCopied, type CopyReport } from '../store/postgres/copy-from-sqlite.js';
import { serverMigrations } from '../store/postgres/migrations.js';
import { openPostgresDatabase } from '../store/postgres/postgres-database.js';
import { ArgsError, parseArgs } from './cli-args.js';

export const migrateUsage = `       npm run server -- migrate-to-postgres --data-dir DIR --database postgres://USER@HOST/DB (or PLANNER_DATABASE_URL=…)`;

export function isMigrateCommand(argv: readonly string[]): boolean {
  return argv[0] === 'migrate-to-postgres';
}

/** Prints the report; exits non-zero (through the thrown Error) when a table differs. */
export async function runMigrateCommand(argv: readonly string[]): Promise<void> {
  const { options } = parseArgs(argv.slice(1), { values: ['data-dir', 'database'], flags: [] });
  if (typeof options['data-dir'] !== 'string') throw new ArgsError('--data-dir is required');
  const url = typeof options.database === 'string' ? options.database : process.env.PLANNER_DATABASE_URL;
  if (!url) throw new ArgsError('--database postgres://… (or PLANNER_DATABASE_URL) is required');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new ArgsError('--database must be a postgres:// URL');
  const folder = resolve(options['data-dir']);
  const lock = DataDirLock.acquire(folder, 'server');
  try {
    const dataDir = openDataFolder(folder);
    try {
      const pool = await openPostgresDatabase(url, serverMigrations);
      try {
        const report = await copyToPostgres(dataDir, pool);
        console.log(describeCopy(report));
        if (!report.matches) throw new Error('The copy differs from the data folder (see above). Do not serve from it.');
      } finally {
        await pool.end();
      }
    } finally {
      dataDir.close();
    }
  } finally {
    lock.release();
  }
}

export function describeCopy(report: CopyReport): string {
  const lines = [
    `Copied ${report.environments.length} environment${report.environments.length === 1 ? '' : 's'} (${report.environments.join(', ')}) and ${report.apiKeys} API key${report.apiKeys === 1 ? '' : 's'} to PostgreSQL.`,
  ];
  const differing = report.tables.filter((t) => t.sqliteRows !== t.postgresRows || t.sqliteChecksum !== t.postgresChecksum);
  lines.push(
    differing.length === 0
      ? `Checked ${report.tables.length} tables: each has the same rows in SQLite and PostgreSQL (count and SHA-256).`
      : `Checked ${report.tables.length} tables: ${differing.length} DIFFER.`,
  );
  for (const t of report.tables) {
    if (t.sqliteRows === 0 && t.postgresRows === 0) continue;
    const same = t.sqliteRows === t.postgresRows && t.sqliteChecksum === t.postgresChecksum;
    lines.push(
      `  ${same ? 'same   ' : 'DIFFERS'}  ${t.environment} ${t.table}: ${t.sqliteRows} ${t.sqliteRows === 1 ? 'row' : 'rows'} in SQLite, ${t.postgresRows} in PostgreSQL, sha256 ${t.sqliteChecksum.slice(0, 12)}${same ? '' : ` vs ${t.postgresChecksum.slice(0, 12)}`}`,
    );
  }
  if (notCopied.length > 0)
    lines.push('Not copied yet (the team server does not keep these on PostgreSQL yet):', ...notCopied.map((what) => `  - ${what}`));
  return lines.join('\n');
}
