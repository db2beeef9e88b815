/**
 * KPIs with history (docs/API.md "KPIs"): per ISO week or calendar month, a board's on-time
 * delivery, promise reliability, utilisation, work in progress and backlog, by board, by stage
 * and (utilisation) by person. Worked out from the records through the asynchronous store;
 * available and planned minutes are capacity's own (capacity.ts), never a second rule.
 *
 * A period that has ended (its last day before the server's today) is answered from its
 * snapshot: the figures worked out on the first read after it ended, kept in kpi_snapshot, so
 * that a later edit of an old card leaves a closed period's figures as they were. Snapshots are
 * the environment's own and do not sync: each node works out the same figures from the same
 * synced records, and a synced snapshot would be a second writer of one period's figures.
 */
import { addDays, bucketStart, buckets, daysBetween, today } from '../../../shared/dates.js';
import { ratio, type KpiFigures, type KpiPeriod, type KpiTimeFrame, type PeriodFigures } from '../../../shared/kpi.js';
import { DuplicateError } from '../../store/query-error.js';
import type { RequestContext } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import { boardCapacityViews } from './capacity.js';

export {
  kpiTimeFrames,
  ratio,
  type KpiFigures,
  type KpiPeriod,
  type KpiTimeFrame,
  type PeriodFigures,
  type Ratio,
} from '../../../shared/kpi.js';

export interface KpiQuery {
  board: Stored<'board'>;
  from: string;
  to: string;
  frame: KpiTimeFrame;
}

const all = { limit: 1_000_000, offset: 0 } as const;

/** The last day of the period holding `date`. */
export function periodEnd(date: string, frame: KpiTimeFrame): string {
  if (frame === 'week') return addDays(bucketStart(date, 'week'), 6);
  return addDays(bucketStart(addDays(bucketStart(date, 'month'), 31), 'month'), -1);
}

/** What the figures read of a card. */
interface KpiCard {
  collectionId: string | null;
  stageId: string;
  start: string | null;
  /** The day it reached an exit status (completed_at's UTC day); null while it is not in one. */
  doneOn: string | null;
  created: string;
  minutes: number;
}

/** What a collection (or its part on one stage) says about delivery: when it started and finished. */
interface Unit {
  start: string | null;
  /** Its last card's done day once every card is done, else null. */
  finished: string | null;
  due: string | null;
  promised: string | null;
}

function unitOf(cards: readonly KpiCard[], due: string | null, promised: string | null): Unit {
  let start: string | null = null;
  let finished: string | null = '';
  for (const card of cards) {
    if (card.start !== null && (start === null || card.start < start)) start = card.start;
    if (finished !== null) finished = card.doneOn === null ? null : card.doneOn > finished ? card.doneOn : finished;
  }
  return { start, finished: cards.length > 0 ? finished : null, due, promised };
}

interface Counts {
  finished: number;
  onTime: number;
  withDue: number;
  kept: number;
  withPromise: number;
  wip: number;
}

function countUnits(units: readonly Unit[], start: string, end: string): Counts {
  const counts: Counts = { finished: 0, onTime: 0, withDue: 0, kept: 0, withPromise: 0, wip: 0 };
  for (const unit of units) {
    if (unit.start !== null && unit.start <= end && (unit.finished === null || unit.finished > end)) counts.wip++;
    if (unit.finished === null || unit.finished < start || unit.finished > end) continue;
    counts.finished++;
    if (unit.due !== null) {
      counts.withDue++;
      if (unit.finished <= unit.due) counts.onTime++;
    }
    if (unit.promised !== null) {
      counts.withPromise++;
      if (unit.finished <= unit.promised) counts.kept++;
    }
  }
  return counts;
}

function figuresOf(
  counts: Counts,
  minutes: { available: number; planned: number; booked: number },
  backlog: { planned: number; unplanned: number | null },
  days: number,
): KpiFigures {
  const weekly = Math.round((minutes.available * 7) / days);
  return {
    finished: counts.finished,
    on_time_delivery: ratio(counts.onTime, counts.withDue),
    promise_reliability: ratio(counts.kept, counts.withPromise),
    utilisation: {
      available_minutes: minutes.available,
      planned_minutes: minutes.planned,
      booked_minutes: minutes.booked,
      planned: ratio(minutes.planned, minutes.available),
      booked: ratio(minutes.booked, minutes.available),
    },
    work_in_progress: counts.wip,
    backlog: {
      planned_minutes: backlog.planned,
      unplanned_minutes: backlog.unplanned,
      weekly_available_minutes: weekly,
      weeks: ratio(backlog.planned + (backlog.unplanned ?? 0), weekly),
    },
  };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The figures of consecutive periods, worked out from the records now. */
async function workOut(
  ctx: RequestContext,
  board: Stored<'board'>,
  periods: readonly { start: string; end: string }[],
  frame: KpiTimeFrame,
): Promise<PeriodFigures[]> {
  const first = periods[0]!.start;
  const last = periods[periods.length - 1]!.end;
  const stages = (await ctx.records.getWhereIn(tables.stage, 'board_id', [board.id])).sort((a, b) => a.priority - b.priority);
  const exits = new Set((await ctx.records.getWhereIn(tables.status, 'board_id', [board.id])).filter((s) => s.exit).map((s) => s.id));

  // A card's minutes as capacity reads them: the minutes of its activities (cards with dates).
  const plannedCards = await ctx.records.plannedCards(board.id, '0000-01-01', '9999-12-31');
  const minutesOf = new Map<string, number>();
  for (const row of plannedCards.activities) {
    minutesOf.set(row.card_id, (minutesOf.get(row.card_id) ?? 0) + (row.time ?? 0));
  }
  const cards: KpiCard[] = [];
  const stageOfCard = new Map<string, string>();
  const cardFields = ['id', 'collection_id', 'stage_id', 'status_id', 'start_date', 'end_date', 'completed_at', 'created_at'];
  await ctx.records.eachValues(tables.card, { match: { board_id: board.id }, ...all }, cardFields, (v) => {
    const id = String(v[0]);
    const done = exits.has(String(v[3]));
    // A card in an exit status from before completed_at was kept counts as done on its last day.
    const doneOn = done ? (text(v[6])?.slice(0, 10) ?? text(v[5])) : null;
    stageOfCard.set(id, String(v[2]));
    cards.push({
      collectionId: text(v[1]),
      stageId: String(v[2]),
      start: text(v[4]),
      doneOn,
      created: String(v[7]).slice(0, 10),
      minutes: minutesOf.get(id) ?? 0,
    });
  });

  const collections = new Map<string, { due: string | null; status: string; created: string }>();
  await ctx.records.eachValues(
    tables.collection,
    { match: { board_id: board.id }, ...all },
    ['id', 'due_date', 'status', 'created_at'],
    (v) => collections.set(String(v[0]), { due: text(v[1]), status: String(v[2]), created: String(v[3]).slice(0, 10) }),
  );
  // The date first promised: the earliest of the collection's orders' (an order names one collection).
  const promisedOf = new Map<string, string>();
  for (const order of await ctx.records.getWhereIn(tables.order, 'collection_id', [...collections.keys()])) {
    const promised = order.first_promised_date;
    if (typeof order.collection_id !== 'string' || typeof promised !== 'string') continue;
    const known = promisedOf.get(order.collection_id);
    if (known === undefined || promised < known) promisedOf.set(order.collection_id, promised);
  }
  const waiting = [...collections].filter(([, c]) => c.status === 'not_planned');
  const unplannedOf = new Map<string, number>();
  for (const link of await ctx.records.getWhereIn(
    tables.collection_activity,
    'collection_id',
    waiting.map(([id]) => id),
  )) {
    unplannedOf.set(link.collection_id, (unplannedOf.get(link.collection_id) ?? 0) + link.time);
  }

  // Delivery units: each collection, and each collection's part on each stage.
  const cardsOf = new Map<string, KpiCard[]>();
  for (const card of cards) {
    if (card.collectionId === null || !collections.has(card.collectionId)) continue;
    const list = cardsOf.get(card.collectionId);
    if (list) list.push(card);
    else cardsOf.set(card.collectionId, [card]);
  }
  const boardUnits: Unit[] = [];
  const stageUnits = new Map<string, Unit[]>(stages.map((s) => [s.id, []]));
  for (const [collectionId, own] of cardsOf) {
    const { due } = collections.get(collectionId)!;
    const promised = promisedOf.get(collectionId) ?? null;
    boardUnits.push(unitOf(own, due, promised));
    const byStage = new Map<string, KpiCard[]>();
    for (const card of own) byStage.set(card.stageId, [...(byStage.get(card.stageId) ?? []), card]);
    for (const [stageId, onStage] of byStage) stageUnits.get(stageId)?.push(unitOf(onStage, due, promised));
  }

  // Booked minutes: finished time entries on the board's cards, by the UTC day they started.
  const periodOf = (day: string) => periods.findIndex((p) => p.start <= day && day <= p.end);
  const booked = periods.map(() => ({ board: 0, stage: new Map<string, number>(), user: new Map<string, number>() }));
  await ctx.records.eachValues(
    tables.time_tracking,
    { range: { field: 'start', after: first, before: addDays(last, 1) }, ...all },
    ['card_id', 'user_id', 'start', 'duration'],
    (v) => {
      const stageId = stageOfCard.get(String(v[0]));
      const minutes = typeof v[3] === 'number' ? v[3] : 0;
      const p = periodOf(String(v[2]).slice(0, 10));
      if (stageId === undefined || minutes === 0 || p < 0) return;
      const into = booked[p]!;
      into.board += minutes;
      into.stage.set(stageId, (into.stage.get(stageId) ?? 0) + minutes);
      const userId = text(v[1]);
      if (userId !== null) into.user.set(userId, (into.user.get(userId) ?? 0) + minutes);
    },
  );

  const range = { start: first, end: last, frame };
  const capacity = await boardCapacityViews(ctx, board, ['stage', 'resource'], range, plannedCards);
  // Each bucket as boardCapacity answers it for its view: the stages' or resources' figures.
  type Row = { id: string; name: string; time_available: number; time_planned: number };
  const byStage = capacity.stage.data.map((b) => b.stage as Row[]);
  // By resource, each bucket's `resource` rows, as boardCapacity answers them for that view.
  const byResource = capacity.resource.data.map((b) => b.resource as Row[]);

  return periods.map((period, p) => {
    const days = daysBetween(period.start, period.end) + 1;
    // The minutes of cards made and not done by the period's last day, by stage and in all.
    const backlogOf = new Map<string, number>();
    let backlogMinutes = 0;
    for (const card of cards) {
      if (card.created > period.end || (card.doneOn !== null && card.doneOn <= period.end)) continue;
      backlogMinutes += card.minutes;
      backlogOf.set(card.stageId, (backlogOf.get(card.stageId) ?? 0) + card.minutes);
    }
    const stageRows = byStage[p] ?? [];
    const stageFigures = stages.map((stage) => {
      const row = stageRows.find((r) => r.id === stage.id);
      const available = row?.time_available ?? 0;
      const planned = row?.time_planned ?? 0;
      const backlog = backlogOf.get(stage.id) ?? 0;
      return {
        stage_id: stage.id,
        name: stage.name,
        ...figuresOf(
          countUnits(stageUnits.get(stage.id)!, period.start, period.end),
          { available, planned, booked: booked[p]!.stage.get(stage.id) ?? 0 },
          { planned: backlog, unplanned: null },
          days,
        ),
      };
    });
    const unplanned = waiting.filter(([, c]) => c.created <= period.end).reduce((sum, [id]) => sum + (unplannedOf.get(id) ?? 0), 0);
    const boardFigures = figuresOf(
      countUnits(boardUnits, period.start, period.end),
      {
        available: stageFigures.reduce((sum, s) => sum + s.utilisation.available_minutes, 0),
        planned: stageFigures.reduce((sum, s) => sum + s.utilisation.planned_minutes, 0),
        booked: booked[p]!.board,
      },
      { planned: backlogMinutes, unplanned },
      days,
    );
    return {
      board: boardFigures,
      stages: stageFigures,
      resources: (byResource[p] ?? []).map((r) => ({
        resource_id: r.id,
        name: r.name,
        available_minutes: r.time_available,
        planned_minutes: r.time_planned,
        planned: ratio(r.time_planned, r.time_available),
      })),
      users: [...booked[p]!.user]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([userId, minutes]) => ({ user_id: userId, booked_minutes: minutes })),
    };
  });
}

/** The periods of `from`…`to`, whole: from the first one's first day to the last one's last. */
export function kpiPeriods(from: string, to: string, frame: KpiTimeFrame): { start: string; end: string }[] {
  return buckets(bucketStart(from, frame), periodEnd(to, frame), frame).map(({ start, end }) => ({ start, end }));
}

export async function boardKpis(
  ctx: RequestContext,
  query: KpiQuery,
): Promise<{ board_id: string; time_frame: KpiTimeFrame; data: KpiPeriod[] }> {
  const { board, frame } = query;
  const day = today();
  const periods = kpiPeriods(query.from, query.to, frame).map((p) => ({ ...p, closed: p.end < day }));
  const readSnapshots = async () => {
    const kept = new Map<string, Stored<'kpi_snapshot'>>();
    const { rows } = await ctx.records.list(tables.kpi_snapshot, {
      match: { board_id: board.id, time_frame: frame },
      range: { field: 'period_start', after: addDays(periods[0]!.start, -1), before: addDays(periods[periods.length - 1]!.start, 1) },
      ...all,
    });
    for (const row of rows) kept.set(row.period_start, row);
    return kept;
  };
  let snapshots = await readSnapshots();
  const needed = periods.filter((p) => !p.closed || !snapshots.has(p.start));
  const worked = new Map<string, PeriodFigures>();
  if (needed.length > 0) {
    // One run over the periods from the first to the last that need working out.
    const from = periods.indexOf(needed[0]!);
    const to = periods.indexOf(needed[needed.length - 1]!);
    const run = periods.slice(from, to + 1);
    const figures = await workOut(ctx, board, run, frame);
    run.forEach((p, i) => worked.set(p.start, figures[i]!));
    const toKeep = needed.filter((p) => p.closed);
    if (toKeep.length > 0) {
      try {
        await ctx.records.transaction(async (tx) => {
          for (const p of toKeep) {
            await tx.insert(tables.kpi_snapshot, {
              board_id: board.id,
              time_frame: frame,
              period_start: p.start,
              period_end: p.end,
              // The figures as a JSON object, as the column keeps them.
              figures: worked.get(p.start)! as unknown as Record<string, unknown>,
            });
          }
        });
      } catch (error) {
        // Another read kept one of them first: its figures are the period's.
        if (!(error instanceof DuplicateError)) throw error;
      }
      snapshots = await readSnapshots();
    }
  }
  return {
    board_id: board.id,
    time_frame: frame,
    data: periods.map((p) => {
      const kept = p.closed ? snapshots.get(p.start) : undefined;
      return {
        period_start: p.start,
        period_end: p.end,
        closed: p.closed,
        snapshot_taken_at: kept?.created_at ?? null,
        // A snapshot's figures are what workOut answered for the period, kept as JSON.
        figures: kept ? (kept.figures as unknown as PeriodFigures) : worked.get(p.start)!,
      };
    }),
  };
}
