/**
 * The cards of a board over a date range, read for capacity (electron/api/planning/
 * capacity.ts): of each card only its stage, status, dates, activity minutes and resources, joined in
 * SQL. Capacity over a year reads thousands of cards on every request, and as whole records
 * (every column, JSON parsed, links fetched by id lists) they cost it several times what it
 * computes from them.
 *
 * Rows come in card id order, then link id order: the order the generic reads (`list`,
 * `getWhereIn`) give, so sums over them add up in the same order.
 */
import type { SqliteStatement } from './database.js';
import type { EnvironmentStore } from './environment-store.js';

/** One activity of a card, with the card's stage, status and dates. */
export interface PlannedActivityRow {
  card_id: string;
  stage_id: string;
  /** The card's: with remaining_time a card in an exit status counts nothing (docs/API.md "Schedules and capacity"). */
  status_id: string | null;
  start_date: string;
  end_date: string;
  /** Minutes. */
  time: number | null;
  /** The activity's; null when the activity is deleted or has none. */
  resource_type: string | null;
}

export interface PlannedResourceRow {
  card_id: string;
  resource_id: string;
}

/** Live cards of the board that overlap the range; `c` is the card. */
const overlapping = 'c."deleted_at" IS NULL AND c."board_id" = ? AND c."start_date" <= ? AND c."end_date" >= ?';

// The activities' resource types are read apart (activityTypesSql): a board has a handful of
// activities and thousands of card activities, and a join looked each of them up again.
const activitiesSql = `SELECT c."id" AS card_id, c."stage_id", c."status_id", c."start_date", c."end_date", a."time", a."activity_id" AS resource_type
  FROM "card" c
  JOIN "card_activity" a ON a."card_id" = c."id" AND a."deleted_at" IS NULL
  WHERE ${overlapping}
  ORDER BY c."id", a."id"`;

const activityTypesSql = `SELECT "id", "resource_type" FROM "activity" WHERE "deleted_at" IS NULL`;

const resourcesSql = `SELECT c."id" AS card_id, r."resource_id"
  FROM "card" c
  JOIN "card_resource" r ON r."card_id" = c."id" AND r."deleted_at" IS NULL
  WHERE ${overlapping}
  ORDER BY c."id", r."id"`;

/** The cards of a board over a range as capacity reads them: a row per card activity and a row per card resource. */
export interface PlannedCards {
  activities: PlannedActivityRow[];
  resources: PlannedResourceRow[];
}

/**
 * The queries of plannedCards, with `?` for the board, the range's end and its start, in that
 * order; each engine runs them as they are (postgres/record-store.ts numbers the `?`).
 */
export const plannedCardsSql = { activities: activitiesSql, activityTypes: activityTypesSql, resources: resourcesSql };

/**
 * The activity rows with their activity's resource type: the activities query puts the
 * activity's id where its type goes, and it is swapped in place, no second object per row.
 */
export function withResourceTypes(
  rows: PlannedActivityRow[],
  types: readonly { id: string; resource_type: string | null }[],
): PlannedActivityRow[] {
  const typeOf = new Map(types.map((t) => [t.id, t.resource_type]));
  for (const row of rows) row.resource_type = typeOf.get(row.resource_type as string) ?? null;
  return rows;
}

const statements = new WeakMap<EnvironmentStore, Map<string, SqliteStatement>>();

/** Each request runs the same statements: prepare them once per database. */
function statement(store: EnvironmentStore, sql: string): SqliteStatement {
  let prepared = statements.get(store);
  if (!prepared) statements.set(store, (prepared = new Map()));
  let found = prepared.get(sql);
  if (!found) prepared.set(sql, (found = store.db.prepare<unknown[], unknown>(sql)));
  return found;
}

/** The board's cards that overlap `start`…`end` (YYYY-MM-DD, inclusive), from a SQLite file. */
export function plannedCards(store: EnvironmentStore, boardId: string, start: string, end: string): PlannedCards {
  const activities = statement(store, activitiesSql).all(boardId, end, start) as PlannedActivityRow[];
  if (activities.length === 0) return { activities, resources: [] };
  const types = statement(store, activityTypesSql).all() as { id: string; resource_type: string | null }[];
  return {
    activities: withResourceTypes(activities, types),
    resources: statement(store, resourcesSql).all(boardId, end, start) as PlannedResourceRow[],
  };
}
