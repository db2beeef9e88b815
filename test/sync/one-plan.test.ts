/**
 * One plan per collection (issue 8, electron/api/planning/one-plan.ts): a collection planned on
 * a replica while offline and, meanwhile, on the remote ends with ONE plan everywhere — the one
 * that reached the remote first — and the replica's plan waits in its conflict list with its
 * data and the server's version; nothing is dropped silently. A replica and a remote, each a
 * separate server process, the replica behind a fault proxy that takes it offline.
 *
 * Cases: both orders of planning (the replica's plan older or newer by the clock; the replica
 * also moves its new card before it syncs, which rewrites the collection's summary), planning
 * again on the replica after the conflict (its plan replaces the server's), a move to the
 * backlog that meets a new plan, and cards added by hand (over REST and through sync), which
 * are never taken for a second plan.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dump,
  goOffline,
  goOnline,
  ok,
  runSync,
  startCluster,
  syncUntilQuiet,
  type ClientNode,
  type Cluster,
  type RemoteNode,
} from '../helpers/sync-cluster.js';
import {
  conflicts,
  createCollection,
  createPlanningBase,
  find,
  moveCard,
  nextMillisecond,
  plan,
  type PlanningBase,
} from '../helpers/sync-data.js';

let cluster: Cluster;
let a: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

const settle = () => syncUntilQuiet([a], remote);

/** A collection's cards with their activities, and the minutes they plan. */
async function planOf(node: ClientNode | RemoteNode, collectionId: string): Promise<{ cards: any[]; minutes: number }> {
  const cards = (await ok(node, 'GET', `/v1/collection/${collectionId}/card?limit=1000&with=activities`, undefined, 200)).data as any[];
  const minutes = cards.reduce(
    (sum, card) => sum + (card.activities as any[]).reduce((m, activity) => m + (activity.time as number), 0),
    0,
  );
  return { cards, minutes };
}

/**
 * The replica's open refused changes about one collection's plan: its own write and its cards'
 * records, each with the id of its conflict entry (a refused action is one entry holding all of
 * its changes: docs/API.md "Sync", "Actions sync whole").
 */
async function planConflicts(collectionId: string, cardIds: string[]): Promise<any[]> {
  return (await conflicts(a))
    .flatMap((c) => (c.group ? c.group.items.map((item: any) => ({ ...item, id: c.id, group: c.group })) : [c]))
    .filter((c) => c.mutation.id === collectionId || cardIds.includes(c.mutation.id) || cardIds.includes(c.mutation.fields?.card_id));
}

/** Discards each conflict entry of these refused changes once. */
async function discardAll(refused: any[]): Promise<void> {
  for (const id of new Set(refused.map((c) => c.id))) await ok(a, 'POST', `/v1/sync/conflict/${id}/discard`, undefined, 200);
}

async function expectConverged(): Promise<void> {
  const [da, dr] = await Promise.all([dump(a), dump(remote)]);
  expect(da, 'the replica equals the remote').toEqual(dr);
}

beforeAll(async () => {
  cluster = await startCluster({ clients: 1 });
  [a] = cluster.clients as [ClientNode];
  remote = cluster.remote;
  base = await createPlanningBase(a, 'One plan');
  await settle();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('the same collection planned on a replica offline and on the remote', () => {
  it.each([
    ['the replica plans first (its plan is older by the clock)', true],
    ["the remote plans first (the replica's plan is newer by the clock)", false],
  ])("%s: one plan everywhere, the replica's plan in its conflict list with both sides' data", async (_case, replicaFirst) => {
    const race = await createCollection(a, base, `RACE ${replicaFirst ? 1 : 2}`, 480);
    await settle();

    await goOffline(a);
    // The planner plans on the replica and moves the new card a day on.
    const planOnReplica = async () => {
      const cards = await plan(a, base, race.id, '2026-12-07');
      await moveCard(a, cards[0], { start_date: '2026-12-08', end_date: '2026-12-08' });
      return cards;
    };
    const planOnRemote = () => plan(remote, base, race.id, '2026-12-14');
    let mine: any[];
    let theirs: any[];
    if (replicaFirst) {
      mine = await planOnReplica();
      await nextMillisecond();
      theirs = await planOnRemote();
    } else {
      theirs = await planOnRemote();
      await nextMillisecond();
      mine = await planOnReplica();
    }
    expect(mine).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(mine[0].plan_id).toEqual(expect.any(String));
    expect(theirs[0].plan_id).toEqual(expect.any(String));
    expect(mine[0].plan_id).not.toBe(theirs[0].plan_id);

    await goOnline(a);
    // Refused, each action whole: the planning (the replica's card, its activity link, the
    // collection's plan write) and the card's move (with the collection summary it rewrote).
    expect(await runSync(a)).toMatchObject({ error: null, rejected: 5 });
    await settle();

    // One plan everywhere, the remote's: one card, 480 minutes (not two cards, 960 minutes).
    for (const node of [a, remote]) {
      const { cards, minutes } = await planOf(node, race.id);
      expect(
        cards.map((c) => c.id),
        node.name,
      ).toEqual([theirs[0].id]);
      expect(cards[0], node.name).toMatchObject({ start_date: '2026-12-14', plan_id: theirs[0].plan_id });
      expect(minutes, node.name).toBe(480);
      expect(await find(node, `/v1/collection/${race.id}`), node.name).toMatchObject({
        status: 'planned',
        start: '2026-12-14',
        plan_id: theirs[0].plan_id,
      });
    }
    // The replica's own card is in its trash, restorable, not gone.
    const trash = (await ok(a, 'GET', '/v1/trash/card?limit=1000', undefined, 200)).data as any[];
    expect(trash.map((c) => c.id)).toContain(mine[0].id);

    // The conflict list: the plan's writes, each with the replica's data, the reason and the server's version.
    const list = await planConflicts(race.id, [mine[0].id]);
    expect(list).toHaveLength(5);
    // Two actions, two entries in the list.
    expect(new Set(list.map((c) => c.id)).size).toBe(2);
    // The planning is refused for its second plan: each of its changes gives that reason (after,
    // for the changes not refused themselves, the note that the action is applied whole).
    const planning = list.find((c) => c.mutation.resource === 'collection' && c.mutation.fields?.plan_id)!.id;
    for (const conflict of list.filter((c) => c.id === planning)) {
      expect(conflict.error.errors.at(-1), conflict.mutation.resource).toMatchObject({
        code: 10409,
        description: expect.stringMatching(
          /^Collection "RACE \d" was planned on the server meanwhile \(1 card, Mon 14 Dec; on the server on \w{3} \d{1,2} \w{3}\); this plan of it was not applied there/,
        ),
      });
    }
    const ofCollection = list.find((c) => c.mutation.resource === 'collection');
    expect(ofCollection.mutation).toMatchObject({
      op: 'update',
      fields: { status: 'planned', board_id: base.boardId, plan_id: mine[0].plan_id, start: '2026-12-07', end: '2026-12-07' },
    });
    expect(ofCollection.server_record).toMatchObject({
      id: race.id,
      status: 'planned',
      plan_id: theirs[0].plan_id,
      start: '2026-12-14',
      end: '2026-12-14',
    });
    const ofCard = list.find((c) => c.mutation.resource === 'card' && c.mutation.op === 'create');
    expect(ofCard.mutation).toMatchObject({
      op: 'create',
      id: mine[0].id,
      fields: { collection_id: race.id, plan_id: mine[0].plan_id, start_date: '2026-12-07' },
    });
    expect(ofCard.server_record).toBeNull();
    const ofLink = list.find((c) => c.mutation.resource === 'card_activity');
    expect(ofLink.mutation).toMatchObject({ op: 'create', fields: { card_id: mine[0].id, activity_id: base.activityId, time: 480 } });
    expect(ofLink.error.errors[0]).toMatchObject({
      code: 10409,
      description: expect.stringMatching(/^Not applied: ".+" \(group [0-9a-f-]+\) is applied all or nothing/),
    });
    const ofMove = list.find((c) => c.mutation.resource === 'card' && c.mutation.op === 'update');
    expect(ofMove.mutation).toMatchObject({ id: mine[0].id, fields: { start_date: '2026-12-08', end_date: '2026-12-08' } });
    expect(ofMove.error.errors[0]).toMatchObject({ code: 10409, description: expect.stringMatching(/^This card is not on the server/) });

    // Discarding keeps the server's plan; nothing else changes.
    await discardAll(list);
    expect(await planConflicts(race.id, [mine[0].id])).toEqual([]);
    await settle();
    expect((await planOf(a, race.id)).cards.map((c) => c.id)).toEqual([theirs[0].id]);
    await expectConverged();
  });

  it("planning again on the replica after the conflict replaces the server's plan everywhere", async () => {
    const race = await createCollection(a, base, 'RACE again', 480);
    await settle();
    await goOffline(a);
    const mine = await plan(a, base, race.id, '2026-12-07');
    const theirs = await plan(remote, base, race.id, '2026-12-14');
    await goOnline(a);
    expect(await runSync(a)).toMatchObject({ error: null, rejected: 3 });
    await settle();

    // The planner prefers the replica's dates: plans again there, having seen the server's plan.
    const again = await plan(a, base, race.id, '2026-12-07');
    await settle();
    for (const node of [a, remote]) {
      const { cards, minutes } = await planOf(node, race.id);
      expect(
        cards.map((c) => c.id),
        node.name,
      ).toEqual([again[0].id]);
      expect(cards[0], node.name).toMatchObject({ start_date: '2026-12-07', plan_id: again[0].plan_id });
      expect(minutes, node.name).toBe(480);
    }
    // Only the first planning's writes were refused: the collection's, its card's and the card's link.
    const refused = await planConflicts(race.id, [mine[0].id, theirs[0].id, again[0].id]);
    expect(refused.map((c) => [c.mutation.resource, c.mutation.fields?.plan_id ?? c.mutation.fields?.card_id]).sort()).toEqual([
      ['card', mine[0].plan_id],
      ['card_activity', mine[0].id],
      ['collection', mine[0].plan_id],
    ]);
    await discardAll(refused);
    await expectConverged();
  });

  it("a card added by hand offline to the replica's own plan stays beside the server's plan, and the collection's dates count it", async () => {
    const race = await createCollection(a, base, 'RACE extra', 480);
    await settle();
    await goOffline(a);
    const mine = await plan(a, base, race.id, '2026-12-07');
    // Within the replica's plan's dates: on the replica the collection's dates do not change.
    const extra = await ok(a, 'POST', `/v1/collection/${race.id}/card`, {
      stage_id: base.stages[2],
      start_date: '2026-12-07',
      end_date: '2026-12-07',
      name: 'Added by hand',
    });
    const theirs = await plan(remote, base, race.id, '2026-12-14');
    await goOnline(a);
    expect(await runSync(a)).toMatchObject({ error: null, rejected: 3 });
    await settle();

    for (const node of [a, remote]) {
      const { cards, minutes } = await planOf(node, race.id);
      expect(cards.map((c) => c.id).sort(), node.name).toEqual([theirs[0].id, extra.id].sort());
      expect(minutes, node.name).toBe(480);
      // The remote's summary is of the cards it has: its plan and the card added by hand.
      expect(await find(node, `/v1/collection/${race.id}`), node.name).toMatchObject({
        status: 'planned',
        start: '2026-12-07',
        end: '2026-12-14',
        plan_id: theirs[0].plan_id,
      });
    }
    await discardAll(await planConflicts(race.id, [mine[0].id]));
    await expectConverged();
  });

  it('a move to the backlog on the replica offline meets a new plan on the remote: the new plan stays everywhere', async () => {
    const race = await createCollection(a, base, 'RACE backlog', 480);
    const first = await plan(a, base, race.id, '2026-12-07');
    await settle();

    await goOffline(a);
    await ok(a, 'POST', `/v1/collection/${race.id}/backlog`, undefined, 200);
    const replanned = await plan(remote, base, race.id, '2026-12-21');
    await goOnline(a);
    const summary = await runSync(a);
    // The move to the backlog is refused whole: the collection's write and its cards' deletes.
    expect(summary).toMatchObject({ error: null, rejected: 3 });
    await settle();

    for (const node of [a, remote]) {
      const { cards, minutes } = await planOf(node, race.id);
      expect(
        cards.map((c) => c.id),
        node.name,
      ).toEqual([replanned[0].id]);
      expect(minutes, node.name).toBe(480);
      expect(await find(node, `/v1/collection/${race.id}`), node.name).toMatchObject({
        status: 'planned',
        start: '2026-12-21',
        plan_id: replanned[0].plan_id,
      });
    }
    const refusedChanges = await planConflicts(race.id, [first[0].id]);
    expect(new Set(refusedChanges.map((c) => c.id)).size).toBe(1);
    const refused = refusedChanges.find((c) => c.mutation.resource === 'collection');
    expect(refused.mutation).toMatchObject({ resource: 'collection', fields: { status: 'not_planned', plan_id: null } });
    expect(refused.error.errors[0].description).toMatch(
      /was planned again on the server .*; taking it off the board was not applied there/,
    );
    await ok(a, 'POST', `/v1/sync/conflict/${refused.id}/discard`, undefined, 200);
    await expectConverged();
  });
});

describe('cards added by hand to a planned collection', () => {
  it('are accepted over REST on either side and through sync, beside the plan, without a conflict', async () => {
    const collection = await createCollection(a, base, 'Planned with extras', 480);
    const planned = await plan(a, base, collection.id, '2026-12-07');
    await settle();
    const before = (await conflicts(a)).length;

    // Online on the replica (synced at once) and on the remote …
    const online = await ok(a, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: base.stages[1],
      start_date: '2026-12-08',
      end_date: '2026-12-08',
      name: 'Extra on A',
    });
    const onRemote = await ok(remote, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: base.stages[2],
      start_date: '2026-12-09',
      end_date: '2026-12-09',
      name: 'Extra on the remote',
    });
    await settle();
    // … and offline on the replica, while the remote adds another one.
    await goOffline(a);
    const offline = await ok(a, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: base.stages[2],
      start_date: '2026-12-10',
      end_date: '2026-12-10',
      name: 'Extra made offline',
    });
    const meanwhile = await ok(remote, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: base.stages[1],
      start_date: '2026-12-11',
      end_date: '2026-12-11',
      name: 'Extra meanwhile',
    });
    await goOnline(a);
    expect(await runSync(a)).toMatchObject({ error: null, rejected: 0 });
    await settle();

    const expected = [planned[0].id, online.id, onRemote.id, offline.id, meanwhile.id].sort();
    for (const node of [a, remote]) {
      const { cards } = await planOf(node, collection.id);
      expect(cards.map((c) => c.id).sort(), node.name).toEqual(expected);
      for (const card of cards)
        expect(card.plan_id, `${node.name}: ${card.name}`).toBe(card.id === planned[0].id ? planned[0].plan_id : null);
      expect(await find(node, `/v1/collection/${collection.id}`), node.name).toMatchObject({
        status: 'planned',
        plan_id: planned[0].plan_id,
      });
    }
    expect(await conflicts(a)).toHaveLength(before);
    await expectConverged();
  });
});
