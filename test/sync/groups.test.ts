/**
 * A planner's action syncs whole (docs/API.md "Sync", "Actions sync whole"): the outbox rows
 * of a command carry its id as their group, the push carries the group and its description,
 * and the remote applies a group all or nothing. A refused group is one conflict on the
 * replica, described as the action ("Move 5 cards"), with every mutation's data kept. Real
 * SQLite, real HTTP on 127.0.0.1: an in-process remote and in-process replicas.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookOf } from '../../electron/api/sync/books.js';
import { openDatabase } from '../../electron/store/database.js';
import { EnvironmentStore } from '../../electron/store/environment-store.js';
import { environmentMigrations } from '../../electron/store/migrations/environment/index.js';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { tempDir } from '../helpers/api.js';
import { call, ok } from '../helpers/sync-cluster.js';
import { createCollection, createPlanningBase, type PlanningBase } from '../helpers/sync-data.js';
import { startInProcessClient, startInProcessRemote, type InProcessClient, type InProcessRemote } from '../helpers/sync-inprocess.js';

let remote: InProcessRemote;
let a: InProcessClient;
let base: PlanningBase;

const runSync = (client: InProcessClient): Promise<any> => ok(client, 'POST', '/v1/sync/run', undefined, 200);
const clientStore = (client: InProcessClient) => client.instance.dataDir.environment(client.instance.environment.id);

beforeAll(async () => {
  remote = await startInProcessRemote();
  a = await startInProcessClient(remote.url, 'A');
  base = await createPlanningBase(a, 'Groups');
  expect((await runSync(a)).error).toBeNull();
});

afterAll(async () => {
  await a?.close();
  await remote?.close();
});

/** Five cards of a new collection on A, each on its own day in December 2026, synced to the remote. */
async function fiveCards(name: string): Promise<{ collectionId: string; ids: string[] }> {
  const collection = await createCollection(a, base, name);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    const day = String(1 + i).padStart(2, '0');
    ids.push(
      (
        await ok(
          a,
          'POST',
          `/v1/collection/${collection.id}/card`,
          { stage_id: base.stages[0], name: `${name} ${i}`, start_date: `2026-12-${day}`, end_date: `2026-12-${day}` },
          201,
        )
      ).id,
    );
  }
  expect((await runSync(a)).error).toBeNull();
  return { collectionId: collection.id, ids };
}

/** Each card two weeks later. */
const twoWeeksLater = (ids: string[]) =>
  ids.map((id, i) => {
    const day = String(15 + i).padStart(2, '0');
    return { id, start_date: `2026-12-${day}`, end_date: `2026-12-${day}` };
  });

async function startDates(
  node: { url: string; headers: Record<string, string>; name: string },
  collectionId: string,
  ids: string[],
): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const id of ids) {
    const res = await call(node, 'GET', `/v1/collection/${collectionId}/card/${id}`);
    out.push(res.status === 200 ? res.body.start_date : null);
  }
  return out;
}

describe('a planner action syncs as one group', () => {
  it("queues a command's writes under its id, with its description, on the way out", async () => {
    const { ids } = await fiveCards('Queued');
    const moved = await ok(a, 'POST', '/v1/command/move_cards', { cards: twoWeeksLater(ids) }, 200);
    expect(moved.description).toBe('Move 5 cards');
    const pending = (await ok(a, 'GET', '/v1/sync/pending?limit=1000', undefined, 200)).data as any[];
    const cards = pending.filter((m) => m.resource === 'card');
    expect(cards.map((m) => m.id).sort()).toEqual([...ids].sort());
    for (const m of pending) expect(m).toMatchObject({ group_id: moved.command_id, group_description: 'Move 5 cards' });
    expect((await runSync(a)).error).toBeNull();
  });

  it('never cuts a group across two pushes: the push ends before it, or takes it whole when it alone is larger', async () => {
    const { ids } = await fiveCards('Batched');
    const project = await ok(a, 'POST', '/v1/project', { name: 'Before the move' }, 201);
    const moved = await ok(a, 'POST', '/v1/command/move_cards', { cards: twoWeeksLater(ids) }, 200);
    const book = bookOf(clientStore(a));
    const all = book.pending(1000);
    const group = all.filter((m) => m.group_id === moved.command_id);
    expect(group.length).toBeGreaterThanOrEqual(5);
    // The project's create and then the move: a push of 3 ends after the project.
    expect(all[0]).toMatchObject({ resource: 'project', id: project.id });
    expect(book.nextPush(3).map((m) => m.mutation_id)).toEqual([all[0]!.mutation_id]);
    // What would fit is sent as it is.
    expect(book.nextPush(1 + group.length)).toHaveLength(1 + group.length);
    expect((await runSync(a)).error).toBeNull();
    // The group first and larger than the push: it goes whole, alone.
    const again = await ok(
      a,
      'POST',
      '/v1/command/move_cards',
      { cards: ids.map((id) => ({ id, start_date: '2026-12-28', end_date: '2026-12-28' })) },
      200,
    );
    await ok(a, 'POST', '/v1/project', { name: 'After the move' }, 201);
    const next = book.nextPush(2);
    expect(next.length).toBeGreaterThanOrEqual(5);
    expect(next.every((m) => m.group_id === again.command_id)).toBe(true);
    expect((await runSync(a)).error).toBeNull();
    expect(book.pendingCount()).toBe(0);
  });

  it('moves none of 5 cards on the remote when it refuses one, shows ONE conflict "Move 5 cards" that keeps every change, and lands the next move whole', async () => {
    const { collectionId, ids } = await fiveCards('Refused');
    const before = await startDates(remote, collectionId, ids);
    // Meanwhile, on the remote, the last card is deleted; A has not pulled that yet.
    await ok(remote, 'DELETE', `/v1/collection/${collectionId}/card/${ids[4]}`, undefined, 204);
    const moved = await ok(a, 'POST', '/v1/command/move_cards', { cards: twoWeeksLater(ids) }, 200);
    expect(moved.description).toBe('Move 5 cards');

    const summary = await runSync(a);
    expect(summary.error).toBeNull();
    expect(summary.rejected).toBeGreaterThanOrEqual(5);
    // None of the five moved on the remote.
    expect(await startDates(remote, collectionId, ids)).toEqual([...before.slice(0, 4), null]);

    const list = (await ok(a, 'GET', '/v1/sync/conflict?limit=1000', undefined, 200)) as any;
    const ours = list.data.filter((c: any) => c.group?.id === moved.command_id);
    expect(ours).toHaveLength(1);
    expect(list.count).toBe(list.data.length);
    const conflict = ours[0];
    expect(conflict.group.description).toBe('Move 5 cards');
    // Nothing typed is lost: every card's move is kept with its data, the reason and the remote's version.
    const cardItems = conflict.group.items.filter((item: any) => item.mutation.resource === 'card');
    expect(cardItems.map((item: any) => item.mutation.id).sort()).toEqual([...ids].sort());
    for (const [i, id] of ids.entries()) {
      expect(cardItems.find((item: any) => item.mutation.id === id).mutation.fields).toMatchObject({
        start_date: twoWeeksLater(ids)[i]!.start_date,
      });
    }
    const deleted = cardItems.find((item: any) => item.mutation.id === ids[4]);
    expect(deleted.error.errors[0]).toMatchObject({ code: 10409, description: expect.stringMatching(/deleted/) });
    const other = cardItems.find((item: any) => item.mutation.id === ids[0]);
    expect(other.error.errors[0]).toMatchObject({ code: 10409, description: expect.stringContaining('Move 5 cards') });
    expect(other.server_record).toMatchObject({ id: ids[0], start_date: before[0] });
    expect((await ok(a, 'GET', '/v1/sync/status', undefined, 200)).conflicts).toBe(1);
    // Any of the group's ids names the whole action.
    const lastRow = clientStore(a)
      .db.prepare('SELECT id FROM sync_conflict WHERE group_id = ? ORDER BY mutation_id DESC LIMIT 1')
      .get(moved.command_id) as { id: string };
    expect((await ok(a, 'GET', `/v1/sync/conflict/${lastRow.id}`, undefined, 200)).id).toBe(conflict.id);

    // An action is retried as it was: edits are refused with 422, and nothing changes.
    const edited = await call(a, 'POST', `/v1/sync/conflict/${conflict.id}/retry`, { name: 'Other' });
    expect(edited.status).toBe(422);
    expect(edited.body.errors[0]).toMatchObject({ code: 10422, field: 'body' });
    // Discard applies to the whole action.
    const discarded = await ok(a, 'POST', `/v1/sync/conflict/${conflict.id}/discard`, undefined, 200);
    expect(discarded).toMatchObject({ resolution: 'discarded', group: { id: moved.command_id } });
    const open = clientStore(a)
      .db.prepare('SELECT count(*) AS n FROM sync_conflict WHERE group_id = ? AND resolved_at IS NULL')
      .get(moved.command_id) as { n: number };
    expect(open.n).toBe(0);
    expect((await ok(a, 'GET', '/v1/sync/status', undefined, 200)).conflicts).toBe(0);

    // The planner moves the four cards left as one action again: the remote accepts it whole.
    const four = twoWeeksLater(ids).slice(0, 4);
    const again = await ok(a, 'POST', '/v1/command/move_cards', { cards: four }, 200);
    expect(again.description).toBe('Move 4 cards');
    expect(await runSync(a)).toMatchObject({ error: null, rejected: 0 });
    expect(await startDates(remote, collectionId, ids)).toEqual([...four.map((c) => c.start_date), null]);
    expect((await ok(a, 'GET', '/v1/sync/conflict', undefined, 200)).count).toBe(0);
  });

  it('retries a refused action whole: its changes are written again as one new action, which the remote takes whole', async () => {
    const { collectionId, ids } = await fiveCards('Retried');
    // Meanwhile, on the remote, the second card is deleted.
    await ok(remote, 'DELETE', `/v1/collection/${collectionId}/card/${ids[1]}`, undefined, 204);
    const moved = await ok(a, 'POST', '/v1/command/move_cards', { cards: twoWeeksLater(ids) }, 200);
    expect((await runSync(a)).error).toBeNull();
    const [conflict] = (await ok(a, 'GET', '/v1/sync/conflict?limit=1000', undefined, 200)).data.filter(
      (c: any) => c.group?.id === moved.command_id,
    );
    expect(conflict.group.items.length).toBeGreaterThanOrEqual(5);

    const retried = await call(a, 'POST', `/v1/sync/conflict/${conflict.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ resolution: 'retried', group: { id: moved.command_id } });
    const pending = (await ok(a, 'GET', '/v1/sync/pending?limit=1000', undefined, 200)).data as any[];
    expect(pending.length).toBeGreaterThanOrEqual(5);
    expect(new Set(pending.map((m) => m.group_id)).size).toBe(1);
    expect(pending[0].group_id).toEqual(expect.any(String));
    expect(pending[0].group_id).not.toBe(moved.command_id);
    // The card deleted on the remote comes back with the move: a newer restore wins there.
    expect(await runSync(a)).toMatchObject({ error: null, rejected: 0 });
    expect(await startDates(remote, collectionId, ids)).toEqual(twoWeeksLater(ids).map((c) => c.start_date));
    expect((await ok(a, 'GET', '/v1/sync/status', undefined, 200)).conflicts).toBe(0);
  });
});

describe('groups on the push wire', () => {
  const t0 = Date.now() - 60_000;
  const hlc = (ms: number, node: string) => formatHlc({ millis: t0 + ms, counter: 0, node });
  const createProject = (
    mutation_id: number,
    id: string,
    name: string,
    at: string,
    group?: { group_id: string; group_description?: string },
  ) => ({
    mutation_id,
    resource: 'project',
    id,
    op: 'create',
    fields: { name, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
    hlc: at,
    ...group,
  });
  const push = (clientId: string, mutations: unknown[]) => call(remote, 'POST', '/v1/sync/push', { client_id: clientId, mutations });
  const projectOnRemote = async (id: string) => (await call(remote, 'GET', `/v1/project/${id}`)).status;
  const latestSeq = () => bookOf(remote.dataDir.environment(remote.environment.id)).latestSeq();

  it('applies mutations without group_id one by one, as an older replica sends them, beside a group in the same push', async () => {
    const [p1, p2, p3, p4] = [uuidv7(), uuidv7(), uuidv7(), uuidv7()];
    const group = { group_id: uuidv7(), group_description: 'Add 2 projects' };
    const res = await push('old-style', [
      createProject(1, p1, 'Old 1', hlc(1, 'old')),
      createProject(2, p2, 'x'.repeat(151), hlc(2, 'old')),
      createProject(3, p3, 'New 3', hlc(3, 'old'), group),
      createProject(4, p4, 'New 4', hlc(4, 'old'), group),
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => [r.status, r.group_id ?? null])).toEqual([
      ['applied', null],
      ['rejected', null],
      ['applied', group.group_id],
      ['applied', group.group_id],
    ]);
    expect([await projectOnRemote(p1), await projectOnRemote(p2), await projectOnRemote(p3), await projectOnRemote(p4)]).toEqual([
      200, 404, 200, 200,
    ]);
  });

  it('refuses a whole group when one of its mutations is refused, naming the group, and keeps nothing of it', async () => {
    const [p1, p2, p3] = [uuidv7(), uuidv7(), uuidv7()];
    const group = { group_id: uuidv7(), group_description: 'Add 3 projects' };
    const res = await push('grouped', [
      createProject(1, p1, 'Kept 1', hlc(10, 'grp'), group),
      createProject(2, p2, 'x'.repeat(151), hlc(11, 'grp'), group),
      createProject(3, p3, 'Kept 3', hlc(12, 'grp'), group),
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => [r.status, r.group_id])).toEqual([1, 2, 3].map(() => ['rejected', group.group_id]));
    expect(res.body.results[0].error.errors[0].description).toContain('Add 3 projects');
    expect(res.body.results[1].error.errors[0].field).toBe('name');
    expect(res.body.last_mutation_id).toBe(3);
    expect([await projectOnRemote(p1), await projectOnRemote(p3)]).toEqual([404, 404]);
  });

  it('answers a resent group as duplicate, and applies it once', async () => {
    const [p1, p2] = [uuidv7(), uuidv7()];
    const group = { group_id: uuidv7(), group_description: 'Add 2 projects' };
    const mutations = [createProject(1, p1, 'Once 1', hlc(20, 'dup'), group), createProject(2, p2, 'Once 2', hlc(21, 'dup'), group)];
    const first = await push('resend', mutations);
    expect(first.body.results.map((r: any) => r.status)).toEqual(['applied', 'applied']);
    const seq = latestSeq();
    const again = await push('resend', mutations);
    expect(again.status).toBe(200);
    expect(again.body.results).toMatchObject([
      { mutation_id: 1, status: 'applied', duplicate: true },
      { mutation_id: 2, status: 'applied', duplicate: true },
    ]);
    expect(latestSeq()).toBe(seq);
    // A refused group resent is answered refused again, from the bookkeeping.
    const refusedGroup = { group_id: uuidv7() };
    const refused = [
      createProject(3, uuidv7(), 'Fine', hlc(22, 'dup'), refusedGroup),
      createProject(4, uuidv7(), 'x'.repeat(151), hlc(23, 'dup'), refusedGroup),
    ];
    expect((await push('resend', refused)).body.results.map((r: any) => r.status)).toEqual(['rejected', 'rejected']);
    const seqAfter = latestSeq();
    expect((await push('resend', refused)).body.results).toMatchObject([
      { status: 'rejected', duplicate: true },
      { status: 'rejected', duplicate: true },
    ]);
    expect(latestSeq()).toBe(seqAfter);
  });

  it('takes more than 1000 mutations in one push only when they are one group', async () => {
    const group = { group_id: uuidv7() };
    const many = Array.from({ length: 1001 }, (_, i) =>
      createProject(i + 1, uuidv7(), `Big ${i}`, formatHlc({ millis: t0 + 30, counter: i, node: 'big' }), group),
    );
    const res = await push('big-group', many);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.results.every((r: any) => r.status === 'applied')).toBe(true);
    const mixed = many
      .map((m, i) => (i === 500 ? { ...m, group_id: uuidv7() } : m))
      .map((m) => ({ ...m, mutation_id: m.mutation_id + 2000 }));
    const refused = await push('big-group', mixed);
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].description).toMatch(/at most 1000 mutations/);
  });

  it('refuses a malformed group_id with 400 and applies nothing', async () => {
    const id = uuidv7();
    const res = await push('bad-group', [createProject(1, id, 'Bad', hlc(40, 'bad'), { group_id: 'not a group!' })]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 10400, description: expect.stringMatching(/mutations\.0\.group_id/) });
    expect(await projectOnRemote(id)).toBe(404);
  });
});

describe('migration 20: sync groups', () => {
  it('opens a replica made before it; its outbox and conflicts keep no group and still sync as single changes', () => {
    const folder = tempDir('planner-groups-');
    const file = join(folder, 'env.sqlite');
    try {
      const db = openDatabase(file, environmentMigrations.slice(0, 19));
      db.prepare(
        `INSERT INTO sync_outbox (resource, record_id, op, fields, hlc, created_at) VALUES ('project', ?, 'create', '{"name":"Hall 3"}', ?, ?)`,
      ).run(uuidv7(), formatHlc({ millis: Date.now(), counter: 0, node: 'old' }), '2026-01-01T00:00:00Z');
      db.close();
      const store = EnvironmentStore.open(file, 'env');
      try {
        expect(store.db.pragma('user_version', { simple: true })).toBe(environmentMigrations.length);
        expect(store.db.prepare('SELECT group_id FROM sync_outbox').all()).toEqual([{ group_id: null }]);
        const columns = (store.db.prepare('PRAGMA table_info(sync_conflict)').all() as { name: string }[]).map((c) => c.name);
        expect(columns).toEqual(expect.arrayContaining(['group_id', 'group_description']));
      } finally {
        store.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
