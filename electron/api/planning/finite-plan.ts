/**
 * Finite-capacity planning (docs/API.md "Finite-capacity planning"): a collection's cards are
 * placed where the stage, and the resources assigned to the cards, still have free minutes
 * after what is planned already. The cards per stage, the stage order, `delay_day` and
 * independent stages are those of infinite planning (plan.ts); only the days differ.
 *
 * Free minutes of a stage on a day are the capacity view's figures (capacity.ts):
 *
 *   available = Σ resources active on the board and stage: schedule available × percentage × efficiency
 *   planned   = Σ cards on the stage: their activity minutes spread evenly over their board workdays
 *               (with remaining_time what is left of them, from today on: remaining-time.ts)
 *   free      = max(0, available − planned)
 *
 * and of a resource: its schedule's available minutes (the person once) minus its share of the
 * cards assigned to it on this board (a card's minutes shared equally among its resources).
 *
 * Capacity counts a card's minutes evenly over its workdays, so a card of M minutes over k
 * workdays adds M / k to each of them: a card fits a run of k workdays when M / k is no more
 * than the free minutes of every one of them (for each assigned resource, its share M / k / n).
 * Forward, each card takes the run of workdays that fits with the earliest end (of those, the
 * fewest days); reverse, the run with the latest start (then the fewest days). What a placed card adds is taken off before
 * the next card. So no stage-day or resource-day goes over what it has because of a plan, and
 * a day already over (no free minutes) never gets a card's minutes.
 *
 * Skills and crews (docs/API.md "Skills and crews"): when planning chooses who does a card, its
 * room on a day is what a set of at least its crew of the stage's people with its skills can
 * take (who-does-it.ts, skill-candidates.ts); a stage with fewer such people than the crew is a
 * CrewError.
 *
 * A stage's setup_minutes (docs/API.md "Setup times") come once per card on top, on its first
 * workday: a run of k workdays holds a card when M / k + setup fits its first day and M / k
 * each of the others. A card split into parts is set up for each part.
 *
 * Everything is read once per plan for the whole horizon (the plan's start up to three years
 * after its end), into one array per stage and resource, day by day.
 */
import { addDays, daysBetween } from '../../../shared/dates.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables, type Stored } from '../tables.js';
import { type PlanActivity, type PlanResult, type PlanStage, type PlannedCard } from './plan.js';
import { availableMinutes, readCalendarsOf } from './schedule.js';
import { cardCounting } from './remaining-time.js';
import type { ActivityNeed } from '../../../shared/skills.js';
import { CrewError, crewMessage, needsOf, qualifiedPeople, type StagePerson } from './skill-candidates.js';
import { chooseResources, countsFor, teamRoom, type Candidate } from './who-does-it.js';
import { dayNumber, maxPlanDays, weekdayOfDay } from './workdays.js';
import { resourcesOnBoard, type StageWeeks, type WorksOn } from './stage-workdays.js';

/** How far past the plan's start (forward) or end (reverse) a finite plan looks for room. */
export const finiteHorizonDays = 1096;

/** The last start of a finite plan: its horizon ends in a four-digit year. */
export const lastFiniteStart = '9995-12-31';

/**
 * The windows a forward plan looks in, one after the other: most plans fit in the first, which
 * reads far fewer cards than the whole horizon. When a card finds no room in one, the plan is
 * made again in the next, which places every card the same (a card placed within a window is
 * placed the same within a longer one), up to the whole horizon.
 */
export const windowDays = [42, 182, finiteHorizonDays] as const;

/**
 * `plan` over each window in turn until no card is left without room (see windowDays). A
 * window is skipped when it ends within the first window's length of `from`, the day the plan's
 * latest material is expected (material.ts): no gated card starts before that day, so such a
 * window would only fail and be read again. The windows stay the same lengths from `start`, so
 * a caller that plans many collections reads each at most once (promise-dates.ts).
 */
export async function inWindows<T>(
  start: string,
  read: (end: string) => Promise<FiniteBoard>,
  plan: (board: FiniteBoard) => T,
  from: string = start,
): Promise<T> {
  const needed = addDays(from, windowDays[0]);
  for (const days of windowDays.slice(0, -1)) {
    const end = addDays(start, days);
    if (end < needed) continue;
    const board = await read(end);
    try {
      return plan(board);
    } catch (error) {
      if (!(error instanceof NoCapacityError)) throw error;
    }
  }
  return plan(await read(addDays(start, finiteHorizonDays)));
}

/** The latest day a plan's material gates (material.ts) let a stage start, or undefined. */
export function latestGate(gates: ReadonlyMap<string, string> | undefined): string | undefined {
  let latest: string | undefined;
  for (const day of gates?.values() ?? []) if (latest === undefined || day > latest) latest = day;
  return latest;
}

/** Minutes below this count as none, so sums of fractions never tip a day over. */
const epsilon = 1e-6;

/** A stage with too little free capacity in the horizon: a 422 naming the stage. */
export class NoCapacityError extends Error {
  constructor(
    readonly stageId: string,
    message: string,
  ) {
    super(message);
  }
}

/** A reverse plan that would have to start before its first allowed day. */
export class TooEarlyError extends Error {}

/** One card's minutes on the board, per day of the horizon, for taking it out again. */
interface CardLoad {
  stageId: string;
  resourceIds: string[];
  /** Horizon day indexes of the card's board workdays inside the horizon. */
  days: number[];
  perDay: number;
  /** Setup minutes, on horizon day `setupDay` (the card's first workday; outside the horizon: counted nowhere). */
  setup: number;
  setupDay: number;
}

/**
 * The board over a horizon: free minutes per stage and per resource, day by day (day 0 is
 * `first`, a day number of workdays.ts), with what each card takes, so a plan can leave out
 * the cards of the collection it re-plans.
 */
export interface FiniteBoard {
  first: number;
  length: number;
  /** The board's and each stage's workdays (stage-workdays.ts). */
  weeks: StageWeeks;
  stageFree: Map<string, Float64Array>;
  /** Of every resource on the board (and each one the plan names). */
  resourceFree: Map<string, Float64Array>;
  /** Who planning may give a stage's cards (who-does-it.ts), by name. */
  stageResources: Map<string, StagePerson[]>;
  /** Each stage's setup minutes per card, by id. */
  stageSetup: Map<string, number>;
  cardLoads: Map<string, CardLoad>;
}

function linkShare(resource: Stored<'resource'>, board: StoredRecord, stage: Stored<'stage'>): number | undefined {
  const entry = resource.boards.find((b) => b.id === board.id);
  if (!entry || !entry.active) return undefined;
  const link = entry.stages.find((s) => s.id === stage.id && s.active);
  return link ? (link.percentage / 100) * (stage.efficiency / 100) : undefined;
}

/**
 * Reads the board's free minutes from `start` to `end` (YYYY-MM-DD), through `reads` (a
 * request's records, or the planning transaction's): the stages' resources and their days off
 * in a few queries, the planned cards with their resources in one.
 */
export async function readFiniteBoard(
  reads: RecordReads,
  board: Stored<'board'>,
  stages: readonly Stored<'stage'>[],
  weeks: StageWeeks,
  resourceIds: readonly string[],
  start: string,
  end: string,
  /** The board's resources (resourcesOnBoard), when the caller has read them already. */
  known?: readonly Stored<'resource'>[],
): Promise<FiniteBoard> {
  const first = dayNumber(start);
  const length = daysBetween(start, end) + 1;
  // A day counts for a stage on its own workdays, for a person on any day some stage works.
  const worksOn = (works: WorksOn) => (day: number) => works(first + day);
  const onBoard = known ?? (await resourcesOnBoard(reads, board.id));
  const extra = resourceIds.filter((id) => !onBoard.some((r) => r.id === id));
  const resources = [...onBoard, ...(extra.length > 0 ? await reads.getWhereIn(tables.resource, 'id', extra) : [])];
  const minutes = new Map((await readCalendarsOf(reads, resources)).map((c) => [c.resource.id, availableMinutes(c, first, length)]));

  const stageFree = new Map<string, Float64Array>();
  for (const stage of stages) {
    const free = new Float64Array(length);
    const isWorkday = worksOn(weeks.of(stage.id));
    for (const resource of onBoard) {
      const share = linkShare(resource, board, stage);
      if (share === undefined) continue;
      const available = minutes.get(resource.id)!;
      for (let day = 0; day < length; day++) if (isWorkday(day)) free[day] = free[day]! + available[day]! * share;
    }
    stageFree.set(stage.id, free);
  }
  // Every resource's, not only those the plan names: planning may choose any of a stage's.
  const resourceFree = new Map<string, Float64Array>();
  for (const id of [...resources.map((r) => r.id), ...resourceIds]) {
    if (resourceFree.has(id)) continue;
    const available = minutes.get(id);
    const free = new Float64Array(length);
    const isWorkday = worksOn(weeks.any);
    if (available) for (let day = 0; day < length; day++) if (isWorkday(day)) free[day] = available[day]!;
    resourceFree.set(id, free);
  }
  const byName = [...onBoard].sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
  const stageResources = new Map(
    stages.map((stage) => [
      stage.id,
      byName.filter((r) => countsFor(r, board.id, stage.id)).map((r) => ({ id: r.id, name: r.name, skills: r.skills ?? [] })),
    ]),
  );

  const stageSetup = new Map(stages.map((s) => [s.id, s.setup_minutes]));
  // The planned cards, as capacity counts them (the board's capacity_method, remaining-time.ts):
  // each card's minutes over its board workdays (from today on, for remaining time), its
  // stage's setup on the first while it counts.
  const cardLoads = new Map<string, CardLoad>();
  const rows = (await reads.cardLoads(board.id, start, end, true)).filter((card) => card.minutes);
  const counting = await cardCounting(reads, board, rows);
  for (const card of rows) {
    const minutes = counting.minutes(card, card.minutes);
    const setup = counting.setupCounts(card) ? (stageSetup.get(card.stage_id) ?? 0) : 0;
    if (minutes <= 0 && setup <= 0) continue;
    let count = 0;
    let setupDay = -1;
    const days: number[] = [];
    const works = weeks.of(card.stage_id);
    for (let day = dayNumber(card.start_date), last = dayNumber(card.end_date); day <= last && count < maxPlanDays; day++) {
      if (!works(day) || day < counting.from) continue;
      if (count === 0) setupDay = day - first;
      count++;
      if (day >= first && day < first + length) days.push(day - first);
    }
    if (count === 0) continue;
    const load: CardLoad = {
      stageId: card.stage_id,
      resourceIds: card.resources ? card.resources.split(',') : [],
      days,
      perDay: minutes / count,
      setup,
      setupDay,
    };
    cardLoads.set(card.card_id, load);
    apply({ first, length, weeks, stageFree, resourceFree, stageResources, stageSetup, cardLoads }, load, -1);
  }
  return { first, length, weeks, stageFree, resourceFree, stageResources, stageSetup, cardLoads };
}

/** Takes a card's minutes off the free minutes (sign −1) or gives them back (+1). */
function apply(board: FiniteBoard, load: CardLoad, sign: 1 | -1): void {
  const setUp = load.setup > 0 && load.setupDay >= 0 && load.setupDay < board.length;
  const stage = board.stageFree.get(load.stageId);
  if (stage) for (const day of load.days) stage[day] = stage[day]! + sign * load.perDay;
  if (stage && setUp) stage[load.setupDay] = stage[load.setupDay]! + sign * load.setup;
  if (load.resourceIds.length === 0) return;
  const share = load.perDay / load.resourceIds.length;
  const setupShare = load.setup / load.resourceIds.length;
  for (const id of load.resourceIds) {
    const free = board.resourceFree.get(id);
    if (!free) continue;
    for (const day of load.days) free[day] = free[day]! + sign * share;
    if (setUp) free[load.setupDay] = free[load.setupDay]! + sign * setupShare;
  }
}

/** A copy of the board's free minutes without the cards `leaveOut` names, for one plan to use up. */
export function freeWithout(board: FiniteBoard, leaveOut: Iterable<string> = []): FiniteBoard {
  const copy: FiniteBoard = {
    ...board,
    stageFree: new Map([...board.stageFree].map(([id, a]) => [id, Float64Array.from(a)])),
    resourceFree: new Map([...board.resourceFree].map(([id, a]) => [id, Float64Array.from(a)])),
  };
  for (const cardId of leaveOut) {
    const load = board.cardLoads.get(cardId);
    if (load) apply(copy, load, 1);
  }
  return copy;
}

export interface FiniteInput {
  /** Cards per stage, stages in priority order (groupCards of plan.ts). */
  groups: { stage: PlanStage; cards: PlanActivity[][] }[];
  unplaced: PlanActivity[];
  reverse: boolean;
  /** Forward: the first day. Reverse: the last day. */
  anchor: string;
  /** No card starts before this day (reverse: a plan that would is a TooEarlyError). */
  earliest: string;
  /** Assigned to every card; none: planning chooses each card's (who-does-it.ts). */
  resourceIds: readonly string[];
  /** The stage's name, for errors. */
  stageName(stageId: string): string;
  /**
   * Stage id → the first day its cards may start, as its material is expected (material.ts):
   * forward they start no earlier; reverse, a card before it is a TooEarlyError.
   */
  gates?: ReadonlyMap<string, string>;
  /** Activity id → its skill and crew (skill-candidates.ts); absent: no skills, crews of 1. */
  needs?: ReadonlyMap<string, ActivityNeed>;
}

/**
 * Plans the cards into the free minutes of `board` (a copy of freeWithout, used up as cards are
 * placed). Throws NoCapacityError when a card finds no room in the horizon, TooEarlyError when
 * a reverse plan would start before `earliest`.
 */
export function planFinite(board: FiniteBoard, input: FiniteInput): PlanResult {
  // Per stage (its workdays are the board's and the days its people add, stage-workdays.ts):
  // horizon indexes of its workdays, and each day's position among them (position[length]:
  // how many there are). Positions are a stage's own; from one stage to the next they go by day.
  const calendars = new Map<string, { workdays: number[]; position: Int32Array }>();
  const calendarOf = (stageId: string) => {
    let found = calendars.get(stageId);
    if (found) return found;
    const week = board.weeks.of(stageId);
    const workdays: number[] = [];
    const position = new Int32Array(board.length + 1);
    for (let day = 0; day < board.length; day++) {
      position[day] = workdays.length;
      if (week(board.first + day)) workdays.push(day);
    }
    position[board.length] = workdays.length;
    calendars.set(stageId, (found = { workdays, position }));
    return found;
  };
  const indexOf = (date: string) => dayNumber(date) - board.first;
  const dateOf = (day: number) => addDays(input.anchor, board.first + day - dayNumber(input.anchor));
  const resources = input.resourceIds.map((id) => board.resourceFree.get(id)!);
  const n = resources.length;
  // Without resources named, planning chooses each card's among the stage's (who-does-it.ts).
  const choosing = n === 0;
  // A stage's candidates for a card: its people with the card's skills, by stage and skills.
  const candidatesOf = new Map<string, Candidate[]>();
  const candidates = (stageId: string, skills: readonly string[]) => {
    const key = `${stageId}|${skills.join(',')}`;
    let found = candidatesOf.get(key);
    if (!found) {
      const people = qualifiedPeople(board.stageResources.get(stageId) ?? [], { skills: [...skills], crew: 1 });
      found = people.map((r) => ({ id: r.id, name: r.name, free: board.resourceFree.get(r.id)! }));
      candidatesOf.set(key, found);
    }
    return found;
  };

  /**
   * Minutes a card may add on horizon day `day` of a stage: what the stage allows, and each named
   * resource's share, or, when planning chooses, what one set of the card's candidates (`who`)
   * can take (`team`: their room per day, worked out once per card as it is placed).
   */
  const room = (stage: Float64Array, team: Float64Array | null, who: Staff, day: number) => {
    let free = stage[day]!;
    for (const r of resources) free = Math.min(free, r[day]! * n);
    if (team) {
      if (Number.isNaN(team[day]!)) team[day] = teamRoom(who.candidates, day, who.crew);
      free = Math.min(free, team[day]!);
    }
    return free;
  };

  /**
   * Where a card of `minutes` goes on `stage`, from `edge` on (reverse: back from it), as parts
   * of whole minutes: positions among the workdays. Worked in "virtual" positions counted from
   * the edge away from it, so reverse is forward mirrored: an earliest end there is a latest
   * start here.
   *
   * One card: the run of days that holds it all with the earliest end (then the fewest days).
   * A day with no room ends a run, so where such days come often (a part-timer's days off) one
   * card may fit nowhere or only late; then the card is split into parts: in each run of days
   * with room, from the edge on, the part that holds most, until the rest fits in one. The
   * parts are taken only when they end earlier than the one card would.
   */
  const place = (stageId: string, minutes: number, edge: number, floor: number, who: Staff): Part[] => {
    const { workdays } = calendarOf(stageId);
    const stage = board.stageFree.get(stageId)!;
    const setup = board.stageSetup.get(stageId) ?? 0;
    // A run's first day (in time) carries the setup: forward the run's nearest virtual
    // position, reverse its farthest.
    const firstIsNear = !input.reverse;
    const team = choosing ? new Float64Array(board.length).fill(Number.NaN) : null;
    const bottom = input.reverse ? floor : 0;
    const limit = input.reverse ? edge - bottom : workdays.length - 1 - edge;
    const at = (v: number) => (input.reverse ? edge - v : edge + v);
    const roomAt = (v: number) => room(stage, team, who, workdays[at(v)]!);
    const part = (p: number, q: number, m: number): Part =>
      input.reverse ? { from: at(q), to: at(p), minutes: m } : { from: at(p), to: at(q), minutes: m };
    const tooLittle = () =>
      input.reverse
        ? new TooEarlyError()
        : new NoCapacityError(
            stageId,
            `stage ${input.stageName(stageId)} has no free capacity for ${Math.round(minutes)} minutes` +
              `${setup > 0 ? ` and ${setup} minutes of setup` : ''} between ` +
              `${dateOf(workdays[Math.min(edge, workdays.length - 1)] ?? 0)} and ${dateOf(board.length - 1)}`,
          );
    if (limit < 0) throw tooLittle();
    if (minutes <= 0) return [part(0, 0, 0)];

    /**
     * The window within [from, to] holding `need` with the earliest end, then the fewest days:
     * `least` is the least room of its days, the setup taken off its first day's.
     */
    const holding = (from: number, to: number, need: number): [number, number] | undefined => {
      for (let q = from; q <= to; q++) {
        // Forward, `others` is the least room of p + 1 … q, as p is the first day; reverse, of p … q.
        let others = Infinity;
        for (let k = 1, p = q; p >= from; k++, p--) {
          const free = roomAt(p);
          if (free <= epsilon) break;
          let least: number;
          if (firstIsNear) {
            least = Math.min(others, free - setup);
            others = Math.min(others, free);
          } else {
            others = Math.min(others, p === q ? free - setup : free);
            least = others;
          }
          if (k * least >= need - epsilon) return [p, q];
        }
      }
      return undefined;
    };
    const whole = holding(0, limit, minutes);

    const parts: Part[] = [];
    let left = minutes;
    for (let v = 0; v <= limit && (!whole || v <= whole[1]);) {
      if (roomAt(v) <= epsilon) {
        v++;
        continue;
      }
      let end = v;
      while (end + 1 <= limit && roomAt(end + 1) > epsilon) end++;
      const rest = holding(v, end, left);
      if (rest) {
        parts.push(part(rest[0], rest[1], left));
        if (!whole || rest[1] < whole[1]) return parts;
        break;
      }
      // The window of this run that holds the most whole minutes, the first of equals (its
      // first day's room less the setup, as above).
      let best = { value: 0, p: v, q: v };
      for (let p = v; p <= end; p++) {
        let others = Infinity;
        for (let q = p; q <= end; q++) {
          const free = roomAt(q);
          let least: number;
          if (firstIsNear) {
            others = Math.min(others, q === p ? free - setup : free);
            least = others;
          } else {
            least = Math.min(others, free - setup);
            others = Math.min(others, free);
          }
          const value = Math.floor((q - p + 1) * least + epsilon);
          if (value > best.value) best = { value, p, q };
        }
      }
      if (best.value >= 1 && best.value < left) {
        parts.push(part(best.p, best.q, best.value));
        left -= best.value;
      }
      v = end + 1;
    }
    if (whole) return [part(whole[0], whole[1], minutes)];
    throw tooLittle();
  };

  const anchorDay = indexOf(input.anchor);
  if (anchorDay < 0 || anchorDay >= board.length) throw new TooEarlyError();
  /** Forward: the stage's first workday on or after the anchor; reverse: its last on or before it. */
  const anchorOf = (workdays: readonly number[], position: Int32Array) => {
    let anchor = position[anchorDay]!;
    if (input.reverse && workdays[anchor] !== anchorDay) anchor--;
    if (anchor < 0 || anchor >= workdays.length) throw new TooEarlyError();
    return anchor;
  };

  const cards: PlannedCard[] = [];
  const ordered = input.reverse ? [...input.groups].reverse() : input.groups;
  // The stage before (reverse: after) this one in the chain: forward the horizon day its cards
  // end and its delay days; reverse the day its cards start.
  let chain: { day: number; delay: number } | null = null;
  for (const { stage, cards: activitySets } of ordered) {
    const { workdays, position } = calendarOf(stage.id);
    let edge: number;
    if (stage.independent || chain === null) edge = anchorOf(workdays, position);
    // Forward: the delay days after the previous stage's last day; reverse: before the next's first.
    else if (!input.reverse) edge = position[Math.min(board.length, chain.day + 1)]! + chain.delay;
    else edge = position[chain.day]! - 1 - stage.delay_day;
    // The stage's material (material.ts): its first workday on or after the expected day, past
    // the horizon when it comes later than that (no room here, so a longer window is read).
    const gate = input.gates?.get(stage.id);
    const gateDay = gate === undefined ? -1 : indexOf(gate);
    const gatePos = gateDay < 0 ? 0 : gateDay >= board.length ? workdays.length : position[gateDay]!;
    const earliestPos = position[Math.min(board.length, Math.max(0, indexOf(input.earliest)))]!;
    const floor = Math.max(earliestPos, gatePos);
    if (!input.reverse) edge = Math.max(edge, gatePos);
    const made: { from: number; to: number }[] = [];
    for (const activities of activitySets) {
      const minutes = activities.reduce((sum, a) => sum + a.time, 0);
      const needs = needsOf(activities, input.needs);
      const who: Staff = { candidates: choosing ? candidates(stage.id, needs.skills) : [], crew: needs.crew };
      // A card that asks nothing of its people is left to the capacity check (a stage with nobody: NoCapacityError).
      const asks = needs.skills.length > 0 || needs.crew > 1;
      if (choosing && asks && who.candidates.length < needs.crew)
        throw new CrewError(crewMessage(input.stageName(stage.id), needs, who.candidates.length));
      const parts = place(stage.id, minutes, edge, floor, who).sort((a, b) => a.from - b.from);
      const shares = shareActivities(
        activities,
        parts.map((p) => p.minutes),
      );
      parts.forEach(({ from, to, minutes: partMinutes }, i) => {
        if (from < floor) throw new TooEarlyError();
        const days = workdays.slice(from, to + 1);
        const perDay = partMinutes / days.length;
        const resourceIds = choosing ? chooseResources(who.candidates, days, perDay, 'finite', who.crew) : [...input.resourceIds];
        const setup = partMinutes > 0 ? (board.stageSetup.get(stage.id) ?? 0) : 0;
        apply(board, { stageId: stage.id, resourceIds, days, perDay, setup, setupDay: days[0]! }, -1);
        made.push({ from, to });
        cards.push({
          stageId: stage.id,
          activities: shares[i]!,
          minutes: partMinutes,
          start_date: dateOf(workdays[from]!),
          end_date: dateOf(workdays[to]!),
          resourceIds,
        });
      });
    }
    if (stage.independent) continue;
    chain = input.reverse
      ? { day: workdays[Math.min(...made.map((m) => m.from))]!, delay: 0 }
      : { day: workdays[Math.max(...made.map((m) => m.to))]!, delay: stage.delay_day };
  }
  // Cards in stage order, as infinite planning gives them.
  if (input.reverse) {
    const order = new Map(input.groups.map((g, i) => [g.stage.id, i]));
    cards.sort((a, b) => order.get(a.stageId)! - order.get(b.stageId)!);
  }
  return { cards, unplaced: input.unplaced };
}

/** Who may do a card: its candidates (the stage's people with its skills) and its crew. */
interface Staff {
  candidates: Candidate[];
  crew: number;
}

/**
 * Who does each card of an infinite plan (who-does-it.ts, without the capacity check): the
 * cards in order, each taking what the ones before it took off its people's free minutes;
 * only people with the card's skills, at least its crew of them (as many as there are).
 * `board` is read over the cards' days, and used up.
 */
export function chooseForCards(
  board: FiniteBoard,
  cards: readonly PlannedCard[],
  needs?: ReadonlyMap<string, ActivityNeed>,
): PlannedCard[] {
  return cards.map((card) => {
    const days: number[] = [];
    const works = board.weeks.of(card.stageId);
    // The card's first workday carries its setup, inside the board read or not.
    let firstDay = Number.NaN;
    for (let day = dayNumber(card.start_date), last = dayNumber(card.end_date); day <= last && days.length < maxPlanDays; day++) {
      if (!works(day)) continue;
      if (Number.isNaN(firstDay)) firstDay = day;
      if (day >= board.first && day < board.first + board.length) days.push(day - board.first);
    }
    if (days.length === 0) return { ...card, resourceIds: [] };
    const cardNeeds = needsOf(card.activities, needs);
    const candidates = qualifiedPeople(board.stageResources.get(card.stageId) ?? [], cardNeeds).map((r) => ({
      id: r.id,
      name: r.name,
      free: board.resourceFree.get(r.id)!,
    }));
    const perDay = card.minutes / days.length;
    const resourceIds = chooseResources(candidates, days, perDay, 'infinite', Math.min(cardNeeds.crew, Math.max(1, candidates.length)));
    const setup = card.minutes > 0 ? (board.stageSetup.get(card.stageId) ?? 0) : 0;
    apply(board, { stageId: card.stageId, resourceIds, days, perDay, setup, setupDay: firstDay - board.first }, -1);
    return { ...card, resourceIds };
  });
}

/** A card's share of a stage's run of days: workday positions, and its minutes. */
interface Part {
  from: number;
  to: number;
  minutes: number;
}

/**
 * The activities of a card split into parts of the given minutes, in order: an activity may
 * be split between two parts; the first part also gets the activities of no minutes.
 */
function shareActivities(activities: readonly PlanActivity[], minutes: readonly number[]): PlanActivity[][] {
  if (minutes.length === 1) return [[...activities]];
  const out: PlanActivity[][] = minutes.map(() => []);
  let part = 0;
  let room = minutes[0]!;
  for (const activity of activities) {
    let left = activity.time;
    if (left <= 0) out[0]!.push({ ...activity });
    while (left > 0) {
      while (room <= 0 && part < minutes.length - 1) room = minutes[++part]!;
      const take = part === minutes.length - 1 ? left : Math.min(left, room);
      out[part]!.push({ id: activity.id, time: take });
      left -= take;
      room -= take;
    }
  }
  return out;
}

/**
 * The minutes a plan's cards add per stage and day, spread evenly over their stage's workdays, and
 * the stage's setup (`stageSetup`, by stage id) on each card's first.
 */
export function addedLoad(
  cards: readonly PlannedCard[],
  weeks: StageWeeks,
  stageSetup: ReadonlyMap<string, number>,
): { stage_id: string; date: string; minutes: number }[] {
  const sums = new Map<string, number>();
  for (const card of cards) {
    const days: string[] = [];
    const works = weeks.of(card.stageId);
    for (let day = card.start_date; day <= card.end_date && days.length < maxPlanDays; day = addDays(day, 1)) {
      if (works(dayNumber(day))) days.push(day);
    }
    for (const day of days) {
      const key = `${card.stageId}|${day}`;
      sums.set(key, (sums.get(key) ?? 0) + card.minutes / days.length);
    }
    const setup = stageSetup.get(card.stageId) ?? 0;
    if (setup > 0 && card.minutes > 0 && days.length > 0) {
      const key = `${card.stageId}|${days[0]}`;
      sums.set(key, sums.get(key)! + setup);
    }
  }
  return [...sums]
    .map(([key, minutes]) => {
      // The key is `${stageId}|${day}` (above): two parts, neither with a '|'.
      const [stage_id, date] = key.split('|') as [string, string];
      return { stage_id, date, minutes: Math.round(minutes * 100) / 100 };
    })
    .filter((l) => l.minutes > 0)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.stage_id < b.stage_id ? -1 : 1));
}

const weekdayNames = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A date as a planner says it in an error: `Thu 17 Dec`. */
export function spokenDate(date: string): string {
  const [, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${weekdayNames[weekdayOfDay(dayNumber(date)) - 1]} ${day} ${monthNames[month - 1]}`;
}
