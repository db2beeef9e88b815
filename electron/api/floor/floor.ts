/**
 * The floor (docs/API.md "The floor"): an operator's jobs for a day and what they report back.
 * Plain asynchronous functions on the record store boundary (docs/architecture.md "The
 * asynchronous store boundary"), so they run on either engine; every record is written through
 * the ordinary record write of its resource (time entry, card, order row, comment), with that
 * resource's rules: one running timer per user, a card's completed_at, the row's checks.
 */
import { maxClockSkewMs } from '../../../shared/hlc.js';
import { addDays } from '../../../shared/dates.js';
import { cardDisplayName } from '../../../shared/card-display-name.js';
import { nowMs } from '../../../shared/clock.js';
import { localDate } from '../../../shared/zoned-time.js';
import { isRowOfActivities, maxFloorPhotoBytes, type FloorJob, type FloorJobs } from '../../../shared/operations/floor.js';
import type { RecordReads, RecordWrites } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import { createRecord, updateRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { attachFile } from '../resources/attachment-routes.js';
import { cardModule } from '../resources/card.js';
import { commentModule } from '../resources/comment.js';
import { orderRowModule } from '../resources/order-row.js';
import { minutesBetween, timeTrackingModule } from '../resources/time-tracking.js';
import { tables, type Stored } from '../tables.js';

export const notLinkedMessage = 'The floor is for a signed-in user linked to a resource (user.resource_id); ask a planner to link you.';
export const notYourJobMessage =
  "This job is not assigned to your resource: only a job on your resource's cards can be started, paused or finished.";

/** The caller's user and the resource they are linked to; 403 for anyone else (an API key, a user linked to none). */
export async function floorOperator(
  ctx: RequestContext,
  records: RecordReads = ctx.records,
): Promise<Stored<'user'> & { resource_id: string }> {
  const userId = ctx.caller.kind === 'user' ? ctx.caller.userId : undefined;
  const user = userId ? await records.get(tables.user, userId) : undefined;
  if (!user?.resource_id) throw ApiError.forbidden(notLinkedMessage);
  return { ...user, resource_id: user.resource_id };
}

/**
 * The instant of a tap, as the device sent it: an ISO 8601 date-time with an offset, at most
 * `maxClockSkewMs` ahead of the server's clock, the rule a replica's pushed clocks are held to
 * (docs/API.md "Sync"). A tap may be long past: the device may have been offline.
 */
export function tapInstant(at: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(at) ? Date.parse(at) : NaN;
  if (Number.isNaN(ms)) throw ApiError.rule('at', 'at must be an ISO 8601 date-time with an offset, e.g. 2026-12-07T10:00:00+01:00');
  const ahead = ms - nowMs();
  if (ahead > maxClockSkewMs) {
    throw ApiError.rule(
      'at',
      `at is about ${Math.ceil(ahead / 60_000)} minute(s) ahead of the server's clock (at most ${maxClockSkewMs / 60_000} are allowed): set the device's clock right and send it again.`,
    );
  }
  return new Date(ms).toISOString();
}

/** The card, if it is assigned to `resourceId`; 404 for no card, 403 for another's. */
async function operatorsCard(records: RecordReads, cardId: string, resourceId: string): Promise<Stored<'card'>> {
  const card = await records.get(tables.card, cardId.toLowerCase());
  if (!card) throw ApiError.notFound(`no card with id ${cardId}`);
  const links = await records.getWhereIn(tables.card_resource, 'card_id', [card.id]);
  if (!links.some((link) => link.resource_id === resourceId)) throw ApiError.forbidden(notYourJobMessage);
  return card;
}

/** The caller's running timer, the latest should there be more than one. */
async function runningTimer(records: RecordReads, userId: string): Promise<Stored<'time_tracking'> | undefined> {
  const query = { match: { user_id: userId, running: true }, sort: [{ field: 'start', direction: 'desc' as const }], limit: 1, offset: 0 };
  return (await records.list(tables.time_tracking, query)).rows[0];
}

/** Checks who may act on a card, in the transaction of the action: the operator and their card. */
export async function floorCard(ctx: RequestContext, tx: RecordWrites, cardId: string) {
  const operator = await floorOperator(ctx, tx);
  const card = await operatorsCard(tx, cardId, operator.resource_id);
  return { operator, card };
}

/**
 * Start: the operator's timer on the card from `at`; the time entry's own rules give it the
 * card's activity and stop the operator's other running timer at that instant. A timer already
 * running on this card is left as it is (nothing written).
 */
export async function startJob(ctx: RequestContext, tx: RecordWrites, cardId: string, at: string): Promise<boolean> {
  const { operator, card } = await floorCard(ctx, tx, cardId);
  const running = await runningTimer(tx, operator.id);
  if (running?.card_id === card.id) return false;
  await createRecord(ctx, tx, timeTrackingModule, { card_id: card.id, user_id: operator.id, start: at, end: null });
  return true;
}

/**
 * Stops the operator's timer on the card at `at`, if one runs there; whether it did. Time
 * entries keep whole seconds: a stop in the second the timer started (a quick Start then Finish),
 * or before it by the device's clock, ends one second after the start, not in a refusal the
 * operator cannot mend.
 */
async function stopOn(ctx: RequestContext, tx: RecordWrites, userId: string, cardId: string, at: string): Promise<boolean> {
  const running = await runningTimer(tx, userId);
  if (running?.card_id !== cardId) return false;
  const earliest = Date.parse(running.start) + 1000;
  const end = Date.parse(at) >= earliest ? at : new Date(earliest).toISOString();
  await updateRecord(ctx, tx, timeTrackingModule, running.id, { end });
  return true;
}

/** Pause: stops the operator's timer on the card; 409 when none runs there. */
export async function pauseJob(ctx: RequestContext, tx: RecordWrites, cardId: string, at: string): Promise<boolean> {
  const { operator, card } = await floorCard(ctx, tx, cardId);
  if (!(await stopOn(ctx, tx, operator.id, card.id, at))) throw ApiError.conflict('Your timer is not running on this job.');
  return true;
}

/**
 * Finish: stops the operator's timer on the card (if it runs) and moves the card to its board's
 * exit status (the first by priority), as a card's PUT of `status_id` would: the card's rules
 * set `completed_at`. A card already in an exit status keeps it.
 */
export async function finishJob(ctx: RequestContext, tx: RecordWrites, cardId: string, at: string): Promise<boolean> {
  const { operator, card } = await floorCard(ctx, tx, cardId);
  const stopped = await stopOn(ctx, tx, operator.id, card.id, at);
  const statuses = (await tx.getWhereIn(tables.status, 'board_id', [card.board_id])).sort((a, b) => a.priority - b.priority);
  const current = statuses.find((status) => status.id === card.status_id);
  if (current?.exit) return stopped;
  const exit = statuses.find((status) => status.exit);
  if (!exit) throw ApiError.conflict("This job's board has no exit status to finish it in; ask a planner to add one.");
  await updateRecord(ctx, tx, cardModule, card.id, { status_id: exit.id }, { collection_id: card.collection_id });
  return true;
}

export interface QuantityReport {
  card_id: string;
  order_row_id: string;
  made: number;
  scrapped: number;
  note?: string | undefined;
  photo?: { filename: string; content_type: string; data: string } | undefined;
}

// Checked without a backtracking pattern: the data may be megabytes long.
const base64Characters = /^[A-Za-z0-9+/]*={0,2}$/;

/** A report's photo as bytes, or a 422 naming `photo.data` when it is no base64 of a picture's size. */
function photoBytes(data: string): Buffer {
  const bytes = data.length % 4 === 0 && base64Characters.test(data) ? Buffer.from(data, 'base64') : undefined;
  if (!bytes || bytes.length === 0 || bytes.length > maxFloorPhotoBytes)
    throw ApiError.rule('photo.data', `photo.data must be the photo in base64, at most ${maxFloorPhotoBytes / 1024 / 1024} MiB`);
  return bytes;
}

/** The activities a card's work is: its own, else its stage's (as a time entry on it picks one). */
async function cardActivityIds(records: RecordReads, card: Stored<'card'>): Promise<string[]> {
  const own = await records.getWhereIn(tables.card_activity, 'card_id', [card.id]);
  if (own.length > 0) return own.map((link) => link.activity_id);
  const ofStage = (await records.getWhereIn(tables.stage_activity, 'stage_id', [card.stage_id])).sort((a, b) => a.priority - b.priority);
  return ofStage.map((link) => link.activity_id);
}

/** The order of a card's collection, if an order keeps it. */
async function orderOf(records: RecordReads, collectionId: string): Promise<Stored<'order'> | undefined> {
  return (await records.list(tables.order, { match: { collection_id: collectionId }, limit: 1, offset: 0 })).rows[0];
}

/**
 * Quantities: `made` adds to the row's `quantity_delivered`, `scrapped` to its
 * `quantity_scrapped`, written as the row's PUT would; a note becomes a comment on the card, a
 * photo an upload attachment of the card, in the same command.
 */
export async function reportQuantities(ctx: RequestContext, tx: RecordWrites, report: QuantityReport): Promise<boolean> {
  const { card } = await floorCard(ctx, tx, report.card_id);
  const row = await tx.get(tables.order_row, report.order_row_id.toLowerCase());
  const order = await orderOf(tx, card.collection_id);
  const activities = await cardActivityIds(tx, card);
  if (!row || !order || row.order_id !== order.id || !isRowOfActivities(row, activities)) {
    throw ApiError.rule('order_row_id', "order_row_id must name a row of this job's order, for the job's activity");
  }
  const photo = report.photo ? photoBytes(report.photo.data) : undefined;
  if (report.made === 0 && report.scrapped === 0 && !report.note && !photo) return false;
  const fields: Record<string, unknown> = {};
  if (report.made !== 0) fields.quantity_delivered = (row.quantity_delivered ?? 0) + report.made;
  if (report.scrapped !== 0) fields.quantity_scrapped = (row.quantity_scrapped ?? 0) + report.scrapped;
  if (Object.keys(fields).length > 0) await updateRecord(ctx, tx, orderRowModule, row.id, fields, { order_id: row.order_id });
  if (report.note) {
    const what = [row.code, row.description].filter(Boolean).join(' ') || 'order row';
    const text = `${what}: made ${report.made}, scrapped ${report.scrapped}. ${report.note}`;
    await createRecord(ctx, tx, commentModule, { card_id: card.id, text }, { collection_id: card.collection_id });
  }
  if (photo && report.photo) {
    await attachFile(ctx, tx, {
      collectionId: card.collection_id,
      cardId: card.id,
      filename: report.photo.filename,
      contentType: report.photo.content_type,
      content: photo,
    });
  }
  return true;
}

/** Today in the user's time zone, YYYY-MM-DD. */
export function operatorsToday(user: Stored<'user'>): string {
  return localDate(nowMs(), user.timezone);
}

/**
 * The operator's jobs (docs/API.md "The floor"): the cards assigned to their resource whose dates
 * include `date`, then those of the next day, each in the planner's order (stage, then rank).
 */
export async function floorJobs(ctx: RequestContext, date: string): Promise<FloorJobs> {
  const records = ctx.records;
  const operator = await floorOperator(ctx);
  const next = addDays(date, 1);
  // Only the two days' cards, in SQL, and of those the resource's: a resource has months of
  // cards on the board, a day has few.
  const { rows: ofTheDays } = await records.list(tables.card, {
    filter: {
      kind: 'and',
      items: [
        { kind: 'atom', field: 'start_date', operator: 'lte', not: false, value: next },
        { kind: 'atom', field: 'end_date', operator: 'gte', not: false, value: date },
      ],
    },
    limit: 1_000_000,
    offset: 0,
  });
  const links = await records.getWhereIn(
    tables.card_resource,
    'card_id',
    ofTheDays.map((card) => card.id),
  );
  const assigned = new Set(links.filter((link) => link.resource_id === operator.resource_id).map((link) => link.card_id));
  const cards = ofTheDays.filter((card) => assigned.has(card.id));
  const stages = new Map((await records.getWhereIn(tables.stage, 'id', [...new Set(cards.map((c) => c.stage_id))])).map((s) => [s.id, s]));
  const order = (card: Stored<'card'>) => [stages.get(card.stage_id)?.priority ?? 0, card.rank ?? ''] as const;
  const byPlan = (a: Stored<'card'>, b: Stored<'card'>) => {
    const [pa, ra] = order(a);
    const [pb, rb] = order(b);
    return pa - pb || (ra < rb ? -1 : ra > rb ? 1 : a.id < b.id ? -1 : 1);
  };
  const today = cards.filter((card) => card.start_date! <= date).sort(byPlan);
  const tomorrow = cards.filter((card) => card.start_date! > date).sort(byPlan);
  const running = await runningTimer(records, operator.id);
  const data: FloorJob[] = [];
  for (const [day, list] of [
    [date, today],
    [next, tomorrow],
  ] as const) {
    for (const card of list) data.push(await jobOf(records, card, day, stages.get(card.stage_id), running));
  }
  return { date, next_date: next, resource_id: operator.resource_id, data };
}

async function jobOf(
  records: RecordReads,
  card: Stored<'card'>,
  day: string,
  stage: Stored<'stage'> | undefined,
  running: Stored<'time_tracking'> | undefined,
): Promise<FloorJob> {
  const collection = await records.get(tables.collection, card.collection_id);
  const activityIds = await cardActivityIds(records, card);
  const activities = await records.getWhereIn(tables.activity, 'id', activityIds);
  const activity = activities.find((a) => a.id === activityIds[0]);
  const planned = (await records.getWhereIn(tables.card_activity, 'card_id', [card.id])).reduce((sum, link) => sum + (link.time ?? 0), 0);
  const status = card.status_id ? await records.get(tables.status, card.status_id) : undefined;
  const entries = await records.getWhereIn(tables.time_tracking, 'card_id', [card.id]);
  const now = new Date(nowMs()).toISOString();
  const booked = entries.reduce((sum, entry) => sum + minutesBetween(entry.start, entry.end ?? now), 0);
  const order = await orderOf(records, card.collection_id);
  const rows = order
    ? (await records.getWhereIn(tables.order_row, 'order_id', [order.id]))
        .filter((row) => isRowOfActivities(row, activityIds))
        .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    : [];
  const attachments = await records.getWhereIn(tables.attachment, 'card_id', [card.id]);
  return {
    card_id: card.id,
    collection_id: card.collection_id,
    day,
    display_name: cardDisplayName(card, { collection: collection ?? null, stage: stage ?? null, activity: activity ?? null }),
    start_date: card.start_date!,
    end_date: card.end_date!,
    order: { name: collection?.name ?? null, description: collection?.description ?? null },
    activity: activity ? { id: activity.id, description: activity.description } : null,
    planned_minutes: planned,
    status: status ? { id: status.id, name: status.name, exit: status.exit } : null,
    running: running?.card_id === card.id,
    booked_minutes: booked,
    order_rows: rows.map((row) => ({
      id: row.id,
      code: row.code,
      description: row.description,
      unit: row.unit,
      quantity: row.quantity,
      quantity_delivered: row.quantity_delivered,
      quantity_scrapped: row.quantity_scrapped,
    })),
    attachments: attachments.map((a) => ({ id: a.id, filename: a.filename, file: a.file, type: a.type, content_type: a.content_type })),
  };
}
