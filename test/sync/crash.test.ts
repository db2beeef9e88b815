/**
 * Crashes (issue 8): a client killed with SIGKILL in the middle of a push — the push still
 * reaches the remote after the client is gone, so the remote applied what the client never saw
 * acknowledged — then restarted on the same data folder. Everything arrives exactly once. Also
 * a kill in the middle of a pull, and right after local writes (a write and its outbox entry
 * commit together, so nothing acknowledged to the user is lost). And what `POST /v1/sync/run`
 * promises while a run is already in flight.
 */
import { describe, expect, it } from 'vitest';
import {
  call,
  countBy,
  expectConverged,
  ok,
  runSync,
  status,
  syncUntilQuiet,
  useTwoClientCluster,
  waitFor,
  type ClientNode,
  type RemoteNode,
} from '../helpers/sync-cluster.js';
import { createCollection, createPlanningBase, createProject, find, update, type PlanningBase } from '../helpers/sync-data.js';

let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

const settle = () => syncUntilQuiet([a, b], remote);

useTwoClientCluster({}, async (nodes) => {
  ({ a, b, remote } = nodes);
  base = await createPlanningBase(a, 'Crash');
  await settle();
});

async function expectOnce(names: string[], path = '/v1/project'): Promise<void> {
  for (const node of [a, b, remote]) {
    const counts = await countBy(node, path);
    for (const name of names) expect(counts[name], `${node.name}: ${name}`).toBe(1);
  }
}

describe('a client killed with SIGKILL and restarted on the same data folder', () => {
  it('in the middle of a push that the remote applies after the client died: everything arrives exactly once', async () => {
    // Made offline, so that one push carries all of it.
    await a.proxy!.set('refuse');
    const names: string[] = [];
    for (let i = 0; i < 20; i++) {
      const project = await createProject(a, `crash-push-${i}`, { description: 'v1' });
      await update(a, `/v1/project/${project.id}`, { description: 'v2' });
      names.push(project.name);
    }
    const collection = await createCollection(a, base, 'crash-push-col');
    const pendingBefore = (await status(a)).pending as number;
    expect(pendingBefore).toBeGreaterThanOrEqual(41);

    // The run is not awaited: its push is held at the proxy when the client dies.
    await a.proxy!.set({ mode: 'hold', match: /\/v1\/sync\/push/ });
    const run = runSync(a).catch((error: unknown) => error);
    await a.proxy!.waitForHeld(1);
    await a.stop('SIGKILL');
    await run;
    await a.proxy!.set('pass');
    const logged = a.proxy!.log.length;
    await a.proxy!.release();
    // The remote applied the push of a client that is gone.
    expect(
      a.proxy!.log.slice(0, logged).filter((e) => e.path.startsWith('/v1/sync/push') && e.reachedRemote && e.status === 200).length,
    ).toBeGreaterThan(0);
    expect(await find(remote, `/v1/collection/${collection.id}`)).toMatchObject({ name: 'crash-push-col' });
    expect((await countBy(remote, '/v1/project'))['crash-push-0']).toBe(1);

    // Restarted offline (its first sync would otherwise race the check): nothing was
    // acknowledged to the client, so it still has everything queued.
    await a.proxy!.set('refuse');
    await a.restart();
    expect((await status(a)).pending).toBe(pendingBefore);
    await a.proxy!.set('pass');
    await settle();
    expect((await status(a)).pending).toBe(0);
    await expectOnce(names);
    await expectOnce(['crash-push-col'], '/v1/collection');
    for (const node of [a, b, remote]) {
      const descriptions = await countBy(node, '/v1/project', 'description');
      expect(descriptions.v1, node.name).toBeUndefined();
    }
    await expectConverged([a, b], remote, { noConflicts: true });
  });

  it('in the middle of a pull: it pulls again after the restart and converges', async () => {
    const names: string[] = [];
    for (let i = 0; i < 10; i++) names.push((await createProject(b, `crash-pull-${i}`)).name);
    await runSync(b);
    await a.proxy!.set({ mode: 'hold', match: /\/v1\/sync\/changes/ });
    const run = runSync(a).catch((error: unknown) => error);
    await a.proxy!.waitForHeld(1);
    await a.stop('SIGKILL');
    await run;
    await a.proxy!.set('pass');
    await a.proxy!.release();
    await a.restart();
    await settle();
    await expectOnce(names);
    await expectConverged([a, b], remote, { noConflicts: true });
  });

  it('right after local writes: each acknowledged write and its outbox entry survive, and sync once', async () => {
    await a.proxy!.set('refuse');
    const names: string[] = [];
    const pendingBefore = (await status(a)).pending as number;
    for (let i = 0; i < 10; i++) names.push((await createProject(a, `crash-write-${i}`)).name);
    // Killed at once, without a chance to flush anything.
    await a.stop('SIGKILL');
    await a.restart();
    for (const name of names) expect((await countBy(a, '/v1/project'))[name], name).toBe(1);
    expect((await status(a)).pending).toBe(pendingBefore + 10);
    const pending = await ok(a, 'GET', '/v1/sync/pending?limit=1000', undefined, 200);
    expect(pending.data.filter((m: any) => m.resource === 'project' && m.op === 'create' && names.includes(m.fields.name))).toHaveLength(
      10,
    );
    await a.proxy!.set('pass');
    await settle();
    await expectOnce(names);
    await expectConverged([a, b], remote, { noConflicts: true });
  });
});

describe('the sync control while a run is in flight', () => {
  it("POST /v1/sync/run during a run of its own waits for it and runs once more (the caller's change is pushed when it answers)", async () => {
    // A change starts a run of the client's own (after the debounce): it pushes, then its pull is held.
    await a.proxy!.set({ mode: 'hold', match: /\/v1\/sync\/changes/ });
    try {
      await createProject(a, 'during-run-1');
      await a.proxy!.waitForHeld(1);
      expect((await ok(a, 'GET', '/v1/sync/status', undefined, 200)).syncing).toBe(true);
      // Another change after that run pushed, then an explicit run while it is still pulling.
      await a.proxy!.set({ mode: 'hold', match: /\/v1\/sync\/(push|changes)/ });
      const second = await createProject(a, 'during-run-2');
      let answered = false;
      const run = runSync(a).then((summary) => {
        answered = true;
        return summary;
      });
      // Let everything through that the client sends until the explicit run answers.
      for (let i = 0; i < 10 && !answered; i++) {
        await a.proxy!.release();
        await waitFor(() => answered || a.proxy!.heldCount() > 0, 'the explicit run to answer or send more', 10_000);
      }
      await run;
      expect((await ok(a, 'GET', '/v1/sync/status', undefined, 200)).pending, 'nothing pending when the explicit run answers').toBe(0);
      expect(
        (await call(remote, 'GET', `/v1/project/${second.id}`)).status,
        'the change made before the explicit run is on the remote',
      ).toBe(200);
    } finally {
      await a.proxy!.set('pass');
      await a.proxy!.release();
    }
    await settle();
  });
});
