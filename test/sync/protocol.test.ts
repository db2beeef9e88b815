/**
 * The remote's sync protocol over real HTTP on 127.0.0.1 (docs/API.md "Sync", docs/architecture.md
 * "Sync"): push idempotency per client, increasing mutation ids, malformed mutations, per-field
 * last-writer-wins by hybrid clock (ties by node id), a delete beating a concurrent edit, the
 * changes feed with its cursor and paging, 410 for a cursor older than the remote keeps,
 * snapshot paging, and environments that never cross.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationHash } from '../../electron/store/sync-book.js';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { syncProtocol } from '../../shared/sync.js';
import type { Mutation } from '../../shared/operations/sync.js';
import { call, ok, remoteHeaders, type Response } from '../helpers/sync-cluster.js';
import { startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';

let remote: InProcessRemote;
const t0 = Date.now() - 60_000;

/** A clock `ms` after t0 on `node`. */
const hlc = (ms: number, node = 'nodeA', counter = 0) => formatHlc({ millis: t0 + ms, counter, node });

interface M {
  mutation_id: number;
  resource?: string;
  id: string;
  op: 'create' | 'update' | 'delete' | string;
  fields?: Record<string, unknown> | null;
  hlc: string;
}

const mutation = (m: M) => ({ resource: 'project', fields: null, ...m });

function push(
  clientId: string,
  mutations: unknown[],
  headers: Record<string, string> = remoteHeaders,
  target: InProcessRemote = remote,
): Promise<Response> {
  return call({ url: target.url, headers }, 'POST', '/v1/sync/push', { client_id: clientId, mutations });
}

async function pushOk(clientId: string, mutations: unknown[]): Promise<any[]> {
  const res = await push(clientId, mutations);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results;
}

function expectErrorBody(body: any, status: number): void {
  expect(body.reference).toMatch(/^[0-9a-f-]{36}$/);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const error of body.errors) {
    expect(error).toMatchObject({ code: 10000 + status, message: expect.any(String), description: expect.any(String) });
  }
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|SELECT |INSERT |sqlite/i);
}

function expect400(res: Response, description: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expectErrorBody(res.body, 400);
  expect(res.body.errors[0].description).toMatch(description);
}

const project = (id: string) => ok(remote, 'GET', `/v1/project/${id}`, undefined, 200);
const seq = async (target: InProcessRemote = remote) =>
  (await ok(target, 'GET', '/v1/sync/snapshot?limit=1', undefined, 200)).seq as number;
const create = (mutation_id: number, id: string, name: string, at: string, extra: Record<string, unknown> = {}) =>
  mutation({
    mutation_id,
    id,
    op: 'create',
    fields: { name, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', ...extra },
    hlc: at,
  });

beforeAll(async () => {
  remote = await startInProcessRemote();
});

afterAll(async () => {
  await remote?.close();
});

describe('push', () => {
  it('is idempotent per client: a repeated batch is acknowledged as duplicate and applied once', async () => {
    const p1 = uuidv7();
    const p2 = uuidv7();
    const batch = [
      create(1, p1, 'Idem 1', hlc(1, 'idem')),
      mutation({ mutation_id: 2, id: p1, op: 'update', fields: { description: 'first' }, hlc: hlc(2, 'idem') }),
      create(3, p2, 'Idem 2', hlc(3, 'idem')),
    ];
    const first = await push('idem', batch);
    expect(first.status).toBe(200);
    expect(first.body.results).toEqual([1, 2, 3].map((id) => ({ mutation_id: id, status: 'applied' })));
    expect(first.body.last_mutation_id).toBe(3);
    const before = await seq();

    const again = await push('idem', batch);
    expect(again.body.results).toEqual(
      [1, 2, 3].map((id, i) => ({ mutation_id: id, status: 'applied', duplicate: true, hash: mutationHash(batch[i] as Mutation) })),
    );
    expect(await seq(), 'nothing was written again').toBe(before);
    expect(await project(p1)).toMatchObject({ name: 'Idem 1', description: 'first' });

    // An overlapping retry: the known part is acknowledged, the new part applied.
    const overlap = await pushOk('idem', [
      batch[2],
      mutation({ mutation_id: 4, id: p2, op: 'update', fields: { description: 'fourth' }, hlc: hlc(4, 'idem') }),
    ]);
    expect(overlap).toEqual([
      { mutation_id: 3, status: 'applied', duplicate: true, hash: mutationHash(batch[2] as Mutation) },
      { mutation_id: 4, status: 'applied' },
    ]);
    expect(await project(p2)).toMatchObject({ description: 'fourth' });

    // Another client's mutation 1 is its own.
    const other = uuidv7();
    expect(await pushOk('idem-other', [create(1, other, 'Other 1', hlc(5, 'other'))])).toEqual([{ mutation_id: 1, status: 'applied' }]);
    const count = (await ok(remote, 'GET', '/v1/project?limit=0&filter=name:starts_with:Idem')).count;
    expect(count).toBe(2);
  });

  it('needs increasing mutation ids within a batch (400), and then applies nothing of it', async () => {
    const id = uuidv7();
    expect400(
      await push('order', [create(5, id, 'Order 5', hlc(10, 'order')), create(4, uuidv7(), 'Order 4', hlc(11, 'order'))]),
      /increasing/,
    );
    expect400(
      await push('order', [create(5, id, 'Order 5', hlc(10, 'order')), create(5, uuidv7(), 'Order 5b', hlc(11, 'order'))]),
      /increasing/,
    );
    expect((await call(remote, 'GET', `/v1/project/${id}`)).status).toBe(404);
  });

  it('refuses a malformed push or mutation as a whole (400 with the error body)', async () => {
    const good = create(1, uuidv7(), 'Never applied', hlc(20, 'bad'));
    expect400(await push('bad', [good, mutation({ mutation_id: 2, id: uuidv7(), op: 'upsert', hlc: hlc(21, 'bad') })]), /mutations\.1\.op/);
    expect400(await push('bad', [good, mutation({ mutation_id: 2, id: uuidv7(), op: 'update', hlc: 'yesterday' })]), /mutations\.1\.hlc/);
    expect400(await push('bad', [mutation({ mutation_id: 1, id: 'not-a-uuid', op: 'create', hlc: hlc(22, 'bad') })]), /mutations\.0\.id/);
    expect400(await push('bad', [mutation({ mutation_id: 0, id: uuidv7(), op: 'create', hlc: hlc(22, 'bad') })]), /mutation_id/);
    expect400(
      await push('bad', [mutation({ mutation_id: 1, id: uuidv7(), op: 'update', fields: ['x'] as never, hlc: hlc(22, 'bad') })]),
      /fields/,
    );
    expect400(await push('bad', [7]), /mutations\.0/);
    expect400(await push('bad weird id!', [good]), /client_id/);
    expect400(await call(remote, 'POST', '/v1/sync/push', { mutations: [good] }), /client_id/);
    expect400(await call(remote, 'POST', '/v1/sync/push', { client_id: 'bad', mutations: 'all' }), /mutations must be a list/);
    const many = Array.from({ length: 1001 }, (_, i) => create(i + 1, uuidv7(), `Many ${i}`, hlc(30, 'bad', i)));
    expect400(await push('bad', many), /1000/);
    // Nothing of those batches landed.
    expect((await ok(remote, 'GET', '/v1/project?limit=0&filter=name:eq:Never applied')).count).toBe(0);
  });

  it("rejects a mutation the remote cannot apply, with the error and the remote's record, and goes on with the rest", async () => {
    const existing = uuidv7();
    await pushOk('reject', [create(1, existing, 'Existing', hlc(40, 'reject'))]);
    const results = await pushOk('reject', [
      mutation({ mutation_id: 2, resource: 'spaceship', id: uuidv7(), op: 'create', fields: { name: 'x' }, hlc: hlc(41, 'reject') }),
      mutation({
        mutation_id: 3,
        resource: 'webhook',
        id: uuidv7(),
        op: 'create',
        fields: { url: 'http://127.0.0.1/x' },
        hlc: hlc(42, 'reject'),
      }),
      create(4, uuidv7(), 'x'.repeat(151), hlc(43, 'reject')),
      mutation({ mutation_id: 5, id: uuidv7(), op: 'create', fields: { description: 'no name' }, hlc: hlc(44, 'reject') }),
      mutation({ mutation_id: 6, id: existing, op: 'update', fields: { name: null }, hlc: hlc(45, 'reject') }),
      mutation({ mutation_id: 7, id: existing, op: 'update', fields: { description: 'still applied' }, hlc: hlc(46, 'reject') }),
    ]);
    // A resource this version does not declare is another version's: kept, not refused
    // (docs/API.md "Versions and unknown data"); one it declares that does not sync is refused.
    expect(results.map((r) => r.status)).toEqual(['applied', 'rejected', 'rejected', 'rejected', 'rejected', 'applied']);
    for (const r of results.slice(1, 5)) expectErrorBody(r.error, 422);
    expect(results[1]).toMatchObject({ record: null, error: { errors: [expect.objectContaining({ field: 'resource' })] } });
    expect(results[2]).toMatchObject({ record: null, error: { errors: [expect.objectContaining({ field: 'name' })] } });
    expect(results[3]).toMatchObject({ record: null, error: { errors: [expect.objectContaining({ field: 'name' })] } });
    // A refused edit of an existing record comes back with the record and its clocks.
    expect(results[4]).toMatchObject({ record: { id: existing, name: 'Existing', deleted_at: null }, clocks: { name: hlc(40, 'reject') } });
    expect(await project(existing)).toMatchObject({ name: 'Existing', description: 'still applied' });
  });

  it('does not apply a clock more than minutes ahead of the remote, so a broken replica clock cannot pin a field', async () => {
    const id = uuidv7();
    await pushOk('skew', [create(1, id, 'Skew', hlc(50, 'skew'))]);
    const future = formatHlc({ millis: Date.now() + 365 * 24 * 3600 * 1000, counter: 0, node: 'broken' });
    const broken = await pushOk('broken', [
      mutation({ mutation_id: 1, id, op: 'update', fields: { name: 'from a broken clock' }, hlc: future }),
    ]);
    expect(broken).toMatchObject([{ mutation_id: 1, status: 'deferred' }]);
    const now = formatHlc({ millis: Date.now(), counter: 0, node: 'sane' });
    await pushOk('sane', [mutation({ mutation_id: 1, id, op: 'update', fields: { name: 'a real later edit' }, hlc: now })]);
    expect(await project(id)).toMatchObject({ name: 'a real later edit' });
  });
});

describe('merge on the remote', () => {
  it('is last-writer-wins per field by hybrid clock, whatever the arrival order', async () => {
    const id = uuidv7();
    await pushOk('lww-x', [create(1, id, 'LWW', hlc(100, 'x'), { description: 'd0', code: 'c0' })]);
    // A newer name arrives first, then an older name and an older description from another replica.
    expect(
      await pushOk('lww-x', [mutation({ mutation_id: 2, id, op: 'update', fields: { name: 'newer name' }, hlc: hlc(130, 'x') })]),
    ).toEqual([{ mutation_id: 2, status: 'applied' }]);
    const late = await pushOk('lww-y', [
      mutation({ mutation_id: 1, id, op: 'update', fields: { name: 'older name', description: 'older description' }, hlc: hlc(110, 'y') }),
    ]);
    // Its name lost to a later one: the answer carries the remote's version, so the replica
    // can tell the planner (docs/API.md "Overruled edits").
    expect(late).toEqual([
      {
        mutation_id: 1,
        status: 'applied',
        record: expect.objectContaining({ id, name: 'newer name' }),
        clocks: expect.objectContaining({ name: hlc(130, 'x') }),
      },
    ]);
    expect(await project(id)).toMatchObject({ name: 'newer name', description: 'older description', code: 'c0' });
    // An older clock for a field never overwrites; a newer one does.
    await pushOk('lww-y', [mutation({ mutation_id: 2, id, op: 'update', fields: { code: 'c-old' }, hlc: hlc(90, 'y') })]);
    expect(await project(id)).toMatchObject({ code: 'c0' });
    await pushOk('lww-y', [mutation({ mutation_id: 3, id, op: 'update', fields: { code: 'c-new' }, hlc: hlc(140, 'y') })]);
    expect(await project(id)).toMatchObject({ code: 'c-new' });
    const change = (await ok(remote, 'GET', '/v1/sync/changes?since=0&limit=5000')).changes.find((c: any) => c.id === id);
    expect(change.clocks).toMatchObject({ name: hlc(130, 'x'), description: hlc(110, 'y'), code: hlc(140, 'y') });
  });

  it('breaks ties of time and counter by node id, in either arrival order', async () => {
    const first = uuidv7();
    const second = uuidv7();
    await pushOk('tie-setup', [create(1, first, 'Tie 1', hlc(200, 'setup')), create(2, second, 'Tie 2', hlc(200, 'setup'))]);
    const low = (id: string, n: number) =>
      mutation({ mutation_id: n, id, op: 'update', fields: { name: 'from aaa' }, hlc: hlc(210, 'aaa') });
    const high = (id: string, n: number) =>
      mutation({ mutation_id: n, id, op: 'update', fields: { name: 'from zzz' }, hlc: hlc(210, 'zzz') });
    await pushOk('tie-zzz', [high(first, 1)]);
    await pushOk('tie-aaa', [low(first, 1)]);
    await pushOk('tie-aaa', [low(second, 2)]);
    await pushOk('tie-zzz', [high(second, 2)]);
    expect(await project(first)).toMatchObject({ name: 'from zzz' });
    expect(await project(second)).toMatchObject({ name: 'from zzz' });
  });

  it('lets a delete beat a concurrent edit (refused with 409 and the deleted record), and restores only by a newer restore', async () => {
    const id = uuidv7();
    await pushOk('del-x', [create(1, id, 'Deleted', hlc(300, 'x'))]);
    expect(
      await pushOk('del-x', [
        mutation({ mutation_id: 2, id, op: 'delete', fields: { deleted_at: '2026-01-02T00:00:00Z' }, hlc: hlc(320, 'x') }),
      ]),
    ).toEqual([{ mutation_id: 2, status: 'applied' }]);
    for (const [n, at] of [
      [1, 340],
      [2, 310],
    ] as const) {
      const [result] = await pushOk('del-y', [
        mutation({ mutation_id: n, id, op: 'update', fields: { name: `edit at ${at}` }, hlc: hlc(at, 'y') }),
      ]);
      expect(result).toMatchObject({
        status: 'rejected',
        record: { id, name: 'Deleted', deleted_at: expect.any(String) },
        clocks: { deleted_at: hlc(320, 'x') },
      });
      expect(result.error.errors[0]).toMatchObject({ code: 10409 });
      expectErrorBody(result.error, 409);
    }
    expect((await call(remote, 'GET', `/v1/project/${id}`)).status).toBe(404);
    expect((await ok(remote, 'GET', '/v1/trash/project?limit=1000')).data.map((r: any) => r.id)).toContain(id);
    // Deleting again is a no-op; a restore older than the delete is refused; a newer one restores.
    expect(
      await pushOk('del-y', [
        mutation({ mutation_id: 3, id, op: 'delete', fields: { deleted_at: '2026-01-03T00:00:00Z' }, hlc: hlc(350, 'y') }),
      ]),
    ).toEqual([{ mutation_id: 3, status: 'applied' }]);
    const [old] = await pushOk('del-y', [mutation({ mutation_id: 4, id, op: 'update', fields: { deleted_at: null }, hlc: hlc(315, 'y') })]);
    expect(old.status).toBe('rejected');
    await pushOk('del-y', [mutation({ mutation_id: 5, id, op: 'update', fields: { deleted_at: null }, hlc: hlc(360, 'y') })]);
    expect(await project(id)).toMatchObject({ name: 'Deleted' });
  });
});

describe('pull', () => {
  it('pages the changes in commit order with a cursor; each record once, at its latest change', async () => {
    const start = await seq();
    const ids = Array.from({ length: 7 }, () => uuidv7());
    await pushOk(
      'feed',
      ids.map((id, i) => create(i + 1, id, `Feed ${i}`, hlc(400 + i, 'feed'))),
    );
    await pushOk('feed', [
      mutation({ mutation_id: 8, id: ids[1]!, op: 'update', fields: { name: 'Feed 1 again' }, hlc: hlc(410, 'feed') }),
    ]);
    const latest = await seq();

    const seen: any[] = [];
    let cursor = start;
    for (let page = 0; page < 20; page++) {
      const body = await ok(remote, 'GET', `/v1/sync/changes?since=${cursor}&limit=3`, undefined, 200);
      expect(body.changes.length).toBeLessThanOrEqual(3);
      expect(body.cursor).toBeGreaterThanOrEqual(cursor);
      seen.push(...body.changes);
      cursor = body.cursor;
      if (!body.more) break;
      expect(body.changes.length).toBe(3);
    }
    expect(cursor).toBe(latest);
    expect(seen.map((c) => c.id).sort()).toEqual([...ids].sort());
    const seqs = seen.map((c) => c.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(seen[seen.length - 1]).toMatchObject({
      id: ids[1],
      resource: 'project',
      record: { name: 'Feed 1 again', deleted_at: null },
      clocks: { name: hlc(410, 'feed') },
    });
    for (const change of seen) expect(change.seq).toBeGreaterThan(start);

    const after = await ok(remote, 'GET', `/v1/sync/changes?since=${cursor}`, undefined, 200);
    expect(after).toEqual({
      changes: [],
      cursor,
      more: false,
      protocol: syncProtocol,
      schema: expect.any(Number),
      server_time: expect.any(Number),
    });
    expect400(await call(remote, 'GET', '/v1/sync/changes?since=abc'), /since/);
    expect400(await call(remote, 'GET', '/v1/sync/changes?since=0&limit=0'), /limit/);
    expect400(await call(remote, 'GET', '/v1/sync/changes?since=0&limit=5001'), /limit/);
  });

  it('answers 410 with the error body for a cursor older than what the remote keeps', async () => {
    const small = await startInProcessRemote({ retention: 5, name: 'remote (retention 5)' });
    try {
      const ids = Array.from({ length: 10 }, () => uuidv7());
      const res = await push(
        'gone',
        ids.map((id, i) => create(i + 1, id, `Gone ${i}`, hlc(500 + i, 'gone'))),
        remoteHeaders,
        small,
      );
      expect(res.status).toBe(200);
      const latest = await seq(small);
      const gone = await call(small, 'GET', '/v1/sync/changes?since=0');
      expect(gone.status).toBe(410);
      expectErrorBody(gone.body, 410);
      expect(gone.body.errors[0]).toMatchObject({ code: 10410, message: 'Gone', description: expect.stringMatching(/snapshot/) });
      // The kept tail still answers, and a snapshot still has everything.
      const tail = await ok(small, 'GET', `/v1/sync/changes?since=${latest - 5}`, undefined, 200);
      expect(tail.changes).toHaveLength(5);
      const snapshot = await ok(small, 'GET', '/v1/sync/snapshot?limit=5000', undefined, 200);
      expect(snapshot.records.map((r: any) => r.id).sort()).toEqual([...ids].sort());
      expect(snapshot).toMatchObject({ cursor: null, seq: latest });
    } finally {
      await small.close();
    }
  });

  it('pages a snapshot over every record exactly once, deleted ones included', async () => {
    // Some records of other resources, and a deleted one.
    const item = uuidv7();
    const deleted = uuidv7();
    await pushOk('snap', [
      mutation({ mutation_id: 1, resource: 'item', id: item, op: 'create', fields: { description: 'Snap item' }, hlc: hlc(600, 'snap') }),
      create(2, deleted, 'Snap deleted', hlc(601, 'snap')),
      mutation({ mutation_id: 3, id: deleted, op: 'delete', fields: { deleted_at: '2026-01-01T00:00:00Z' }, hlc: hlc(602, 'snap') }),
    ]);
    const whole = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000', undefined, 200);
    expect(whole.cursor).toBeNull();
    const key = (r: any) => `${r.resource}/${r.id}`;
    const all = whole.records.map(key);
    expect(new Set(all).size).toBe(all.length);

    const paged: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body: any = await ok(remote, 'GET', `/v1/sync/snapshot?limit=7${cursor ? `&cursor=${cursor}` : ''}`, undefined, 200);
      expect(body.records.length).toBeLessThanOrEqual(7);
      expect(body.seq, 'every page names the change number the snapshot started at').toBe(whole.seq);
      paged.push(...body.records);
      cursor = body.cursor;
    } while (cursor !== null && ++pages < 500);
    expect(cursor).toBeNull();
    expect(paged.map(key)).toEqual(all);
    expect(paged.find((r) => r.id === item)).toMatchObject({ resource: 'item', record: { description: 'Snap item' } });
    expect(paged.find((r) => r.id === deleted)).toMatchObject({
      resource: 'project',
      record: { deleted_at: expect.any(String) },
      clocks: { deleted_at: hlc(602, 'snap') },
    });
    expect400(await call(remote, 'GET', '/v1/sync/snapshot?cursor=garbage'), /cursor/);
  });
});

describe('environments', () => {
  it('never cross: a key of one environment cannot push into or read another (401), and data stays apart', async () => {
    remote.addEnvironment('other', 'other-key');
    const other = { 'x-api-env': 'other', 'x-api-key': 'other-key' };
    const id = uuidv7();
    const mutations = [create(1, id, 'Only in other', hlc(700, 'env'))];
    for (const headers of [
      { 'x-api-env': 'other', 'x-api-key': 'remote-key' },
      { 'x-api-env': 'prod', 'x-api-key': 'other-key' },
      { 'x-api-env': 'prod' } as Record<string, string>,
      {},
    ]) {
      const res = await push('env', mutations, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expectErrorBody(res.body, 401);
      expect((await call({ url: remote.url, headers }, 'GET', '/v1/sync/changes?since=0')).status).toBe(401);
      expect((await call({ url: remote.url, headers }, 'GET', '/v1/sync/snapshot')).status).toBe(401);
    }
    expect((await push('env', mutations, other)).status).toBe(200);
    expect((await call({ url: remote.url, headers: other }, 'GET', `/v1/project/${id}`)).status).toBe(200);
    expect((await call(remote, 'GET', `/v1/project/${id}`)).status).toBe(404);
    const prodChanges = await ok(remote, 'GET', '/v1/sync/changes?since=0&limit=5000', undefined, 200);
    expect(prodChanges.changes.map((c: any) => c.id)).not.toContain(id);
    const prodSnapshot = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000', undefined, 200);
    expect(prodSnapshot.records.map((r: any) => r.id)).not.toContain(id);
    // Each environment keeps its own per-client high-water mark.
    const again = await push('env', [create(1, uuidv7(), 'Prod 1', hlc(701, 'env'))]);
    expect(again.body.results).toEqual([{ mutation_id: 1, status: 'applied' }]);
  });
});
