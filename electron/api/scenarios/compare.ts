/**
 * A scenario against the live plan as it is now (docs/API.md "Scenarios"): the cards it moved,
 * added and removed, the collections whose end moved or that become late or on time against
 * their due date, and the load per stage and ISO week where it differs. Both plans are read as
 * a few columns of every card (eachValues), not as records: a plan has thousands of cards.
 */
import { addDays, daysBetween } from '../../../shared/dates.js';
import { endsLate } from '../../../shared/late.js';
import type {
  CardPlace,
  ComparedCard,
  ComparedCollection,
  ScenarioComparison,
  ScenarioInfo,
  StageWeekLoad,
} from '../../../shared/operations/scenarios.js';
import type { RecordReads } from '../../store/record-store.js';
import type { TableDef } from '../../store/table-def.js';
import { tables } from '../tables.js';

/** Every live record of a table, all at once: eachValues pages nothing away with this limit. */
const everything = { limit: Number.MAX_SAFE_INTEGER, offset: 0 };

interface CardRow extends CardPlace {
  id: string;
  name: string | null;
  collection_id: string;
}

interface CollectionRow {
  id: string;
  name: string | null;
  end: string | null;
  due_date: string | null;
}

/** The values of `fields` of every live record of `table`, as objects named by them. */
async function rowsOf<T>(records: RecordReads, table: TableDef, fields: readonly (keyof T & string)[]): Promise<T[]> {
  const rows: T[] = [];
  await records.eachValues(table, everything, fields, (values) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) row[fields[i]!] = values[i];
    // The object has exactly the named fields of T, as eachValues decodes them.
    rows.push(row as T);
  });
  return rows;
}

/**
 * Days as numbers (days since 1970-01-01), each date parsed once: a plan's cards share few
 * dates, and parsing one as a Date for every card and week cost a 5,000-card comparison more
 * than reading both plans.
 */
function dayNumbers(): (date: string) => number {
  const known = new Map<string, number>();
  return (date) => {
    let day = known.get(date);
    if (day === undefined) known.set(date, (day = daysBetween('1970-01-01', date)));
    return day;
  };
}

/** The Monday of a day's ISO week; day 0 (1 January 1970) was a Thursday. */
const mondayOf = (day: number) => day - ((((day + 3) % 7) + 7) % 7);

/** One side of the comparison: its cards, collections, stage names and load. */
interface PlanSide {
  cards: Map<string, CardRow>;
  collections: Map<string, CollectionRow>;
  stages: Map<string, string>;
  /** Minutes per `stage|week`. */
  load: Map<string, number>;
}

async function readSide(records: RecordReads): Promise<PlanSide> {
  const cards = await rowsOf<CardRow>(records, tables.card, ['id', 'name', 'collection_id', 'stage_id', 'start_date', 'end_date']);
  const work = await rowsOf<{ card_id: string; time: number | null }>(records, tables.card_activity, ['card_id', 'time']);
  const collections = await rowsOf<CollectionRow>(records, tables.collection, ['id', 'name', 'end', 'due_date']);
  const stages = await rowsOf<{ id: string; name: string | null }>(records, tables.stage, ['id', 'name']);
  const minutes = new Map<string, number>();
  for (const { card_id, time } of work) minutes.set(card_id, (minutes.get(card_id) ?? 0) + (time ?? 0));
  const load = new Map<string, number>();
  const dayOf = dayNumbers();
  for (const card of cards) {
    const total = minutes.get(card.id) ?? 0;
    if (total === 0 || !card.start_date) continue;
    const start = dayOf(card.start_date);
    const end = card.end_date ? Math.max(start, dayOf(card.end_date)) : start;
    // The card's minutes spread evenly over its calendar days, counted in the week of each day.
    const days = end - start + 1;
    for (let week = mondayOf(start); week <= end; week += 7) {
      const key = `${card.stage_id}|${week}`;
      load.set(key, (load.get(key) ?? 0) + (total * (Math.min(week + 6, end) - Math.max(week, start) + 1)) / days);
    }
  }
  return {
    cards: new Map(cards.map((c) => [c.id, c])),
    collections: new Map(collections.map((c) => [c.id, c])),
    stages: new Map(stages.map((s) => [s.id, s.name ?? ''])),
    load,
  };
}

const placeOf = (card: CardRow): CardPlace => ({ stage_id: card.stage_id, start_date: card.start_date, end_date: card.end_date });
const samePlace = (a: CardRow, b: CardRow) => a.stage_id === b.stage_id && a.start_date === b.start_date && a.end_date === b.end_date;

function compared(live: CardRow | undefined, scenario: CardRow | undefined): ComparedCard {
  const card = (scenario ?? live)!;
  return {
    id: card.id,
    name: card.name ?? '',
    collection_id: card.collection_id,
    live: live ? placeOf(live) : null,
    scenario: scenario ? placeOf(scenario) : null,
  };
}

/** Minutes to whole minutes for the answer; the sums stay exact until here. */
const minutesOf = (value: number | undefined) => Math.round(value ?? 0);

export async function compareScenario(
  scenario: ScenarioInfo,
  live: RecordReads,
  inScenario: RecordReads,
): Promise<Omit<ScenarioComparison, 'clashes'>> {
  const before = await readSide(live);
  const after = await readSide(inScenario);

  const moved: ComparedCard[] = [];
  const added: ComparedCard[] = [];
  const removed: ComparedCard[] = [];
  for (const card of after.cards.values()) {
    const was = before.cards.get(card.id);
    if (!was) added.push(compared(undefined, card));
    else if (!samePlace(was, card)) moved.push(compared(was, card));
  }
  for (const card of before.cards.values()) if (!after.cards.has(card.id)) removed.push(compared(card, undefined));

  const endMoved: ComparedCollection[] = [];
  const becomeLate: ComparedCollection[] = [];
  const becomeOnTime: ComparedCollection[] = [];
  for (const collection of after.collections.values()) {
    const was = before.collections.get(collection.id);
    if (!was) continue;
    const due = collection.due_date;
    const entry: ComparedCollection = {
      id: collection.id,
      name: collection.name ?? '',
      due_date: due,
      live_end: was.end,
      scenario_end: collection.end,
      days: was.end && collection.end ? daysBetween(was.end, collection.end) : null,
    };
    if (was.end !== collection.end) endMoved.push(entry);
    const lateBefore = endsLate(was.end, was.due_date);
    const lateAfter = endsLate(collection.end, due);
    if (!lateBefore && lateAfter) becomeLate.push(entry);
    if (lateBefore && !lateAfter) becomeOnTime.push(entry);
  }

  const load: StageWeekLoad[] = [];
  for (const key of new Set([...before.load.keys(), ...after.load.keys()])) {
    // Every key is `stage|week`, made in readSide.
    const [stageId, day] = key.split('|') as [string, string];
    const week = addDays('1970-01-01', Number(day));
    const liveMinutes = minutesOf(before.load.get(key));
    const scenarioMinutes = minutesOf(after.load.get(key));
    if (liveMinutes === scenarioMinutes) continue;
    load.push({
      stage_id: stageId,
      stage_name: after.stages.get(stageId) ?? before.stages.get(stageId) ?? '',
      week,
      live_minutes: liveMinutes,
      scenario_minutes: scenarioMinutes,
    });
  }
  load.sort((a, b) => (a.week === b.week ? a.stage_name.localeCompare(b.stage_name) : a.week < b.week ? -1 : 1));

  return {
    scenario,
    cards: { moved, added, removed },
    collections: { end_moved: endMoved, become_late: becomeLate, become_on_time: becomeOnTime },
    load,
  };
}
