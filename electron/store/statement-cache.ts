/**
 * Prepared statements, kept by their SQL text, with a bound. List queries build their SQL from
 * the shape of a filter and sort (values are parameters, the shape is in the text), so callers
 * can make any number of distinct texts, and each prepared statement holds tens of KiB of
 * SQLite's memory, freed only when the garbage collector finalizes its JavaScript object.
 *  - At most `capacity` statements are kept; the least recently used one is let go first.
 *  - A text is kept from its second use on (unless the owner's texts are all fixed). A
 *    statement used once (a one-off filter) is never kept, so it dies young and the next minor
 *    collection frees it; a statement kept for a while and then let go waits for a full
 *    collection, which may be far off.
 */
import { createHash } from 'node:crypto';
import type { SqliteDatabase, SqliteStatement } from './database.js';

export const defaultStatementCapacity = 500;

/** The bound for a store whose SQL texts are fixed: a few dozen at most, so this is never reached in use. */
export const fixedTextCapacity = 100;

export class StatementCache {
  private readonly statements = new Map<string, SqliteStatement>();
  /** Digests of texts used once and not kept (yet), least recently used first; bounded too. */
  private readonly seenOnce = new Map<string, true>();

  readonly capacity: number;
  private readonly keepFromFirstUse: boolean;

  constructor(
    private readonly prepare: (sql: string) => SqliteStatement,
    options: {
      capacity?: number;
      /** For an owner whose SQL texts are all fixed: keep each from its first use. */
      keepFromFirstUse?: boolean;
    } = {},
  ) {
    this.capacity = Math.max(1, options.capacity ?? defaultStatementCapacity);
    this.keepFromFirstUse = options.keepFromFirstUse ?? false;
  }

  /** How many statements it holds now (never more than `capacity`). */
  get size(): number {
    return this.statements.size;
  }

  /**
   * The statement for this text (under `key` when the same text is kept in two modes, e.g.
   * raw rows), prepared unless it is kept. A statement let go while a caller still iterates
   * it stays valid: the cache only drops its reference.
   */
  get(sql: string, key: string = sql, made?: (statement: SqliteStatement) => void): SqliteStatement {
    const kept = this.statements.get(key);
    if (kept) {
      // Setting it again moves it to the end of the Map's order: the front is least recently used.
      this.statements.delete(key);
      this.statements.set(key, kept);
      return kept;
    }
    const statement = this.prepare(sql);
    made?.(statement);
    const digest = this.keepFromFirstUse ? '' : createHash('sha256').update(key).digest('base64url');
    if (this.keepFromFirstUse || this.seenOnce.delete(digest)) {
      this.statements.set(key, statement);
      if (this.statements.size > this.capacity) this.statements.delete(this.statements.keys().next().value!);
    } else {
      this.seenOnce.set(digest, true);
      if (this.seenOnce.size > this.capacity) this.seenOnce.delete(this.seenOnce.keys().next().value!);
    }
    return statement;
  }

  /**
   * The statement for a fixed text, its rows typed as `Row`: the store that wrote the SQL names
   * the shape of its rows (better-sqlite3's own `prepare<Params, Row>`), once, where it runs it.
   */
  rows<Row>(sql: string): SqliteStatement<Row> {
    // A statement's row type is not checked at run time by better-sqlite3 either; see above.
    return this.get(sql) as SqliteStatement<Row>;
  }

  clear(): void {
    this.statements.clear();
    this.seenOnce.clear();
  }
}

/**
 * The statements of a store whose SQL texts are fixed (the system database, the sync book, the
 * tables kept beside an environment's records): each kept from its first use, and bounded all
 * the same, so a text made by mistake from a value can never grow it without end.
 */
export function fixedTextStatements(db: SqliteDatabase): StatementCache {
  return new StatementCache((text) => db.prepare<unknown[], unknown>(text), { capacity: fixedTextCapacity, keepFromFirstUse: true });
}
