/**
 * Undo on a synced computer (docs/API.md "Commands and undo", "Sync"): every undoable command
 * a planner gives on a replica, undone there, reaches the remote and is applied there, whether
 * or not the command had been pushed before the undo. Afterwards the remote holds what it held
 * before the command, and the replica has nothing in its conflict list. Only a real later change
 * by someone else refuses it, and then the refusal names who changed what.
 *
 * A replica and a remote, each a separate server process; the replica behind a fault proxy
 * that takes it offline for the "not pushed yet" cases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, isoWeekday } from '../../shared/dates.js';
import {
  call,
  goOffline,
  goOnline,
  listAll,
  ok,
  startCluster,
  syncUntilQuiet,
  type ClientNode,
  type Cluster,
  type Node,
  type RemoteNode,
} from '../helpers/sync-cluster.js';
import { conflicts, createCollection, createOrder, createPlanningBase, plan, type PlanningBase } from '../helpers/sync-data.js';
import { fixTheClock, testToday } from '../helpers/test-clock.js';

// Plans start today, and a replan moves late orders from today on.
fixTheClock();

let cluster: Cluster;
let a: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

const settle = () => syncUntilQuiet([a], remote);

type Target = Pick<Node, 'url' | 'headers' | 'name'>;

/** Fields every write sets anew; an undo restores values, not these. */
const bookkeeping = new Set(['updated_at']);

/** Records without their bookkeeping fields, those they embed (an order's rows) too. */
function withoutBookkeeping(records: any[]): any[] {
  return records.map((record) =>
    Object.fromEntries(
      Object.entries(record)
        .filter(([field]) => !bookkeeping.has(field))
        .map(([field, value]) => [field, Array.isArray(value) && typeof value[0] === 'object' ? withoutBookkeeping(value) : value]),
    ),
  );
}

/**
 * What a planner's plan is made of, as the remote has it: collections, cards with their work,
 * people, labels and checklist items, dependencies, order rows and time entries.
 */
async function planState(node: Target): Promise<Record<string, any[]>> {
  return {
    collections: withoutBookkeeping(await listAll(node, '/v1/collection')),
    cards: withoutBookkeeping(await listAll(node, '/v1/card?with=activities,resources,labels')),
    relations: withoutBookkeeping(await listAll(node, '/v1/card_relation')),
    orders: withoutBookkeeping(await listAll(node, '/v1/order?with=order_rows')),
    timeEntries: withoutBookkeeping(await listAll(node, '/v1/time_tracking')),
  };
}

/** The id of the command a write just made on the replica (its newest command). */
async function lastCommand(node: Target): Promise<{ id: string; description: string }> {
  return (await ok(node, 'GET', '/v1/command?limit=1', undefined, 200)).data[0];
}

async function undo(node: Target, commandId: string): Promise<void> {
  await ok(node, 'POST', `/v1/command/${commandId}/undo`, undefined, 200);
}

/**
 * Gives `act` on the replica, pushed before the undo or not (`offline`), undoes it there, and
 * checks that the remote holds what it held before, and the replica agrees without a conflict.
 */
async function undoneEverywhere(act: () => Promise<void>, options: { offline: boolean }): Promise<void> {
  await settle();
  const before = await planState(remote);
  const refusedBefore = new Set((await conflicts(a)).map((c) => c.id));
  let command: { id: string; description: string };
  if (options.offline) await goOffline(a);
  try {
    await act();
    command = await lastCommand(a);
    if (!options.offline) {
      await settle();
      expect(await planState(remote), `${command.description} reached the remote`).not.toEqual(before);
    }
    await undo(a, command.id);
  } finally {
    if (options.offline) await goOnline(a);
  }
  await settle();
  const refused = (await conflicts(a)).filter((c) => !refusedBefore.has(c.id));
  expect(refused, `undo of "${command.description}": nothing refused`).toEqual([]);
  expect(await planState(remote), `undo of "${command.description}": the remote is as before`).toEqual(before);
  expect(await planState(a), 'the replica equals the remote').toEqual(await planState(remote));
}

let collectionCount = 0;

/** A collection of its own, planned from today on the base's board; its cards. */
async function plannedCollection(minutes = 600, extra: Record<string, unknown> = {}): Promise<{ collectionId: string; cards: any[] }> {
  const collection = await createCollection(a, base, `Order ${++collectionCount}`, minutes, extra);
  const cards = await plan(a, base, collection.id, testToday);
  return { collectionId: collection.id, cards };
}

beforeAll(async () => {
  cluster = await startCluster({ clients: 1 });
  [a] = cluster.clients as [ClientNode];
  remote = cluster.remote;
  base = await createPlanningBase(a, 'Undo');
  // Someone to do the work, so that finite planning ("Replan late…") finds room.
  await ok(a, 'POST', '/v1/resource', {
    name: 'Ada',
    type: 'employee',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
    boards: [{ id: base.boardId, stages: base.stages.map((id) => ({ id, percentage: 100 })) }],
  });
  await settle();
});

afterAll(async () => {
  await cluster?.stop();
});

describe.each([
  { when: 'after the command was pushed', offline: false },
  { when: 'before the command was pushed', offline: true },
])('undo on a synced replica, $when', ({ offline }) => {
  it('undoes a plan: the collection is back in the backlog on the remote, without cards', async () => {
    const collection = await createCollection(a, base, `Planned ${++collectionCount}`);
    await undoneEverywhere(() => plan(a, base, collection.id, testToday).then(() => undefined), { offline });
  });

  it('undoes "Replan late…": the collections are where they were', async () => {
    // Due today, planned to end later: late.
    const { collectionId } = await plannedCollection(1800, { due_date: testToday });
    await undoneEverywhere(
      () =>
        ok(a, 'POST', '/v1/command/replan_collections', { board_id: base.boardId, collection_ids: [collectionId] }, 200).then(
          () => undefined,
        ),
      { offline },
    );
  });

  it('undoes moving a collection to the backlog: its cards come back whole', async () => {
    const { collectionId } = await plannedCollection();
    await settle();
    await undoneEverywhere(() => ok(a, 'POST', `/v1/collection/${collectionId}/backlog`, undefined, 200).then(() => undefined), {
      offline,
    });
  });

  it('undoes a move of cards', async () => {
    const { cards } = await plannedCollection();
    const card = cards[0];
    await undoneEverywhere(
      () =>
        ok(a, 'POST', '/v1/command/move_cards', { cards: [{ id: card.id, start_date: card.end_date, end_date: card.end_date }] }, 200).then(
          () => undefined,
        ),
      { offline },
    );
  });

  it('undoes labelling cards', async () => {
    const { cards } = await plannedCollection();
    const label = await ok(a, 'POST', `/v1/board/${base.boardId}/label`, { name: `Rush ${collectionCount}`, color: 'red' });
    await undoneEverywhere(
      () => ok(a, 'POST', '/v1/command/label_cards', { cards: cards.map((c) => c.id), add: [label.id] }, 200).then(() => undefined),
      { offline },
    );
  });

  it('undoes assigning people to cards', async () => {
    const { cards } = await plannedCollection();
    const person = await ok(a, 'POST', '/v1/resource', { name: `Welder ${collectionCount}`, type: 'employee' });
    await undoneEverywhere(
      () => ok(a, 'POST', '/v1/command/assign_cards', { cards: cards.map((c) => c.id), add: [person.id] }, 200).then(() => undefined),
      { offline },
    );
  });

  it('undoes setting the status of time entries', async () => {
    const { cards } = await plannedCollection();
    const entry = await ok(a, 'POST', '/v1/time_tracking', {
      card_id: cards[0].id,
      start: `${testToday}T07:00:00Z`,
      end: `${testToday}T08:00:00Z`,
    });
    await undoneEverywhere(
      () => ok(a, 'POST', '/v1/command/set_time_status', { entries: [entry.id], status: 'pending' }, 200).then(() => undefined),
      { offline },
    );
  });

  it('undoes editing order rows', async () => {
    const order = await createOrder(a, `SO-${++collectionCount}`, [{ description: 'Oak top', quantity: 2 }]);
    const row = order.order_rows[0];
    await undoneEverywhere(
      () => ok(a, 'POST', '/v1/command/edit_order_rows', { rows: [{ id: row.id, quantity: 5 }] }, 200).then(() => undefined),
      { offline },
    );
  });

  it('undoes deleting a card: it comes back with its work, people and labels', async () => {
    const { collectionId, cards } = await plannedCollection();
    const person = await ok(a, 'POST', '/v1/resource', { name: `Fitter ${collectionCount}`, type: 'employee' });
    const label = await ok(a, 'POST', `/v1/board/${base.boardId}/label`, { name: `Check ${collectionCount}`, color: 'blue' });
    await ok(a, 'POST', '/v1/command/assign_cards', { cards: [cards[0].id], add: [person.id] }, 200);
    await ok(a, 'POST', '/v1/command/label_cards', { cards: [cards[0].id], add: [label.id] }, 200);
    await undoneEverywhere(() => ok(a, 'DELETE', `/v1/collection/${collectionId}/card/${cards[0].id}`).then(() => undefined), {
      offline,
    });
  });

  it('undoes splitting a card', async () => {
    const { collectionId, cards } = await plannedCollection(2400);
    const card = cards.find((c) => c.start_date !== c.end_date)!;
    // The first workday after its start: the original keeps its first day.
    let date = addDays(card.start_date, 1);
    while (isoWeekday(date) > 5) date = addDays(date, 1);
    await undoneEverywhere(
      () => ok(a, 'POST', `/v1/collection/${collectionId}/card/${card.id}/split`, { date }, 200).then(() => undefined),
      { offline },
    );
  });
});

describe('a later change by someone else', () => {
  it('refuses the undo of a plan that another computer planned again, and names who and what', async () => {
    const collection = await createCollection(a, base, `Contested ${++collectionCount}`);
    await plan(a, base, collection.id, testToday);
    const command = await lastCommand(a);
    await settle();
    // Another planner plans it again on the server, a week later.
    await goOffline(a);
    const again = await call(remote, 'POST', `/v1/collection/${collection.id}/board/${base.boardId}`, { start: '2026-12-14' });
    expect(again.status).toBe(200);
    await undo(a, command.id);
    await goOnline(a);
    await settle();
    const refused = await conflicts(a);
    expect(refused.length).toBeGreaterThan(0);
    const words = JSON.stringify(refused);
    expect(words).toContain(`Contested ${collectionCount}`);
    expect(words).toMatch(/planned again/);
    // The server's plan stands.
    const cards = (await ok(remote, 'GET', `/v1/collection/${collection.id}/card`, undefined, 200)).data;
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((c: any) => c.start_date >= '2026-12-14')).toBe(true);
  });
});
