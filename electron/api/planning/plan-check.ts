/**
 * The plan check after a sync (docs/API.md "Sync", "Plan check"). Fields merge last-writer-wins,
 * which is right for each field, yet two planners offline can each fill Thursday on the laser:
 * the merged plan is overloaded and nobody made it. So before a pulled batch is merged the plan
 * on the boards it touches is checked, after the pull it is checked again, and what is new is
 * kept with the pulled changes that made it and the computer that wrote each:
 *
 *  - over_capacity: a stage-day or person-day whose planned minutes are over the available ones
 *    (capacity.ts, by stage and by resource), on the days the pulled cards cover;
 *  - double_booking: a person (a resource of type employee) on two cards whose days overlap,
 *    one of them a card the pull changed;
 *  - broken_dependency: a dependent stage that starts before the stage before it is done
 *    (collection-state.ts), in a collection the pull changed;
 *  - late_collection: a collection the pull changed whose last card ends after its due date or
 *    the date promised on its order (shared/late.ts).
 *
 * Reads only through the asynchronous record store; the findings go to the replica's local books.
 * One read of the plan per check, and only new findings worded: docs/decisions/plan-check-reads.md.
 */
import { cardDisplayName } from '../../../shared/card-display-name.js';
import { addDays, daysBetween, shortDay } from '../../../shared/dates.js';
import { endsLate } from '../../../shared/late.js';
import type { PlanFindingChange, PlanFindingNotice } from '../../../shared/plan-check.js';
import type { PlannedCards } from '../../store/planned-cards.js';
import { localBooks, type RequestContext } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import { boardCapacityViews } from './capacity.js';
import { brokenDependencies, dependencyWarningStart } from './collection-state.js';
import { readStageWeeks } from './stage-workdays.js';

/** A pulled record as the merge saw it (the sync client's PulledChange, electron/sync/plan-changes.ts). */
export interface PlanChange extends Omit<PlanFindingChange, 'record_id'> {
  id: string;
  before: Record<string, unknown> | undefined;
  after: Record<string, unknown>;
}

/**
 * A finding by its key, with the records it is made of: a pulled change to one of them took part
 * in it. Most findings before and after a pull are the same and only their keys are compared, so
 * what it says and what it is made of are worked out only for a finding that is new: a full board
 * has thousands of pairs of cards a person is on at once.
 */
interface Found {
  key: string;
  board_id: string;
  involved: () => Set<string>;
  /** Whether what it says names cards: their names are read (`cardNames`) before `says` is asked. */
  namesCards: boolean;
  says: (cardNames: ReadonlyMap<string, string>) => Omit<PlanFindingNotice, 'changes'>;
}

/** A card on the board over the checked days: its stage, its days and its people (as cardLoads reads it). */
interface Load {
  card_id: string;
  stage_id: string;
  start_date: string;
  end_date: string;
  resources: string[];
}

/** What the check looks at on one board: the days of the pulled cards (none: only collections). */
interface BoardScope {
  start: string | null;
  end: string | null;
}

/** The most days of one board a check reads: a card planned years ahead does not make it read them all. */
const maxDays = 400;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const hours = (minutes: number) => `${Math.round(minutes / 6) / 10} h`;

/** The date promised to the customer on the collection's order, kept in its meta; null without one. */
function promisedOf(collection: Stored<'collection'>): string | null {
  // A collection's meta is a JSON object column (its order's promised date among it), or null.
  const promised = (collection.meta as Record<string, unknown> | null)?.promised_date;
  return typeof promised === 'string' ? promised : null;
}

/** The card a record belongs to: the card itself, or the card of a card's activity or resource link. */
function cardIdOf(resource: string, id: string, record: Record<string, unknown> | undefined): string | null {
  if (resource === 'card') return id;
  if (resource === 'card_activity' || resource === 'card_resource') return text(record?.card_id);
  return null;
}

/**
 * The pulled changes to a finding's records (`involved`, the finding's own ids); when none is one
 * of them (a stage's or a person's change), those on its board. A change is to a record when it
 * is the record, its card (an activity or resource link's card) or its collection. The changes
 * are indexed once per pull by those ids: a pull may make hundreds of findings.
 */
function changesByRecord(changes: readonly PlanChange[]): (involved: ReadonlySet<string>, boardId: string) => PlanFindingChange[] {
  const byId = new Map<string, number[]>();
  changes.forEach((change, index) => {
    const card = cardIdOf(change.resource, change.id, change.after) ?? cardIdOf(change.resource, change.id, change.before);
    const collection = text(change.after.collection_id) ?? text(change.before?.collection_id);
    for (const id of new Set([change.id, card, collection])) {
      if (id === null) continue;
      const list = byId.get(id);
      if (list) list.push(index);
      else byId.set(id, [index]);
    }
  });
  const onBoard = new Map<string, PlanChange[]>();
  const shown = (change: PlanChange): PlanFindingChange => ({
    resource: change.resource,
    record_id: change.id,
    fields: change.fields,
    created: change.created,
    changed_by: change.changed_by,
    changed_at: change.changed_at,
  });
  return (involved, boardId) => {
    // In the pull's order, each change once.
    const indexes = new Set<number>();
    for (const id of involved) for (const index of byId.get(id) ?? []) indexes.add(index);
    let chosen = [...indexes].sort((x, y) => x - y).map((index) => changes[index]!);
    if (chosen.length === 0) {
      let board = onBoard.get(boardId);
      if (!board) onBoard.set(boardId, (board = changes.filter((c) => c.after.board_id === boardId || c.before?.board_id === boardId)));
      chosen = board;
    }
    // One entry per record and computer, with every field that computer changed there (pages of one pull may bring two).
    const byRecord = new Map<string, PlanFindingChange>();
    for (const change of chosen.map(shown)) {
      const key = `${change.resource}:${change.record_id}:${change.changed_by}`;
      const seen = byRecord.get(key);
      if (!seen) byRecord.set(key, change);
      else {
        const newer = change.changed_at >= seen.changed_at ? change : seen;
        byRecord.set(key, { ...newer, created: seen.created || change.created, fields: [...new Set([...seen.fields, ...change.fields])] });
      }
    }
    return [...byRecord.values()];
  };
}

export class PlanCheckRun {
  private readonly boards = new Map<string, BoardScope>();
  private readonly collections = new Set<string>();
  private readonly cards = new Set<string>();
  /**
   * The stage-days and resource-days (`{stage or resource id}:{day}`) the pulled cards are on,
   * before the merge or after it: only there can the merge have put a day over capacity. Both
   * checks look at the same ones, so a day over before the pull is found before it too.
   */
  private readonly touched = new Set<string>();
  /** The keys of the findings the plan had before the pull. */
  private readonly found = new Set<string>();
  /** A check before a merge that failed: what is new after it cannot be told, so nothing is kept. */
  private failed = false;

  constructor(private readonly ctx: RequestContext) {}

  /** Before a pulled batch is merged: the plan on the boards it touches, as it is here now. */
  async before(entries: readonly { resource: string; id: string; record: Record<string, unknown> | null }[]): Promise<void> {
    try {
      if (!(await this.widen(entries))) return;
      // Checked again over the wider scope: what a batch already merged changed is kept as it was first found.
      for (const key of (await this.check()).keys()) this.found.add(key);
    } catch (error) {
      // The check only reports: the pull goes on, and this run keeps no findings.
      this.failed = true;
      console.warn(`The plan check before the merge failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** After the pull: what the plan has now that it did not have before, kept with the changes that made it. */
  async after(changes: readonly PlanChange[]): Promise<number> {
    if (this.failed || this.boards.size === 0) return 0;
    const now = await this.check();
    const fresh = [...now.values()].filter((finding) => !this.found.has(finding.key));
    const named = fresh.filter((finding) => finding.namesCards);
    const cardNames =
      named.length > 0 ? await this.cardNames(named.flatMap((finding) => [...finding.involved()])) : new Map<string, string>();
    const changesIn = changesByRecord(changes);
    const notices = fresh.map((finding) => ({ ...finding.says(cardNames), changes: changesIn(finding.involved(), finding.board_id) }));
    if (notices.length > 0) await this.ctx.records.transaction((tx) => localBooks(tx).noticePlanFindings(notices));
    return notices.length;
  }

  /** Adds the boards, days, collections and cards the batch touches, before and after; whether the scope grew. */
  private async widen(entries: readonly { resource: string; id: string; record: Record<string, unknown> | null }[]): Promise<boolean> {
    let grew = false;
    const addBoard = (boardId: string | null, start: string | null, end: string | null) => {
      if (!boardId) return;
      const scope = this.boards.get(boardId);
      if (!scope) {
        this.boards.set(boardId, { start, end });
        grew = true;
        return;
      }
      if (start && end && (!scope.start || !scope.end || start < scope.start || end > scope.end)) {
        scope.start = scope.start && scope.start < start ? scope.start : start;
        scope.end = scope.end && scope.end > end ? scope.end : end;
        grew = true;
      }
    };
    const addCollection = (id: string | null) => {
      if (id && !this.collections.has(id)) {
        this.collections.add(id);
        grew = true;
      }
    };
    const addCard = (card: Record<string, unknown> | undefined) => {
      if (!card) return;
      addBoard(text(card.board_id), text(card.start_date), text(card.end_date));
      addCollection(text(card.collection_id));
    };
    /** The card's days on its stage and for its people, as `{id}:{day}`. */
    const touch = (card: Record<string, unknown> | undefined, people: Iterable<string>) => {
      const start = text(card?.start_date);
      const end = text(card?.end_date);
      const stage = text(card?.stage_id);
      if (!start || !end || !stage || end < start) return;
      const ids = [stage, ...people];
      for (let day = start, n = 0; day <= end && n < maxDays; day = addDays(day, 1), n++) {
        for (const id of ids) this.touched.add(`${id}:${day}`);
      }
    };
    // The cards of links, read at once: a pull of a plan brings hundreds of card activities.
    const linkCards = new Set<string>();
    /** The people of each card, here and pulled: a card's days count for both. */
    const peopleOf = new Map<string, Set<string>>();
    const addPerson = (cardId: string | null, resourceId: string | null) => {
      if (!cardId || !resourceId) return;
      const people = peopleOf.get(cardId);
      if (people) people.add(resourceId);
      else peopleOf.set(cardId, new Set([resourceId]));
    };
    for (const entry of entries) {
      if (entry.resource === 'card_activity' || entry.resource === 'card_resource') {
        const table = entry.resource === 'card_activity' ? tables.card_activity : tables.card_resource;
        const local = await this.ctx.records.get(table, entry.id, { includeDeleted: true });
        for (const id of [text(local?.card_id), text(entry.record?.card_id)]) if (id) linkCards.add(id);
        if (entry.resource === 'card_resource') addPerson(text(entry.record?.card_id), text(entry.record?.resource_id));
      }
    }
    const cardIds = [...new Set([...entries.filter((e) => e.resource === 'card').map((e) => e.id), ...linkCards])];
    const localCards = new Map((await this.ctx.records.getWhereIn(tables.card, 'id', cardIds)).map((c) => [c.id, c]));
    for (const link of await this.ctx.records.getWhereIn(tables.card_resource, 'card_id', cardIds))
      addPerson(link.card_id, link.resource_id);
    const pulledCards = new Map(entries.filter((e) => e.resource === 'card' && e.record).map((e) => [e.id, e.record!]));
    for (const id of cardIds) {
      if (!this.cards.has(id)) {
        this.cards.add(id);
        grew = true;
      }
      const local = localCards.get(id);
      addCard(local);
      const touchedBefore = this.touched.size;
      const people = peopleOf.get(id) ?? [];
      touch(local, people);
      touch(pulledCards.get(id), people);
      if (this.touched.size > touchedBefore) grew = true;
    }
    for (const entry of entries) {
      if (entry.resource === 'card') addCard(entry.record ?? undefined);
      if (entry.resource === 'collection') {
        const local = await this.ctx.records.get(tables.collection, entry.id);
        addCollection(entry.id);
        addBoard(text(local?.board_id), null, null);
        addBoard(text(entry.record?.board_id), null, null);
      }
    }
    return grew;
  }

  /** The findings on the scope's boards as the plan is now. */
  private async check(): Promise<Map<string, Found>> {
    const found = new Map<string, Found>();
    const add = (finding: Found) => found.set(finding.key, finding);
    const collections = await this.ctx.records.getWhereIn(tables.collection, 'id', [...this.collections]);
    for (const [boardId, scope] of this.boards) {
      const board = await this.ctx.records.get(tables.board, boardId);
      if (!board) continue;
      const stages = await this.ctx.records.getWhereIn(tables.stage, 'board_id', [board.id]);
      if (scope.start && scope.end) {
        const end = daysBetween(scope.start, scope.end) >= maxDays ? addDays(scope.start, maxDays - 1) : scope.end;
        await this.checkDays(board, scope.start, end, add);
      }
      const own = collections.filter((c) => c.board_id === board.id);
      if (own.length > 0) await this.checkCollections(board, stages, own, add);
    }
    return found;
  }

  /**
   * The cards of the board over the checked days with their people, from the read capacity made
   * (one read of the plan per check): a card with no activities counts no minutes and is not in
   * it, so those with people and the pulled ones are read apart (few, if any); a board with no
   * activities over the days is read as finite planning reads it.
   */
  private async loadsOf(boardId: string, start: string, end: string, planned: PlannedCards): Promise<Load[]> {
    if (planned.activities.length === 0) {
      // Without activities plannedCards reads no people; cardLoads reads every card with its people.
      return (await this.ctx.records.cardLoads(boardId, start, end, true)).map((load) => ({
        card_id: load.card_id,
        stage_id: load.stage_id,
        start_date: load.start_date,
        end_date: load.end_date,
        resources: load.resources ? load.resources.split(',') : [],
      }));
    }
    const loads = new Map<string, Load>();
    for (const row of planned.activities) {
      if (!loads.has(row.card_id))
        loads.set(row.card_id, {
          card_id: row.card_id,
          stage_id: row.stage_id,
          start_date: row.start_date,
          end_date: row.end_date,
          resources: [],
        });
    }
    const apart = new Set([...planned.resources.map((row) => row.card_id), ...this.cards].filter((id) => !loads.has(id)));
    if (apart.size > 0) {
      for (const card of await this.ctx.records.getWhereIn(tables.card, 'id', [...apart])) {
        const from = text(card.start_date);
        const to = text(card.end_date);
        if (card.board_id !== boardId || !from || !to || from > end || to < start) continue;
        loads.set(card.id, { card_id: card.id, stage_id: card.stage_id, start_date: from, end_date: to, resources: [] });
      }
    }
    for (const row of planned.resources) loads.get(row.card_id)?.resources.push(row.resource_id);
    return [...loads.values()];
  }

  /** Stage-days and person-days over capacity, and people on two cards at once, from `start` to `end`. */
  private async checkDays(board: Stored<'board'>, start: string, end: string, add: (finding: Found) => void): Promise<void> {
    const planned = await this.ctx.records.plannedCards(board.id, start, end);
    const loads = await this.loadsOf(board.id, start, end, planned);
    const on = (load: Load, date: string) => load.start_date <= date && load.end_date >= date;
    const capacity = await boardCapacityViews(this.ctx, board, ['stage', 'resource'], { start, end, frame: 'day' }, planned);
    const views = [
      { view: capacity.stage, rows: (row: Record<string, unknown>) => row.stage, resource: 'stage' as const },
      { view: capacity.resource, rows: (row: Record<string, unknown>) => row.resource, resource: 'resource' as const },
    ];
    for (const { view, rows, resource } of views) {
      for (const bucket of view.data) {
        const date = String(bucket.date);
        // Each row as boardCapacity answers it for this view: the stage or resource with its figures.
        for (const row of rows(bucket) as { id: string; name: string; time_available: number; time_planned: number }[]) {
          if (row.time_planned <= row.time_available || !this.touched.has(`${row.id}:${date}`)) continue;
          const cards = () =>
            loads.filter((l) => on(l, date) && (resource === 'stage' ? l.stage_id === row.id : l.resources.includes(row.id)));
          add({
            key: `over_capacity:${row.id}:${date}`,
            board_id: board.id,
            involved: () => new Set([row.id, ...cards().map((c) => c.card_id)]),
            namesCards: false,
            says: () => ({
              key: `over_capacity:${row.id}:${date}`,
              kind: 'over_capacity',
              board_id: board.id,
              date,
              record: { resource, id: row.id, name: row.name },
              text: `${resource === 'stage' ? `Stage ${row.name}` : row.name} is over capacity on ${shortDay(date)}: ${hours(row.time_planned)} planned, ${hours(row.time_available)} available`,
              details: { planned_minutes: row.time_planned, available_minutes: row.time_available },
            }),
          });
        }
      }
    }
    // People on two cards at once: pairs with a card the pull changed.
    const changed = loads.filter((l) => this.cards.has(l.card_id) && l.resources.length > 0);
    if (changed.length === 0) return;
    // Each person's cards, so a changed card meets only the cards of its own people.
    const cardsOf = new Map<string, Load[]>();
    for (const load of loads) {
      for (const id of load.resources) {
        const list = cardsOf.get(id);
        if (list) list.push(load);
        else cardsOf.set(id, [load]);
      }
    }
    const people = new Map(
      (await this.ctx.records.getWhereIn(tables.resource, 'id', [...new Set(changed.flatMap((l) => l.resources))]))
        .filter((r) => r.type === 'employee')
        .map((r) => [r.id, r]),
    );
    for (const card of changed) {
      for (const personId of card.resources) {
        const person = people.get(personId);
        if (!person) continue;
        for (const other of cardsOf.get(personId) ?? []) {
          if (other.card_id === card.card_id) continue;
          if (other.start_date > card.end_date || other.end_date < card.start_date) continue;
          const [first, second] = card.card_id < other.card_id ? [card, other] : [other, card];
          const key = `double_booking:${person.id}:${first.card_id}:${second.card_id}`;
          add({
            key,
            board_id: board.id,
            involved: () => new Set([person.id, first.card_id, second.card_id]),
            namesCards: true,
            says: (names) => {
              const from = first.start_date > second.start_date ? first.start_date : second.start_date;
              const to = first.end_date < second.end_date ? first.end_date : second.end_date;
              const one = names.get(first.card_id) ?? 'Untitled card';
              const otherName = names.get(second.card_id) ?? 'Untitled card';
              return {
                key,
                kind: 'double_booking',
                board_id: board.id,
                date: from,
                record: { resource: 'resource', id: person.id, name: person.name },
                text: `${person.name} is on ${one} and ${otherName} at once, ${from === to ? `on ${shortDay(from)}` : `from ${shortDay(from)} to ${shortDay(to)}`}`,
                details: { card: one, other_card: otherName, card_id: first.card_id, other_card_id: second.card_id, start: from, end: to },
              };
            },
          });
        }
      }
    }
  }

  /** The names of the cards as the planboard shows them. */
  private async cardNames(ids: string[]): Promise<Map<string, string>> {
    const cards = await this.ctx.records.getWhereIn(tables.card, 'id', [...new Set(ids)]);
    const stages = new Map(
      (await this.ctx.records.getWhereIn(tables.stage, 'id', [...new Set(cards.map((c) => c.stage_id))])).map((s) => [s.id, s]),
    );
    const collections = new Map(
      (
        await this.ctx.records.getWhereIn(tables.collection, 'id', [
          ...new Set(cards.map((c) => c.collection_id).filter((id): id is string => typeof id === 'string')),
        ])
      ).map((c) => [c.id, c]),
    );
    return new Map(
      cards.map((c) => [
        c.id,
        cardDisplayName(c, {
          collection: typeof c.collection_id === 'string' ? (collections.get(c.collection_id) ?? null) : null,
          stage: stages.get(c.stage_id) ?? null,
        }),
      ]),
    );
  }

  /** Stages out of order, and ends after the due or promised date, in the collections the pull changed. */
  private async checkCollections(
    board: Stored<'board'>,
    stages: readonly Stored<'stage'>[],
    collections: readonly Stored<'collection'>[],
    add: (finding: Found) => void,
  ): Promise<void> {
    // The dependency rule reads the cards only of collections whose summary, worked out after
    // every card change here and on the remote (collection-state.ts), warns of a dependency: as
    // the exception inbox does. The summary comes with the pull, as the remote worked it out.
    const warned = collections.filter((c) => c.warnings.some((warning) => warning.startsWith(dependencyWarningStart)));
    const cards =
      warned.length > 0
        ? await this.ctx.records.getWhereIn(
            tables.card,
            'collection_id',
            warned.map((c) => c.id),
          )
        : [];
    // The stages' workdays (stage-workdays.ts), read only when there are cards to check.
    const weeks = cards.length > 0 ? await readStageWeeks(this.ctx.records, board) : undefined;
    for (const collection of collections) {
      const own = cards.filter((c) => c.collection_id === collection.id);
      const name = collection.name ?? collection.description ?? 'Untitled collection';
      for (const broken of weeks ? brokenDependencies(weeks, stages, own) : []) {
        const key = `broken_dependency:${collection.id}:${broken.stage.id}`;
        add({
          key,
          board_id: board.id,
          involved: () => new Set([collection.id, ...broken.early.map((c) => c.id), ...broken.before.map((c) => c.id)]),
          namesCards: false,
          says: () => ({
            key,
            kind: 'broken_dependency',
            board_id: board.id,
            date: broken.start,
            record: { resource: 'collection', id: collection.id, name },
            text: `In ${name}, stage ${broken.stage.name} starts on ${shortDay(broken.start)}, before stage ${broken.previous.name} is done; it can start on ${shortDay(broken.earliest)}`,
            details: { stage: broken.stage.name, previous_stage: broken.previous.name, start: broken.start, earliest: broken.earliest },
          }),
        });
      }
      // Its planned end as its summary has it: the last end of its cards.
      const end = text(collection.end);
      const due = text(collection.due_date);
      const promised = promisedOf(collection);
      const missed = [
        { day: due, promised: 0 },
        { day: promised !== due ? promised : null, promised: 1 },
      ];
      for (const { day, promised: isPromise } of missed) {
        if (!day || !end || !endsLate(end, day)) continue;
        const key = `late_collection:${collection.id}:${isPromise ? 'promised' : 'due'}`;
        add({
          key,
          board_id: board.id,
          // Its cards' changes are found by their collection (changesByRecord).
          involved: () => new Set([collection.id]),
          namesCards: false,
          says: () => ({
            key,
            kind: 'late_collection',
            board_id: board.id,
            date: null,
            record: { resource: 'collection', id: collection.id, name },
            text: `${name} is planned to end on ${shortDay(end)}, after ${isPromise ? 'the date promised to the customer' : 'its due date'} ${shortDay(day)}`,
            details: { end, due_date: day, promised: isPromise },
          }),
        });
      }
    }
  }
}

/** The plan check of one sync run on a replica's records (electron/sync/plan-changes.ts). */
export function planCheckRun(ctx: RequestContext): PlanCheckRun {
  return new PlanCheckRun(ctx);
}
