/**
 * Convergence (issue 8, docs/architecture.md "Sync"): two client replicas and a remote, each a separate
 * server process, the clients behind fault proxies that take them offline. Work done offline on
 * both sides — different fields of the same records, the same fields, create/delete/edit races,
 * planning on one side while cards move on the other, new collections and orders on both — ends
 * identical on all three after they reconnect, and everything created arrives exactly once.
 */
import { describe, expect, it } from 'vitest';
import {
  countBy,
  expectConverged,
  goOffline,
  goOnline,
  listAll,
  ok,
  runSync,
  syncUntilQuiet,
  useTwoClientCluster,
  type ClientNode,
  type RemoteNode,
} from '../helpers/sync-cluster.js';
import {
  cardsOf,
  conflicts,
  createCollection,
  createOrder,
  createPlanningBase,
  createProject,
  find,
  moveCard,
  nextMillisecond,
  nextSecond,
  plan,
  remove,
  update,
  type PlanningBase,
} from '../helpers/sync-data.js';

let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

/** Both back online at once (their own timers may push before an explicit run: see goOnline). */
const online = async (...clients: ClientNode[]) => {
  await Promise.all(clients.map((c) => c.proxy!.set('pass')));
};
const settle = () => syncUntilQuiet([a, b], remote);

/** Conflicts other than the refused creates of order collections (asserted on their own below). */
async function otherConflicts(client: ClientNode): Promise<any[]> {
  return (await conflicts(client)).filter(
    (c) => !(c.mutation.resource === 'collection' && c.mutation.op === 'create' && c.mutation.fields?.source_type === 'order'),
  );
}

useTwoClientCluster({}, async (nodes) => {
  ({ a, b, remote } = nodes);
  base = await createPlanningBase(a, 'Main');
  await settle();
});

describe('two clients and a remote, offline on both sides', () => {
  it('converge to identical state: different fields, same fields, planning vs card moves, new records exactly once', async () => {
    // ---- shared starting point, made online on A and synced to B
    const pDiff = await createProject(a, 'P-diff', { description: 'original', code: 'C-0' });
    const pSame = await createProject(a, 'P-same');
    const cEdit = await createCollection(a, base, 'C-edit');
    const cPlan = await createCollection(a, base, 'C-plan', 900);
    const cMoved = await createCollection(a, base, 'C-moved', 1500);
    const movedCards = await plan(a, base, cMoved.id);
    expect(movedCards.length).toBeGreaterThan(0);
    const oEdit = await createOrder(a, 'O-edit', [
      { quantity: 1, description: 'row 1' },
      { quantity: 2, description: 'row 2' },
    ]);
    await settle();
    expect(await find(b, `/v1/project/${pDiff.id}`)).toMatchObject({ name: 'P-diff' });
    expect(await cardsOf(b, cMoved.id)).toHaveLength(movedCards.length);

    await goOffline(a, b);

    // ---- different fields of the same records
    await update(a, `/v1/project/${pDiff.id}`, { name: 'P-diff (A)' });
    await update(b, `/v1/project/${pDiff.id}`, { description: 'from B', code: 'B-17' });
    await update(a, `/v1/collection/${cEdit.id}`, { description: 'described on A' });
    await update(b, `/v1/collection/${cEdit.id}`, { due_date: '2027-01-15', cover_color_hex: '#abc' });
    await update(a, `/v1/order/${oEdit.id}`, { note: 'note from A' });
    const rowB = oEdit.order_rows.find((r: any) => r.description === 'row 2');
    await update(b, `/v1/order/${oEdit.id}/row/${rowB.id}`, { quantity: 5 });

    // ---- the same fields: the later edit wins, whichever replica syncs first
    await update(a, `/v1/project/${pSame.id}`, { name: 'P-same by A (earlier)' });
    await nextMillisecond();
    await update(b, `/v1/project/${pSame.id}`, { name: 'P-same by B (later)' });
    await update(b, `/v1/collection/${cEdit.id}`, { name: 'C-edit by B (earlier)' });
    await nextMillisecond();
    await update(a, `/v1/collection/${cEdit.id}`, { name: 'C-edit by A (later)' });

    // ---- planning on A while B moves the cards of another planned collection
    const plannedCards = await plan(a, base, cPlan.id);
    expect(plannedCards.length).toBeGreaterThan(0);
    for (const card of movedCards) {
      await moveCard(b, card, { stage_id: base.stages[1], start_date: '2026-12-14', end_date: '2026-12-18' });
    }

    // ---- new records on both sides
    for (const side of [a, b]) {
      const tag = side === a ? 'A' : 'B';
      for (let i = 1; i <= 3; i++) await createCollection(side, base, `${tag}-new-${i}`, 60 * i);
      await createOrder(side, `${tag}-ord-1`, [{ quantity: 1 }, { quantity: 2 }]);
      await createOrder(side, `${tag}-ord-2`, [{ quantity: 3 }]);
      await createProject(side, `${tag}-proj`);
    }
    expect((await ok(a, 'GET', '/v1/sync/status')).pending).toBeGreaterThan(0);
    expect((await ok(b, 'GET', '/v1/sync/status')).pending).toBeGreaterThan(0);

    // ---- back online: in whatever order they push, the result is the same
    await online(a, b);
    await settle();

    await expectConverged([a, b], remote);
    expect(await otherConflicts(a)).toEqual([]);
    expect(await otherConflicts(b)).toEqual([]);

    for (const node of [a, b, remote]) {
      expect(await find(node, `/v1/project/${pDiff.id}`), node.name).toMatchObject({
        name: 'P-diff (A)',
        description: 'from B',
        code: 'B-17',
      });
      expect(await find(node, `/v1/project/${pSame.id}`), node.name).toMatchObject({ name: 'P-same by B (later)' });
      expect(await find(node, `/v1/collection/${cEdit.id}`), node.name).toMatchObject({
        name: 'C-edit by A (later)',
        description: 'described on A',
        due_date: '2027-01-15',
        cover_color_hex: '#abc',
      });
      expect(await find(node, `/v1/order/${oEdit.id}`), node.name).toMatchObject({ note: 'note from A' });
      expect(await find(node, `/v1/order/${oEdit.id}/row/${rowB.id}`), node.name).toMatchObject({ quantity: 5 });
      // A's planning arrived as its cards, B's moves as theirs.
      expect((await cardsOf(node, cPlan.id)).map((c) => c.id).sort(), node.name).toEqual(plannedCards.map((c) => c.id).sort());
      expect(await find(node, `/v1/collection/${cPlan.id}`), node.name).toMatchObject({ status: 'planned' });
      for (const card of await cardsOf(node, cMoved.id)) {
        expect(card, node.name).toMatchObject({ stage_id: base.stages[1], start_date: '2026-12-14', end_date: '2026-12-18' });
      }
      // Exactly once.
      const collections = await countBy(node, '/v1/collection');
      const orders = await countBy(node, '/v1/order', 'code');
      const projects = await countBy(node, '/v1/project');
      for (const tag of ['A', 'B']) {
        for (let i = 1; i <= 3; i++) expect(collections[`${tag}-new-${i}`], `${node.name}: ${tag}-new-${i}`).toBe(1);
        expect(orders[`${tag}-ord-1`], node.name).toBe(1);
        expect(orders[`${tag}-ord-2`], node.name).toBe(1);
        expect(projects[`${tag}-proj`], node.name).toBe(1);
      }
      const ord1 = (await listAll(node, '/v1/order')).find((o) => o.code === 'A-ord-1');
      expect(await listAll(node, `/v1/order/${ord1.id}/row`), node.name).toHaveLength(2);
    }
  });

  it('a delete beats a concurrent edit on all three, and the record stays restorable', async () => {
    const pRace = await createProject(a, 'P-race');
    const pRace2 = await createProject(a, 'P-race2');
    const oRace = await createOrder(a, 'O-race', [{ quantity: 1 }]);
    const cRace = await createCollection(a, base, 'C-race');
    const cRaceCards = await plan(a, base, cRace.id);
    await settle();

    await goOffline(a, b);
    // A deletes what B edits (A syncs first: B's edits arrive after the delete) …
    await remove(a, `/v1/project/${pRace.id}`);
    await remove(a, `/v1/order/${oRace.id}`);
    await remove(a, `/v1/collection/${cRace.id}`);
    await update(b, `/v1/project/${pRace.id}`, { name: 'P-race edited by B' });
    await update(b, `/v1/order/${oRace.id}`, { note: 'B was here' });
    await ok(b, 'POST', `/v1/order/${oRace.id}/row`, { quantity: 9, description: 'added by B' });
    await update(b, `/v1/collection/${cRace.id}`, { description: 'B describes it' });
    await moveCard(b, cRaceCards[0], { stage_id: base.stages[2] });
    // … and B deletes what A edits (A's edit arrives first, then the delete).
    await update(a, `/v1/project/${pRace2.id}`, { name: 'P-race2 edited by A' });
    await remove(b, `/v1/project/${pRace2.id}`);

    await goOnline(a);
    await runSync(a);
    await goOnline(b);
    await settle();
    await expectConverged([a, b], remote);

    for (const node of [a, b, remote]) {
      for (const path of [`/v1/project/${pRace.id}`, `/v1/project/${pRace2.id}`, `/v1/order/${oRace.id}`, `/v1/collection/${cRace.id}`]) {
        expect(await find(node, path), `${node.name}: ${path} is deleted`).toBeUndefined();
      }
      expect(await cardsOf(node, cRace.id).catch(() => []), node.name).toEqual([]);
      const trash = (await ok(node, 'GET', '/v1/trash/project?limit=1000')).data.map((r: any) => r.id);
      expect(trash, node.name).toEqual(expect.arrayContaining([pRace.id, pRace2.id]));
    }

    // B's edits of deleted records wait in its conflict list, with their data, the error and
    // the remote's (deleted) version.
    const refused = (await otherConflicts(b)).filter((c) => c.mutation.id === pRace.id);
    expect(refused).toHaveLength(1);
    expect(refused[0].mutation).toMatchObject({ resource: 'project', op: 'update', fields: { name: 'P-race edited by B' } });
    expect(refused[0].error.errors[0]).toMatchObject({ code: expect.any(Number), description: expect.stringMatching(/deleted/) });
    expect(refused[0].server_record).toMatchObject({ id: pRace.id, name: 'P-race', deleted_at: expect.any(String) });

    // Restore on B: it comes back everywhere; then B's refused edit can be retried.
    await ok(b, 'POST', `/v1/trash/project/${pRace.id}/restore`, undefined, 200);
    await settle();
    for (const node of [a, b, remote]) expect(await find(node, `/v1/project/${pRace.id}`), node.name).toMatchObject({ name: 'P-race' });
    await ok(b, 'POST', `/v1/sync/conflict/${refused[0].id}/retry`, undefined, 200);
    await settle();
    for (const node of [a, b, remote])
      expect(await find(node, `/v1/project/${pRace.id}`), node.name).toMatchObject({ name: 'P-race edited by B' });
    await expectConverged([a, b], remote);
  });

  it('an order created offline arrives with its collection, without a conflict', async () => {
    await goOffline(a);
    const order = await createOrder(a, 'O-with-collection', [{ quantity: 2 }]);
    expect(order.collection_id).toEqual(expect.any(String));
    await online(a);
    await settle();
    const refused = (await conflicts(a)).filter((c) => c.mutation.id === order.collection_id);
    expect(
      refused.map((c) => c.error),
      "the remote refused the order's collection",
    ).toEqual([]);
    for (const node of [a, b, remote]) {
      expect(await find(node, `/v1/order/${order.id}`), node.name).toMatchObject({ collection_id: order.collection_id });
      expect(await find(node, `/v1/collection/${order.collection_id}`), `${node.name}: the order's collection`).toMatchObject({
        name: 'O-with-collection',
        source_type: 'order',
      });
    }
  });

  it('a record deleted on one replica and restored on another is identical everywhere (updated_at too)', async () => {
    const project = await createProject(a, 'P-restore');
    await settle();
    // The delete happens in a later second than the create, so its timestamps differ.
    await nextSecond();
    await goOffline(a);
    await remove(a, `/v1/project/${project.id}`);
    await nextSecond();
    await online(a);
    await settle();
    await ok(b, 'POST', `/v1/trash/project/${project.id}/restore`, undefined, 200);
    await settle();
    const records = await Promise.all([a, b, remote].map((n) => find(n, `/v1/project/${project.id}`)));
    expect(records[2]).toMatchObject({ name: 'P-restore' });
    expect.soft(records[0], 'A equals the remote').toEqual(records[2]);
    expect.soft(records[1], 'B equals the remote').toEqual(records[2]);
  });

  it('deleted records (the trash) are identical on all three', async () => {
    const project = await createProject(a, 'P-trash');
    await settle();
    await nextSecond();
    await goOffline(a);
    await remove(a, `/v1/project/${project.id}`);
    await nextSecond();
    await online(a);
    await settle();
    const trash = await Promise.all(
      [a, b, remote].map(async (n) => (await ok(n, 'GET', '/v1/trash/project?limit=1000')).data.find((r: any) => r.id === project.id)),
    );
    expect(trash[2]).toBeDefined();
    expect.soft(trash[0], 'A equals the remote').toEqual(trash[2]);
    expect.soft(trash[1], 'B equals the remote').toEqual(trash[2]);
  });
});
