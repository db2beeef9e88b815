/**
 * Replicas syncing with a team server on PostgreSQL (docs/API.md "Pull cursors";
 * docs/architecture.md "Team server on PostgreSQL"): two real node processes on one throwaway
 * cluster and real replica processes.
 *
 * - Pull: what is written on either node reaches replicas on both, first by snapshot and then
 *   by the change feed, whose cursor is text; a later edit wins by its field clocks; a deletion
 *   arrives as one; a replica streaming from one node hears a write on the other at once.
 * - Push: replicas whose every request goes to either node at random edit apart and converge,
 *   field by field; one batch sent to both nodes at once is applied once.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridClock } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { tempDir } from '../helpers/api.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';
import {
  call,
  expectConverged,
  ok,
  remoteEnv,
  remoteHeaders,
  remoteKey,
  removeFolders,
  runSync,
  startClient,
  syncUntilQuiet,
  type ClientNode,
  type RemoteNode,
  waitFor,
} from '../helpers/sync-cluster.js';

let team: TeamDatabase<0>;
const nodes: RemoteNode[] = [];
const clients: ClientNode[] = [];
const folders: string[] = [];

beforeAll(async () => {
  team = await startTeamDatabase('pull', { nodes: 0 });
  for (const name of ['node A', 'node B']) {
    const dataDir = tempDir('planner-node-');
    folders.push(dataDir);
    // One after the other: the first migrates the database and makes the environment.
    const server: ServerProcess = await startServerProcess(
      ['--data-dir', dataDir, '--database', team.url, '--api-env', remoteEnv, '--api-key', remoteKey],
      60_000,
    );
    nodes.push({
      name,
      url: server.url,
      headers: remoteHeaders,
      dataDir,
      process: server,
      stop: async (signal) => void (await server.stop(signal)),
    });
  }
  for (const [i, node] of nodes.entries()) clients.push(await startClient(node, { name: `replica ${'AB'[i]}`, proxy: false }));
  // Listening to node B's live channel, and otherwise pulling once a minute only.
  clients.push(await startClient(nodes[1]!, { name: 'live replica', proxy: false, live: true, syncIntervalMs: 60_000 }));
}, 180_000);

afterAll(async () => {
  for (const node of [...clients, ...nodes]) await node.stop().catch(() => undefined);
  await team?.stop();
  removeFolders();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Every page of a node's snapshot as records (rows turned into records), with the cursors it went through. */
async function wholeSnapshot(node: RemoteNode, limit: number, rows: boolean) {
  const records: { resource: string; id: string; record: Record<string, unknown>; clocks: unknown }[] = [];
  const cursors: (string | null)[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page++) {
    const body = await ok(
      node,
      'GET',
      `/v1/sync/snapshot?limit=${limit}${rows ? '&format=rows' : ''}${cursor ? `&cursor=${cursor}` : ''}`,
      undefined,
      200,
    );
    for (const part of body.tables ?? [])
      for (const row of part.rows)
        records.push({
          resource: part.resource,
          id: row[0],
          record: Object.fromEntries(part.fields.map((name: string, i: number) => [name, row[i]])),
          clocks: row[part.fields.length],
        });
    records.push(...body.records);
    cursors.push((cursor = body.cursor));
    if (cursor === null) return { records, cursors };
  }
  throw new Error('the snapshot did not end');
}

async function syncBoth(): Promise<void> {
  for (const client of clients.slice(0, 2)) {
    const summary = await runSync(client);
    expect(summary.error, `${client.name}: ${summary.error}`).toBeNull();
  }
}

describe('replicas pulling from two nodes on one PostgreSQL database', () => {
  it('get everything by snapshot first, then each change by the feed, whichever node it was written on', async () => {
    const [a, b] = nodes as [RemoteNode, RemoteNode];
    const board = await ok(a, 'POST', '/v1/board?with=stages', { name: 'Workshop', stages: [{ name: 'Sawing', priority: 0 }] }, 201);
    await ok(b, 'POST', '/v1/resource', { name: 'Welder 1', type: 'employee' }, 201);
    await ok(a, 'POST', '/v1/project', { name: 'Hall 7', code: 'H7' }, 201);
    await syncBoth();
    await expectConverged(clients.slice(0, 2), a);
    const [replicaA, replicaB] = clients as [ClientNode, ClientNode];
    expect((await ok(replicaB, 'GET', `/v1/board/${board.id}?with=stages`, undefined, 200)).stages[0].name).toBe('Sawing');

    // Edits on either node reach both replicas through the change feed.
    await ok(b, 'PUT', `/v1/board/${board.id}`, { name: 'Workshop north' }, 200);
    const order = await ok(a, 'POST', '/v1/order', { code: 'O-1', description: 'Gate', order_rows: [{ code: 'R-1', quantity: 3 }] }, 201);
    await syncBoth();
    for (const replica of clients) {
      expect((await ok(replica, 'GET', `/v1/board/${board.id}`, undefined, 200)).name, replica.name).toBe('Workshop north');
      expect((await ok(replica, 'GET', `/v1/order/${order.id}/row`, undefined, 200)).data[0].quantity).toBe(3);
    }
    await expectConverged(clients.slice(0, 2), b);

    // A deletion arrives as one: the record goes to each replica's trash.
    await ok(a, 'DELETE', `/v1/order/${order.id}`, undefined, 204);
    await syncBoth();
    for (const replica of [replicaA, replicaB]) expect((await call(replica, 'GET', `/v1/order/${order.id}`)).status).toBe(404);
    await expectConverged(clients.slice(0, 2), a, { trash: true, noConflicts: true });
  });

  it('a change written on one node reaches a replica streaming from the other, live (LISTEN/NOTIFY)', async () => {
    const [a, b] = nodes as [RemoteNode, RemoteNode];
    const live = clients[2]!;
    // Its first pull (snapshot) comes from the stream's first event.
    const first = await ok(a, 'POST', '/v1/project', { name: 'Seen live' }, 201);
    await waitFor(
      async () => (await call(live, 'GET', `/v1/project/${first.id}`)).status === 200,
      'the first project on the live replica',
      20_000,
    );
    // Written on A, heard on B: only a notice through the database tells B.
    const edited = Date.now();
    await ok(a, 'PUT', `/v1/project/${first.id}`, { name: 'Renamed on node A' }, 200);
    await waitFor(
      async () => (await ok(live, 'GET', `/v1/project/${first.id}`, undefined, 200)).name === 'Renamed on node A',
      'the edit on the live replica',
      10_000,
    );
    // Far below the replica's one-minute pull interval.
    expect(Date.now() - edited).toBeLessThan(10_000);
    const stream = await fetch(`${b.url}/v1/sync/stream`, { headers: remoteHeaders });
    expect(stream.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = stream.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toMatch(/event: change\ndata: \{"seq":"\d+-\d+"\}/);
    await reader.cancel();
  });

  it('answers the feed with text cursors that never go backwards, and refuses a replica too old to read them', async () => {
    const [a, b] = nodes as [RemoteNode, RemoteNode];
    const first = await ok(a, 'GET', '/v1/sync/changes?since=0&limit=5000', undefined, 200);
    expect(first.cursor).toMatch(/^\d+-\d+$/);
    expect(first.changes.length).toBeGreaterThan(0);
    // Each record once, with the cursor of its latest change, in the order of those cursors.
    const keys = first.changes.map((c: { resource: string; id: string }) => `${c.resource}/${c.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const pairs = first.changes.map((c: { seq: string }) => c.seq.split('-').map(BigInt));
    for (let i = 1; i < pairs.length; i++)
      expect(pairs[i][0] > pairs[i - 1][0] || (pairs[i][0] === pairs[i - 1][0] && pairs[i][1] > pairs[i - 1][1])).toBe(true);

    // Nothing new: the same cursor from either node.
    for (const node of [a, b]) {
      const again = await ok(node, 'GET', `/v1/sync/changes?since=${first.cursor}`, undefined, 200);
      expect(again).toMatchObject({ changes: [], cursor: first.cursor, more: false });
    }
    // A write on B is after the cursor A gave.
    const made = await ok(b, 'POST', '/v1/project', { name: 'Hall 8' }, 201);
    const next = await ok(a, 'GET', `/v1/sync/changes?since=${first.cursor}`, undefined, 200);
    expect(next.changes.map((c: { id: string }) => c.id)).toEqual([made.id]);
    expect(next.changes[0].clocks.name).toMatch(/^\d/);

    // The snapshot's seq is such a cursor too, and pages cover every record once.
    const snapshot = await ok(a, 'GET', '/v1/sync/snapshot?limit=2', undefined, 200);
    expect(snapshot.seq).toMatch(/^\d+-\d+$/);
    // It is where the feed ends now (positions compared as numbers: 10 comes after 9).
    expect(Number(next.cursor.split('-')[1])).toBeGreaterThan(9);
    expect(snapshot.seq).toBe(next.cursor);
    expect((await ok(b, 'GET', `/v1/sync/changes?since=${snapshot.seq}`, undefined, 200)).changes).toEqual([]);
    expect(snapshot.records).toHaveLength(2);
    const rest = await ok(a, 'GET', `/v1/sync/snapshot?limit=5000&cursor=${snapshot.cursor}`, undefined, 200);
    const ids = [...snapshot.records, ...rest.records].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(made.id);

    // In rows, page by page with the same cursors, the same records (docs/API.md "Snapshot in rows").
    for (const limit of [5000, 7]) {
      const asRows = await wholeSnapshot(a, limit, true);
      const asRecords = await wholeSnapshot(a, limit, false);
      expect(asRows.cursors).toEqual(asRecords.cursors);
      expect(asRows.records).toEqual(asRecords.records);
      expect(asRows.records.some((r) => r.record.deleted_at)).toBe(true);
    }

    for (const bad of ['abc', '1-2-3', '-1-2', `${'9'.repeat(21)}-1`]) {
      const res = await call(a, 'GET', `/v1/sync/changes?since=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.errors[0].description).toMatch(/since/);
    }
    // A change number is a SQLite remote's cursor (a replica of a remote moved here): start again from a snapshot.
    expect((await call(a, 'GET', '/v1/sync/changes?since=12')).status).toBe(410);
    const old = await fetch(`${a.url}/v1/sync/changes?since=0`, { headers: { ...remoteHeaders, 'x-planner-sync-protocol': '2' } });
    expect(old.status).toBe(426);
    expect(((await old.json()) as { errors: { description: string }[] }).errors[0]!.description).toMatch(/at least 3/);
  });
});

describe('replicas pushing through either node at random', () => {
  const spread: ClientNode[] = [];

  beforeAll(async () => {
    const [a, b] = nodes as [RemoteNode, RemoteNode];
    for (const seed of [11, 12, 13])
      spread.push(await startClient(a, { name: `spread replica ${seed}`, seed, spreadOver: [b.url], syncIntervalMs: 60_000 }));
  }, 120_000);

  afterAll(async () => {
    for (const client of spread) await client.stop().catch(() => undefined);
    for (const client of spread) await client.proxy?.close();
  });

  it('edit apart, field by field, and converge with both nodes and with each other', async () => {
    const [a, b] = nodes as [RemoteNode, RemoteNode];
    const [one, two, three] = spread as [ClientNode, ClientNode, ClientNode];
    const board = await ok(one, 'POST', '/v1/board?with=stages', { name: 'Assembly', stages: [{ name: 'Welding', priority: 0 }] }, 201);
    await syncUntilQuiet(spread, a);
    expect((await ok(b, 'GET', `/v1/board/${board.id}?with=stages`, undefined, 200)).stages[0].name).toBe('Welding');

    // Apart: two replicas change different fields of one board; a third adds records and deletes one.
    await ok(one, 'PUT', `/v1/board/${board.id}`, { name: 'Assembly hall' }, 200);
    await ok(two, 'PUT', `/v1/board/${board.id}`, { color: 'teal' }, 200);
    const order = await ok(three, 'POST', '/v1/order', { code: 'O-77', order_rows: [{ code: 'R-1', quantity: 5 }] }, 201);
    const project = await ok(three, 'POST', '/v1/project', { name: 'Short-lived' }, 201);
    await ok(three, 'DELETE', `/v1/project/${project.id}`, undefined, 204);
    await syncUntilQuiet(spread, b);

    for (const node of [a, b]) {
      const merged = await ok(node, 'GET', `/v1/board/${board.id}`, undefined, 200);
      expect(merged, node.name).toMatchObject({ name: 'Assembly hall', color: 'teal' });
      expect((await ok(node, 'GET', `/v1/order/${order.id}/row`, undefined, 200)).data[0].quantity).toBe(5);
      expect((await call(node, 'GET', `/v1/project/${project.id}`)).status).toBe(404);
    }
    await expectConverged(spread, a, { trash: true, noConflicts: true });
    await expectConverged(spread, b, { trash: true, noConflicts: true });
  });

  it('a batch sent to both nodes at once is applied once: the second waits for the mark and is answered from it', async () => {
    const [a, b] = nodes as [RemoteNode, RemoteNode];
    const clock = new HybridClock('resender0001');
    const ids = [uuidv7(), uuidv7(), uuidv7()];
    const mutations = ids.map((id, i) => ({
      mutation_id: i + 1,
      resource: 'project',
      id,
      op: 'create',
      fields: { name: `Sent twice ${i}` },
      hlc: clock.now(),
    }));
    const send = (node: RemoteNode) => call(node, 'POST', '/v1/sync/push', { client_id: 'resender-0001', mutations });
    const answers = await Promise.all([send(a), send(b)]);
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.last_mutation_id).toBe(3);
      expect(answer.body.results.map((r: { status: string }) => r.status)).toEqual(['applied', 'applied', 'applied']);
    }
    // One of the two applied the batch, the other answered it again from the mark.
    const duplicates = answers.map((answer) => answer.body.results.filter((r: { duplicate?: boolean }) => r.duplicate).length);
    expect(duplicates.sort()).toEqual([0, 3]);
    const feed = await ok(a, 'GET', '/v1/sync/changes?since=0&limit=5000', undefined, 200);
    for (const id of ids) {
      expect(feed.changes.filter((c: { id: string }) => c.id === id)).toHaveLength(1);
      expect((await ok(b, 'GET', `/v1/project/${id}`, undefined, 200)).name).toMatch(/^Sent twice/);
    }
  });
});
