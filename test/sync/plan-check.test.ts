/**
 * The plan check after a sync (docs/API.md "Sync", "Plan check"): two planners offline each
 * fill Thursday on the laser, each fine alone; once both synced, the merged day is over
 * capacity and each replica lists it, naming the other computer's change that made it. A sync
 * that makes nothing new lists nothing; a finding is accepted with one call. Two replicas and a
 * remote in this process, over real HTTP on 127.0.0.1, with real SQLite files.
 *
 *   board Laser shop, every day a workday; stages Laser (priority 1) and Bend (priority 2), dependent
 *   Anna: 8 h every day, Laser 100 %
 *   T is the run's fixed Monday; Thursday is T+3.
 *
 * Then each other kind, each side's edit fine alone, the merge not:
 *   SO-L  due T+5, a Laser card T+1…T+2     A ends the card on T+4, B moves the due date to T+3 → late
 *   SO-P  Laser card T+1, Bend card T+3     A ends Laser on T+2, B starts Bend on T+2 → Bend before Laser is done
 *   SO-X, SO-Y  a card each on T+1         A puts Anna on SO-X, B puts Anna on SO-Y → Anna on two cards at once
 *   SO-W, SO-V  a card each on T+6, SO-W's with an hour of cutting, SO-V's with none
 *                                           A puts Anna on SO-W, B on SO-V → Anna on two cards at once
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '../../shared/clock.js';
import { addDays } from '../../shared/dates.js';
import { bookOf } from '../../electron/store/sync-book.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { call, ok } from '../helpers/sync-cluster.js';
import type { InProcessClient } from '../helpers/sync-inprocess.js';
import { fixTheClock } from '../helpers/test-clock.js';
import { runSync, startTwoReplicas, type TwoReplicas } from '../helpers/two-replicas.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const everyDay = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true };
const eightEveryDay = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': 8, '7': 8 };

let replicas: TwoReplicas;
let a: InProcessClient;
let b: InProcessClient;
const id: Record<string, string> = {};
let thursday = '';

const nodeOf = (client: InProcessClient) => bookOf(client.instance.dataDir.environment(client.instance.environment.id)).clock.node;
const day = (n: number) => addDays(thursday, n - 3);
const cardPath = (collection: string, card: string) => `/v1/collection/${collection}/card/${card}`;
const findings = async (client: InProcessClient, query = '') => (await ok(client, 'GET', `/v1/sync/plan_check${query}`)).data as any[];

/** A collection on the laser board with one Laser card of `minutes` of cutting on `day`; its card's id. */
async function laserCard(
  client: InProcessClient,
  name: string,
  day: string,
  minutes: number,
): Promise<{ collection: string; card: string }> {
  const collection = (await ok(client, 'POST', '/v1/collection', { name, board_id: id.board })).id as string;
  const card = await ok(client, 'POST', `/v1/collection/${collection}/card`, {
    stage_id: id.laser,
    start_date: day,
    end_date: day,
    activities: [{ id: id.cut, time: minutes }],
  });
  return { collection, card: card.id as string };
}

beforeAll(async () => {
  replicas = await startTwoReplicas();
  ({ a, b } = replicas);
  thursday = addDays(new Date(nowMs()).toISOString().slice(0, 10), 3);
  const board = await ok(a, 'POST', '/v1/board?with=stages', {
    name: 'Laser shop',
    workdays: everyDay,
    stages: [
      { name: 'Laser', priority: 1 },
      { name: 'Bend', priority: 2 },
    ],
    statuses: [{ name: 'Todo' }],
  });
  id.board = board.id;
  id.laser = board.stages.find((s: any) => s.name === 'Laser').id;
  id.bend = board.stages.find((s: any) => s.name === 'Bend').id;
  id.cut = (await ok(a, 'POST', '/v1/activity', { description: 'Cut' })).id;
  id.anna = (
    await ok(a, 'POST', '/v1/resource', {
      name: 'Anna',
      workdays: eightEveryDay,
      boards: [{ id: id.board, active: true, stages: [{ id: id.laser, percentage: 100, active: true }] }],
    })
  ).id;
  await runSync(a);
  await runSync(b);
});

afterAll(async () => {
  await replicas?.close();
});

describe('two planners offline each fill Thursday on the laser', () => {
  it('each plan is fine alone: 5 h of 8 h, and nothing is listed after each pushed its own', async () => {
    const fromA = await laserCard(a, 'SO-A', thursday, 300);
    const fromB = await laserCard(b, 'SO-B', thursday, 300);
    Object.assign(id, { cardA: fromA.card, cardB: fromB.card });
    // A syncs first: B's card is not on the remote yet, so A pulls nothing that adds to its plan.
    await runSync(a);
    expect(await findings(a)).toEqual([]);
  });

  it('after both synced, the check lists the merged overload on both replicas, naming the change and its computer', async () => {
    await runSync(b);
    await runSync(a);
    for (const [here, other, theirCard] of [
      [b, a, id.cardA],
      [a, b, id.cardB],
    ] as const) {
      const list = await findings(here);
      expect(
        list.map((f) => f.key),
        here.name,
      ).toEqual([`over_capacity:${id.laser}:${thursday}`]);
      const [finding] = list;
      expect(finding).toMatchObject({
        kind: 'over_capacity',
        board_id: id.board,
        date: thursday,
        record: { resource: 'stage', id: id.laser, name: 'Laser' },
        details: { planned_minutes: 600, available_minutes: 480 },
        status: 'open',
        resolved_at: null,
      });
      expect(finding.text).toMatch(/^Stage Laser is over capacity on \w{3} \d+ \w{3}: 10 h planned, 8 h available$/);
      // The other computer's card is the change that made it; every change named is the other computer's.
      expect(finding.changes.find((c: any) => c.resource === 'card')).toMatchObject({
        record_id: theirCard,
        record_name: other === a ? 'SO-A' : 'SO-B',
        created: true,
        fields: [],
        changed_by: nodeOf(other),
      });
      expect(finding.changes.map((c: any) => c.changed_by)).toEqual(finding.changes.map(() => nodeOf(other)));
      expect(finding.changes.map((c: any) => c.record_id)).not.toContain(here === a ? id.cardA : id.cardB);
    }
  });

  it('a sync that makes nothing new lists nothing new: more on the day already over, and a card on another day', async () => {
    // As kept: this computer's part (`mine`) is worked out as the plan is now.
    const kept = async () => (await findings(b)).map(({ mine: _now, ...finding }) => finding);
    const before = await kept();
    await laserCard(a, 'SO-C', thursday, 60);
    await laserCard(a, 'SO-D', addDays(thursday, 1), 120);
    await runSync(a);
    const summary = await ok(b, 'POST', '/v1/sync/run', undefined, 200);
    expect(summary.pulled).toBeGreaterThan(0);
    expect(await kept()).toEqual(before);
  });

  it('a finding is accepted with one call: it leaves the open list, and stays in the whole list', async () => {
    const [finding] = await findings(a);
    const accepted = await ok(a, 'POST', `/v1/sync/plan_check/${finding.id}/accept`, undefined, 200);
    expect(accepted).toMatchObject({ id: finding.id, status: 'accepted', key: finding.key });
    expect(accepted.resolved_at).toEqual(expect.any(String));
    expect(await findings(a)).toEqual([]);
    expect((await findings(a, '?all=true')).map((f) => [f.id, f.status])).toEqual([[finding.id, 'accepted']]);
    // B's own finding stays open: accepting is this computer's.
    expect((await findings(b)).map((f) => f.status)).toEqual(['open']);

    const again = await call(a, 'POST', `/v1/sync/plan_check/${finding.id}/accept`);
    expect(again.status).toBe(409);
    expectErrorBody(again.body, 10409, 'Conflict');
    const unknown = await call(a, 'POST', '/v1/sync/plan_check/0190a1b2-0000-7000-8000-000000000001/accept');
    expect(unknown.status).toBe(404);
    expect((await call(a, 'POST', '/v1/sync/plan_check/not-an-id/accept')).status).toBe(404);
  });
});

describe("this computer's part in a finding, and its ways out", () => {
  it("names this computer's own cards on the day, their collections and the newest command made here on them", async () => {
    // B's finding is still open: Thursday's laser holds B's own SO-B and A's SO-A and SO-C, pulled.
    const [found] = await findings(b);
    const [soB] = (await ok(b, 'GET', `/v1/card?filter=id:eq:'${id.cardB}'`)).data;
    expect(found.mine).toEqual({
      card_ids: [id.cardB],
      collection_ids: [soB.collection_id],
      command: { id: expect.any(String), description: expect.any(String) },
    });
    // The command is the one that made SO-B's card here; A's finding names A's cards, not B's.
    const made = (await ok(b, 'GET', '/v1/command?limit=1000')).data.find((c: any) => c.id === found.mine.command.id);
    expect(made).toBeDefined();
    const [accepted] = await findings(a, '?all=true');
    expect(accepted.mine.card_ids).not.toContain(id.cardB);
    expect(accepted.mine.card_ids).toContain(id.cardA);
  });

  it('move mine later: its collection planned again against free capacity from the day after, as one command', async () => {
    const [found] = await findings(b);
    const replanned = await ok(
      b,
      'POST',
      '/v1/command/replan_collections',
      {
        board_id: id.board,
        collection_ids: found.mine.collection_ids,
        start: day(4),
      },
      200,
    );
    expect(replanned.command_id).toEqual(expect.any(String));
    const card = (replanned.data[0].cards as any[]).find((c) => c.stage_id === id.laser);
    // Friday holds A's SO-D (2 h) of Anna's 8 h: SO-B's 5 h fit there.
    expect([card.start_date, card.end_date]).toEqual([day(4), day(4)]);
    // Replanned cards are new cards: nothing of B's is on Thursday any more, nothing to revert there.
    const [moved] = await findings(b);
    expect(moved.mine).toEqual({ card_ids: [], collection_ids: [], command: null });
    // Undone, SO-B's card is back on Thursday, and the undo is the newest command made here on it.
    await ok(b, 'POST', `/v1/command/${replanned.command_id}/undo`, undefined, 200);
    const [back] = await findings(b);
    expect(back.mine.card_ids).toEqual([id.cardB]);
    expect(back.mine.command.description).toMatch(/^Undo: /);
  });
});

describe('the other kinds of finding the merge makes, each side fine alone', () => {
  /** A collection on the laser board with cards (no minutes: no capacity in play); its id and its cards' ids. */
  async function collectionWith(name: string, cards: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
    const collection = (await ok(a, 'POST', '/v1/collection', { name, board_id: id.board, ...extra })).id as string;
    const ids: string[] = [];
    for (const card of cards) ids.push((await ok(a, 'POST', `/v1/collection/${collection}/card`, card)).id as string);
    return { collection, cards: ids };
  }
  const finding = async (client: InProcessClient, key: string) => (await findings(client)).find((f) => f.key === key);

  it('a collection past its due date: A ends its card later, B moves the due date earlier', async () => {
    const so = await collectionWith('SO-L', [{ stage_id: id.laser, start_date: day(1), end_date: day(2) }], { due_date: day(5) });
    await runSync(a);
    await runSync(b);
    await ok(a, 'PUT', cardPath(so.collection, so.cards[0]!), { end_date: day(4) });
    await ok(b, 'PUT', `/v1/collection/${so.collection}`, { due_date: day(3) });
    await runSync(a);
    expect(await finding(a, `late_collection:${so.collection}:due`)).toBeUndefined();
    await runSync(b);
    await runSync(a);
    const onB = await finding(b, `late_collection:${so.collection}:due`);
    expect(onB).toMatchObject({
      kind: 'late_collection',
      record: { resource: 'collection', id: so.collection, name: 'SO-L' },
      details: { end: day(4), due_date: day(3), promised: 0 },
    });
    expect(onB.changes).toContainEqual(
      expect.objectContaining({
        resource: 'card',
        record_id: so.cards[0],
        created: false,
        changed_by: nodeOf(a),
        fields: expect.arrayContaining(['end_date']),
      }),
    );
    const onA = await finding(a, `late_collection:${so.collection}:due`);
    expect(onA.changes).toContainEqual(
      expect.objectContaining({ resource: 'collection', record_id: so.collection, changed_by: nodeOf(b), fields: ['due_date'] }),
    );
  });

  it('stages out of order: A ends Laser a day later, B starts Bend a day earlier', async () => {
    const so = await collectionWith('SO-P', [
      { stage_id: id.laser, start_date: day(1), end_date: day(1) },
      { stage_id: id.bend, start_date: day(3), end_date: day(3) },
    ]);
    const [laser, bend] = so.cards as [string, string];
    await runSync(a);
    await runSync(b);
    await ok(a, 'PUT', cardPath(so.collection, laser), { end_date: day(2) });
    await ok(b, 'PUT', cardPath(so.collection, bend), { start_date: day(2) });
    await runSync(a);
    await runSync(b);
    await runSync(a);
    for (const [here, other, theirs] of [
      [a, b, bend],
      [b, a, laser],
    ] as const) {
      const found = await finding(here, `broken_dependency:${so.collection}:${id.bend}`);
      expect(found, here.name).toMatchObject({
        kind: 'broken_dependency',
        date: day(2),
        details: { stage: 'Bend', previous_stage: 'Laser', start: day(2), earliest: day(3) },
      });
      expect(found.changes).toContainEqual(expect.objectContaining({ resource: 'card', record_id: theirs, changed_by: nodeOf(other) }));
    }
  });

  it('a person on two cards at once: A puts Anna on one card, B on another the same day', async () => {
    const x = await collectionWith('SO-X', [{ stage_id: id.laser, start_date: day(1), end_date: day(1) }]);
    const y = await collectionWith('SO-Y', [{ stage_id: id.laser, start_date: day(1), end_date: day(1) }]);
    await runSync(a);
    await runSync(b);
    await ok(a, 'PUT', cardPath(x.collection, x.cards[0]!), { resources: [{ id: id.anna }] });
    await ok(b, 'PUT', cardPath(y.collection, y.cards[0]!), { resources: [{ id: id.anna }] });
    await runSync(a);
    await runSync(b);
    await runSync(a);
    const pair = [x.cards[0]!, y.cards[0]!].sort();
    for (const [here, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const found = await finding(here, `double_booking:${id.anna}:${pair[0]}:${pair[1]}`);
      expect(found, here.name).toMatchObject({
        kind: 'double_booking',
        date: day(1),
        record: { resource: 'resource', id: id.anna, name: 'Anna' },
        details: { start: day(1), end: day(1) },
      });
      expect([found.details.card, found.details.other_card].sort()).toEqual(['SO-X · Laser', 'SO-Y · Laser']);
      expect(found.changes.length).toBeGreaterThan(0);
      expect(found.changes.map((c: any) => c.changed_by)).toEqual(found.changes.map(() => nodeOf(other)));
    }
  });

  it('a person on a card with work and on one with none: the card without minutes counts for its people', async () => {
    // The check reads the cards with their minutes; a card with none is read apart, here and pulled.
    const w = await collectionWith('SO-W', [
      { stage_id: id.laser, start_date: day(6), end_date: day(6), activities: [{ id: id.cut, time: 60 }] },
    ]);
    const v = await collectionWith('SO-V', [{ stage_id: id.laser, start_date: day(6), end_date: day(6) }]);
    await runSync(a);
    await runSync(b);
    await ok(a, 'PUT', cardPath(w.collection, w.cards[0]!), { resources: [{ id: id.anna }] });
    await ok(b, 'PUT', cardPath(v.collection, v.cards[0]!), { resources: [{ id: id.anna }] });
    await runSync(a);
    await runSync(b);
    await runSync(a);
    const pair = [w.cards[0]!, v.cards[0]!].sort();
    for (const [here, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const found = await finding(here, `double_booking:${id.anna}:${pair[0]}:${pair[1]}`);
      expect(found, here.name).toMatchObject({ kind: 'double_booking', date: day(6), details: { start: day(6), end: day(6) } });
      expect([found.details.card, found.details.other_card].sort()).toEqual(['SO-V · Laser', 'SO-W · Laser']);
      // The other computer's change is its card's new resource link.
      expect(found.changes).toContainEqual(expect.objectContaining({ resource: 'card_resource', changed_by: nodeOf(other) }));
      expect(found.changes.map((c: any) => c.changed_by)).toEqual(found.changes.map(() => nodeOf(other)));
    }
  });
});
