/**
 * Fault injection (issue 8): a proxy between the clients and the remote drops requests, drops
 * responses after the remote applied them (the classic duplicate bug), delays, cuts connections
 * mid-body, reorders concurrent requests and delivers stale copies late. While it does, both
 * clients keep working and syncing; once it stops, one settling round later there are no
 * duplicates (counted by name), no losses (every record and its last edit is everywhere), and
 * the remote and both clients are identical.
 */
import { describe, expect, it } from 'vitest';
import type { FaultRule, MixRule } from '../helpers/fault-proxy.js';
import {
  call,
  countBy,
  expectConverged,
  goOnline,
  ok,
  runSync,
  syncUntilQuiet,
  useTwoClientCluster,
  waitFor,
  type ClientNode,
  type RemoteNode,
} from '../helpers/sync-cluster.js';
import { createCollection, createPlanningBase, createProject, update, type PlanningBase } from '../helpers/sync-data.js';

let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let base: PlanningBase;

const settle = () => syncUntilQuiet([a, b], remote);
const proxy = () => a.proxy!;

// Both clients go through one proxy, so their requests can also be reordered against each other.
useTwoClientCluster({ sharedProxy: true, seed: 8 }, async (nodes) => {
  ({ a, b, remote } = nodes);
  base = await createPlanningBase(a, 'Faults');
  await settle();
});

interface Expected {
  projects: Record<string, string>;
  collections: Record<string, string>;
}

/**
 * `rounds` rounds of work on both clients, each followed by a sync run on both (at the same
 * time, so their requests meet in the proxy). Each round creates a project and a collection
 * per client and edits them and an earlier one; returns the names and last descriptions.
 */
async function workload(tag: string, rounds: number): Promise<Expected> {
  const expected: Expected = { projects: {}, collections: {} };
  const made: { node: ClientNode; project: any; collection: any }[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const [node, side] of [
      [a, 'A'],
      [b, 'B'],
    ] as const) {
      const name = `${tag}-${side}-${round}`;
      const project = await createProject(node, name, { description: 'first' });
      const collection = await createCollection(node, base, `${name}-col`, 30 + round);
      await update(node, `/v1/project/${project.id}`, { description: `edited in round ${round}` });
      expected.projects[name] = `edited in round ${round}`;
      expected.collections[`${name}-col`] = 'first';
      await update(node, `/v1/collection/${collection.id}`, { description: 'first' });
      made.push({ node, project, collection });
      // Edit a record made in an earlier round (by this client: it has it for sure).
      const earlier = made.filter((m) => m.node === node)[0];
      if (earlier && earlier.project.id !== project.id) {
        await update(node, `/v1/project/${earlier.project.id}`, { description: `touched in round ${round}` });
        expected.projects[earlier.project.name] = `touched in round ${round}`;
      }
    }
    const summaries = await Promise.all([runSync(a), runSync(b)]);
    for (const s of summaries) expect(s.duration_ms).toBeLessThan(20_000);
  }
  return expected;
}

async function expectExactlyOnceAndConverged(expected: Expected): Promise<void> {
  for (const node of [a, b, remote]) {
    const projects = await countBy(node, '/v1/project');
    const collections = await countBy(node, '/v1/collection');
    for (const name of Object.keys(expected.projects)) expect(projects[name], `${node.name}: project ${name}`).toBe(1);
    for (const name of Object.keys(expected.collections)) expect(collections[name], `${node.name}: collection ${name}`).toBe(1);
    const descriptions = await countBy(node, '/v1/project', 'description');
    for (const description of new Set(Object.values(expected.projects)))
      expect(descriptions[description], `${node.name}: description "${description}"`).toBeGreaterThan(0);
  }
  const dr = await expectConverged([a, b], remote, { noConflicts: true });
  // Last edits, by name, on the remote.
  const byName = new Map(dr['/v1/project']!.map((p) => [p.name, p.description]));
  for (const [name, description] of Object.entries(expected.projects)) expect(byName.get(name), `remote: ${name}`).toBe(description);
}

async function underFault(tag: string, rule: FaultRule | MixRule, rounds = 4): Promise<Expected> {
  await proxy().set(rule);
  try {
    return await workload(tag, rounds);
  } finally {
    await proxy().set('pass');
    await proxy().idle();
  }
}

const faultsOf = (mode: string) => proxy().log.filter((e) => e.mode === mode);

describe('sync through a faulty network', () => {
  it('requests dropped before they reach the remote', async () => {
    const expected = await underFault('drop-req', { mode: 'drop-request', fraction: 0.5 });
    expect(faultsOf('drop-request').some((e) => e.path.startsWith('/v1/sync/push'))).toBe(true);
    await settle();
    await expectExactlyOnceAndConverged(expected);
  });

  it('responses dropped after the remote applied the push (retries are acknowledged, not applied twice)', async () => {
    const before = proxy().log.length;
    const expected = await underFault('drop-resp', { mode: 'drop-response', fraction: 0.6, match: /\/v1\/sync\/push/ });
    const dropped = proxy()
      .log.slice(before)
      .filter((e) => e.mode === 'drop-response' && e.reachedRemote && e.status === 200);
    expect(dropped.length, 'pushes applied whose answer was lost').toBeGreaterThan(0);
    await settle();
    await expectExactlyOnceAndConverged(expected);
  });

  it('pull answers dropped after the remote answered (the cursor is not advanced)', async () => {
    const expected = await underFault('drop-pull', { mode: 'drop-response', fraction: 0.5, match: /\/v1\/sync\/(changes|snapshot)/ });
    await settle();
    await expectExactlyOnceAndConverged(expected);
  });

  it('delays of 200-800 ms', async () => {
    const expected = await underFault('delay', { mode: 'delay', delayMs: [200, 800] }, 2);
    expect(faultsOf('delay').length).toBeGreaterThan(0);
    await settle();
    await expectExactlyOnceAndConverged(expected);
  });

  it('connections cut mid-body: requests (the remote must not apply half a push) and responses', async () => {
    const cutRequests = await underFault('cut-req', { mode: 'cut-request', fraction: 0.5 });
    expect(faultsOf('cut-request').length).toBeGreaterThan(0);
    const before = proxy().log.length;
    const cutResponses = await underFault('cut-resp', { mode: 'cut-response', fraction: 0.5 });
    expect(
      proxy()
        .log.slice(before)
        .some((e) => e.mode === 'cut-response' && e.reachedRemote),
    ).toBe(true);
    await settle();
    await expectExactlyOnceAndConverged({
      projects: { ...cutRequests.projects, ...cutResponses.projects },
      collections: { ...cutRequests.collections, ...cutResponses.collections },
    });
  });

  it('concurrent requests of the two clients reordered (held and released newest first)', async () => {
    const before = proxy().log.length;
    const expected = await underFault('reorder', { mode: 'reorder', holdMs: 300 });
    const reordered = proxy()
      .log.slice(before)
      .filter((e) => e.mode === 'reorder' && e.reversed);
    expect(reordered.length, 'requests forwarded after a newer one').toBeGreaterThan(0);
    expect(
      reordered.some((e) => e.path.startsWith('/v1/sync/push')),
      'a push overtaken by a newer request',
    ).toBe(true);
    await settle();
    await expectExactlyOnceAndConverged(expected);
  });

  it('a stale copy of a push delivered after newer pushes changes nothing', async () => {
    // A's first push is answered by nobody and kept; A retries and goes on; then the stale copy arrives.
    await proxy().set({ mode: 'late', match: /\/v1\/sync\/push/ });
    const first = await createProject(a, 'late-0', { description: 'v1' });
    const failed = await runSync(a);
    expect(failed.error).not.toBeNull();
    expect(proxy().heldCount()).toBeGreaterThanOrEqual(1);
    await proxy().set('pass');
    await update(a, `/v1/project/${first.id}`, { description: 'v2' });
    const second = await createProject(a, 'late-1', { description: 'v1' });
    await update(a, `/v1/project/${second.id}`, { name: 'late-1', description: 'v2' });
    await settle();
    await proxy().release();
    await settle();
    await expectExactlyOnceAndConverged({ projects: { 'late-0': 'v2', 'late-1': 'v2' }, collections: {} });
  });

  it('notices going offline and coming back, and pushes a local change on its own within about 2 s', async () => {
    await proxy().set('refuse');
    const failed = await runSync(a);
    expect(failed.error).toMatch(/could not be reached/);
    const down = await ok(a, 'GET', '/v1/sync/status', undefined, 200);
    expect(down).toMatchObject({ online: false, last_error: failed.error });
    // A retry is scheduled (backoff), or on a busy machine already under way (then it has no time to show).
    if (down.syncing) expect(down.next_attempt_at).toBeNull();
    else expect(Date.parse(down.next_attempt_at), 'a retry is scheduled (backoff)').toBeGreaterThan(Date.now() - 1000);
    await goOnline(a);
    expect((await runSync(a)).error).toBeNull();
    expect(await ok(a, 'GET', '/v1/sync/status', undefined, 200)).toMatchObject({ online: true, last_error: null, pending: 0 });
    // No explicit run: the client pushes by itself shortly after the change.
    const made = Date.now();
    const project = await createProject(a, 'pushed-by-itself');
    await waitFor(
      async () => (await call(remote, 'GET', `/v1/project/${project.id}`)).status === 200,
      'the project on the remote',
      10_000,
      50,
    );
    expect(Date.now() - made, 'ms from the change to the remote').toBeLessThan(3_000);
    await settle();
  });

  it('a mixed, seeded random run of every fault', async () => {
    const expected = await underFault(
      'mixed',
      {
        mix: [
          { mode: 'pass', weight: 4 },
          { mode: 'drop-request', weight: 1 },
          { mode: 'drop-response', weight: 2 },
          { mode: 'delay', weight: 1 },
          { mode: 'cut-request', weight: 1 },
          { mode: 'cut-response', weight: 1 },
          { mode: 'reorder', weight: 1 },
        ],
        delayMs: [50, 300],
        holdMs: 200,
      },
      6,
    );
    await settle();
    await expectExactlyOnceAndConverged(expected);
  });
});
