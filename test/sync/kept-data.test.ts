/**
 * Data kept for other app versions, as a member's replica could misuse it (docs/API.md "Versions
 * and unknown data", "Kept data"; security audit N3, I1): a field is kept only on a record the
 * caller may write, a resource may not be named as one of the store's own tables, a value, a
 * record's kept fields and an environment's kept bytes are bounded, an admin lists and removes
 * it, and a change only to kept data is announced on the live channel. A newer app is played by
 * raw pushes; everything else is real: a remote in this process (on PostgreSQL in the `postgres`
 * project) over HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { call, ok, waitFor, type Response } from '../helpers/sync-cluster.js';
import { signInMemberOn, startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';

/** A newer app: the current protocol and a schema this version has not reached. */
const newer = { 'x-planner-sync-protocol': '3', 'x-planner-schema': '99' };
const limits = { valueBytes: 1024, fieldsPerRecord: 4, environmentBytes: 16 * 1024 };

let remote: InProcessRemote;
let member: Record<string, string>;
let memberId: string;
let otherId: string;
let approvedEntryId: string;
let mutationId = 0;
const clientOf = new Map<Record<string, string>, string>();

const hlc = (node: string) => formatHlc({ millis: Date.now() - 1_000, counter: mutationId % 65_536, node });
const asAdmin = () => ({ url: remote.url, headers: remote.headers, name: 'admin' });
const asMember = () => ({ url: remote.url, headers: member, name: 'member' });

/** Pushes one mutation as `headers` (a replica of its own for each caller); answers its result. */
async function push(headers: Record<string, string>, resource: string, id: string, fields: Record<string, unknown>, op = 'update') {
  if (!clientOf.has(headers)) clientOf.set(headers, `kept-${clientOf.size}`);
  const res: Response = await call({ url: remote.url, headers: { ...headers, ...newer } }, 'POST', '/v1/sync/push', {
    client_id: clientOf.get(headers),
    mutations: [{ mutation_id: ++mutationId, resource, id, op, fields, hlc: hlc('newer') }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results[0];
}

/** What the admin's list says is kept for a record (undefined when nothing). */
async function keptOf(resource: string, id: string): Promise<any> {
  const answer = await call(asAdmin(), 'GET', `/v1/sync/kept/${resource}/${id}`);
  if (answer.status === 404) return undefined;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

beforeAll(async () => {
  remote = await startInProcessRemote({ keptLimits: limits });
  member = await signInMemberOn(remote, 'member@kept.test');
  memberId = (await ok(asMember(), 'GET', '/v1/me')).user.id;
  await signInMemberOn(remote, 'other@kept.test');
  otherId = (await ok(asAdmin(), 'GET', `/v1/user?filter=${encodeURIComponent("email:eq:'other@kept.test'")}`)).data[0].id;
  const activity = await ok(asAdmin(), 'POST', '/v1/activity', { description: 'Welding' });
  const entry = await ok(asAdmin(), 'POST', '/v1/time_tracking', {
    user_id: otherId,
    activity_id: activity.id,
    start: '2026-12-01T08:00:00Z',
    end: '2026-12-01T10:00:00Z',
  });
  approvedEntryId = (await ok(asAdmin(), 'PUT', `/v1/time_tracking/${entry.id}`, { status: 'approved' })).id;
});

afterAll(async () => {
  await remote?.close();
});

describe('fields another version sends', () => {
  it("are kept only on a record the caller may write: a member plants nothing on another user's record or approved entry", async () => {
    for (const [resource, id] of [
      ['user', otherId],
      ['time_tracking', approvedEntryId],
    ] as const) {
      const result = await push(member, resource, id, { zz_note: 'planted' });
      expect(result.status, `${resource}: ${JSON.stringify(result)}`).toBe('rejected');
      expectErrorBody(result.error, 10403, 'Forbidden');
      expect(await keptOf(resource, id)).toBeUndefined();
    }
    // The member's own profile is theirs to write: kept, with who wrote it.
    expect((await push(member, 'user', memberId, { zz_note: 'mine' })).status).toBe('applied');
    expect((await keptOf('user', memberId)).fields.zz_note).toMatchObject({ value: 'mine', writer: `user:${memberId}` });
    // The environment's key may write any of them.
    expect((await push(remote.headers, 'time_tracking', approvedEntryId, { zz_payroll_ref: 'P-1' })).status).toBe('applied');
    expect((await keptOf('time_tracking', approvedEntryId)).fields.zz_payroll_ref.writer).toMatch(/^key:/);
  });

  it('are bounded: a value, the kept fields of a record and what the environment keeps, each refused with the error body', async () => {
    const big = await push(member, 'user', memberId, { zz_blob: 'x'.repeat(limits.valueBytes) });
    expect(big.status).toBe('rejected');
    expectErrorBody(big.error, 10422, 'Unprocessable Content');
    expect(big.error.errors[0]).toMatchObject({ field: 'zz_blob', rule: 'maxLength', limit: limits.valueBytes });

    const id = uuidv7();
    const many = await push(member, 'zz_gauge', id, { a1: 1, a2: 2, a3: 3, a4: 4, a5: 5 }, 'create');
    expect(many.status).toBe('rejected');
    expect(many.error.errors[0]).toMatchObject({ field: 'fields', rule: 'maximum', limit: limits.fieldsPerRecord });
    expect(await keptOf('zz_gauge', id)).toBeUndefined();

    // Records of 900 bytes each until the environment holds what it keeps.
    const results: any[] = [];
    for (let i = 0; i < 40 && results.at(-1)?.status !== 'rejected'; i++)
      results.push(await push(member, 'zz_gauge', uuidv7(), { note: 'y'.repeat(900) }, 'create'));
    const refused = results.at(-1)!;
    expect(refused.status).toBe('rejected');
    expectErrorBody(refused.error, 10507, 'Insufficient Storage');
    expect(refused.error.errors[0].description).toMatch(/keeps at most 16384.*GET \/v1\/sync\/kept/);
    const list = await ok(asAdmin(), 'GET', '/v1/sync/kept?limit=1000');
    expect(list.bytes).toBeLessThanOrEqual(limits.environmentBytes);
    expect(list.max_bytes).toBe(limits.environmentBytes);
    expect(list.data.filter((r: any) => r.resource === 'zz_gauge')).toHaveLength(results.length - 1);
  });
});

describe('records of a resource another version declares', () => {
  it('are refused when named as one of the store’s own tables, and nothing is kept', async () => {
    for (const name of ['api_key', 'signing_key', 'sync_outbox', 'change_log', 'kept_field', 'sqlite_master', 'pg_roles']) {
      const id = uuidv7();
      const result = await push(member, name, id, { secret: 'x', role: 'admin' }, 'create');
      expect(result.status, name).toBe('rejected');
      // (The body check refuses any text naming SQLite, which these names do.)
      if (!/^(sqlite|pg)_/.test(name)) expectErrorBody(result.error, 10422, 'Unprocessable Content');
      expect(result.error.errors[0]).toMatchObject({ field: 'resource', description: expect.stringMatching(/keeps for itself/) });
      expect(await keptOf(name, id)).toBeUndefined();
    }
  });

  it('are announced on the live channel when only kept data changed', async () => {
    const controller = new AbortController();
    try {
      const response = await fetch(`${remote.url}/v1/sync/stream`, { headers: remote.headers, signal: controller.signal });
      const reader = response.body!.getReader();
      let text = '';
      const seqs = () => [...text.matchAll(/"seq":"?([\w-]+)"?/g)].map((m) => m[1]);
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += new TextDecoder().decode(value);
        }
      })().catch(() => undefined);
      await waitFor(() => seqs().length === 1, 'the first event', 5_000, 10);
      expect((await push(member, 'zz_fixture', uuidv7(), { name: 'Clamp' }, 'create')).status).toBe('applied');
      await waitFor(() => seqs().length === 2, 'an event for the kept record', 5_000, 10);
      expect(seqs()[1]).not.toBe(seqs()[0]);
      controller.abort();
      await reading;
    } finally {
      controller.abort();
    }
  });
});

describe('an admin', () => {
  it('lists what is kept, sees a record of it, and removes a field or all of it; a member may not', async () => {
    const id = uuidv7();
    expect((await push(member, 'zz_mould', id, { name: 'M-7', cavity: 4 }, 'create')).status).toBe('applied');
    const refusedList = await call(asMember(), 'GET', '/v1/sync/kept');
    expect(refusedList.status, JSON.stringify(refusedList.body)).toBe(403);
    expect((await call(asMember(), 'DELETE', `/v1/sync/kept/zz_mould/${id}`)).status).toBe(403);

    const list = await ok(asAdmin(), 'GET', '/v1/sync/kept?resource=zz_mould');
    expect(list).toMatchObject({ count: 1, limit: 100, offset: 0, bytes: expect.any(Number) });
    expect(list.data).toEqual([
      {
        resource: 'zz_mould',
        record_id: id,
        fields: ['cavity', 'name'],
        bytes: expect.any(Number),
        clock: expect.any(String),
        writers: [`user:${memberId}`],
        declared_resource: false,
      },
    ]);
    const record = await keptOf('zz_mould', id);
    expect(record.fields.cavity).toMatchObject({ value: 4, writer: `user:${memberId}`, bytes: 'cavity'.length + 1 });

    expect(await ok(asAdmin(), 'DELETE', `/v1/sync/kept/zz_mould/${id}?field=cavity`, undefined, 200)).toEqual({
      resource: 'zz_mould',
      record_id: id,
      removed: ['cavity'],
    });
    expect(Object.keys((await keptOf('zz_mould', id)).fields)).toEqual(['name']);
    expect((await ok(asAdmin(), 'DELETE', `/v1/sync/kept/zz_mould/${id}`, undefined, 200)).removed).toEqual(['name']);
    expect(await keptOf('zz_mould', id)).toBeUndefined();
    const again = await call(asAdmin(), 'DELETE', `/v1/sync/kept/zz_mould/${id}`);
    expect(again.status).toBe(404);
    expectErrorBody(again.body, 10404, 'Not Found');
    // Gone from what admins' replicas pull too.
    const changes = await ok({ ...asAdmin(), headers: { ...remote.headers, ...newer } }, 'GET', '/v1/sync/changes?since=0&limit=5000');
    expect(changes.changes.filter((c: any) => c.id === id)).toEqual([]);

    for (const path of ['/v1/sync/kept?resource=Not-A-Name', '/v1/sync/kept?limit=x', '/v1/sync/kept/Bad-Name/1']) {
      const bad = await call(asAdmin(), 'GET', path);
      expect(bad.status, path).toBe(400);
      expectErrorBody(bad.body, 10400, 'Bad Request');
    }
  });
});
