/**
 * A Planner backup is one SQLite file holding the whole data folder: the system database,
 * each environment's database and the attachment files, each stored as checksummed chunks.
 * One file is what a planner expects to save, copy and restore; SQLite makes it robust (it
 * can be checked with `PRAGMA integrity_check` before anything is trusted) and chunks keep
 * memory flat whatever the size.
 *
 * The databases are copied with SQLite's online backup API (better-sqlite3 `db.backup`) on
 * the live connections, so each copy is a consistent snapshot while the app keeps writing:
 * a write on the same connection during the copy is carried into the copy by SQLite itself.
 * Attachment files are content-addressed and never rewritten, so copying them after the
 * databases includes every file the copied databases name.
 *
 *   backup_info  (key, value)                            format, version, created_at, app_version
 *   backup_entry (path, kind, environment_id, bytes, sha256)
 *   backup_chunk (path, seq, data)
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { DataDir } from '../data-dir.js';
import { ownerOnlyFileMode, ownerOnlyFolderMode } from '../owner-only.js';
import { nowDate } from '../../../shared/clock.js';

export const backupFormat = 'planner-backup';
export const backupFormatVersion = 1;
const chunkBytes = 8 * 1024 * 1024;

export type BackupEntryKind = 'system' | 'environment' | 'attachment';

export interface BackupEntry {
  /** Where the file goes in a data folder, with `/` separators. */
  path: string;
  kind: BackupEntryKind;
  environmentId: string | null;
  bytes: number;
  sha256: string;
}

export interface BackupInfo {
  createdAt: string;
  appVersion: string;
  entries: BackupEntry[];
}

/** Thrown when a file is not a backup this app can restore; the message is for the planner. */
export class BackupRefused extends Error {}

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The only paths an entry may have: nothing a crafted backup names can land elsewhere. */
const entryPaths: Record<BackupEntryKind, RegExp> = {
  system: /^system\.sqlite$/,
  environment: new RegExp(`^env-(${uuid})\\.sqlite$`),
  attachment: new RegExp(`^attachments/(${uuid})/[0-9a-f]{2}/[0-9a-f]{64}$`),
};

export function isSafeEntry(entry: Pick<BackupEntry, 'path' | 'kind' | 'environmentId'>): boolean {
  const pattern = entryPaths[entry.kind];
  if (!pattern) return false;
  const match = pattern.exec(entry.path);
  if (!match) return false;
  return entry.kind === 'system' ? entry.environmentId === null : match[1] === entry.environmentId;
}

/**
 * An attachment is stored under its content's SHA-256 (`attachments/<env>/<xx>/<sha256>`), and
 * a file already in the data folder under that name is taken to be that content. So its entry
 * must name its own checksum: otherwise a crafted backup could put other content under a name.
 */
function namesItsContent(entry: Pick<BackupEntry, 'path' | 'kind' | 'sha256'>): boolean {
  if (entry.kind !== 'attachment') return true;
  const [, , prefix, name] = entry.path.split('/');
  return name === entry.sha256 && prefix === entry.sha256.slice(0, 2);
}

function attachmentFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.part'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Adds one file to the bundle in chunks, hashing as it goes. */
function addFile(bundle: Database.Database, file: string, entry: Omit<BackupEntry, 'bytes' | 'sha256'>): BackupEntry {
  const insertChunk = bundle.prepare('INSERT INTO backup_chunk (path, seq, data) VALUES (?, ?, ?)');
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const fd = openSync(file, 'r');
  let bytes = 0;
  try {
    for (let seq = 0; ; seq++) {
      const read = readSync(fd, buffer, 0, chunkBytes, null);
      if (read === 0) break;
      const chunk = buffer.subarray(0, read);
      hash.update(chunk);
      insertChunk.run(entry.path, seq, chunk);
      bytes += read;
    }
  } finally {
    closeSync(fd);
  }
  const done = { ...entry, bytes, sha256: hash.digest('hex') };
  bundle
    .prepare('INSERT INTO backup_entry (path, kind, environment_id, bytes, sha256) VALUES (?, ?, ?, ?, ?)')
    .run(done.path, done.kind, done.environmentId, done.bytes, done.sha256);
  return done;
}

/**
 * Writes a backup of `dataDir` to `file` (which must not exist yet). The databases are copied
 * to a private temp folder first, then packed; the temp folder is always removed.
 */
export async function writeBackup(dataDir: DataDir, file: string, options: { appVersion: string; now?: Date }): Promise<BackupInfo> {
  const staging = mkdtempSync(join(tmpdir(), 'planner-backup-'));
  try {
    const copies: { file: string; entry: Omit<BackupEntry, 'bytes' | 'sha256'> }[] = [];
    const systemCopy = join(staging, 'system.sqlite');
    await dataDir.system.db.backup(systemCopy);
    copies.push({ file: systemCopy, entry: { path: 'system.sqlite', kind: 'system', environmentId: null } });
    for (const environment of dataDir.system.listEnvironments()) {
      // An environment never opened has no file yet; opening it here would create one.
      if (!existsSync(DataDir.environmentFile(dataDir.path, environment.id))) continue;
      const name = `env-${environment.id}.sqlite`;
      await dataDir.environment(environment.id).db.backup(join(staging, name));
      copies.push({ file: join(staging, name), entry: { path: name, kind: 'environment', environmentId: environment.id } });
    }
    const attachmentsRoot = join(dataDir.path, 'attachments');
    for (const attachment of attachmentFiles(attachmentsRoot)) {
      const path = relative(dataDir.path, attachment).split(sep).join('/');
      const environmentId = path.split('/')[1] ?? '';
      const entry = { path, kind: 'attachment' as const, environmentId };
      if (isSafeEntry(entry)) copies.push({ file: attachment, entry });
    }

    const createdAt = (options.now ?? nowDate()).toISOString();
    // The whole folder, its secrets included: readable by its owner only (owner-only.ts), and
    // never written over an existing file.
    closeSync(openSync(file, 'wx', ownerOnlyFileMode));
    const bundle = new Database(file, { fileMustExist: true });
    try {
      // The bundle is written once and thrown away on failure: no journal needed.
      bundle.pragma('journal_mode = OFF');
      bundle.pragma('synchronous = OFF');
      bundle.exec(`
        CREATE TABLE backup_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE backup_entry (path TEXT PRIMARY KEY, kind TEXT NOT NULL, environment_id TEXT, bytes INTEGER NOT NULL, sha256 TEXT NOT NULL);
        CREATE TABLE backup_chunk (path TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (path, seq));
      `);
      const info = bundle.prepare('INSERT INTO backup_info (key, value) VALUES (?, ?)');
      const entries = bundle.transaction(() => {
        info.run('format', backupFormat);
        info.run('format_version', String(backupFormatVersion));
        info.run('created_at', createdAt);
        info.run('app_version', options.appVersion);
        return copies.map(({ file: source, entry }) => addFile(bundle, source, entry));
      })();
      bundle.close();
      return { createdAt, appVersion: options.appVersion, entries };
    } catch (error) {
      bundle.close();
      rmSync(file, { force: true });
      throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function openReadOnly(file: string): Database.Database {
  try {
    return new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupRefused('The file cannot be opened as a database.');
  }
}

/** Reads what a backup file holds, refusing anything that is not an intact Planner backup. */
export function readBackupInfo(file: string): BackupInfo {
  const bundle = openReadOnly(file);
  try {
    let check: unknown;
    try {
      check = bundle.pragma('integrity_check', { simple: true });
    } catch {
      throw new BackupRefused('The file is not a database (or it is damaged).');
    }
    if (check !== 'ok') throw new BackupRefused('The file is damaged (the database integrity check failed).');
    const tables = new Set(
      (bundle.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
    );
    if (!['backup_info', 'backup_entry', 'backup_chunk'].every((name) => tables.has(name))) {
      throw new BackupRefused('The file is a database, but not a Planner backup.');
    }
    const info = new Map(
      (bundle.prepare('SELECT key, value FROM backup_info').all() as { key: string; value: string }[]).map((row) => [row.key, row.value]),
    );
    if (info.get('format') !== backupFormat) throw new BackupRefused('The file is a database, but not a Planner backup.');
    if (Number(info.get('format_version')) > backupFormatVersion)
      throw new BackupRefused('The backup was made by a newer version of Planner; update the app first.');
    const rows = bundle
      .prepare('SELECT path, kind, environment_id AS environmentId, bytes, sha256 FROM backup_entry')
      .all() as BackupEntry[];
    for (const row of rows) {
      if (!isSafeEntry(row) || !Number.isSafeInteger(row.bytes) || row.bytes < 0 || !/^[0-9a-f]{64}$/.test(row.sha256)) {
        throw new BackupRefused(`The backup names a file it may not hold (${String(row.path).slice(0, 100)}).`);
      }
      if (!namesItsContent(row)) throw new BackupRefused(`The backup is damaged: ${row.path} is not named after its content's checksum.`);
    }
    return { createdAt: info.get('created_at') ?? '', appVersion: info.get('app_version') ?? '', entries: rows };
  } finally {
    bundle.close();
  }
}

/** Unpacks `entries` under `into`, checking each file's size and SHA-256. */
export function extractBackup(file: string, entries: readonly BackupEntry[], into: string): void {
  const bundle = openReadOnly(file);
  try {
    const chunks = bundle.prepare('SELECT data FROM backup_chunk WHERE path = ? ORDER BY seq');
    for (const entry of entries) {
      if (!isSafeEntry(entry)) throw new BackupRefused(`The backup names a file it may not hold (${entry.path}).`);
      // The content is checked against `sha256` below, so it matches the name too.
      if (!namesItsContent(entry))
        throw new BackupRefused(`The backup is damaged: ${entry.path} is not named after its content's checksum.`);
      const target = join(into, ...entry.path.split('/'));
      mkdirSync(dirname(target), { recursive: true, mode: ownerOnlyFolderMode });
      const hash = createHash('sha256');
      let bytes = 0;
      // Copied into the data folder as they are: for its owner only (owner-only.ts).
      const fd = openSync(target, 'wx', ownerOnlyFileMode);
      try {
        for (const row of chunks.iterate(entry.path) as Iterable<{ data: Buffer }>) {
          hash.update(row.data);
          writeSync(fd, row.data);
          bytes += row.data.length;
        }
      } finally {
        closeSync(fd);
      }
      if (bytes !== entry.bytes || hash.digest('hex') !== entry.sha256) {
        throw new BackupRefused(`The backup is damaged: ${entry.path} does not match its checksum.`);
      }
    }
  } finally {
    bundle.close();
  }
}
