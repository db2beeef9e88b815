/**
 * A database file that cannot be opened throws DatabaseOpenError, naming the file and saying
 * what is wrong in words (security audit, finding 9), on real files. A failure that is not
 * about the file (a bug in a migration) is not passed off as one.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDir } from '../../electron/store/data-dir.js';
import { DatabaseOpenError, openDatabase, type Migration } from '../../electron/store/database.js';
import { environmentMigrations } from '../../electron/store/migrations/environment/index.js';
import { tempDir } from '../helpers/api.js';
import { damagePages, overwriteStart } from '../helpers/broken-data.js';

let folder: string;
/** A healthy environment database, copied for each case. */
let healthy: string;

beforeAll(() => {
  folder = tempDir('planner-open-');
  const dataDir = DataDir.open(join(folder, 'data'));
  const environment = dataDir.system.ensureEnvironment('alpha');
  dataDir.environment(environment.id);
  dataDir.close();
  healthy = DataDir.environmentFile(join(folder, 'data'), environment.id);
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

let copies = 0;
function copyOfHealthy(): string {
  const file = join(folder, `env-copy-${++copies}.sqlite`);
  copyFileSync(healthy, file);
  return file;
}

function openError(file: string, migrations: readonly Migration[] = environmentMigrations): DatabaseOpenError {
  let caught: unknown;
  try {
    openDatabase(file, migrations).close();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DatabaseOpenError);
  return caught as DatabaseOpenError;
}

describe('openDatabase on a file it cannot use', () => {
  it('names a damaged file and says it is damaged', () => {
    const file = copyOfHealthy();
    damagePages(file);
    const error = openError(file);
    expect(error).toMatchObject({ file, problem: 'corrupt', fileName: file.split('/').pop() });
    expect(error.message).toContain(file);
    expect(error.message).toContain('the file is damaged');
    expect(error.detail).toMatch(/malformed/);
  });

  it('says a file whose start was overwritten is not a Planner database', () => {
    const file = copyOfHealthy();
    overwriteStart(file);
    expect(openError(file)).toMatchObject({ file, problem: 'not-a-database' });
  });

  it('says a file from a newer Planner needs a newer Planner', () => {
    const file = copyOfHealthy();
    const db = new Database(file);
    db.pragma(`user_version = ${environmentMigrations.length + 5}`);
    db.close();
    const error = openError(file);
    expect(error.problem).toBe('newer-schema');
    expect(error.words).toMatch(/newer version of Planner/);
    expect(error.detail).toContain(`schema version ${environmentMigrations.length + 5}`);
  });

  it('says a file another program holds is in use', () => {
    const file = join(folder, 'held.sqlite');
    const holder = new Database(file);
    holder.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);');
    try {
      expect(openError(file, [])).toMatchObject({ file, problem: 'locked' });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('says a file in a folder that does not exist cannot be read', () => {
    const file = join(folder, 'no-such-folder', 'system.sqlite');
    expect(openError(file, [])).toMatchObject({ file, problem: 'unreadable' });
  });

  it('tells a failing migration apart from a file it cannot use', () => {
    const broken: Migration = {
      version: 1,
      name: 'broken',
      up() {
        throw new Error('a bug in a migration');
      },
    };
    let bug: unknown;
    try {
      openDatabase(join(folder, 'fresh.sqlite'), [broken]);
    } catch (error) {
      bug = error;
    }
    expect(bug).not.toBeInstanceOf(DatabaseOpenError);
    expect((bug as Error).message).toBe('a bug in a migration');
    const damaged = copyOfHealthy();
    damagePages(damaged);
    expect(openError(damaged, [broken]).problem).toBe('corrupt');
  });
});

describe('a data folder with a damaged environment file', () => {
  it('names the file when the damage shows only in the first rows read after opening', () => {
    const path = join(folder, 'data-damaged-table');
    const dataDir = DataDir.open(path);
    const environment = dataDir.system.ensureEnvironment('alpha');
    const file = DataDir.environmentFile(path, environment.id);
    const rootPage = dataDir
      .environment(environment.id)
      .db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'project'")
      .pluck()
      .get() as number;
    dataDir.close();
    // The schema and the migrations read fine; the project table's own page is gone.
    damagePages(file, rootPage - 1, 1);
    const again = DataDir.open(path);
    // As the API's webhooks do when an environment opens: read its rows.
    again.onOpen((store) => void store.db.prepare('SELECT * FROM project').all());
    try {
      let caught: unknown;
      try {
        again.environment(environment.id);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(DatabaseOpenError);
      expect(caught).toMatchObject({ file, problem: 'corrupt' });
    } finally {
      again.close();
    }
  });

  it('names that file when it is opened', () => {
    const path = join(folder, 'data-broken');
    const dataDir = DataDir.open(path);
    const environment = dataDir.system.ensureEnvironment('alpha');
    dataDir.close();
    copyFileSync(healthy, DataDir.environmentFile(path, environment.id));
    damagePages(DataDir.environmentFile(path, environment.id));
    const again = DataDir.open(path);
    try {
      expect(() => again.environment(environment.id)).toThrow(DatabaseOpenError);
      expect(() => again.environment(environment.id)).toThrow(DataDir.environmentFile(path, environment.id));
    } finally {
      again.close();
    }
  });
});

describe('openDatabase on a healthy file', () => {
  it('keeps what a planner saved on a power cut, and its statement journals in memory rather than in temporary files', () => {
    const db = openDatabase(copyOfHealthy(), environmentMigrations);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      // 2 = FULL: every commit is on disk before it is answered.
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      // 2 = MEMORY (docs/decisions/temp-store-memory.md).
      expect(db.pragma('temp_store', { simple: true })).toBe(2);
    } finally {
      db.close();
    }
  });
});
