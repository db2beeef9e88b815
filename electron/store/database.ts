/**
 * Opening a SQLite file the way every store in the app needs it: WAL so readers never wait
 * for the writer, foreign keys on, and `synchronous=FULL` because nothing a planner saved
 * may be lost on a power cut. Numbered migrations run at open, each in
 * its own transaction, tracked by `PRAGMA user_version`.
 *
 * A file that cannot be opened throws `DatabaseOpenError`: it names the file and says in words
 * what is wrong with it, so every entry point can offer the planner a way back (restore a
 * backup, start fresh, another folder) instead of one SQLite line (docs/API.md, "A data folder
 * that cannot be opened").
 */
import { basename } from 'node:path';
import Database from 'better-sqlite3';
import { ownerOnlyFile } from './owner-only.js';

export type SqliteDatabase = Database.Database;
/** A prepared statement; `Row` is the shape its SQL gives each row (unknown until named). */
export type SqliteStatement<Row = unknown> = Database.Statement<unknown[], Row>;

export interface Migration {
  /** 1, 2, 3 … in order, never reused. */
  version: number;
  /** What it changes, as in its file name: `project`, `change-log`. */
  name: string;
  up(db: SqliteDatabase): void;
}

/**
 * Why a database file cannot be opened:
 *  - `corrupt`: SQLite found damaged pages ("database disk image is malformed");
 *  - `not-a-database`: the file does not start like a SQLite database (overwritten, encrypted);
 *  - `newer-schema`: a newer Planner wrote it, this one does not know its tables;
 *  - `locked`: another program holds it;
 *  - `unreadable`: the file or its folder cannot be read or written (permissions, disk).
 */
export type DatabaseProblem = 'corrupt' | 'not-a-database' | 'newer-schema' | 'locked' | 'unreadable';

const problemWords: Record<DatabaseProblem, string> = {
  corrupt: 'the file is damaged',
  'not-a-database': 'the file is not a Planner database; it may have been overwritten',
  'newer-schema': 'a newer version of Planner wrote it; update Planner to open it',
  locked: 'another program is using the file',
  unreadable: 'the file cannot be read or written (check its permissions and the disk)',
};

export class DatabaseOpenError extends Error {
  constructor(
    /** The database file, as the store opened it. */
    readonly file: string,
    readonly problem: DatabaseProblem,
    /** SQLite's own words, or the schema versions, for the log and the curious. */
    readonly detail: string,
  ) {
    super(`Cannot open the database ${file}: ${problemWords[problem]} (${detail}).`);
    this.name = 'DatabaseOpenError';
  }

  /** The problem in plain words, without the file: "the file is damaged". */
  get words(): string {
    return problemWords[this.problem];
  }

  get fileName(): string {
    return basename(this.file);
  }
}

/** Thrown by `migrate` for a schema newer than the app; `openDatabase` turns it into `newer-schema`. */
class NewerSchemaError extends Error {}

function problemOf(error: unknown): DatabaseProblem | undefined {
  if (error instanceof NewerSchemaError) return 'newer-schema';
  // Errors from better-sqlite3 carry SQLite's code; anything else is read as having none.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) {
    // better-sqlite3 checks the folder itself before SQLite sees the path.
    return error instanceof TypeError && /directory does not exist/.test(error.message) ? 'unreadable' : undefined;
  }
  if (code.startsWith('SQLITE_CORRUPT')) return 'corrupt';
  if (code === 'SQLITE_NOTADB') return 'not-a-database';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (/^SQLITE_(CANTOPEN|PERM|READONLY|IOERR|AUTH|FULL)/.test(code)) return 'unreadable';
  return undefined;
}

/**
 * The error as a `DatabaseOpenError` of `file` when it says something is wrong with the file
 * (SQLite's corrupt, not-a-database, busy, I/O codes; a newer schema); otherwise undefined, so
 * a bug is never passed off as a damaged file.
 */
export function databaseOpenError(error: unknown, file: string): DatabaseOpenError | undefined {
  if (error instanceof DatabaseOpenError) return error;
  const problem = problemOf(error);
  return problem ? new DatabaseOpenError(file, problem, error instanceof Error ? error.message : String(error)) : undefined;
}

export function openDatabase(file: string, migrations: readonly Migration[]): SqliteDatabase {
  let db: SqliteDatabase | undefined;
  try {
    // Made for its owner only, so its -wal and -shm are too (owner-only.ts); a folder that is
    // missing or cannot be written is left for SQLite to report, in its words, below.
    try {
      ownerOnlyFile(file);
    } catch {
      // See above.
    }
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // Statement journals (kept while one statement of a larger transaction writes many rows, so
    // that statement alone can be undone) and sorts live in memory, not in temporary files: a
    // plan wrote three times as many pages to those files as to the database itself. They are
    // never needed after a crash, since the WAL rolls back the whole transaction
    // (docs/decisions/temp-store-memory.md).
    db.pragma('temp_store = MEMORY');
    // SQLite reads the schema lazily; reading it now makes a damaged schema fail here, where
    // the file can be named, rather than in the first request. (Damage in data pages shows
    // only when they are read: a full `quick_check` would read the whole file at every start.)
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    migrate(db, migrations);
    return db;
  } catch (error) {
    try {
      db?.close();
    } catch {
      // Closing a file SQLite could not use may fail as well; the first error is the one to tell.
    }
    throw databaseOpenError(error, file) ?? error;
  }
}

export function migrate(db: SqliteDatabase, migrations: readonly Migration[]): void {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
  // With `simple: true` pragma gives the value itself: user_version is an integer.
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > sorted.length) {
    throw new NewerSchemaError(`schema version ${current}, this Planner knows up to ${sorted.length}`);
  }
  for (const m of sorted.slice(current)) {
    // The version bump commits with the migration, so a crash mid-way re-runs it whole.
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
}
