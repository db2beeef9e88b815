/**
 * Resync after 410 (issue 8): the remote keeps only its newest 5 change-log entries
 * (`--sync-retention 5`). A client offline while more than that happens elsewhere gets 410 on
 * its next pull and downloads everything again from the snapshot (`resynced: true`). Its
 * offline work still arrives, deletes made elsewhere reach it as deletes, and afterwards it is
 * identical to a fresh client and to the remote.
 */
import { describe, expect, it } from 'vitest';
import {
  call,
  countBy,
  dump,
  goOnline,
  ok,
  runSync,
  syncUntilQuiet,
  useTwoClientCluster,
  type ClientNode,
  type Cluster,
  type RemoteNode,
} from '../helpers/sync-cluster.js';
import {
  conflicts,
  createCollection,
  createPlanningBase,
  createProject,
  find,
  plan,
  remove,
  update,
  type PlanningBase,
} from '../helpers/sync-data.js';

let cluster: Cluster;
let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

useTwoClientCluster({ remoteArgs: ['--sync-retention', '5'] }, async (nodes) => {
  ({ a, b, remote, cluster } = nodes);
  base = await createPlanningBase(b, 'Resync');
  await syncUntilQuiet([a, b], remote);
});

describe('a client whose cursor the remote no longer keeps', () => {
  it('gets 410, resyncs from the snapshot, keeps its offline work, and equals a fresh client and the remote', async () => {
    const shared = await createProject(b, 'R-shared', { description: 'before' });
    const doomed = await createProject(b, 'R-doomed');
    const collection = await createCollection(b, base, 'R-collection');
    await syncUntilQuiet([a, b], remote);
    expect(await find(a, `/v1/project/${doomed.id}`)).toMatchObject({ name: 'R-doomed' });

    await a.proxy!.set('refuse');
    // Offline work on A.
    const offlineProject = await createProject(a, 'R-made-offline-on-A');
    await update(a, `/v1/project/${shared.id}`, { description: 'edited offline on A' });

    // Far more than 5 changes elsewhere, pushed (the remote forgets old entries on push).
    for (let i = 0; i < 8; i++) await createProject(b, `R-elsewhere-${i}`);
    await update(b, `/v1/project/${shared.id}`, { name: 'R-shared (renamed on B)' });
    await remove(b, `/v1/project/${doomed.id}`);
    const cards = await plan(b, base, collection.id);
    expect(cards.length).toBeGreaterThan(0);
    expect((await runSync(b)).error).toBeNull();
    const gone = await call(remote, 'GET', '/v1/sync/changes?since=1');
    expect(gone.status).toBe(410);

    await goOnline(a);
    const summary = await runSync(a);
    expect(summary).toMatchObject({ resynced: true, error: null, rejected: 0 });
    expect(summary.pushed).toBeGreaterThan(0);
    expect((await ok(a, 'GET', '/v1/sync/status')).pending).toBe(0);

    await syncUntilQuiet([a, b], remote);
    // Started offline, so that its first sync is the explicit one.
    const fresh = await cluster.addClient({ name: 'client C (fresh)', offline: true });
    await goOnline(fresh);
    const first = await runSync(fresh);
    expect(first).toMatchObject({ resynced: true, error: null });
    await syncUntilQuiet([a, b, fresh], remote);

    const [da, db, dc, dr] = await Promise.all([dump(a), dump(b), dump(fresh), dump(remote)]);
    expect(da, 'the resynced client equals the remote').toEqual(dr);
    expect(dc, 'a fresh client equals the remote').toEqual(dr);
    expect(da, 'the resynced client equals a fresh client').toEqual(dc);
    expect(db).toEqual(dr);

    for (const node of [a, fresh, remote]) {
      expect(await find(node, `/v1/project/${shared.id}`), node.name).toMatchObject({
        name: 'R-shared (renamed on B)',
        description: 'edited offline on A',
      });
      expect(await find(node, `/v1/project/${doomed.id}`), `${node.name}: deleted elsewhere`).toBeUndefined();
      expect(await find(node, `/v1/project/${offlineProject.id}`), node.name).toMatchObject({ name: 'R-made-offline-on-A' });
      const counts = await countBy(node, '/v1/project');
      for (let i = 0; i < 8; i++) expect(counts[`R-elsewhere-${i}`], `${node.name}: R-elsewhere-${i}`).toBe(1);
      expect(counts['R-made-offline-on-A']).toBe(1);
      expect(await find(node, `/v1/collection/${collection.id}`), node.name).toMatchObject({ status: 'planned' });
    }
    // The deleted record is in the trash of the resynced client too, restorable.
    expect((await ok(a, 'GET', '/v1/trash/project?limit=1000')).data.map((r: any) => r.id)).toContain(doomed.id);
    expect(await conflicts(a)).toEqual([]);
  });
});
