/**
 * A replica's push bookkeeping on a team server (docs/architecture.md "Push",
 * "Races between nodes"): the push route of two API nodes, each on a pool of its own
 * on one real PostgreSQL database. The replica's mark is held from its read to the commit of
 * the push (SyncWrites.replicaMark), so the same batch pushed through both nodes at once is
 * applied once and answered from the mark by the other; another credential changes nothing;
 * a deferred mutation stops the mark; an unowned mark is claimed; the database refuses to move
 * a mark back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import { replicaMark } from '../../../electron/store/postgres/push-marks.js';
import { PostgresSystemStore } from '../../../electron/store/postgres/system-store.js';
import { HybridClock } from '../../../shared/hlc.js';
import { uuidv7 } from '../../../shared/ids.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';
import { startTeamNodes, type TeamNodes } from '../../helpers/team-nodes.js';

const key = 'marks-key-0123456789';
const otherKey = 'marks-other-key-0123456789';
let team: TeamDatabase;
let environmentId: string;
let nodes: TeamNodes | undefined;
let urls: string[] = [];

beforeAll(async () => {
  team = await startTeamDatabase('marks');
  const system = new PostgresSystemStore(team.nodes[0]);
  environmentId = (await system.ensureEnvironment('team')).id;
  await system.ensureApiKey(environmentId, key);
  await system.ensureApiKey(environmentId, otherKey);
  nodes = await startTeamNodes(team);
  urls = nodes.urls;
}, 120_000);

afterAll(async () => {
  await nodes?.close();
  await team?.stop();
});

const clock = new HybridClock('marks0000001');

/** A project created by a replica; `name: 123` is refused on its merits (422). */
const create = (mutationId: number, name: unknown = `Weld ${mutationId}`, hlc = clock.now()) => ({
  mutation_id: mutationId,
  resource: 'project',
  id: uuidv7(),
  op: 'create',
  fields: { name },
  hlc,
});

async function push(node: number, replicaId: string, mutations: unknown[], apiKey = key) {
  const response = await fetch(`${urls[node]}/v1/sync/push`, {
    method: 'POST',
    headers: { 'x-api-env': 'team', 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: replicaId, mutations }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const kinds = (body: { results: { status: string; duplicate?: boolean }[] }) =>
  body.results.map((r) => (r.duplicate ? `duplicate ${r.status}` : r.status));

const markOf = (replicaId: string) => withEnvironment(team.nodes[0], environmentId, (client) => replicaMark(client, replicaId));

async function projectCount(ids: readonly string[]): Promise<number> {
  return withEnvironment(team.nodes[0], environmentId, async (client) => {
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::integer AS n FROM project WHERE id = ANY($1::text[])', [ids]);
    return rows[0]!.n;
  });
}

describe('push bookkeeping on two nodes of one PostgreSQL database', () => {
  it('applies the same batch pushed through both nodes at once only once, round after round', async () => {
    const replica = `replica-${uuidv7()}`;
    for (let round = 0; round < 10; round++) {
      const from = round * 4 + 1;
      const batch = [create(from), create(from + 1), create(from + 2), create(from + 3, 123)];
      const [onA, onB] = await Promise.all([push(0, replica, batch), push(1, replica, batch)]);
      expect(onA.status, JSON.stringify(onA.body)).toBe(200);
      expect(onB.status, JSON.stringify(onB.body)).toBe(200);
      // One node applied it; the other waited for its commit and answered it as a resend.
      expect([kinds(onA.body), kinds(onB.body)].sort()).toEqual([
        ['applied', 'applied', 'applied', 'rejected'],
        ['duplicate applied', 'duplicate applied', 'duplicate applied', 'duplicate rejected'],
      ]);
      expect(onA.body.last_mutation_id).toBe(from + 3);
      expect(onB.body.last_mutation_id).toBe(from + 3);
      expect(await projectCount(batch.map((m) => m.id))).toBe(3);
    }
    expect(await markOf(replica)).toMatchObject({ owner: expect.stringMatching(/^key:/), last: 40 });
  });

  it('refuses a push under another credential before applying anything, and changes nothing', async () => {
    const replica = `replica-${uuidv7()}`;
    const first = [create(1), create(2)];
    expect(kinds((await push(0, replica, first)).body)).toEqual(['applied', 'applied']);
    const mark = await markOf(replica);
    const taken = [create(3), create(4)];
    const refused = await push(1, replica, taken, otherKey);
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toMatchObject({ field: 'client_id' });
    expect(await markOf(replica)).toEqual(mark);
    expect(await projectCount(taken.map((m) => m.id))).toBe(0);
    // Resent by its owner, the first batch is still a duplicate, not stale; other content under its ids is stale.
    expect(kinds((await push(1, replica, first)).body)).toEqual(['duplicate applied', 'duplicate applied']);
    expect(kinds((await push(0, replica, [create(1, 'Cut'), create(2, 'Drill')])).body)).toEqual(['stale', 'stale']);
    expect((await markOf(replica))?.last).toBe(2);
  });

  it('stops the mark before a deferred mutation, and applies it when it comes again in time', async () => {
    const replica = `replica-${uuidv7()}`;
    const ahead = new HybridClock('ahead0000001', () => Date.now() + 60 * 60_000);
    const batch = [create(1), create(2, 'Ahead', ahead.now()), create(3)];
    const pushed = await push(0, replica, batch);
    expect(kinds(pushed.body)).toEqual(['applied', 'deferred', 'deferred']);
    expect(pushed.body.last_mutation_id).toBe(1);
    expect(await projectCount(batch.map((m) => m.id))).toBe(1);
    // Sent again with clocks that agree, 2 and 3 are fresh, not stale.
    expect(kinds((await push(1, replica, [create(2), create(3)])).body)).toEqual(['applied', 'applied']);
    expect((await markOf(replica))?.last).toBe(3);
  });

  it('lets the first push claim a replica id that has no owner yet, and the database never moves a mark back', async () => {
    const replica = `replica-${uuidv7()}`;
    await withEnvironment(team.nodes[0], environmentId, (client) =>
      client.query('INSERT INTO replica_mark (replica_id, owner, last_mutation_id) VALUES ($1, NULL, 7)', [replica]),
    );
    expect(kinds((await push(1, replica, [create(8)], otherKey)).body)).toEqual(['applied']);
    expect(await markOf(replica)).toMatchObject({ owner: expect.stringMatching(/^key:/), last: 8 });
    expect((await push(0, replica, [create(9)])).status).toBe(403);
    const lowered = await withEnvironment(team.nodes[0], environmentId, (client) =>
      client.query('UPDATE replica_mark SET last_mutation_id = 3 WHERE replica_id = $1', [replica]),
    ).catch((error: Error) => error.message);
    expect(lowered).toContain('would move back from 8 to 3');
  });
});
