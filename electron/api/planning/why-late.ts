/**
 * Why a collection is late (docs/API.md "Why late"): for each late collection (exceptions.ts
 * `lateness`), the constraint that binds it, in one sentence with the days, and a list of the
 * stages and people that bind the most late collections, per week.
 *
 * The collection is late because one of its cards ends after the day it should end by; the
 * first such card (by start) is the one looked at, on the days it could have had: from today,
 * or from the day after the card before it on an earlier stage ends, up to that day. Those days
 * are read from the board's capacity (capacity.ts) by stage and by person, with the card's own
 * load given back, and the reason is the first that holds:
 *
 *  1. past_due: the day has passed; nothing planned from today can meet it;
 *     material: material it waits for has no date, comes after the day, or leaves the card fewer
 *     workdays than it takes (material.ts);
 *  2. work_before: the card before it ends too late to leave it a workday;
 *  3. the stage has less room on those days than the card needs:
 *     - person_away: one of its people is away for a longer run of days than the stage is full;
 *     - stage_full: the longest run of days the stage is full;
 *     - no_room: room is scattered: the first day the card's minutes would fit;
 *  4. person_away: the stage has room, but a person the card needs is away and short of it;
 *  5. placed_late: there is room: the card is planned later than it needs to be.
 *
 * Reads only, through the asynchronous record store (docs/architecture.md "The asynchronous
 * store boundary"): one capacity read per board for all its late collections.
 */
import { addDays, bucketStart, daysBetween, shortDay, today } from '../../../shared/dates.js';
import type { Bottleneck, LateCollection, LateReason, WhatItTakes, WhyLateList } from '../../../shared/why-late.js';
import type { RequestContext } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import { boardCapacityViews } from './capacity.js';
import { lateness } from './exceptions.js';
import { awaitedMaterial, materialName, type AwaitedMaterial } from './material.js';
import { boardCalendar, countWorkdays, maxPlanDays, workdayFrom, type BoardCalendar } from './workdays.js';

export interface WhyLateQuery {
  boardId?: string;
  collectionId?: string;
}

const all = { limit: 1_000_000, offset: 0 } as const;

/** A stage's or a person's minutes per day of the window: available, planned. */
interface DayFigures {
  id: string;
  name: string;
  available: Float64Array;
  planned: Float64Array;
}

interface Window {
  first: string;
  calendar: BoardCalendar;
  /** The day's index in the window's arrays. */
  index(date: string): number;
  length: number;
}

interface LateCard {
  id: string;
  stage_id: string;
  start_date: string;
  end_date: string;
}

const reason = (fields: Partial<LateReason> & Pick<LateReason, 'kind' | 'text'>): LateReason => ({
  stage: null,
  resource: null,
  from: null,
  to: null,
  previous_stage: null,
  waiting_for: null,
  workdays: null,
  ...fields,
});

const during = (from: string, to: string) => (from === to ? `on ${shortDay(from)}` : `from ${shortDay(from)} to ${shortDay(to)}`);

interface Run {
  from: string;
  to: string;
  days: number;
}

/** The longest run of the window's workdays from `from` to `to` on which `holds` is true. */
function longestRun(
  window: Window,
  from: string,
  to: string,
  holds: (i: number) => boolean,
): { from: string; to: string; days: number } | null {
  let best: Run | null = null;
  let start: string | null = null;
  let days = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    if (!window.calendar.isWorkday(day)) continue;
    if (!holds(window.index(day))) {
      start = null;
      continue;
    }
    start ??= day;
    days = start === day ? 1 : days + 1;
    if (!best || days > best.days) best = { from: start, to: day, days };
  }
  return best;
}

/** A board's figures over the window, by stage and by person, and its cards' minutes and people. */
async function readBoard(ctx: RequestContext, board: Stored<'board'>, first: string, end: string) {
  const calendar = boardCalendar(board.workdays);
  const length = daysBetween(first, end) + 1;
  const window: Window = { first, calendar, length, index: (date) => daysBetween(first, date) };
  const planned = await ctx.records.plannedCards(board.id, first, end);
  const views = await boardCapacityViews(ctx, board, ['stage', 'resource'], { start: first, end, frame: 'day' }, planned);
  const figures = (view: 'stage' | 'resource') => {
    const rows = new Map<string, DayFigures>();
    views[view].data.forEach((bucket, i) => {
      // Each bucket as boardCapacity answers it for this view: a day with a row per stage or person.
      for (const row of bucket[view] as { id: string; name: string; time_available: number; time_planned: number }[]) {
        let figures = rows.get(row.id);
        if (!figures) {
          figures = { id: row.id, name: row.name, available: new Float64Array(length), planned: new Float64Array(length) };
          rows.set(row.id, figures);
        }
        figures.available[i] = row.time_available;
        figures.planned[i] = row.time_planned;
      }
    });
    return rows;
  };
  const stages = new Map((await ctx.records.getWhereIn(tables.stage, 'board_id', [board.id])).map((s) => [s.id, s]));
  // A card's minutes as its load counts them: its activities, and its stage's setup once if it has work.
  const minutesOf = new Map<string, number>();
  const stageOf = new Map<string, string>();
  for (const row of planned.activities) {
    minutesOf.set(row.card_id, (minutesOf.get(row.card_id) ?? 0) + (row.time ?? 0));
    stageOf.set(row.card_id, row.stage_id);
  }
  for (const [cardId, minutes] of minutesOf) {
    if (minutes > 0) minutesOf.set(cardId, minutes + (stages.get(stageOf.get(cardId)!)?.setup_minutes ?? 0));
  }
  // Who works on each stage of the board, and at what share: the people overtime can be asked of.
  const { rows: resources } = await ctx.records.list(tables.resource, {
    match: { archived_at: null },
    filter: { kind: 'atom', field: 'boards', operator: 'has', not: false, value: board.id },
    ...all,
  });
  const stagePeople = new Map<string, { id: string; share: number }[]>();
  for (const resource of resources) {
    const onBoard = resource.boards.find((b) => b.id === board.id && b.active);
    for (const stage of onBoard?.stages ?? []) {
      if (!stage.active || !(stage.percentage > 0)) continue;
      stagePeople.set(stage.id, [...(stagePeople.get(stage.id) ?? []), { id: resource.id, share: stage.percentage / 100 }]);
    }
  }
  const peopleOf = new Map<string, string[]>();
  for (const { card_id, resource_id } of planned.resources) peopleOf.set(card_id, [...(peopleOf.get(card_id) ?? []), resource_id]);
  return {
    window,
    byStage: figures('stage'),
    byPerson: figures('resource'),
    stages,
    minutesOf,
    peopleOf,
    stagePeople,
    counts: board.capacity_method !== 'none',
  };
}

type BoardRead = Awaited<ReturnType<typeof readBoard>>;

/** The minutes a card lacks on its stage in the days it could have had, when room is what binds it. */
interface Shortfall {
  stageId: string;
  /** The card's people, or none: then the stage's. */
  people: string[];
  minutes: number;
  from: string;
  to: string;
}

interface Why {
  reason: LateReason;
  cardId: string | null;
  shortfall?: Shortfall;
}

/** Why one late collection is late: the reason for its first late card, on the board read. */
function reasonFor(
  read: BoardRead,
  cards: readonly LateCard[],
  missed: string,
  promised: boolean,
  material: readonly AwaitedMaterial[],
): Why {
  const { window, stages } = read;
  const day = shortDay(missed);
  if (missed < window.first) {
    const what = promised ? 'The date promised to the customer' : 'Its due date';
    return { reason: reason({ kind: 'past_due', text: `${what}, ${day}, has passed`, to: missed }), cardId: null };
  }
  const late = cards
    .filter((c) => c.end_date > missed)
    .sort((a, b) => a.start_date.localeCompare(b.start_date) || a.end_date.localeCompare(b.end_date));
  const card = late[0];
  const stage = card ? stages.get(card.stage_id) : undefined;
  if (!card || !stage) return { reason: reason({ kind: 'placed_late', text: `It is planned to end after ${day}` }), cardId: null };
  const stageRef = { id: stage.id, name: stage.name };

  // Material it still waits for: with no date, or coming after the day missed, or leaving the
  // card fewer workdays before it than the card takes.
  const unknown = material.find((m) => m.expected === null);
  const latest = material.filter((m) => m.expected !== null).sort((a, b) => b.expected!.localeCompare(a.expected!))[0];
  const cardDays = countWorkdays(window.calendar, card.start_date, card.end_date) || 1;
  if (unknown) {
    const text = `Waiting for ${materialName(unknown)}, date unknown`;
    return { reason: reason({ kind: 'material', text, waiting_for: materialName(unknown) }), cardId: card.id };
  }
  if (latest && (latest.expected! > missed || countWorkdays(window.calendar, latest.expected!, missed) < cardDays)) {
    const text = `Waiting for ${materialName(latest)}, expected ${shortDay(latest.expected!)}`;
    return { reason: reason({ kind: 'material', text, waiting_for: materialName(latest), to: latest.expected }), cardId: card.id };
  }

  // The card before it: on an earlier stage, the one that ends last.
  const previous = cards
    .filter((c) => c !== card && (stages.get(c.stage_id)?.priority ?? Infinity) < stage.priority)
    .sort((a, b) => b.end_date.localeCompare(a.end_date))[0];
  const from = previous && previous.end_date >= window.first ? workdayFrom(window.calendar, addDays(previous.end_date, 1)) : window.first;
  if (from > missed) {
    const before = stages.get(previous!.stage_id)?.name ?? 'The work before it';
    return {
      reason: reason({
        kind: 'work_before',
        text: `${before} ends on ${shortDay(previous!.end_date)}, which leaves ${stage.name} no workday before ${day}`,
        stage: stageRef,
        from: previous!.end_date,
        previous_stage: before,
      }),
      cardId: card.id,
    };
  }

  const needed = read.minutesOf.get(card.id) ?? 0;
  const ownDays = countWorkdays(window.calendar, card.start_date, card.end_date) || 1;
  // The card's own minutes on a day of the window, given back: it would move, not be added.
  const own = (share: number) => (i: number) => {
    const date = addDays(window.first, i);
    return date >= card.start_date && date <= card.end_date && window.calendar.isWorkday(date) ? share / ownDays : 0;
  };
  const freeOf = (figures: DayFigures, share: number) => {
    const given = own(share);
    return (i: number) => Math.max(0, figures.available[i]! - figures.planned[i]! + given(i));
  };
  const sum = (free: (i: number) => number, to: string) => {
    let total = 0;
    for (let d = from; d <= to; d = addDays(d, 1)) if (window.calendar.isWorkday(d)) total += free(window.index(d));
    return total;
  };
  const figures = read.byStage.get(stage.id);
  if (!read.counts || !figures || needed === 0) {
    // Nothing counts its load here: only its length in workdays can bind it.
    const fits = countWorkdays(window.calendar, from, missed) >= ownDays;
    return {
      reason: fits
        ? reason({
            kind: 'placed_late',
            text: `${stage.name} could do it before ${day}: it is planned later than it needs to be`,
            stage: stageRef,
          })
        : reason({
            kind: 'no_room',
            text: `Nothing fits on ${stage.name} before ${day}: it takes ${ownDays} workdays`,
            stage: stageRef,
            to: missed,
            workdays: ownDays,
          }),
      cardId: card.id,
    };
  }

  // The people it needs, and for each the run of days they are away (no time, where they have some on other workdays).
  const people = (read.peopleOf.get(card.id) ?? []).flatMap((id) => {
    const person = read.byPerson.get(id);
    return person ? [person] : [];
  });
  const away = people
    .map((person) => {
      const works = person.available.some((minutes) => minutes > 0);
      const run = works ? longestRun(window, from, missed, (i) => person.available[i] === 0) : null;
      const short = sum(freeOf(person, needed / people.length), missed) < needed / people.length;
      return { person, run, short };
    })
    .filter((a) => a.run !== null)
    .sort((a, b) => b.run!.days - a.run!.days);
  const awayReason = (a: (typeof away)[number]) =>
    reason({
      kind: 'person_away',
      text: `${a.person.name} is away ${during(a.run!.from, a.run!.to)}`,
      stage: stageRef,
      resource: { id: a.person.id, name: a.person.name },
      from: a.run!.from,
      to: a.run!.to,
    });

  const free = freeOf(figures, needed);
  const room = sum(free, missed);
  if (room < needed) {
    const shortfall: Shortfall = {
      stageId: stage.id,
      people: people.map((p) => p.id),
      minutes: needed - room,
      from,
      to: missed,
    };
    const full = longestRun(window, from, missed, (i) => figures.available[i]! > 0 && free(i) <= 0);
    const longestAway = away[0];
    if (longestAway && (!full || longestAway.run!.days > full.days)) return { reason: awayReason(longestAway), cardId: card.id, shortfall };
    if (full) {
      return {
        reason: reason({
          kind: 'stage_full',
          text: `${stage.name} is full ${during(full.from, full.to)}`,
          stage: stageRef,
          from: full.from,
          to: full.to,
        }),
        cardId: card.id,
        shortfall,
      };
    }
    // Room here and there: the first day by which enough of it has come together.
    let total = 0;
    let fitsBy: string | null = null;
    for (let d = from, i = 0; i < window.length && i < maxPlanDays; d = addDays(d, 1), i++) {
      if (window.index(d) >= window.length) break;
      if (window.calendar.isWorkday(d)) total += free(window.index(d));
      if (total >= needed) {
        fitsBy = d;
        break;
      }
    }
    return {
      reason: reason({
        kind: 'no_room',
        text: fitsBy
          ? `Nothing fits on ${stage.name} before ${shortDay(fitsBy)} without overtime`
          : `Nothing fits on ${stage.name} before its planned end without overtime`,
        stage: stageRef,
        to: fitsBy,
      }),
      cardId: card.id,
      shortfall,
    };
  }
  const shortPerson = away.find((a) => a.short);
  if (shortPerson) return { reason: awayReason(shortPerson), cardId: card.id };
  return {
    reason: reason({
      kind: 'placed_late',
      text: `${stage.name} has room for it before ${day}: it is planned later than it needs to be`,
      stage: stageRef,
    }),
    cardId: card.id,
  };
}

/** The most overtime asked of one person on one day: half a day more, as planners ask it. */
export const maxOvertimePerDay = 240;
/** Overtime is asked in half hours. */
const overtimeStep = 30;

/**
 * What would make the card fit (docs/API.md "What would it take?"): overtime on the board's
 * workdays it could have had, from the last back, at most `maxOvertimePerDay` a person a day, of
 * its people (else the stage's) on days they work, each counted at their share of the stage, until
 * the minutes it lacks are there. Null when even that is not enough.
 */
function overtimeFor(read: BoardRead, shortfall: Shortfall): WhatItTakes | null {
  const { window } = read;
  const stageShares = new Map((read.stagePeople.get(shortfall.stageId) ?? []).map((p) => [p.id, p.share]));
  const candidates = (shortfall.people.length > 0 ? shortfall.people : [...stageShares.keys()])
    .flatMap((id) => {
      const person = read.byPerson.get(id);
      const share = stageShares.get(id) ?? 0;
      return person && share > 0 ? [{ person, share }] : [];
    })
    .sort((a, b) => a.person.name.localeCompare(b.person.name) || a.person.id.localeCompare(b.person.id));
  let missing = shortfall.minutes;
  const overtime: WhatItTakes['overtime'] = [];
  for (let day = shortfall.to; day >= shortfall.from && missing > 0; day = addDays(day, -1)) {
    if (!window.calendar.isWorkday(day)) continue;
    const i = window.index(day);
    for (const { person, share } of candidates) {
      if (missing <= 0) break;
      // Only on a day the person works: overtime is more of a day, not a day back from leave.
      if (!(person.available[i]! > 0)) continue;
      const minutes = Math.min(maxOvertimePerDay, Math.ceil(missing / share / overtimeStep) * overtimeStep);
      overtime.push({ resource_id: person.id, name: person.name, date: day, minutes });
      missing -= minutes * share;
    }
  }
  if (missing > 0 || overtime.length === 0) return null;
  overtime.sort((a, b) => a.date.localeCompare(b.date) || a.name.localeCompare(b.name));
  return { minutes: overtime.reduce((total, o) => total + o.minutes, 0), overtime };
}

export async function whyLate(ctx: RequestContext, query: WhyLateQuery): Promise<WhyLateList> {
  const match: Record<string, unknown> = { status: 'planned' };
  if (query.boardId) match.board_id = query.boardId;
  const planned = query.collectionId
    ? (await ctx.records.getWhereIn(tables.collection, 'id', [query.collectionId])).filter((c) => c.status === 'planned')
    : (await ctx.records.list(tables.collection, { match, ...all })).rows;
  const late = planned.flatMap((collection) => {
    const found = lateness(collection);
    return found && collection.end && typeof collection.board_id === 'string'
      ? [{ collection, ...found, end: collection.end, boardId: collection.board_id }]
      : [];
  });
  const boardIds = [...new Set(late.map((l) => l.boardId))];
  const boards = new Map((await ctx.records.getWhereIn(tables.board, 'id', boardIds)).map((b) => [b.id, b]));
  const cards = await ctx.records.getWhereIn(
    tables.card,
    'collection_id',
    late.map((l) => l.collection.id),
  );
  const waitsFor = await awaitedMaterial(
    ctx.records,
    late.map((l) => l.collection.id),
  );
  const cardsOf = new Map<string, LateCard[]>();
  for (const card of cards) {
    if (typeof card.collection_id !== 'string' || !card.start_date || !card.end_date) continue;
    const row = { id: card.id, stage_id: card.stage_id, start_date: card.start_date, end_date: card.end_date };
    cardsOf.set(card.collection_id, [...(cardsOf.get(card.collection_id) ?? []), row]);
  }

  const data: LateCollection[] = [];
  const counted = new Map<string, Bottleneck>();
  for (const boardId of boardIds) {
    const board = boards.get(boardId);
    if (!board) continue;
    const ofBoard = late.filter((l) => l.boardId === boardId);
    const first = workdayFrom(boardCalendar(board.workdays), today());
    const latest = ofBoard.reduce((max, l) => (l.end > max ? l.end : max), first);
    const end = daysBetween(first, latest) > maxPlanDays ? addDays(first, maxPlanDays) : latest;
    const read = await readBoard(ctx, board, first, end);
    for (const l of ofBoard) {
      const promised = l.missed !== l.due;
      const {
        reason: why,
        cardId,
        shortfall,
      } = reasonFor(read, cardsOf.get(l.collection.id) ?? [], l.missed, promised, waitsFor.get(l.collection.id) ?? []);
      data.push({
        collection: { id: l.collection.id, name: l.collection.name ?? l.collection.description ?? 'Untitled collection' },
        board_id: boardId,
        end: l.end,
        missed_date: l.missed,
        missed: promised ? 'promised_date' : 'due_date',
        card_id: cardId,
        reason: why,
        what_it_takes: shortfall ? overtimeFor(read, shortfall) : null,
      });
      const subject = why.kind === 'person_away' ? why.resource : why.kind === 'stage_full' || why.kind === 'no_room' ? why.stage : null;
      if (!subject) continue;
      const kind = why.kind === 'person_away' ? ('resource' as const) : ('stage' as const);
      const week = bucketStart(why.from ?? l.missed, 'week');
      const key = `${week}|${kind}|${subject.id}`;
      const entry = counted.get(key);
      if (entry) entry.collections++;
      else counted.set(key, { week, kind, id: subject.id, name: subject.name, collections: 1 });
    }
  }
  data.sort(
    (a, b) =>
      a.missed_date.localeCompare(b.missed_date) ||
      a.collection.name.localeCompare(b.collection.name) ||
      a.collection.id.localeCompare(b.collection.id),
  );
  const bottlenecks = [...counted.values()].sort(
    (a, b) => a.week.localeCompare(b.week) || b.collections - a.collections || a.name.localeCompare(b.name),
  );
  return { data, count: data.length, bottlenecks };
}
