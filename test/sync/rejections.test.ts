/**
 * Rejected mutations (issue 8, docs/architecture.md "Sync"): whatever the remote refuses ends in the
 * client's conflict list with its data (`mutation.fields`), the error (the 422/409 body) and
 * the remote's version; the queue behind it keeps flowing; the user can retry (after editing)
 * or discard (keeping the remote's version); the replicas still converge.
 *
 * Cases: a forbidden collection status change, a duplicate external_ref created offline on two
 * clients (retried after an edit, or discarded), an edit and a delete of a time entry that was
 * approved (locked) meanwhile, and the clocks a replica keeps after taking the remote's version.
 */
import { describe, expect, it } from 'vitest';
import {
  expectConverged,
  goOffline,
  goOnline,
  ok,
  runSync,
  syncUntilQuiet,
  useTwoClientCluster,
  type ClientNode,
  type RemoteNode,
} from '../helpers/sync-cluster.js';
import {
  conflicts,
  createCollection,
  createPlanningBase,
  createProject,
  find,
  nextMillisecond,
  plan,
  update,
  type PlanningBase,
} from '../helpers/sync-data.js';

let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

const settle = () => syncUntilQuiet([a, b], remote);

/** The records of a resource as the three replicas have them. */
async function expectSame(path: string): Promise<void> {
  const [ra, rb, rr] = await Promise.all([a, b, remote].map((n) => find(n, path)));
  expect(ra, `A's ${path} equals the remote's`).toEqual(rr);
  expect(rb, `B's ${path} equals the remote's`).toEqual(rr);
}

useTwoClientCluster({}, async (nodes) => {
  ({ a, b, remote } = nodes);
  base = await createPlanningBase(a, 'Rejections');
  await settle();
});

describe('rejected mutations', () => {
  it("a forbidden collection status change ends in the conflict list; the queue behind it syncs; discard keeps the remote's version", async () => {
    const collection = await createCollection(a, base, 'C-status');
    const project = await createProject(a, 'P-after-status');
    await settle();

    // A is offline; B plans the collection and syncs first …
    await goOffline(a);
    const cards = await plan(b, base, collection.id);
    expect(cards.length).toBeGreaterThan(0);
    await runSync(b);
    // … then A, which has not seen the plan, ignores it (allowed on A: not planned there).
    // (An ignore made before B's plan would simply lose by its clock, without a conflict.)
    await update(a, `/v1/collection/${collection.id}`, { status: 'ignored' });
    // Queued behind the refused change: an unrelated edit.
    await update(a, `/v1/project/${project.id}`, { name: 'P-after-status (renamed on A)' });
    await goOnline(a);
    const summary = await runSync(a);
    expect(summary).toMatchObject({ rejected: 1, error: null });
    expect(summary.pushed).toBeGreaterThan(0);

    const list = await conflicts(a);
    expect(list).toHaveLength(1);
    const conflict = list[0];
    expect(conflict.mutation).toMatchObject({ resource: 'collection', id: collection.id, op: 'update', fields: { status: 'ignored' } });
    expect(conflict.error).toMatchObject({
      reference: expect.any(String),
      errors: [expect.objectContaining({ code: 10422, field: 'status', description: expect.stringMatching(/status/) })],
    });
    expect(conflict.server_record).toMatchObject({ id: collection.id, status: 'planned', deleted_at: null });
    expect(conflict.resolved_at).toBeNull();
    // Copy the data out: one conflict with its data, the reason, the remote's and the local version.
    const detail = await ok(a, 'GET', `/v1/sync/conflict/${conflict.id}`, undefined, 200);
    expect(detail).toMatchObject({
      id: conflict.id,
      mutation: conflict.mutation,
      error: conflict.error,
      local_record: { id: collection.id, status: 'planned' },
    });
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
    for (const node of [a, b, remote])
      expect(await find(node, `/v1/collection/${collection.id}`), node.name).toMatchObject({ status: 'planned' });
    await expectSame(`/v1/collection/${collection.id}`);
    await expectConverged([a, b], remote);
  });

  it('a duplicate external_ref created offline on two clients: conflict with its data, the queue flows, retry with an edit arrives', async () => {
    await goOffline(a, b);
    const fromA = await createProject(a, 'X from A', { external_ref: 'X' });
    const fromB = await createProject(b, 'X from B', { external_ref: 'X', description: 'typed on B' });
    const behind = await createProject(b, 'P-behind-duplicate');
    // A reaches the remote first.
    await goOnline(a);
    await runSync(a);
    await goOnline(b);
    const summary = await runSync(b);
    expect(summary).toMatchObject({ rejected: 1, error: null });

    const list = (await conflicts(b)).filter((c) => c.mutation.id === fromB.id);
    expect(list).toHaveLength(1);
    const conflict = list[0];
    expect(conflict.mutation).toMatchObject({
      resource: 'project',
      op: 'create',
      fields: { name: 'X from B', external_ref: 'X', description: 'typed on B' },
    });
    expect(conflict.error).toMatchObject({
      errors: [expect.objectContaining({ code: 10423, field: 'external_ref', description: 'Duplicate entry' })],
    });
    // The remote has no record with this id (it refused to create it).
    expect(conflict.server_record).toBeNull();

    // The queue behind it kept flowing; A's project is the one the remote kept.
    expect(await find(remote, `/v1/project/${behind.id}`)).toMatchObject({ name: 'P-behind-duplicate' });
    expect(await find(remote, `/v1/project/${fromA.id}`)).toMatchObject({ external_ref: 'X' });
    expect(await find(remote, `/v1/project/${fromB.id}`)).toBeUndefined();
    await settle();
    await expectConverged([a, b], remote);

    // Retry after editing the external_ref: it arrives, with the data typed on B.
    const retried = await ok(b, 'POST', `/v1/sync/conflict/${conflict.id}/retry`, { external_ref: 'Y' }, 200);
    expect(retried).toMatchObject({ resolution: 'retried' });
    await settle();
    for (const node of [a, b, remote]) {
      expect(await find(node, `/v1/project/${fromB.id}`), node.name).toMatchObject({
        name: 'X from B',
        external_ref: 'Y',
        description: 'typed on B',
      });
    }
    expect(await conflicts(b)).toEqual([]);
    await expectConverged([a, b], remote);
  });

  it("a duplicate external_ref discarded: the remote's record stays, the replicas converge", async () => {
    await goOffline(a, b);
    const fromA = await createProject(a, 'Z from A', { external_ref: 'Z' });
    const fromB = await createProject(b, 'Z from B', { external_ref: 'Z' });
    await goOnline(a);
    await runSync(a);
    await goOnline(b);
    await runSync(b);
    const conflict = (await conflicts(b)).find((c) => c.mutation.id === fromB.id);
    expect(conflict).toBeDefined();
    await ok(b, 'POST', `/v1/sync/conflict/${conflict.id}/discard`, undefined, 200);
    await settle();
    for (const node of [a, b, remote]) {
      expect(await find(node, `/v1/project/${fromA.id}`), node.name).toMatchObject({ name: 'Z from A', external_ref: 'Z' });
      expect(await find(node, `/v1/project/${fromB.id}`), node.name).toBeUndefined();
    }
    await expectConverged([a, b], remote);
  });

  it('an edit and a delete of a time entry that was approved (locked) meanwhile end in the conflict list; the queue behind them syncs', async () => {
    const collection = await createCollection(a, base, 'C-time');
    const [card] = await plan(a, base, collection.id);
    const entry = await ok(a, 'POST', '/v1/time_tracking', {
      card_id: card.id,
      start: '2026-12-07T08:00:00Z',
      end: '2026-12-07T10:30:00Z',
      note: 'first',
    });
    const other = await ok(a, 'POST', '/v1/time_tracking', {
      card_id: card.id,
      start: '2026-12-08T08:00:00Z',
      end: '2026-12-08T09:00:00Z',
    });
    const project = await createProject(a, 'P-after-time');
    await settle();

    await goOffline(a);
    await update(a, `/v1/time_tracking/${entry.id}`, { note: 'edited offline on A' });
    await ok(a, 'DELETE', `/v1/time_tracking/${other.id}`, undefined, 204);
    await update(a, `/v1/project/${project.id}`, { name: 'P-after-time (renamed on A)' });
    // Meanwhile a planner approves both entries on B, which locks them.
    await update(b, `/v1/time_tracking/${entry.id}`, { status: 'approved' });
    await update(b, `/v1/time_tracking/${other.id}`, { status: 'approved' });
    await runSync(b);
    await goOnline(a);
    const summary = await runSync(a);
    expect(summary).toMatchObject({ rejected: 2, error: null });

    const list = (await conflicts(a)).filter((c) => c.mutation.resource === 'time_tracking');
    const edit = list.find((c) => c.mutation.id === entry.id);
    expect(edit.mutation).toMatchObject({ op: 'update', fields: { note: 'edited offline on A' } });
    expect(edit.error).toMatchObject({
      errors: [expect.objectContaining({ code: 10422, field: 'status', description: expect.stringMatching(/locked/) })],
    });
    expect(edit.server_record).toMatchObject({ id: entry.id, status: 'approved', locked: true, note: 'first' });
    const removal = list.find((c) => c.mutation.id === other.id);
    expect(removal.mutation).toMatchObject({ op: 'delete' });
    expect(removal.error).toMatchObject({
      errors: [expect.objectContaining({ code: 10422, description: expect.stringMatching(/locked/) })],
    });
    expect(removal.server_record).toMatchObject({ id: other.id, locked: true, deleted_at: null });

    // The queue behind them flowed; A shows the remote's (locked) versions, the deleted one back.
    expect(await find(remote, `/v1/project/${project.id}`)).toMatchObject({ name: 'P-after-time (renamed on A)' });
    expect(await find(a, `/v1/time_tracking/${entry.id}`)).toMatchObject({ note: 'first', locked: true });
    expect(await find(a, `/v1/time_tracking/${other.id}`)).toMatchObject({ locked: true });
    await settle();
    await expectSame(`/v1/time_tracking/${entry.id}`);
    await expectSame(`/v1/time_tracking/${other.id}`);
    for (const c of list) await ok(a, 'POST', `/v1/sync/conflict/${c.id}/discard`, undefined, 200);
    await expectConverged([a, b], remote);
  });

  // Last two: when they fail, the records they leave different would fail the full comparisons above.
  it('a refused change followed by an accepted edit of the same record in one push: the replica keeps the accepted edit', async () => {
    const mine = await createProject(a, 'P-mine', { external_ref: 'MINE' });
    await settle();
    await goOffline(a);
    const taken = await createProject(b, 'P-taken', { external_ref: 'TAKEN' });
    await runSync(b);
    // Refused: the external_ref is another project's now. Then an ordinary rename of the same project.
    await update(a, `/v1/project/${mine.id}`, { external_ref: 'TAKEN' });
    await update(a, `/v1/project/${mine.id}`, { name: 'P-mine (renamed after)', description: 'typed after the refused change' });
    await goOnline(a);
    expect(await runSync(a)).toMatchObject({ rejected: 1, error: null });
    expect(await find(remote, `/v1/project/${mine.id}`)).toMatchObject({ name: 'P-mine (renamed after)', external_ref: 'MINE' });
    await settle();
    expect(await find(a, `/v1/project/${mine.id}`), 'A keeps its accepted edit').toMatchObject({
      name: 'P-mine (renamed after)',
      description: 'typed after the refused change',
      external_ref: 'MINE',
    });
    await expectSame(`/v1/project/${mine.id}`);
    await expectSame(`/v1/project/${taken.id}`);
  });

  it("after a refusal, the replica takes later remote changes of that record (its clocks are the remote's)", async () => {
    // B plans the collection and syncs; then, offline, B moves it back to the backlog. Later,
    // A (which never saw the plan) ignores it offline: the remote refuses that (it is planned
    // there) and A takes the remote's version. When B's older backlog move arrives, the
    // remote applies it — and A must follow, although A's own refused edit was newer.
    const collection = await createCollection(a, base, 'C-clock');
    await settle();
    await goOffline(a);
    await plan(b, base, collection.id);
    await runSync(b);
    await goOffline(b);
    await ok(b, 'POST', `/v1/collection/${collection.id}/backlog`, undefined, 200);
    await nextMillisecond();
    await update(a, `/v1/collection/${collection.id}`, { status: 'ignored' });
    await goOnline(a);
    expect(await runSync(a)).toMatchObject({ rejected: 1 });
    expect(await find(a, `/v1/collection/${collection.id}`)).toMatchObject({ status: 'planned' });
    await goOnline(b);
    await settle();
    expect(await find(remote, `/v1/collection/${collection.id}`)).toMatchObject({ status: 'not_planned' });
    await expectSame(`/v1/collection/${collection.id}`);
  });
});
