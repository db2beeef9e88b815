/**
 * The remote's push bookkeeping on PostgreSQL (docs/architecture.md "Push", "Team server on
 * PostgreSQL", "Push bookkeeping"): a replica's mark moves in the transaction that applies its
 * batch, so the same batch pushed through two nodes at once is applied once, another
 * credential changes nothing, a rolled-back apply leaves the mark where it was, and a mark
 * never moves backwards. Two pools are two nodes on one real cluster; the apply writes to the
 * environment's change log, so what it applied can be counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import type { Mutation } from '../../../shared/sync.js';
import { appendChange } from '../../../electron/store/postgres/change-log.js';
import { withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import type { PostgresPool } from '../../../electron/store/postgres/postgres-database.js';
import {
  replicaMark,
  ReplicaOwnerError,
  withReplicaMark,
  type ApplyOutcome,
  type MarkedPush,
} from '../../../electron/store/postgres/push-marks.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let nodes: TeamDatabase['nodes'];
const env = uuidv7();

beforeAll(async () => {
  team = await startTeamDatabase('marks', { environments: [env] });
  nodes = team.nodes;
});

afterAll(() => team?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A card rename; `refuse` makes the apply refuse it on its merits, `defer` defers it. */
function mutation(id: number, name = `Weld ${id}`, extra: Record<string, unknown> = {}): Mutation {
  return {
    mutation_id: id,
    resource: 'card',
    id: `card-${id}`,
    op: 'update',
    fields: { name, ...extra },
    hlc: `${1_700_000_000_000 + id}-0000-abc`,
  };
}

const mutations = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => mutation(from + i));

const refusal = { reference: 'r1', errors: [{ code: 'conflict', message: 'Conflict', description: 'The stage is gone.' }] };

interface PushOptions {
  /** How long the apply holds its transaction open, so two pushes overlap. */
  holdMs?: number;
  /** Thrown by the apply after it wrote: the transaction rolls back. */
  fail?: boolean;
}

/**
 * A push as a node runs it: one transaction as the environment, the apply writing each
 * mutation it applies to the change log (record id `replica/mutation id`).
 */
function push(
  node: PostgresPool,
  replicaId: string,
  owner: string,
  batch: readonly Mutation[],
  options: PushOptions = {},
): Promise<MarkedPush<ApplyOutcome> & { applyCalls: number }> {
  let applyCalls = 0;
  return withEnvironment(node, env, async (client) => {
    const pushed = await withReplicaMark(client, replicaId, owner, batch, async (fresh) => {
      applyCalls++;
      const outcomes: ApplyOutcome[] = [];
      for (const m of fresh) {
        if (m.fields?.defer || outcomes.at(-1)?.status === 'deferred') {
          outcomes.push({ status: 'deferred' });
        } else if (m.fields?.refuse) {
          outcomes.push({ status: 'rejected', error: refusal });
        } else {
          await appendChange(client, { resource: 'card', recordId: `${replicaId}/${m.mutation_id}`, op: 'update', fields: m.fields });
          outcomes.push({ status: 'applied' });
        }
      }
      if (options.holdMs) await sleep(options.holdMs);
      if (options.fail) throw new Error('the apply failed');
      return outcomes;
    });
    return { ...pushed, applyCalls };
  });
}

/** How often each mutation of the replica was applied, by mutation id. */
async function appliedCounts(replicaId: string): Promise<Record<string, number>> {
  return withEnvironment(nodes[0], env, async (client) => {
    const { rows } = await client.query<{ record_id: string; n: number }>(
      "SELECT record_id, count(*)::integer AS n FROM change_log WHERE record_id LIKE $1 || '/%' GROUP BY record_id",
      [replicaId],
    );
    return Object.fromEntries(rows.map((r) => [r.record_id.slice(replicaId.length + 1), r.n]));
  });
}

const markOf = (replicaId: string) => withEnvironment(nodes[0], env, (client) => replicaMark(client, replicaId));

const kinds = (pushed: MarkedPush<ApplyOutcome>) =>
  pushed.mutations.map((m) => (m.kind === 'fresh' ? m.outcome.status : m.kind === 'duplicate' ? `duplicate ${m.entry.status}` : m.kind));

describe('push bookkeeping on PostgreSQL', () => {
  it.each([
    ['a new replica id', 0],
    ['a replica id that pushed before', 2],
  ])('applies the same batch pushed through two nodes at once only once, for %s', async (_, before) => {
    const replica = uuidv7();
    if (before > 0) await push(nodes[0], replica, 'key:a', mutations(1, before));
    const batch = [...mutations(before + 1, before + 3), mutation(before + 4, 'Paint', { refuse: true })];
    const [onA, onB] = await Promise.all([
      push(nodes[0], replica, 'key:a', batch, { holdMs: 150 }),
      push(nodes[1], replica, 'key:a', batch, { holdMs: 150 }),
    ]);
    const answers = [kinds(onA), kinds(onB)].sort();
    // One node applied it; the other waited for its commit and answered it as a resend.
    expect(answers).toEqual([
      ['applied', 'applied', 'applied', 'rejected'],
      ['duplicate applied', 'duplicate applied', 'duplicate applied', 'duplicate rejected'],
    ]);
    const duplicate = [onA, onB].find((p) => p.applyCalls === 0)!;
    expect(duplicate.mutations.at(-1)).toMatchObject({ kind: 'duplicate', entry: { status: 'rejected', error: refusal } });
    expect(onA.last).toBe(before + 4);
    expect(onB.last).toBe(before + 4);
    const counts = await appliedCounts(replica);
    expect(Object.values(counts)).toEqual(Array.from({ length: before + 3 }, () => 1));
    expect((await markOf(replica))?.last).toBe(before + 4);
  });

  it('refuses a push under another credential before applying anything, and changes nothing', async () => {
    const replica = uuidv7();
    await push(nodes[0], replica, 'key:a', mutations(1, 2));
    const mark = await markOf(replica);
    let applied = false;
    const refused = await withEnvironment(nodes[1], env, (client) =>
      withReplicaMark(client, replica, 'user:u2:app', mutations(3, 4), async (fresh) => {
        applied = true;
        return fresh.map((): ApplyOutcome => ({ status: 'applied' }));
      }),
    ).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(ReplicaOwnerError);
    expect(applied).toBe(false);
    expect(await markOf(replica)).toEqual(mark);
    expect(mark).toMatchObject({ owner: 'key:a', last: 2 });
    // Resent by its owner, the batch is still a duplicate, not stale.
    expect(kinds(await push(nodes[1], replica, 'key:a', mutations(1, 2)))).toEqual(['duplicate applied', 'duplicate applied']);
  });

  it('leaves the mark where it was when the apply rolls back, and applies the batch when it is pushed again', async () => {
    const replica = uuidv7();
    const failedFirst = await push(nodes[0], replica, 'key:a', mutations(1, 2), { fail: true }).catch((e: Error) => e.message);
    expect(failedFirst).toBe('the apply failed');
    // Not even registered: the row made for the new id rolled back with the rest.
    expect(await markOf(replica)).toBeUndefined();

    await push(nodes[0], replica, 'key:a', mutations(1, 2));
    const mark = await markOf(replica);
    const failed = await push(nodes[1], replica, 'key:a', mutations(3, 5), { fail: true }).catch((e: Error) => e.message);
    expect(failed).toBe('the apply failed');
    expect(await markOf(replica)).toEqual(mark);
    expect(await appliedCounts(replica)).toEqual({ 1: 1, 2: 1 });

    const again = await push(nodes[0], replica, 'key:a', mutations(3, 5));
    expect(kinds(again)).toEqual(['applied', 'applied', 'applied']);
    expect(await appliedCounts(replica)).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
  });

  it('never moves a mark backwards: an older resend is a duplicate, other content under old ids is stale', async () => {
    const replica = uuidv7();
    // The whole outbox and an older, shorter push of it, racing through two nodes.
    await Promise.all([
      push(nodes[0], replica, 'key:a', mutations(1, 6), { holdMs: 50 }),
      push(nodes[1], replica, 'key:a', mutations(1, 3), { holdMs: 50 }),
    ]);
    expect((await markOf(replica))?.last).toBe(6);

    const resent = await push(nodes[1], replica, 'key:a', mutations(1, 3));
    expect(kinds(resent)).toEqual(['duplicate applied', 'duplicate applied', 'duplicate applied']);
    expect(resent.last).toBe(6);
    // The same ids with other content: a restored replica reusing them. Not applied, mark kept.
    const reused = await push(nodes[0], replica, 'key:a', [mutation(2, 'Cut'), mutation(3, 'Drill')]);
    expect(kinds(reused)).toEqual(['stale', 'stale']);
    expect(reused.applyCalls).toBe(0);
    expect((await markOf(replica))?.last).toBe(6);
    expect(await appliedCounts(replica)).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1 });

    // And the database refuses to move it back, whatever code asks.
    const lowered = await withEnvironment(nodes[0], env, (client) =>
      client.query('UPDATE replica_mark SET last_mutation_id = 3 WHERE replica_id = $1', [replica]),
    ).catch((error: Error) => error.message);
    expect(lowered).toContain('would move back from 6 to 3');
    expect((await markOf(replica))?.last).toBe(6);
  });

  it('stops the mark before a deferred mutation, and answers everything after it deferred', async () => {
    const replica = uuidv7();
    const pushed = await push(nodes[0], replica, 'key:a', [...mutations(1, 2), mutation(3, 'Weld', { defer: true }), mutation(4)]);
    expect(kinds(pushed)).toEqual(['applied', 'applied', 'deferred', 'deferred']);
    expect(pushed.last).toBe(2);
    expect(await appliedCounts(replica)).toEqual({ 1: 1, 2: 1 });
    // Sent again once the clocks agree, 3 and 4 are fresh, not stale.
    expect(kinds(await push(nodes[1], replica, 'key:a', mutations(3, 4)))).toEqual(['applied', 'applied']);
    expect((await markOf(replica))?.last).toBe(4);
  });

  it('lets the first push claim a replica id that has no owner yet', async () => {
    const replica = uuidv7();
    await withEnvironment(nodes[0], env, (client) =>
      client.query('INSERT INTO replica_mark (replica_id, owner, last_mutation_id) VALUES ($1, NULL, 7)', [replica]),
    );
    expect(kinds(await push(nodes[1], replica, 'key:b', [mutation(8)]))).toEqual(['applied']);
    expect(await markOf(replica)).toMatchObject({ owner: 'key:b', last: 8 });
    const other = await push(nodes[0], replica, 'key:a', [mutation(9)]).catch((e: Error) => e);
    expect(other).toBeInstanceOf(ReplicaOwnerError);
  });
});
