/**
 * Live, not polled (docs/API.md "Sync", "Live updates"): the remote announces every change on
 * `GET /v1/sync/stream`, a replica pulls when it hears of one and otherwise sends nothing,
 * polls only while the stream is down, and an empty replica loads its first snapshot in bulk
 * (electron/sync/bulk-load.ts) with exactly what the field-by-field merge would write.
 *
 * Real HTTP on 127.0.0.1 and real SQLite files: a remote and replicas in this process, with a
 * fault proxy (or a small forwarder playing an older or a broken remote) between them, so the
 * requests a replica sends can be counted. Timings are never asserted.
 */
import { describe, expect, it } from 'vitest';
import { recordsOf } from '../../electron/store/record-store.js';
import { bookOf } from '../../electron/store/sync-book.js';
import { bulkLoad } from '../../electron/sync/bulk-load.js';
import { defaultTiming, type SyncTiming } from '../../electron/sync/client.js';
import { LiveChannel } from '../../electron/sync/live.js';
import type { RemoteApi } from '../../electron/sync/remote.js';
import { checkBatch, mergeRecords, type RemoteRecord } from '../../electron/sync/merge.js';
import { syncTables } from '../../electron/sync/tables.js';
import { formatHlc } from '../../shared/hlc.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { startFaultProxy, type FaultProxy, type ProxyLogEntry } from '../helpers/fault-proxy.js';
import { call, dump, ok, waitFor } from '../helpers/sync-cluster.js';
import { createCollection, createOrder, createPlanningBase, createProject, plan, remove, update } from '../helpers/sync-data.js';
import { startInProcessClient, startInProcessRemote, type InProcessClient, type InProcessRemote } from '../helpers/sync-inprocess.js';
import { cleanupsAfterEach, eventKeys, freshReplicaStore, replicaContents, startForwarder } from '../helpers/sync-snapshot.js';

const hour = 3_600_000;

/** The app's own timing (the in-process helper sets every timer to an hour and the channel off). */
const appTiming: Partial<SyncTiming> = {
  live: true,
  pullIntervalMs: defaultTiming.pullIntervalMs,
  pushDelayMs: defaultTiming.pushDelayMs,
  backoffMs: defaultTiming.backoffMs,
  maxBackoffMs: defaultTiming.maxBackoffMs,
};

const cleanups = cleanupsAfterEach();

async function remoteAndProxy(): Promise<{ remote: InProcessRemote; proxy: FaultProxy }> {
  const remote = await startInProcessRemote();
  cleanups.push(() => remote.close());
  const proxy = await startFaultProxy(remote.url);
  cleanups.push(() => proxy.close());
  return { remote, proxy };
}

async function replica(url: string, timing: Partial<SyncTiming>, name = 'replica'): Promise<InProcessClient> {
  const client = await startInProcessClient(url, name, timing);
  cleanups.push(() => client.close());
  return client;
}

const isStream = (e: ProxyLogEntry) => e.path.startsWith('/v1/sync/stream');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Until the replica has synced once and its stream is through the proxy (as the `since`-th entry or later). */
async function untilListening(client: InProcessClient, proxy: FaultProxy, since = 0): Promise<void> {
  await waitFor(() => proxy.log.slice(since).some((e) => isStream(e) && e.status === 200 && e.answered), `${client.name}'s stream`, 15_000);
  await waitFor(async () => (await ok(client, 'GET', '/v1/sync/status')).last_pull_at !== null, `${client.name}'s first sync`, 15_000);
  await client.instance.sync.run();
}

async function arrives(node: { url: string; headers: Record<string, string> }, path: string, what: string): Promise<void> {
  await waitFor(async () => (await call(node, 'GET', path)).status === 200, what, 10_000, 20);
}

describe("the remote's live channel, GET /v1/sync/stream", () => {
  it('answers an event stream with the newest change number, then one event for each commit or burst of commits', async () => {
    const { remote } = await remoteAndProxy();
    await createProject(remote, 'Before');
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const response = await fetch(`${remote.url}/v1/sync/stream`, { headers: remote.headers, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let text = '';
    const seqs = () => [...text.matchAll(/event: change\ndata: \{"seq":(\d+)\}\n\n/g)].map((m) => Number(m[1]));
    const readUntil = async (count: number) => {
      while (seqs().length < count) text += new TextDecoder().decode((await reader.read()).value);
    };
    await readUntil(1);
    expect(seqs()).toEqual([1]);
    await createProject(remote, 'One');
    await readUntil(2);
    expect(seqs()).toEqual([1, 2]);
    // A batch of three writes in one push commits at once: one event.
    const hlc = `${String(Date.now()).padStart(13, '0')}-0000-burst`;
    const mutations = [1, 2, 3].map((n) => ({
      mutation_id: n,
      resource: 'project',
      id: crypto.randomUUID(),
      op: 'create',
      fields: { name: `Burst ${n}` },
      hlc,
    }));
    await ok(remote, 'POST', '/v1/sync/push', { client_id: 'burst', mutations }, 200);
    await readUntil(3);
    expect(seqs()).toEqual([1, 2, 5]);
  });

  it('asks for credentials like every route (401), and keeps 100 streams of a key: its 101st displaces its oldest', async () => {
    const { remote } = await remoteAndProxy();
    const anonymous = await fetch(`${remote.url}/v1/sync/stream`);
    expect(anonymous.status).toBe(401);
    expectErrorBody(await anonymous.json(), 10401, 'Not Logged In');

    const controllers: AbortController[] = [];
    cleanups.push(() => controllers.forEach((c) => c.abort()));
    const open = async () => {
      const controller = new AbortController();
      controllers.push(controller);
      return fetch(`${remote.url}/v1/sync/stream`, { headers: remote.headers, signal: controller.signal });
    };
    const streams = await Promise.all(Array.from({ length: 100 }, open));
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    // The key's share is full: a new one takes the place of its oldest, which is told so and ends
    // (docs/API.md "Live updates"; the shares themselves: stream-shares.test.ts).
    const newest = await open();
    expect(newest.status).toBe(200);
    const oldest = await new Response(streams[0]!.body).text();
    expect(oldest).toContain('event: displaced');
    // Another credential still gets one.
    remote.addEnvironment('other', 'other-key');
    const other = new AbortController();
    controllers.push(other);
    expect(
      (await fetch(`${remote.url}/v1/sync/stream`, { headers: { 'x-api-env': 'other', 'x-api-key': 'other-key' }, signal: other.signal }))
        .status,
    ).toBe(200);
  });
});

describe('a replica with the live channel', () => {
  it('gets a change made on the remote within seconds, though it polls only once an hour', async () => {
    const { remote, proxy } = await remoteAndProxy();
    const client = await replica(proxy.url, { ...appTiming, pullIntervalMs: hour });
    await untilListening(client, proxy);
    const project = await createProject(remote, 'Announced');
    await arrives(client, `/v1/project/${project.id}`, "the remote's project on the replica");
    // And the other way: its own edit goes out soon after it is made, without a run asked for.
    const mine = await createProject(client, 'Sent at once');
    await arrives(remote, `/v1/project/${mine.id}`, "the replica's project on the remote");
  });

  it("pushes a steady writer's changes together, yet the remote has them while the writing goes on", async () => {
    const { remote, proxy } = await remoteAndProxy();
    // No stream (each change would wait only 50 ms), and a pause of 400 ms before a push: the
    // writes below, 100 ms apart, go out only at the bound on their wait (docs/architecture.md "Push").
    const client = await replica(proxy.url, { live: false, pushDelayMs: 400, pullIntervalMs: hour, backoffMs: 1_000 });
    await waitFor(async () => (await ok(client, 'GET', '/v1/sync/status')).last_pull_at !== null, 'the first sync', 15_000);
    const before = proxy.log.length;
    const first = await createProject(client, 'Steady 0');
    const written = [first];
    // Writing goes on until the first project is on the remote, three times the bound at the most.
    const until = performance.now() + 3 * defaultTiming.maxPushWaitMs;
    let arrivedWhileWriting = false;
    while (performance.now() < until) {
      await sleep(100);
      written.push(await createProject(client, `Steady ${written.length}`));
      if ((await call(remote, 'GET', `/v1/project/${first.id}`)).status === 200) {
        arrivedWhileWriting = true;
        break;
      }
    }
    expect(arrivedWhileWriting, 'the first change on the remote before the writer paused').toBe(true);
    const pushes = proxy.log.slice(before).filter((e) => e.method === 'POST' && e.path.startsWith('/v1/sync/push'));
    expect(pushes.length, `${written.length} writes`).toBeLessThan(written.length / 2);
    const last = written.at(-1);
    await arrives(remote, `/v1/project/${last.id}`, 'the last project on the remote');
  });

  it('sends no request at all while idle, besides its one open stream', async () => {
    const { remote, proxy } = await remoteAndProxy();
    const client = await replica(proxy.url, appTiming);
    await untilListening(client, proxy);
    await sleep(300);
    const before = proxy.log.length;
    await sleep(5_000);
    expect(proxy.log.slice(before).map((e) => `${e.method} ${e.path}`)).toEqual([]);
    expect(proxy.log.filter(isStream)).toHaveLength(1);
    // The stream is still open: a change comes through it.
    const project = await createProject(remote, 'After the quiet');
    await arrives(client, `/v1/project/${project.id}`, 'the project after five quiet seconds');
  });

  it('polls while the stream is down, and listens again (and stops polling) once it is back', async () => {
    const { remote, proxy } = await remoteAndProxy();
    const client = await replica(proxy.url, { ...appTiming, maxBackoffMs: 2_000 });
    await untilListening(client, proxy);
    // The stream breaks (the connection is cut) and cannot be opened again; the rest passes.
    const cut = proxy.log.length;
    await proxy.set('refuse');
    await proxy.set({ mode: 'drop-request', match: /^GET \/v1\/sync\/stream/ });
    const project = await createProject(remote, 'Polled');
    await arrives(client, `/v1/project/${project.id}`, 'the project, by polling');
    // It keeps polling and keeps trying to listen again (backing off).
    const seen = (what: (e: ProxyLogEntry) => boolean) => proxy.log.slice(cut).filter(what).length;
    await waitFor(() => seen((e) => e.path.startsWith('/v1/sync/changes')) >= 3, 'polls while the stream is down', 15_000);
    await waitFor(() => seen((e) => isStream(e) && e.mode === 'drop-request') >= 2, 'attempts to listen again', 15_000);

    const back = proxy.log.length;
    await proxy.set('pass');
    await untilListening(client, proxy, back);
    await sleep(1_500);
    const quiet = proxy.log.length;
    await sleep(3_000);
    expect(
      proxy.log.slice(quiet).map((e) => `${e.method} ${e.path}`),
      'no polling once the stream is back',
    ).toEqual([]);
    const second = await createProject(remote, 'Announced again');
    await arrives(client, `/v1/project/${second.id}`, 'the next project, through the stream');
  });

  it('polls a remote without a live channel (an older version answers 404) and asks it again only after minutes', async () => {
    const remote = await startInProcessRemote();
    cleanups.push(() => remote.close());
    const older = await startForwarder(remote.url, {
      answer: (method, path) =>
        method === 'GET' && path.startsWith('/v1/sync/stream')
          ? {
              status: 404,
              body: {
                reference: 'older',
                errors: [{ code: 10404, message: 'Not Found', description: 'Route GET:/v1/sync/stream not found' }],
              },
            }
          : undefined,
    });
    cleanups.push(() => older.close());
    const client = await replica(older.url, appTiming);
    await waitFor(async () => (await ok(client, 'GET', '/v1/sync/status')).last_pull_at !== null, 'the first sync', 15_000);
    const project = await createProject(remote, 'Polled from an older remote');
    await arrives(client, `/v1/project/${project.id}`, 'the project, by polling');
    await sleep(3_000);
    expect(older.requests.filter((r) => r.startsWith('GET /v1/sync/stream'))).toHaveLength(1);
    expect(older.requests.filter((r) => r.startsWith('GET /v1/sync/changes')).length).toBeGreaterThanOrEqual(3);
    expect((await ok(client, 'GET', '/v1/sync/status')).last_error).toBeNull();
  });
});

/** A remote with records of many kinds: planned cards, orders with rows, nulls, JSON, a deleted record. */
async function seedRemote(remote: InProcessRemote): Promise<void> {
  const base = await createPlanningBase(remote, 'Bulk');
  const planned = await createCollection(remote, base, 'Planned', 900, { description: null });
  await plan(remote, base, planned.id);
  await createCollection(remote, base, 'Waiting', 120, { description: 'in the backlog' });
  await createOrder(remote, 'O-1', [{ quantity: 3, description: 'three' }, { quantity: 1 }]);
  for (let i = 0; i < 12; i++) await createProject(remote, `Project ${i}`, i % 3 === 0 ? { external_ref: `EXT-${i}` } : {});
  const gone = await createProject(remote, 'Deleted');
  await update(remote, `/v1/project/${gone.id}`, { description: 'edited before it went' });
  await remove(remote, `/v1/project/${gone.id}`);
}

describe("an empty replica's first snapshot, loaded in bulk", () => {
  it('writes exactly what the field-by-field merge writes, and sends the same change events', async () => {
    const remote = await startInProcessRemote();
    cleanups.push(() => remote.close());
    await seedRemote(remote);
    const page = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000');
    const entries: RemoteRecord[] = checkBatch(syncTables(), page.records);
    expect(entries.some((e) => e.record?.deleted_at)).toBe(true);
    expect(entries.length).toBeGreaterThan(30);
    // Two clocks ahead of this computer's: one within the allowed skew (the replica's clock
    // moves past it), one beyond (it does not).
    const projects = entries.filter((e) => e.resource === 'project');
    const ahead = formatHlc({ millis: Date.now() + 60_000, counter: 7, node: 'ahead' });
    const tooFar = formatHlc({ millis: Date.now() + 3_600_000, counter: 0, node: 'wrong' });
    projects[0]!.clocks = { ...projects[0]!.clocks, name: ahead };
    projects[1]!.clocks = { ...projects[1]!.clocks, name: tooFar };

    const merged = freshReplicaStore(cleanups);
    await mergeRecords(recordsOf(merged.store), syncTables(), entries);
    const bulk = freshReplicaStore(cleanups);
    let applied = false;
    expect(await bulkLoad(recordsOf(bulk.store), syncTables(), entries, async () => void (applied = true))).toBe(entries.length);
    expect(applied).toBe(true);
    // The same, but for the change log: a first snapshot writes no row of it (docs/decisions/first-snapshot-unlogged.md).
    const { change_log: logged, ...written } = replicaContents(bulk.store);
    const { change_log: mergeLogged, ...mergeWritten } = replicaContents(merged.store);
    expect(written).toEqual(mergeWritten);
    expect(logged).toEqual([]);
    expect(mergeLogged!.length).toBe(entries.length);
    expect(eventKeys(bulk.events)).toEqual(eventKeys(merged.events));
    // The replica's clock has moved past the clocks it took, as after a merge.
    const now = bookOf(bulk.store).clock.now();
    expect(now > ahead && now < tooFar, now).toBe(true);

    // A page that names a record twice (or one the replica has meanwhile) is merged instead.
    const twice = freshReplicaStore(cleanups);
    await bulkLoad(recordsOf(twice.store), syncTables(), [...entries, entries[0]!], async () => undefined);
    expect(replicaContents(twice.store)).toEqual(replicaContents(merged.store));
  });

  it('is what a replica does on its first sync, and a bad page is refused changing nothing', async () => {
    const remote = await startInProcessRemote();
    cleanups.push(() => remote.close());
    await seedRemote(remote);
    // A remote that damages the second page of a snapshot: a record's clock is no clock.
    let damage = true;
    const broken = await startForwarder(remote.url, {
      rewrite: (path, body) => {
        if (!damage || !path.startsWith('/v1/sync/snapshot?cursor=')) return body;
        // The page in rows, as an empty replica asks for it: the clocks are each row's last value.
        const rows = body.tables?.[body.tables.length - 1]?.rows;
        if (rows?.length) rows[rows.length - 1][rows[rows.length - 1].length - 1] = { name: 'yesterday' };
        else body.records[body.records.length - 1].clocks = { name: 'yesterday' };
        return body;
      },
    });
    cleanups.push(() => broken.close());
    const client = await replica(broken.url, { pullPage: 10, bulkPage: 10 });
    const store = client.instance.dataDir.environment(client.instance.environment.id);
    const book = bookOf(store);

    const refused = await client.instance.sync.run();
    expect(refused.error).toMatch(/cannot read/);
    // The first page is in, the damaged one left nothing behind: no record or clock of it (and a first snapshot logs no change).
    const tables = replicaContents(store);
    const records = [...syncTables().values()].reduce((n, t) => n + tables[t.table]!.length, 0);
    expect(records).toBe(10);
    expect(tables.sync_clock).toHaveLength(10);
    expect(tables.change_log).toHaveLength(0);
    expect(book.getState('cursor')).toBeUndefined();

    damage = false;
    const summary = await client.instance.sync.run();
    expect(summary.error).toBeNull();
    expect(await dump(client, { trash: true })).toEqual(await dump(remote, { trash: true }));

    // A fresh replica of the same remote takes the whole snapshot in bulk: the same records.
    const fresh = await replica(remote.url, { pullPage: 10, bulkPage: 10 }, 'fresh');
    expect((await fresh.instance.sync.run()).error).toBeNull();
    expect(await dump(fresh, { trash: true })).toEqual(await dump(remote, { trash: true }));
    const freshStore = fresh.instance.dataDir.environment(fresh.instance.environment.id);
    expect(replicaContents(freshStore).sync_clock).toEqual(replicaContents(store).sync_clock);
  });
});

describe('closing the live channel', () => {
  it('ends at once even when the stream body goes on after the abort (a replica must stop on SIGTERM)', async () => {
    // A body that keeps sending heartbeats whatever the abort says: what replicas that had
    // pulled a lot were seen reading for minutes after SIGTERM (docs/architecture.md "Live channel").
    let reads = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        reads++;
        await new Promise((next) => setTimeout(next, 20));
        controller.enqueue(new TextEncoder().encode(reads === 1 ? 'event: change\ndata: {"seq":1}\n\n' : ': heartbeat\n\n'));
      },
    });
    // Only the stream is asked for by the channel; the rest of the remote's API is never called.
    const remote = { stream: async () => body.getReader() } as unknown as RemoteApi;
    const seen: boolean[] = [];
    const channel = new LiveChannel({
      remote,
      timing: { retryMs: 1000, maxRetryMs: 1000, unreachableMaxRetryMs: 1000, absentRetryMs: 1000, silenceMs: 60_000 },
      configured: () => true,
      onSeq: () => undefined,
      onState: (up) => seen.push(up),
    });
    channel.ensure();
    await waitFor(() => seen.includes(true), 'the stream to come up');
    const stopped = channel.stop().then(() => 'stopped');
    const late = new Promise((done) => setTimeout(() => done('still reading'), 2_000));
    expect(await Promise.race([stopped, late])).toBe('stopped');
    const readsAtStop = reads;
    await new Promise((next) => setTimeout(next, 100));
    expect(reads, 'nothing reads the body after the channel closed').toBeLessThanOrEqual(readsAtStop + 1);
    expect(seen).toEqual([true, false]);
  });
});
