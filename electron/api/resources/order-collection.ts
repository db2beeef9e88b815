/**
 * An order's collection (docs/API.md): creating an order creates a collection in the
 * backlog, and updating the order re-syncs it.
 *
 *  - name ← code; description ← "<quantity>x <description>"; due_date ← promised_date, else
 *    desired_date. These follow the order only while nobody changed them on the collection:
 *    a field still equal to what the order's previous values gave is "not manually changed".
 *  - meta ← order type, status, address, relation name, project name, promised and desired
 *    date: always.
 *  - activities ← the rows' activities with unit × quantity in minutes: only while the
 *    collection is not planned (planned cards are never moved by an order change).
 *
 * Minutes per unit follow the public docs: minutes → quantity, hours → 60 × quantity,
 * days → 3600 × quantity (sic: 60 hours a day, as documented), other units → 0; rounded.
 * Ours beside them: pieces → quantity × the activity's default duration (docs/API.md
 * "Order row units").
 *
 * Clients of the public API also send `collection_id` (an existing collection for the order to
 * keep up to date instead of making one; only on create) and `board_id` (the board whose
 * backlog the collection waits in), docs/API.md "Orders and their collection".
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { limits } from '../../../shared/fields.js';
import { pieceUnit } from '../../../shared/resources/order-row.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { TableDef } from '../../store/table-def.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';

const minutesPerUnit: Record<string, number> = { minutes: 1, hours: 60, days: 3600 };

/**
 * Unrounded minutes of one row; an activity's total is rounded once, after summing.
 * `pieceMinutes` is the row activity's default duration: what one piece takes.
 */
export function rowMinutes(unit: unknown, quantity: unknown, pieceMinutes = 0): number {
  if (typeof quantity !== 'number' || typeof unit !== 'string') return 0;
  const key = unit.toLowerCase();
  if (key === pieceUnit) return pieceMinutes * quantity;
  return (minutesPerUnit[key] ?? 0) * quantity;
}

/** What one piece of a row's activity takes: its default duration in minutes. */
export async function pieceMinutesOf(records: RecordReads, activityId: unknown): Promise<number> {
  const activity = typeof activityId === 'string' ? await records.get(tables.activity, activityId) : undefined;
  return typeof activity?.default_duration === 'number' ? activity.default_duration : 0;
}

interface Derived {
  name: string | null;
  description: string | null;
  due_date: string | null;
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function derive(order: StoredRecord): Derived {
  // A stored order: its description and quantity columns are nullable text and number.
  const description = order.description as string | null;
  const quantity = order.quantity as number | null;
  return {
    name: textOrNull(order.code),
    description: description === null ? null : quantity !== null ? `${quantity}x ${description}` : description,
    due_date: textOrNull(order.promised_date) ?? textOrNull(order.desired_date),
  };
}

function addressLine(address: StoredRecord | undefined): string | null {
  if (!address) return null;
  const place = [address.postal_code, address.city].filter(Boolean).join(' ');
  return [address.name, address.street1, address.street2, place, address.country].filter(Boolean).join(', ') || null;
}

async function meta(tx: RecordWrites, order: StoredRecord): Promise<Record<string, unknown>> {
  const named = async (table: TableDef, id: unknown) => (typeof id === 'string' ? await tx.get(table, id) : undefined);
  return {
    // A stored order's meta is a json object column, or null.
    ...(order.meta as Record<string, unknown> | null),
    order_type: order.type ?? null,
    order_status: order.status ?? null,
    address: addressLine(await named(tables.address, order.address_id)),
    relation: (await named(tables.relation, order.relation_id))?.name ?? null,
    project: (await named(tables.project, order.project_id))?.name ?? null,
    promised_date: order.promised_date ?? null,
    desired_date: order.desired_date ?? null,
  };
}

/** Makes the collection's activity links match the order's live rows. */
async function syncActivities(tx: RecordWrites, order: StoredRecord, collectionId: string): Promise<void> {
  const minutes = new Map<string, number>();
  for (const row of await tx.getWhereIn(tables.order_row, 'order_id', [order.id])) {
    if (typeof row.activity_id !== 'string') continue;
    const pieceMinutes =
      typeof row.unit === 'string' && row.unit.toLowerCase() === pieceUnit ? await pieceMinutesOf(tx, row.activity_id) : 0;
    minutes.set(row.activity_id, (minutes.get(row.activity_id) ?? 0) + rowMinutes(row.unit, row.quantity, pieceMinutes));
  }
  // Each row plans at most a year (orderRowWorkProblems), yet rows of one activity add up:
  // the collection's figure stays within the bound its declaration sets.
  for (const [activityId, total] of minutes) minutes.set(activityId, Math.min(Math.round(total), limits.minutes));
  const links = await tx.getWhereIn(tables.collection_activity, 'collection_id', [collectionId]);
  const byActivity = new Map(links.map((l) => [l.activity_id, l]));
  for (const [activityId, time] of minutes) {
    const link = byActivity.get(activityId);
    if (!link) await tx.insert(tables.collection_activity, { collection_id: collectionId, activity_id: activityId, time });
    else if (link.time !== time) await tx.update(tables.collection_activity, link.id, { time });
  }
  for (const link of links) if (!minutes.has(link.activity_id)) await tx.softDelete(tables.collection_activity, link.id);
}

/**
 * An order may name an existing collection when it is created (`collection_id`): it must belong
 * to no other order. From then on an order keeps its collection. A replica's synced order
 * carries the collection its own planning made, and is not checked again here.
 */
export async function checkOrderCollection(
  ctx: RequestContext,
  tx: RecordWrites,
  values: Record<string, unknown>,
  current: StoredRecord | undefined,
): Promise<FieldProblem[]> {
  if (ctx.origin === 'sync' || values.collection_id === undefined) return [];
  const wanted = values.collection_id;
  if (current) {
    return wanted === current.collection_id
      ? []
      : [{ field: 'collection_id', description: 'An order keeps its collection: collection_id cannot change' }];
  }
  if (typeof wanted !== 'string') return [];
  const taken = (await tx.getWhereIn(tables.order, 'collection_id', [wanted])).length > 0;
  return taken ? [{ field: 'collection_id', description: 'collection_id names the collection of another order' }] : [];
}

/**
 * The board an order's `board_id` names for its collection (undefined: not sent). A collection
 * waits in that board's backlog; one that is planned stays where it is planned, so naming
 * another board for it is refused.
 */
function boardChange(collection: StoredRecord, board: string | null | undefined): Record<string, unknown> {
  if (board === undefined || board === collection.board_id) return {};
  if (collection.status === 'planned') {
    throw ApiError.unprocessable([
      { field: 'board_id', description: 'The collection is planned on another board: move it to the backlog before naming another board' },
    ]);
  }
  return { board_id: board };
}

/** Fills each order's virtual `board_id`: its collection's board. */
export async function presentOrderBoards(ctx: RequestContext, orders: Record<string, unknown>[]): Promise<void> {
  const ids = orders.map((order) => order.collection_id).filter((id): id is string => typeof id === 'string');
  const boards = new Map((await ctx.records.getWhereIn(tables.collection, 'id', ids)).map((c) => [c.id, c.board_id]));
  // An order without a collection (null) finds no board in the map.
  for (const order of orders) order.board_id = boards.get(order.collection_id as string) ?? null;
}

export async function createOrderCollection(tx: RecordWrites, order: StoredRecord, board?: string | null): Promise<void> {
  const named = typeof order.collection_id === 'string' ? await tx.get(tables.collection, order.collection_id) : undefined;
  if (named) {
    // An existing collection keeps its name, description and due date (set by hand); its
    // meta follows the order, and its activities do while it is not planned.
    await tx.update(tables.collection, named.id, { meta: await meta(tx, order), ...boardChange(named, board) });
    if (named.status !== 'planned') await syncActivities(tx, order, named.id);
    return;
  }
  const derived = derive(order);
  const collection = await tx.insert(tables.collection, {
    ...derived,
    meta: await meta(tx, order),
    source_type: 'order',
    status: 'not_planned',
    progress: 'open',
    warnings: [],
    custom_fields: [],
    board_id: board ?? null,
    external_ref: null,
  });
  await tx.update(tables.order, order.id, { collection_id: collection.id });
  await syncActivities(tx, order, collection.id);
}

export async function syncOrderCollection(
  tx: RecordWrites,
  order: StoredRecord,
  previous: StoredRecord | undefined,
  board?: string | null,
): Promise<void> {
  if (typeof order.collection_id !== 'string') return;
  const collection = await tx.get(tables.collection, order.collection_id);
  if (!collection) return;
  const changes: Record<string, unknown> = { meta: await meta(tx, order), ...boardChange(collection, board) };
  if (previous) {
    const before = derive(previous);
    const after = derive(order);
    for (const field of ['name', 'description', 'due_date'] as const) {
      if (collection[field] === before[field] && before[field] !== after[field]) changes[field] = after[field];
    }
  }
  if (JSON.stringify(changes.meta) === JSON.stringify(collection.meta)) delete changes.meta;
  if (Object.keys(changes).length > 0) await tx.update(tables.collection, collection.id, changes);
  if (collection.status !== 'planned') await syncActivities(tx, order, collection.id);
}
