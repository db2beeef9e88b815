/**
 * Rejected mutations (issue 8, ARCHITECTURE.md §5): whatever the remote refuses ends in the
 * client's conflict list with its data (`mutation.fields`), the error (the 422/409 body) and
 * the remote's version; the queue behind it keeps flowing; the user can retry (after editing)
 * or discard (keeping the remote's version); the replicas still converge.
 *
 * Not here yet: an edit to a locked time entry — time tracking does not exist on this branch;
 * add it beside these when it lands (see the todo below).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dump, ok, runSync, startCluster, syncUntilQuiet, type ClientNode, type Cluster, type RemoteNode } from '../helpers/sync-cluster.js';
import { conflicts, createCollection, createPlanningBase, createProject, find, plan, update, type PlanningBase } from '../helpers/sync-data.js';

let cluster: Cluster;
let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

const offline = async (...clients: ClientNode[]) => {
  await Promise.all(clients.map((c) => c.proxy!.set('refuse')));
};
const online = async (...clients: ClientNode[]) => {
  await Promise.all(clients.map((c) => c.proxy!.set('pass')));
};
const settle = () => syncUntilQuiet([a, b], remote);

/** The records of a resource as the three replicas have them. */
async function expectSame(path: string): Promise<void> {
  const [ra, rb, rr] = await Promise.all([a, b, remote].map((n) => find(n, path)));
  expect(ra, `A's ${path} equals the remote's`).toEqual(rr);
  expect(rb, `B's ${path} equals the remote's`).toEqual(rr);
}

async function expectConverged(): Promise<void> {
  const [da, db, dr] = await Promise.all([dump(a), dump(b), dump(remote)]);
  expect(da, 'client A equals the remote').toEqual(dr);
  expect(db, 'client B equals the remote').toEqual(dr);
}

beforeAll(async () => {
  cluster = await startCluster({ clients: 2 });
  [a, b] = cluster.clients as [ClientNode, ClientNode];
  remote = cluster.remote;
  base = await createPlanningBase(a, 'Rejections');
  await settle();
});

afterAll(async () => {
  await cluster?.stop();
});

describe('rejected mutations', () => {
  it('a forbidden collection status change ends in the conflict list; the queue behind it syncs; discard keeps the remote\'s version', async () => {
    const collection = await createCollection(a, base, 'C-status');
    const project = await createProject(a, 'P-after-status');
    await settle();

    // A is offline; B plans the collection and syncs first …
    await offline(a);
    const cards = await plan(b, base, collection.id);
    expect(cards.length).toBeGreaterThan(0);
    await runSync(b);
    // … then A, which has not seen the plan, ignores it (allowed on A: not planned there).
    // (An ignore made before B's plan would simply lose by its clock, without a conflict.)
    await update(a, `/v1/collection/${collection.id}`, { status: 'ignored' });
    // Queued behind the refused change: an unrelated edit.
    await update(a, `/v1/project/${project.id}`, { name: 'P-after-status (renamed on A)' });
    await online(a);
    const summary = await runSync(a);
    expect(summary).toMatchObject({ rejected: 1, error: null });
    expect(summary.pushed).toBeGreaterThan(0);

    const list = await conflicts(a);
    expect(list).toHaveLength(1);
    const conflict = list[0];
    expect(conflict.mutation).toMatchObject({ resource: 'collection', id: collection.id, op: 'update', fields: { status: 'ignored' } });
    expect(conflict.error).toMatchObject({ reference: expect.any(String), errors: [expect.objectContaining({ code: 10422, field: 'status', description: expect.stringMatching(/status/) })] });
    expect(conflict.server_record).toMatchObject({ id: collection.id, status: 'planned', deleted_at: null });
    expect(conflict.resolved_at).toBeNull();
    // Copy the data out: one conflict with its data, the reason, the remote's and the local version.
    const detail = await ok(a, 'GET', `/v1/sync/conflict/${conflict.id}`, undefined, 200);
    expect(detail).toMatchObject({ id: conflict.id, mutation: conflict.mutation, error: conflict.error, local_record: { id: collection.id, status: 'planned' } });
    expect((await ok(a, 'GET', '/v1/sync/status')).conflicts).toBe(1);

    // The queue behind it kept flowing.
    expect(await find(remote, `/v1/project/${project.id}`)).toMatchObject({ name: 'P-after-status (renamed on A)' });
    // A shows the remote's version (planned, with B's cards) while the user decides.
    expect(await find(a, `/v1/collection/${collection.id}`)).toMatchObject({ status: 'planned' });

    const discarded = await ok(a, 'POST', `/v1/sync/conflict/${conflict.id}/discard`, undefined, 200);
    expect(discarded).toMatchObject({ id: conflict.id, resolution: 'discarded', resolved_at: expect.any(String) });
    expect(await conflicts(a)).toEqual([]);
    expect((await ok(a, 'GET', '/v1/sync/conflict?all=true')).data.map((c: any) => c.id)).toContain(conflict.id);
    await settle();
    for (const node of [a, b, remote]) expect(await find(node, `/v1/collection/${collection.id}`), node.name).toMatchObject({ status: 'planned' });
    await expectSame(`/v1/collection/${collection.id}`);
    await expectConverged();
  });

  it('a duplicate external_ref created offline on two clients: conflict with its data, the queue flows, retry with an edit arrives', async () => {
    await offline(a, b);
    const fromA = await createProject(a, 'X from A', { external_ref: 'X' });
    const fromB = await createProject(b, 'X from B', { external_ref: 'X', description: 'typed on B' });
    const behind = await createProject(b, 'P-behind-duplicate');
    await online(a, b);
    await runSync(a);
    const summary = await runSync(b);
    expect(summary).toMatchObject({ rejected: 1, error: null });

    const list = (await conflicts(b)).filter((c) => c.mutation.id === fromB.id);
    expect(list).toHaveLength(1);
    const conflict = list[0];
    expect(conflict.mutation).toMatchObject({ resource: 'project', op: 'create', fields: { name: 'X from B', external_ref: 'X', description: 'typed on B' } });
    expect(conflict.error).toMatchObject({ errors: [expect.objectContaining({ code: 10423, field: 'external_ref', description: 'Duplicate entry' })] });
    // The remote has no record with this id (it refused to create it).
    expect(conflict.server_record).toBeNull();

    // The queue behind it kept flowing; A's project is the one the remote kept.
    expect(await find(remote, `/v1/project/${behind.id}`)).toMatchObject({ name: 'P-behind-duplicate' });
    expect(await find(remote, `/v1/project/${fromA.id}`)).toMatchObject({ external_ref: 'X' });
    expect(await find(remote, `/v1/project/${fromB.id}`)).toBeUndefined();
    await settle();
    await expectConverged();

    // Retry after editing the external_ref: it arrives, with the data typed on B.
    const retried = await ok(b, 'POST', `/v1/sync/conflict/${conflict.id}/retry`, { external_ref: 'Y' }, 200);
    expect(retried).toMatchObject({ resolution: 'retried' });
    await settle();
    for (const node of [a, b, remote]) {
      expect(await find(node, `/v1/project/${fromB.id}`), node.name).toMatchObject({ name: 'X from B', external_ref: 'Y', description: 'typed on B' });
    }
    expect(await conflicts(b)).toEqual([]);
    await expectConverged();
  });

  it('a duplicate external_ref discarded: the remote\'s record stays, the replicas converge', async () => {
    await offline(a, b);
    const fromA = await createProject(a, 'Z from A', { external_ref: 'Z' });
    const fromB = await createProject(b, 'Z from B', { external_ref: 'Z' });
    await online(a, b);
    await runSync(a);
    await runSync(b);
    const conflict = (await conflicts(b)).find((c) => c.mutation.id === fromB.id);
    expect(conflict).toBeDefined();
    await ok(b, 'POST', `/v1/sync/conflict/${conflict.id}/discard`, undefined, 200);
    await settle();
    for (const node of [a, b, remote]) {
      expect(await find(node, `/v1/project/${fromA.id}`), node.name).toMatchObject({ name: 'Z from A', external_ref: 'Z' });
      expect(await find(node, `/v1/project/${fromB.id}`), node.name).toBeUndefined();
    }
    await expectConverged();
  });

  it('after a refusal, the replica takes later remote changes of that record (its clocks are the remote\'s)', async () => {
    // B plans the collection and syncs; then, offline, B moves it back to the backlog. Later,
    // A (which never saw the plan) ignores it offline: the remote refuses that (it is planned
    // there) and A takes the remote's version. When B's older backlog move arrives, the
    // remote applies it — and A must follow, although A's own refused edit was newer.
    const collection = await createCollection(a, base, 'C-clock');
    await settle();
    await offline(a);
    await plan(b, base, collection.id);
    await runSync(b);
    await offline(b);
    await ok(b, 'POST', `/v1/collection/${collection.id}/backlog`, undefined, 200);
    await update(a, `/v1/collection/${collection.id}`, { status: 'ignored' });
    await online(a);
    expect(await runSync(a)).toMatchObject({ rejected: 1 });
    expect(await find(a, `/v1/collection/${collection.id}`)).toMatchObject({ status: 'planned' });
    await online(b);
    await settle();
    expect(await find(remote, `/v1/collection/${collection.id}`)).toMatchObject({ status: 'not_planned' });
    await expectSame(`/v1/collection/${collection.id}`);
  });

  it.todo('an edit to a locked time entry ends in the conflict list (when time tracking exists)');
});
