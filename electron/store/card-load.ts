/**
 * The load of a board's cards over a date range, read for finite planning
 * (electron/api/planning/finite-plan.ts): of each card its stage, status, dates, total activity minutes
 * and assigned resources, one row per card, in one query without a sort. A finite plan reads
 * every card of its horizon on each call, so it reads no more than it counts.
 */
import type { SqliteStatement } from './database.js';
import type { EnvironmentStore } from './environment-store.js';

export interface CardLoadRow {
  card_id: string;
  stage_id: string;
  /** With remaining_time a card in an exit status counts nothing (docs/API.md "Schedules and capacity"). */
  status_id: string | null;
  start_date: string;
  end_date: string;
  /** The card's activity minutes, summed. */
  minutes: number;
  /** Assigned resource ids, comma-separated; null for none. */
  resources: string | null;
}

/** The aggregates each engine spells its own way; the rest of the query is the same on both. */
const dialects = {
  sqlite: { minutes: (column: string) => `total(${column})`, joined: (column: string) => `group_concat(${column})` },
  // sum of a bigint column is numeric, which the driver would give as text.
  postgres: {
    minutes: (column: string) => `COALESCE(sum(${column}), 0)::float8`,
    joined: (column: string) => `string_agg(${column}, ',')`,
  },
};

/**
 * The query of cardLoads on `engine`, with `?` for the board, the range's end and its start, in
 * that order. With `resources`, each card's assigned resources too (a plan with resources needs
 * them).
 */
export function cardLoadsSql(resources: boolean, engine: keyof typeof dialects): string {
  const dialect = dialects[engine];
  const assigned = resources
    ? `(SELECT ${dialect.joined('r."resource_id"')} FROM "card_resource" r WHERE r."card_id" = c."id" AND r."deleted_at" IS NULL)`
    : 'NULL';
  return `SELECT c."id" AS card_id, c."stage_id", c."status_id", c."start_date", c."end_date",
    (SELECT ${dialect.minutes('a."time"')} FROM "card_activity" a WHERE a."card_id" = c."id" AND a."deleted_at" IS NULL) AS minutes,
    ${assigned} AS resources
  FROM "card" c
  WHERE c."deleted_at" IS NULL AND c."board_id" = ? AND c."start_date" <= ? AND c."end_date" >= ?`;
}

const statements = new WeakMap<EnvironmentStore, Map<boolean, SqliteStatement>>();

/**
 * The live cards of the board that overlap `start`…`end` (YYYY-MM-DD, inclusive); their
 * `resources` only when asked for (else null).
 */
export function cardLoads(store: EnvironmentStore, boardId: string, start: string, end: string, resources: boolean): CardLoadRow[] {
  let prepared = statements.get(store);
  if (!prepared) statements.set(store, (prepared = new Map()));
  let statement = prepared.get(resources);
  if (!statement) prepared.set(resources, (statement = store.db.prepare<unknown[], unknown>(cardLoadsSql(resources, 'sqlite'))));
  // The query names its columns as CardLoadRow's fields.
  return statement.all(boardId, end, start) as CardLoadRow[];
}
