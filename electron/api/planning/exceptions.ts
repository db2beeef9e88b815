/**
 * The exception inbox (docs/API.md "Exceptions"): what needs the planner, worked out from the
 * local records on every read, so it holds offline and on a replica, and is current after every
 * write and every sync. Each kind reuses the rule that already decides it:
 *
 *  - late_collection: a planned collection whose end is after its due date or the date promised
 *    on its order (shared/late.ts, as the collection's warnings and the app's late orders);
 *  - over_capacity: a stage-day or person-day of the next N workdays whose planned minutes are
 *    over the available ones (capacity.ts, by stage and by resource);
 *  - broken_dependency: a card of a dependent stage that starts before the stage before it is
 *    done (collection-state.ts, the collection's warnings);
 *  - material_late: a card that starts before the material its stage waits for is expected
 *    (material-read.ts, as the board's warning; docs/API.md "Material");
 *  - unplanned_due: a collection not planned and due within the next N workdays (or already);
 *  - timer_running: a forgotten timer (time-tracking/entry-time.ts `forgottenFrom`);
 *  - approval_waiting: a time entry pending for longer than a week;
 *  - automation_notice: a card finished, told by a board's notify rule (automation.ts) to this
 *    user or to everyone.
 *
 * A user's handling (exception_handling records: seen, snoozed) leaves an item out for them only.
 * Reads only, through the asynchronous record store (docs/architecture.md "The asynchronous
 * store boundary").
 */
import { cardDisplayName } from '../../../shared/card-display-name.js';
import { nowMs } from '../../../shared/clock.js';
import { shortDay, today } from '../../../shared/dates.js';
import {
  approvalWaitDays,
  exceptionKey,
  exceptionKinds,
  isHandled,
  type ExceptionItem,
  type ExceptionKind,
  type ExceptionLink,
  type ExceptionList,
} from '../../../shared/exceptions.js';
import { endsLate } from '../../../shared/late.js';
import { replanCollectionsOperation, setTimeStatusOperation } from '../../../shared/operations/commands.js';
import type { RequestContext } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import { forgottenFrom } from '../time-tracking/entry-time.js';
import { boardCapacity } from './capacity.js';
import { brokenDependencies, dependencyWarningStart } from './collection-state.js';
import { collectionMaterial } from './material-read.js';
import { boardCalendar, shiftWorkdays, workdayFrom, type BoardCalendar } from './workdays.js';
import { readStageWeeks, type StageWeeks } from './stage-workdays.js';

export interface ExceptionQuery {
  kind?: ExceptionKind;
  boardId?: string;
  /** The workdays ahead for over_capacity and unplanned_due. */
  horizon: number;
  /** Whose handling counts; null: nobody's (every item listed, none flagged). */
  userId: string | null;
  /** List handled items too, each with its handling. */
  handled: boolean;
}

const all = { limit: 1_000_000, offset: 0 } as const;
const dayMs = 86_400_000;
/** Board workdays for collections on no board: Monday to Friday. */
const weekdays = boardCalendar({ '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false });

/** The few fields of a card the dependency rule and the item's text read. */
interface CardRow {
  id: string;
  name: string | null;
  collection_id: string | null;
  stage_id: string;
  start_date: string | null;
  end_date: string | null;
  updated_at: string;
}
const cardFields = ['id', 'name', 'collection_id', 'stage_id', 'start_date', 'end_date', 'updated_at'] as const;
/** Above this many collections to check, their board's cards are read as a few columns each rather than whole. */
const wholeBoardFrom = 40;

interface BoardData {
  board: Stored<'board'>;
  calendar: BoardCalendar;
  stages: Map<string, Stored<'stage'>>;
  /** The last of the next N workdays. */
  horizonEnd: string;
  first: string;
}

const hours = (minutes: number) => `${Math.round(minutes / 6) / 10} h`;
const at = (ms: number) => new Date(ms).toISOString();
const replanLink = (boardId: string, collectionId: string): ExceptionLink => ({
  action: 'replan_finite',
  method: 'POST',
  path: `/v1${replanCollectionsOperation.path}`,
  body: { board_id: boardId, collection_ids: [collectionId] },
});

/** The date promised to the customer on the collection's order, kept in its meta; null without one. */
function promisedOf(collection: Stored<'collection'>): string | null {
  // A collection's meta is a JSON object column (its order's promised date among it), or null.
  const promised = (collection.meta as Record<string, unknown> | null)?.promised_date;
  return typeof promised === 'string' ? promised : null;
}

/**
 * The day a planned collection should have ended by and misses: the earlier of its due date and
 * the date promised on its order that its end falls after; null when it is not late.
 */
export function lateness(collection: Stored<'collection'>): { missed: string; due: string | null } | null {
  const promised = promisedOf(collection);
  const due = typeof collection.due_date === 'string' ? collection.due_date : null;
  const promise = promised !== due ? promised : null;
  const missed = [due, promise].filter((d): d is string => endsLate(collection.end, d)).sort()[0];
  return missed === undefined ? null : { missed, due };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The cards of the collections, as CardRows: whole records for a few collections, a few columns of the boards' cards for many. */
async function cardsOfCollections(ctx: RequestContext, collections: readonly Stored<'collection'>[]): Promise<CardRow[]> {
  if (collections.length <= wholeBoardFrom) {
    return ctx.records.getWhereIn(
      tables.card,
      'collection_id',
      collections.map((c) => c.id),
    );
  }
  const wanted = new Set(collections.map((c) => c.id));
  const rows: CardRow[] = [];
  for (const boardId of new Set(collections.map((c) => c.board_id))) {
    await ctx.records.eachValues(tables.card, { match: { board_id: boardId }, ...all }, cardFields, (v) => {
      if (!wanted.has(String(v[2]))) return;
      // The values of the fields asked for, in their order: ids, a name, dates and a timestamp, all text.
      rows.push({
        id: String(v[0]),
        name: text(v[1]),
        collection_id: text(v[2]),
        stage_id: String(v[3]),
        start_date: text(v[4]),
        end_date: text(v[5]),
        updated_at: String(v[6]),
      });
    });
  }
  return rows;
}

/** Cards of the planned collections that start before their stage's material is expected (material_late). */
async function materialLate(
  ctx: RequestContext,
  onBoards: readonly Stored<'collection'>[],
  boards: ReadonlyMap<string, BoardData>,
): Promise<ExceptionItem[]> {
  const waiting = (
    await collectionMaterial(
      ctx.records,
      onBoards.map((c) => c.id),
    )
  ).filter((m) => m.early_cards.length > 0);
  if (waiting.length === 0) return [];
  const byId = new Map(onBoards.map((c) => [c.id, c]));
  const cards = new Map(
    (
      await ctx.records.getWhereIn(
        tables.card,
        'id',
        waiting.flatMap((m) => m.early_cards.map((c) => c.card_id)),
      )
    ).map((c) => [c.id, c]),
  );
  return waiting.flatMap((material) => {
    const collection = byId.get(material.collection_id)!;
    const data = boards.get(collection.board_id!)!;
    return material.early_cards.flatMap((early): ExceptionItem[] => {
      const card = cards.get(early.card_id);
      if (!card) return [];
      const cardName = cardDisplayName(card, { collection: { name: collection.name }, stage: data.stages.get(card.stage_id) ?? null });
      const order = material.waits.find((w) => w.stage_id === early.stage_id)?.waiting_for[0]?.order_code ?? 'a purchase order';
      return [
        {
          key: exceptionKey('material_late', card.id),
          kind: 'material_late',
          record: { resource: 'card', id: card.id, name: cardName },
          board_id: data.board.id,
          date: early.start_date,
          text: `${cardName} starts on ${shortDay(early.start_date)}, before its material: waiting for ${order}, expected ${shortDay(early.earliest_start)}`,
          since: null,
          details: { start: early.start_date, earliest: early.earliest_start, order },
          links: [
            { action: 'open_card', card_id: card.id, collection_id: collection.id, board_id: data.board.id },
            replanLink(data.board.id, collection.id),
          ],
          handling: null,
        },
      ];
    });
  });
}

export async function listExceptions(ctx: RequestContext, query: ExceptionQuery): Promise<ExceptionList> {
  const day = today();
  const now = nowMs();
  const wanted = (kind: ExceptionKind) => query.kind === undefined || query.kind === kind;

  const boardRecords = query.boardId
    ? await ctx.records.getWhereIn(tables.board, 'id', [query.boardId])
    : (await ctx.records.list(tables.board, { match: { archived_at: null }, ...all })).rows;
  const stagesOf = new Map<string, Stored<'stage'>[]>();
  for (const stage of await ctx.records.getWhereIn(
    tables.stage,
    'board_id',
    boardRecords.map((b) => b.id),
  )) {
    stagesOf.set(stage.board_id, [...(stagesOf.get(stage.board_id) ?? []), stage]);
  }
  const boards = new Map<string, BoardData>();
  for (const board of boardRecords) {
    const calendar = boardCalendar(board.workdays);
    const first = workdayFrom(calendar, day);
    boards.set(board.id, {
      board,
      calendar,
      first,
      horizonEnd: shiftWorkdays(calendar, first, query.horizon - 1),
      stages: new Map((stagesOf.get(board.id) ?? []).map((s) => [s.id, s])),
    });
  }

  const items: ExceptionItem[] = [];
  const collectionMatch = query.boardId ? { board_id: query.boardId } : {};

  if (wanted('late_collection') || wanted('broken_dependency') || wanted('material_late')) {
    const planned = (await ctx.records.list(tables.collection, { match: { ...collectionMatch, status: 'planned' }, ...all })).rows;
    const onBoards = planned.filter((c) => typeof c.board_id === 'string' && boards.has(c.board_id));
    if (wanted('material_late')) items.push(...(await materialLate(ctx, onBoards, boards)));
    for (const collection of wanted('late_collection') ? onBoards : []) {
      const late = lateness(collection);
      if (!late || !collection.end || typeof collection.board_id !== 'string') continue;
      const { missed, due } = late;
      const name = collection.name ?? collection.description ?? 'Untitled collection';
      const what = missed === due ? 'its due date' : 'the date promised to the customer';
      items.push({
        key: exceptionKey('late_collection', collection.id),
        kind: 'late_collection',
        record: { resource: 'collection', id: collection.id, name },
        board_id: collection.board_id,
        date: null,
        text: `${name} is planned to end on ${shortDay(collection.end)}, after ${what} ${shortDay(missed)}`,
        since: collection.updated_at,
        details: { end: collection.end, due_date: missed, promised: missed === due ? 0 : 1 },
        links: [
          { action: 'open_collection', collection_id: collection.id, board_id: collection.board_id },
          replanLink(collection.board_id, collection.id),
        ],
        handling: null,
      });
    }
    // The dependency rule reads cards only of collections whose summary, worked out after every
    // card change (collection-state.ts), warns of a dependency: not those only late.
    const warned = wanted('broken_dependency')
      ? onBoards.filter((c) => c.warnings.some((warning) => warning.startsWith(dependencyWarningStart)))
      : [];
    const cardsOf = new Map<string, CardRow[]>();
    for (const card of await cardsOfCollections(ctx, warned)) {
      if (typeof card.collection_id !== 'string') continue;
      const list = cardsOf.get(card.collection_id);
      if (list) list.push(card);
      else cardsOf.set(card.collection_id, [card]);
    }
    // The stages' workdays of each board with a warned collection (stage-workdays.ts), read once.
    const weeksOf = new Map<string, StageWeeks>();
    for (const collection of warned) {
      const data = boards.get(collection.board_id!)!;
      let weeks = weeksOf.get(data.board.id);
      if (!weeks) weeksOf.set(data.board.id, (weeks = await readStageWeeks(ctx.records, data.board)));
      const own = cardsOf.get(collection.id) ?? [];
      const nameOf = (card: CardRow) =>
        cardDisplayName(card, { collection: { name: collection.name }, stage: data.stages.get(card.stage_id) ?? null });
      for (const broken of brokenDependencies(weeks, [...data.stages.values()], own)) {
        const since = [...broken.early, ...broken.before].reduce((m, c) => (c.updated_at > m ? c.updated_at : m), '');
        for (const card of broken.early) {
          const cardName = nameOf(card);
          items.push({
            key: exceptionKey('broken_dependency', card.id),
            kind: 'broken_dependency',
            record: { resource: 'card', id: card.id, name: cardName },
            board_id: data.board.id,
            date: card.start_date,
            text: `${cardName} starts on ${shortDay(card.start_date)}, before ${broken.previous.name} is done; it can start on ${shortDay(broken.earliest)}`,
            since: since || null,
            details: {
              start: card.start_date,
              earliest: broken.earliest,
              stage: broken.stage.name,
              previous_stage: broken.previous.name,
            },
            links: [
              { action: 'open_card', card_id: card.id, collection_id: collection.id, board_id: data.board.id },
              replanLink(data.board.id, collection.id),
            ],
            handling: null,
          });
        }
      }
    }
  }

  if (wanted('over_capacity')) {
    for (const [boardId, data] of boards) {
      const range = { start: data.first, end: data.horizonEnd, frame: 'day' as const };
      const views = [
        { view: 'stage' as const, rows: (row: Record<string, unknown>) => row.stage, resource: 'stage' as const },
        { view: 'resource' as const, rows: (row: Record<string, unknown>) => row.resource, resource: 'resource' as const },
      ];
      for (const { view, rows, resource } of views) {
        const capacity = await boardCapacity(ctx, data.board, view, range);
        for (const bucket of capacity.data) {
          const date = String(bucket.date);
          // Each row as boardCapacity answers it for this view: the stage or resource with its figures.
          for (const row of rows(bucket) as { id: string; name: string; time_available: number; time_planned: number }[]) {
            if (row.time_planned <= row.time_available) continue;
            const who = resource === 'stage' ? `Stage ${row.name}` : row.name;
            items.push({
              key: exceptionKey('over_capacity', row.id, date),
              kind: 'over_capacity',
              record: { resource, id: row.id, name: row.name },
              board_id: boardId,
              date,
              text: `${who} is over capacity on ${shortDay(date)}: ${hours(row.time_planned)} planned, ${hours(row.time_available)} available`,
              since: null,
              details: { planned_minutes: row.time_planned, available_minutes: row.time_available },
              links: [],
              handling: null,
            });
          }
        }
      }
    }
  }

  if (wanted('unplanned_due')) {
    const waiting = (await ctx.records.list(tables.collection, { match: { ...collectionMatch, status: 'not_planned' }, ...all })).rows;
    for (const collection of waiting) {
      const due = collection.due_date;
      if (typeof due !== 'string') continue;
      const data = typeof collection.board_id === 'string' ? boards.get(collection.board_id) : undefined;
      if (typeof collection.board_id === 'string' && !data) continue;
      const calendar = data?.calendar ?? weekdays;
      const horizonEnd = data?.horizonEnd ?? shiftWorkdays(weekdays, workdayFrom(weekdays, day), query.horizon - 1);
      if (due > horizonEnd) continue;
      // It came within the horizon N - 1 workdays before it is due (or when it was made, if later).
      const entered = `${shiftWorkdays(calendar, workdayFrom(calendar, due, -1), -(query.horizon - 1))}T00:00:00.000Z`;
      const name = collection.name ?? collection.description ?? 'Untitled collection';
      const links: ExceptionLink[] = [{ action: 'open_collection', collection_id: collection.id, board_id: data?.board.id ?? null }];
      if (data) links.push(replanLink(data.board.id, collection.id));
      items.push({
        key: exceptionKey('unplanned_due', collection.id),
        kind: 'unplanned_due',
        record: { resource: 'collection', id: collection.id, name },
        board_id: data?.board.id ?? null,
        date: due,
        text: `${name} is due on ${shortDay(due)} and not planned`,
        since: entered > collection.created_at ? entered : collection.created_at,
        details: { due_date: due },
        links,
        handling: null,
      });
    }
  }

  if (wanted('timer_running') || wanted('approval_waiting')) {
    const running = wanted('timer_running') ? (await ctx.records.list(tables.time_tracking, { match: { end: null }, ...all })).rows : [];
    const before = at(now - approvalWaitDays * dayMs);
    const pending = wanted('approval_waiting')
      ? (await ctx.records.list(tables.time_tracking, { match: { status: 'pending' }, range: { field: 'updated_at', before }, ...all }))
          .rows
      : [];
    const entries = [...running, ...pending];
    const users = new Map(
      (
        await ctx.records.getWhereIn(tables.user, 'id', [
          ...new Set(entries.map((e) => e.user_id).filter((id): id is string => typeof id === 'string')),
        ])
      ).map((u) => [u.id, u]),
    );
    const cards = new Map(
      (
        await ctx.records.getWhereIn(tables.card, 'id', [
          ...new Set(entries.map((e) => e.card_id).filter((id): id is string => typeof id === 'string')),
        ])
      ).map((c) => [c.id, c]),
    );
    const collections = new Map(
      (
        await ctx.records.getWhereIn(tables.collection, 'id', [
          ...new Set([...cards.values()].map((c) => c.collection_id).filter((id): id is string => typeof id === 'string')),
        ])
      ).map((c) => [c.id, c]),
    );
    const activities = new Map(
      (
        await ctx.records.getWhereIn(tables.activity, 'id', [
          ...new Set(entries.map((e) => e.activity_id).filter((id): id is string => typeof id === 'string')),
        ])
      ).map((a) => [a.id, a]),
    );
    const stageNames = new Map([...boards.values()].flatMap((b) => [...b.stages.values()].map((s) => [s.id, s] as const)));
    const describe = (entry: Stored<'time_tracking'>) => {
      const user = typeof entry.user_id === 'string' ? users.get(entry.user_id) : undefined;
      const who = user ? user.fullname || user.display_name || user.email : 'No user';
      const card = typeof entry.card_id === 'string' ? cards.get(entry.card_id) : undefined;
      const collection = card && typeof card.collection_id === 'string' ? collections.get(card.collection_id) : undefined;
      const activity = typeof entry.activity_id === 'string' ? activities.get(entry.activity_id) : undefined;
      const on = card
        ? cardDisplayName(card, {
            collection: collection ?? null,
            stage: stageNames.get(card.stage_id) ?? null,
            activity: activity ?? null,
          })
        : (activity?.description ?? '');
      return { user, who, card, on };
    };
    const inBoard = (card: Stored<'card'> | undefined) => query.boardId === undefined || card?.board_id === query.boardId;
    for (const entry of running) {
      const start = Date.parse(entry.start);
      const { user, who, card, on } = describe(entry);
      const from = forgottenFrom(start, user);
      if (!(now > from) || !inBoard(card)) continue;
      const links: ExceptionLink[] = [{ action: 'stop_timer', method: 'POST', path: `/v1/time_tracking/${entry.id}/stop` }];
      if (card && typeof card.collection_id === 'string' && card.start_date) {
        links.push({ action: 'open_card', card_id: card.id, collection_id: card.collection_id, board_id: card.board_id });
      }
      const ranHours = Math.floor((now - start) / 3_600_000);
      items.push({
        key: exceptionKey('timer_running', entry.id),
        kind: 'timer_running',
        record: { resource: 'time_tracking', id: entry.id, name: `${who}${on ? ` · ${on}` : ''}` },
        board_id: card?.board_id ?? null,
        date: null,
        text: `The timer of ${who}${on ? ` on ${on}` : ''} has been running for ${ranHours} h, since ${entry.start.slice(0, 16).replace('T', ' ')} UTC`,
        since: at(from),
        details: { start: entry.start, hours: ranHours },
        links,
        handling: null,
      });
    }
    for (const entry of pending) {
      const { who, card, on } = describe(entry);
      if (!inBoard(card)) continue;
      const since = at(Date.parse(entry.updated_at) + approvalWaitDays * dayMs);
      const links: ExceptionLink[] = [
        { action: 'approve', method: 'POST', path: `/v1${setTimeStatusOperation.path}`, body: { entries: [entry.id], status: 'approved' } },
      ];
      items.push({
        key: exceptionKey('approval_waiting', entry.id),
        kind: 'approval_waiting',
        record: { resource: 'time_tracking', id: entry.id, name: `${who}${on ? ` · ${on}` : ''}` },
        board_id: card?.board_id ?? null,
        date: entry.start.slice(0, 10),
        text: `${hours(entry.duration ?? 0)} of ${who}${on ? ` on ${on}` : ''} (${shortDay(entry.start.slice(0, 10))}) has waited for approval since ${shortDay(entry.updated_at.slice(0, 10))}`,
        since,
        details: { minutes: entry.duration ?? 0, waiting_since: entry.updated_at },
        links,
        handling: null,
      });
    }
  }

  if (wanted('automation_notice')) {
    const match = query.boardId ? { board_id: query.boardId } : {};
    const notices = (await ctx.records.list(tables.automation_notice, { match, ...all })).rows.filter(
      (n) => (query.userId === null || n.user_id === null || n.user_id === query.userId) && boards.has(n.board_id),
    );
    const cards = new Map(
      (
        await ctx.records.getWhereIn(
          tables.card,
          'id',
          notices.map((n) => n.card_id),
        )
      ).map((c) => [c.id, c]),
    );
    for (const notice of notices) {
      const card = cards.get(notice.card_id);
      items.push({
        key: exceptionKey('automation_notice', notice.id),
        kind: 'automation_notice',
        record: { resource: 'card', id: notice.card_id, name: notice.card_name },
        board_id: notice.board_id,
        date: null,
        text: notice.text,
        since: notice.created_at,
        details: { next_stage: notice.next_stage, rule_id: notice.rule_id, user_id: notice.user_id },
        links: card ? [{ action: 'open_card', card_id: card.id, collection_id: card.collection_id, board_id: notice.board_id }] : [],
        handling: null,
      });
    }
  }

  // This user's handling: what they saw or snoozed is left out (or flagged, with `handled`).
  let listed = items;
  if (query.userId) {
    const handlings = new Map(
      (await ctx.records.list(tables.exception_handling, { match: { user_id: query.userId }, ...all })).rows.map((h) => [
        h.exception_key,
        h,
      ]),
    );
    listed = [];
    for (const item of items) {
      const handling = handlings.get(item.key);
      if (handling) item.handling = { id: handling.id, seen: handling.seen, snoozed_until: handling.snoozed_until };
      if (query.handled || !isHandled(item.handling, day)) listed.push(item);
    }
  }
  const order = new Map(exceptionKinds.map((kind, i) => [kind, i]));
  listed.sort(
    (a, b) => order.get(a.kind)! - order.get(b.kind)! || (a.date ?? '').localeCompare(b.date ?? '') || a.key.localeCompare(b.key),
  );
  // Every kind, counted from 0: fromEntries loses the keys' type.
  const counts = Object.fromEntries(exceptionKinds.map((kind) => [kind, 0])) as Record<ExceptionKind, number>;
  for (const item of listed) counts[item.kind]++;
  return { data: listed, count: listed.length, horizon_workdays: query.horizon, counts };
}
