/**
 * One running timer per user across sync (issue 8, electron/api/resources/time-tracking.ts):
 * timers of the same user started on replicas apart meet on the remote, which keeps the one
 * started last running and stops the others at its start — a change of its own that syncs to
 * every replica, so none ends with two running timers and nothing goes back and forth. Time
 * entries made offline on both sides all arrive, each exactly once. Two replicas and a remote,
 * each a separate server process, the replicas behind fault proxies that take them offline.
 */
import { describe, expect, it } from 'vitest';
import {
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
import { conflicts, createCollection, createPlanningBase, plan } from '../helpers/sync-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let cardId: string;
let users = 0;

const settle = () => syncUntilQuiet([a, b], remote);

/** A user of its own for each case, made on A and synced everywhere. */
async function newUser(): Promise<string> {
  const email = `timer-${++users}@example.com`;
  await ok(a, 'POST', '/v1/user', { email, role: 'member' });
  const found = await ok(a, 'GET', `/v1/user?filter=email:eq:'${email}'`, undefined, 200);
  return found.data[0].id as string;
}

/** An entry of `user` from `start`, running when `end` is absent. */
async function entry(node: ClientNode | RemoteNode, user: string, start: string, end?: string, note?: string): Promise<any> {
  return ok(node, 'POST', '/v1/time_tracking', {
    card_id: cardId,
    user_id: user,
    start,
    ...(end ? { end } : {}),
    ...(note ? { note } : {}),
  });
}

/** Every entry of a user on a node, by id. */
async function entriesOf(node: ClientNode | RemoteNode, user: string): Promise<any[]> {
  return listAll(node, `/v1/time_tracking?filter=user_id:eq:${user}`);
}

/** Every node has exactly these entries of the user, identical, and `running` is the only running one. */
async function expectEverywhere(user: string, ids: string[], running: string): Promise<any[]> {
  const [onRemote, ...onClients] = await Promise.all([remote, a, b].map((n) => entriesOf(n, user)));
  expect(
    onRemote!.map((e) => e.id),
    'each entry exactly once on the remote',
  ).toEqual([...ids].sort());
  expect(
    onRemote!.filter((e) => e.running).map((e) => e.id),
    'one running timer on the remote',
  ).toEqual([running]);
  for (const [i, entries] of onClients.entries()) expect(entries, `${[a, b][i]!.name} equals the remote`).toEqual(onRemote);
  return onRemote!;
}

useTwoClientCluster({}, async (nodes) => {
  ({ a, b, remote } = nodes);
  const base = await createPlanningBase(a, 'Timers');
  const collection = await createCollection(a, base, 'Timed work');
  cardId = (await plan(a, base, collection.id))[0].id;
  await settle();
});

describe('one running timer per user across sync', () => {
  it.each([
    ["the remote's timer started later: the replica's stops at its start", '2026-11-02T10:00:00Z', '2026-11-02T10:30:00Z'],
    ["the replica's timer started later: the remote's stops at its start", '2026-11-02T10:30:00Z', '2026-11-02T10:00:00Z'],
  ])(
    'a timer started on a replica offline and one on the remote — %s; every entry arrives once',
    async (_case, replicaStart, remoteStart) => {
      const user = await newUser();
      await settle();
      await goOffline(a);
      const offline = [
        await entry(a, user, '2026-11-02T07:00:00Z', '2026-11-02T08:00:00Z', 'A 1'),
        await entry(a, user, '2026-11-02T08:00:00Z', '2026-11-02T09:00:00Z', 'A 2'),
      ];
      const onReplica = await entry(a, user, replicaStart);
      const meanwhile = await entry(remote, user, '2026-11-02T06:00:00Z', '2026-11-02T06:45:00Z', 'remote 1');
      const onRemote = await entry(remote, user, remoteStart);
      expect([onReplica.running, onRemote.running]).toEqual([true, true]);

      await goOnline(a);
      expect(await runSync(a)).toMatchObject({ error: null, rejected: 0 });
      await settle();

      const [later, earlier] = replicaStart > remoteStart ? [onReplica, onRemote] : [onRemote, onReplica];
      const entries = await expectEverywhere(
        user,
        [...offline, onReplica, meanwhile, onRemote].map((e) => e.id),
        later.id,
      );
      expect(entries.find((e) => e.id === earlier.id)).toMatchObject({ running: false, end: later.start, duration: 30 });
      expect(entries.find((e) => e.id === later.id)).toMatchObject({ running: true, end: null, duration: null });
      // The entries that were not running are as they were made.
      for (const made of [...offline, meanwhile])
        expect(entries.find((e) => e.id === made.id)).toMatchObject({ start: made.start, end: made.end, note: made.note });
      expect(await conflicts(a)).toEqual([]);
    },
  );

  it('timers started on two replicas offline: one running timer everywhere once both synced, and the state stays put', async () => {
    const user = await newUser();
    await settle();
    await goOffline(a, b);
    const onA = await entry(a, user, '2026-11-03T09:00:00Z');
    const onB = await entry(b, user, '2026-11-03T09:20:00Z');
    const doneOnB = await entry(b, user, '2026-11-03T08:00:00Z', '2026-11-03T08:30:00Z');
    // A reaches the remote first with its (earlier) timer; B's later one stops it there.
    await goOnline(a);
    await runSync(a);
    await goOnline(b);
    await runSync(b);
    // Settling ends only with a round in which nothing is pushed or pulled and the remote does
    // not change: the remote's stop does not come back as a change, nor start another.
    await settle();

    const entries = await expectEverywhere(user, [onA.id, onB.id, doneOnB.id], onB.id);
    expect(entries.find((e) => e.id === onA.id)).toMatchObject({ running: false, end: onB.start, duration: 20 });
    expect(await conflicts(a)).toEqual([]);
    expect(await conflicts(b)).toEqual([]);

    // Stopping the running one on A (which got it from the remote) stops it everywhere.
    await ok(a, 'POST', `/v1/time_tracking/${onB.id}/stop`, { end: '2026-11-03T10:00:00Z' }, 200);
    await settle();
    for (const node of [a, b, remote]) {
      expect(
        (await entriesOf(node, user)).filter((e) => e.running),
        node.name,
      ).toEqual([]);
    }
  });

  it("a user's timer does not stop another user's", async () => {
    const [first, second] = [await newUser(), await newUser()];
    await settle();
    await goOffline(a);
    const mine = await entry(a, first, '2026-11-04T09:00:00Z');
    const theirs = await entry(remote, second, '2026-11-04T09:30:00Z');
    await goOnline(a);
    await runSync(a);
    await settle();
    await expectEverywhere(first, [mine.id], mine.id);
    await expectEverywhere(second, [theirs.id], theirs.id);
  });
});
