/**
 * Restoring a backup: everything that can be checked is checked before the current data is
 * touched, and the current data is moved aside (not deleted) before the backup goes in, so a
 * failure at any step leaves the planner with the data they had.
 *
 *   stage    unpack into a temp folder (each attachment named after its content's checksum);
 *            each database opened read-only must pass `PRAGMA integrity_check`, have a schema
 *            version this app knows (`user_version` ≤ its migrations), the tables every
 *            version has, and no trigger or view the app's migrations did not make: those run
 *            SQL on the planner's next writes and reads, which the app never wrote
 *   swap     (instance closed by the caller) move the current databases into
 *            `before-restore-<time>/`, copy the staged ones in, add missing attachments
 *   reopen   open the restored folder; if that fails, put the old files back and open them
 *
 * A restored replica must not reuse mutation ids the remote has already seen under its old
 * node id, so its node id is forgotten (`forgetReplicaNode`) and the remote sees a new client.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate, type Migration } from '../database.js';
import { environmentMigrations } from '../migrations/environment/index.js';
import { systemMigrations } from '../migrations/system/index.js';
import { ownerOnlyFolderMode } from '../owner-only.js';
import { forgetReplicaNode } from '../sync-book.js';
import { BackupRefused, extractBackup, readBackupInfo, type BackupEntry, type BackupInfo } from './backup-file.js';
import { nowDate } from '../../../shared/clock.js';

/** Tables each kind of database has had since its first migration. */
const expectedTables: Record<'system' | 'environment', readonly string[]> = {
  system: ['environment', 'api_key'],
  environment: ['change_log', 'project'],
};

export interface SchemaLimits {
  system: number;
  environment: number;
}

export const appSchema: SchemaLimits = { system: systemMigrations.length, environment: environmentMigrations.length };

export interface StagedBackup {
  dir: string;
  info: BackupInfo;
  /** Removes the staging folder. */
  discard(): void;
}

const migrationsOf: Record<'system' | 'environment', readonly Migration[]> = {
  system: systemMigrations,
  environment: environmentMigrations,
};
const appMadeCache = new Map<string, Set<string>>();

/** Triggers and views (`type name sql`) the app's own migrations make up to `version`. */
function appMadeObjects(kind: 'system' | 'environment', version: number): Set<string> {
  const key = `${kind}:${version}`;
  let made = appMadeCache.get(key);
  if (!made) {
    const db = new Database(':memory:');
    try {
      migrate(db, [...migrationsOf[kind]].sort((a, b) => a.version - b.version).slice(0, version));
      made = new Set(schemaObjects(db).map(describeObject));
    } finally {
      db.close();
    }
    appMadeCache.set(key, made);
  }
  return made;
}

interface SchemaObject {
  type: string;
  name: string;
  sql: string | null;
}

function schemaObjects(db: Database.Database): SchemaObject[] {
  return db.prepare("SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name").all() as SchemaObject[];
}

const describeObject = (object: SchemaObject) => `${object.type} ${object.name} ${object.sql ?? ''}`;

export function checkDatabase(file: string, kind: 'system' | 'environment', maxVersion: number): void {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupRefused(`The ${kind} database in the backup cannot be opened.`);
  }
  try {
    let check: unknown;
    try {
      check = db.pragma('integrity_check', { simple: true });
    } catch {
      throw new BackupRefused(`The ${kind} database in the backup is not a database.`);
    }
    if (check !== 'ok') throw new BackupRefused(`The ${kind} database in the backup is damaged.`);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > maxVersion) throw new BackupRefused('The backup was made by a newer version of Planner; update the app first.');
    if (version < 1) throw new BackupRefused(`The ${kind} database in the backup is empty.`);
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
    );
    const missing = expectedTables[kind].filter((name) => !tables.has(name));
    if (missing.length > 0) throw new BackupRefused(`The ${kind} database in the backup lacks the tables ${missing.join(', ')}.`);
    const made = appMadeObjects(kind, version);
    const foreign = schemaObjects(db).find((object) => !made.has(describeObject(object)));
    if (foreign) {
      throw new BackupRefused(
        `The ${kind} database in the backup has a ${foreign.type} Planner did not make (${foreign.name.slice(0, 100)}); it is not restored.`,
      );
    }
  } finally {
    db.close();
  }
}

function environmentIdsOf(systemFile: string): Set<string> {
  const db = new Database(systemFile, { readonly: true, fileMustExist: true });
  try {
    return new Set((db.prepare('SELECT id FROM environment').all() as { id: string }[]).map((row) => row.id));
  } finally {
    db.close();
  }
}

/** Unpacks and checks a backup file. Throws `BackupRefused` with a reason for the planner. */
export function stageBackup(file: string, limits: SchemaLimits = appSchema): StagedBackup {
  const info = readBackupInfo(file);
  const systems = info.entries.filter((entry) => entry.kind === 'system');
  if (systems.length !== 1) throw new BackupRefused('The backup has no system database.');
  const dir = mkdtempSync(join(tmpdir(), 'planner-restore-'));
  const discard = () => rmSync(dir, { recursive: true, force: true });
  try {
    extractBackup(file, info.entries, dir);
    checkDatabase(join(dir, 'system.sqlite'), 'system', limits.system);
    const known = environmentIdsOf(join(dir, 'system.sqlite'));
    for (const entry of info.entries) {
      if (entry.kind === 'attachment' && !known.has(entry.environmentId!)) {
        throw new BackupRefused('The backup holds files of an environment it does not list.');
      }
      if (entry.kind !== 'environment') continue;
      if (!known.has(entry.environmentId!)) throw new BackupRefused('The backup holds an environment its system database does not list.');
      const staged = join(dir, entry.path);
      checkDatabase(staged, 'environment', limits.environment);
      const db = new Database(staged);
      try {
        forgetReplicaNode(db);
      } finally {
        db.close();
      }
    }
    return { dir, info, discard };
  } catch (error) {
    discard();
    throw error;
  }
}

const databaseFile = /^(system|env-[0-9a-f-]{36})\.sqlite(-wal|-shm|-journal)?$/;

function databaseFilesIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => databaseFile.test(name));
}

function copyAttachments(dataPath: string, staged: StagedBackup, entries: readonly BackupEntry[]): void {
  for (const entry of entries) {
    if (entry.kind !== 'attachment') continue;
    const target = join(dataPath, ...entry.path.split('/'));
    // Content-addressed: a file already there is this very content.
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true, mode: ownerOnlyFolderMode });
    copyFileSync(join(staged.dir, ...entry.path.split('/')), target);
  }
}

export interface RestoreOutcome<T> {
  /** The instance open on the folder now: the backup's data, or the old data after a rollback. */
  instance: T;
  restored: boolean;
  /** Where the data from before the restore is kept (on success). */
  asideDir?: string;
  /** Why the restored data could not be opened (after a rollback). */
  error?: unknown;
}

/**
 * Swaps the staged backup into `dataPath` and opens it with `reopen`. The caller has closed
 * the instance on `dataPath` (no open SQLite handle may remain on these files).
 */
export async function swapInBackup<T>(
  dataPath: string,
  staged: StagedBackup,
  reopen: () => Promise<T>,
  now: Date = nowDate(),
): Promise<RestoreOutcome<T>> {
  const asideDir = join(dataPath, `before-restore-${now.toISOString().replace(/[:.]/g, '-')}`);
  mkdirSync(asideDir, { mode: ownerOnlyFolderMode });
  const moved: string[] = [];
  let allMoved = false;
  try {
    for (const name of databaseFilesIn(dataPath)) {
      renameSync(join(dataPath, name), join(asideDir, name));
      moved.push(name);
    }
    allMoved = true;
    for (const entry of staged.info.entries) {
      if (entry.kind !== 'attachment') copyFileSync(join(staged.dir, entry.path), join(dataPath, entry.path));
    }
    copyAttachments(dataPath, staged, staged.info.entries);
    const instance = await reopen();
    return { instance, restored: true, asideDir };
  } catch (error) {
    // Back to exactly the database files there were. Once all old files are aside, every
    // database file in the folder came from the restore (or from opening it); attachments
    // added are harmless, being content-addressed.
    if (allMoved) for (const name of databaseFilesIn(dataPath)) rmSync(join(dataPath, name), { force: true });
    for (const name of moved) renameSync(join(asideDir, name), join(dataPath, name));
    rmSync(asideDir, { recursive: true, force: true });
    const instance = await reopen();
    return { instance, restored: false, error };
  }
}
