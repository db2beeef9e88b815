/**
 * Opening a SQLite file the way every store in the app needs it: WAL so readers never wait
 * for the writer, foreign keys on, and `synchronous=FULL` because nothing a planner saved
 * may be lost on a power cut (ARCHITECTURE.md §4). Numbered migrations run at open, each in
 * its own transaction, tracked by `PRAGMA user_version`.
 */
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;
export type SqliteStatement = Database.Statement<unknown[], unknown>;

export interface Migration {
  /** 1, 2, 3 … in order, never reused. */
  version: number;
  /** What it changes, as in its file name: `project`, `change-log`. */
  name: string;
  up(db: SqliteDatabase): void;
}

export function openDatabase(file: string, migrations: readonly Migration[]): SqliteDatabase {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

export function migrate(db: SqliteDatabase, migrations: readonly Migration[]): void {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > sorted.length) {
    throw new Error(
      `database schema version ${current} is newer than this app knows (${sorted.length}); update the app`,
    );
  }
  for (const m of sorted.slice(current)) {
    // The version bump commits with the migration, so a crash mid-way re-runs it whole.
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
