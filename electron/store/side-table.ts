/**
 * A table kept beside an environment's records, with its own reads and writes: the overruled
 * list, the sync history, data of other app versions, the webhook queue. Each is one object per
 * open store (made on first use, let go with the store), and runs fixed SQL texts through the
 * one bounded statement cache (statement-cache.ts).
 */
import type { SqliteStatement } from './database.js';
import type { EnvironmentStore } from './environment-store.js';
import { fixedTextStatements, type StatementCache } from './statement-cache.js';

/** `make(store)` once per open store: later calls with the same store get the same object. */
export function onePerStore<T extends object>(make: (store: EnvironmentStore) => T): (store: EnvironmentStore) => T {
  const made = new WeakMap<EnvironmentStore, T>();
  return (store) => {
    let found = made.get(store);
    if (!found) {
      found = make(store);
      made.set(store, found);
    }
    return found;
  };
}

export abstract class SideTable {
  /** Its prepared statements; public so a test can see that they stay bounded. */
  readonly statements: StatementCache;

  constructor(protected readonly store: EnvironmentStore) {
    this.statements = fixedTextStatements(store.db);
  }

  /** The statement of a fixed text, with the shape of its rows named by the caller. */
  protected sql<Row = unknown>(text: string): SqliteStatement<Row> {
    return this.statements.rows<Row>(text);
  }

  /**
   * One page of `SELECT * <from> ORDER BY <order>`, and how many rows `from` holds in all.
   * `from` is a fixed text (`FROM t WHERE …` with `?` for `params`), so each shape is one
   * cached statement.
   */
  protected page<Row>(
    from: string,
    params: readonly unknown[],
    order: string,
    limit: number,
    offset: number,
  ): { count: number; rows: Row[] } {
    // count(*) always gives one row.
    const { n } = this.sql<{ n: number }>(`SELECT count(*) AS n ${from}`).get(...params)!;
    const rows = this.sql<Row>(`SELECT * ${from} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...params, limit, offset);
    return { count: n, rows };
  }
}
