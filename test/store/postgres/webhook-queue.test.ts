/**
 * The webhook delivery queue on PostgreSQL (docs/architecture.md "Team server on PostgreSQL",
 * "The webhook queue"): the SQLite queue's rules for one webhook (one delivery at a time, in
 * order; backoff; disabling; redelivery), and what only several nodes can get wrong: two pools
 * are two nodes claiming from one real PostgreSQL cluster at the same time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import { tables } from '../../../electron/store/tables.js';
import { ensureEnvironmentSchema, withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations } from '../../../electron/store/postgres/migrations.js';
import { openPostgresPool } from '../../../electron/store/postgres/postgres-database.js';
import { PostgresRecordStore } from '../../../electron/store/postgres/record-store.js';
import {
  disabledForever,
  PostgresWebhookQueue,
  type AttemptResult,
  type ClaimedDelivery,
} from '../../../electron/store/postgres/webhook-queue.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
/** Two API nodes on one database. */
let nodes: TeamDatabase['nodes'];

beforeAll(async () => {
  team = await startTeamDatabase('webhooks');
  nodes = team.nodes;
});

afterAll(() => team?.stop());

const ok: AttemptResult = { responseCode: 200, durationMs: 12, error: null };
const refused: AttemptResult = { responseCode: 500, durationMs: 15, error: 'HTTP 500' };
const t0 = Date.parse('2026-11-27T08:00:00Z');

interface Environment {
  id: string;
  records: PostgresRecordStore;
  /** The queue as each node sees it. */
  a: PostgresWebhookQueue;
  b: PostgresWebhookQueue;
}

async function newEnvironment(): Promise<Environment> {
  const id = uuidv7();
  await ensureEnvironmentSchema(nodes[0], id, environmentMigrations);
  return {
    id,
    records: new PostgresRecordStore(nodes[0], id),
    a: new PostgresWebhookQueue(nodes[0], id, 'node-a'),
    b: new PostgresWebhookQueue(nodes[1], id, 'node-b'),
  };
}

async function newWebhook(env: Environment): Promise<string> {
  const hook = await env.records.transaction((tx) =>
    tx.insert(tables.webhook, { url: 'https://example.com/hook', active: true, event_types: ['card.created'], fail_streak: 0 }),
  );
  return hook.id;
}

/** Queues one delivery per name, in order, in one transaction; answers their ids. */
function enqueue(env: Environment, webhookId: string, names: string[], now = t0): Promise<string[]> {
  return withEnvironment(nodes[0], env.id, async (client) => {
    const queue = PostgresWebhookQueue.in(client);
    const ids: string[] = [];
    for (const name of names) ids.push(await queue.enqueue(delivery(webhookId, name), now));
    return ids;
  });
}

function delivery(webhookId: string, name: string) {
  return { webhookId, eventId: uuidv7(), event: 'card.created', resource: 'card', recordId: uuidv7(), payload: JSON.stringify({ name }) };
}

const names = (claims: ClaimedDelivery[]) => claims.map((c) => (JSON.parse(c.payload) as { name: string }).name);

const deliveryRow = (env: Environment, id: string) =>
  env.records.get(tables.webhook_delivery, id) as Promise<Record<string, unknown> | undefined>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('one webhook on the PostgreSQL queue', () => {
  it("sends a webhook's deliveries one at a time, in the order they were queued", async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    const other = await newWebhook(env);
    await enqueue(env, hook, ['first', 'second', 'third']);
    await enqueue(env, other, ['elsewhere']);

    const first = await env.a.claim({ now: t0 });
    expect(names(first).sort()).toEqual(['elsewhere', 'first']);
    // While the head is in flight, nothing behind it goes, on either node.
    expect(await env.a.claim({ now: t0 })).toEqual([]);
    expect(await env.b.claim({ now: t0 })).toEqual([]);

    const head = first.find((c) => c.webhook_id === hook)!;
    expect(head).toMatchObject({ attempts: 1, claimed_by: 'node-a', url: 'https://example.com/hook' });
    expect(await env.a.markSuccess(head, ok, t0)).toBe(true);
    expect(names(await env.b.claim({ now: t0 }))).toEqual(['second']);
    expect(await deliveryRow(env, head.id)).toMatchObject({ status: 'successful', attempts: 1, response_code: 200 });
  });

  it('waits for a failed delivery until it is due, keeps what is behind it waiting, and counts the failures in a row', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    await enqueue(env, hook, ['first', 'second']);

    const [claim] = await env.a.claim({ now: t0 });
    const dueAt = t0 + 10_000;
    expect(await env.a.markFailure(claim!, refused, dueAt, 250, t0)).toEqual({ recorded: true, disabled: false });
    expect(await deliveryRow(env, claim!.id)).toMatchObject({
      status: 'failed',
      error: 'HTTP 500',
      next_attempt_at: '2026-11-27T08:00:10Z',
    });
    expect(await env.records.get(tables.webhook, hook)).toMatchObject({ fail_streak: 1, last_failed_at: '2026-11-27T08:00:00Z' });

    expect(await env.b.claim({ now: dueAt - 1 })).toEqual([]);
    const [again] = await env.b.claim({ now: dueAt });
    expect(again).toMatchObject({ id: claim!.id, attempts: 2, claimed_by: 'node-b' });
    expect(await env.b.markSuccess(again!, ok, dueAt)).toBe(true);
    expect(await env.records.get(tables.webhook, hook)).toMatchObject({ fail_streak: 0, fail_streak_started_at: null });
    expect(names(await env.a.claim({ now: dueAt }))).toEqual(['second']);
  });

  it('switches a webhook off after its failures in a row, holds its queue, and sends it again in order once resumed', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    await enqueue(env, hook, ['first', 'second']);

    const [one] = await env.a.claim({ now: t0 });
    expect(await env.a.markFailure(one!, refused, t0, 2, t0)).toEqual({ recorded: true, disabled: false });
    const [two] = await env.b.claim({ now: t0 });
    expect(await env.b.markFailure(two!, refused, t0, 2, t0)).toEqual({ recorded: true, disabled: true });

    expect(await env.records.get(tables.webhook, hook)).toMatchObject({ active: false, disabled_until: disabledForever, fail_streak: 2 });
    expect(await env.a.claim({ now: t0 + 60_000 })).toEqual([]);
    expect(await env.a.heads()).toEqual([]);
    expect(await deliveryRow(env, one!.id)).toMatchObject({ status: 'suspended', attempts: 2 });

    await env.records.transaction((tx) => tx.update(tables.webhook, hook, { active: true, disabled_until: null }));
    await env.a.resume(hook, t0 + 60_000);
    expect(names(await env.b.claim({ now: t0 + 60_000 }))).toEqual(['first']);
  });

  it('redelivers a delivery as a new one behind what the webhook still has to send, held while the webhook is off', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    const [sentId] = await enqueue(env, hook, ['sent']);
    const [sent] = await env.a.claim({ now: t0 });
    await env.a.markSuccess(sent!, ok, t0);
    await enqueue(env, hook, ['pending']);

    const again = await env.b.redeliver(hook, sentId!, t0);
    expect(again).toBeDefined();
    expect(await env.b.redeliver(hook, uuidv7(), t0)).toBeUndefined();
    expect(await deliveryRow(env, again!)).toMatchObject({ status: 'started', redelivery_of: sentId, payload: { name: 'sent' } });

    const [pending] = await env.a.claim({ now: t0 });
    expect(names([pending!])).toEqual(['pending']);
    await env.a.markSuccess(pending!, ok, t0);
    expect(await env.a.claim({ now: t0 })).toMatchObject([{ id: again, payload: sent!.payload }]);

    await env.records.transaction((tx) => tx.update(tables.webhook, hook, { active: false }));
    const held = await env.a.redeliver(hook, sentId!, t0);
    expect(await deliveryRow(env, held!)).toMatchObject({ status: 'suspended' });
  });

  it('replaces the body only of a delivery not yet attempted, and keeps each secret apart from the record', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    const [first, second] = await enqueue(env, hook, ['first', 'second']);
    await env.a.claim({ now: t0 });
    expect(await env.a.replacePayload(first!, '{"name":"late"}')).toBe(false);
    expect(await env.a.replacePayload(second!, '{"name":"replaced"}')).toBe(true);
    expect(await deliveryRow(env, second!)).toMatchObject({ payload: { name: 'replaced' } });

    await env.a.saveSecret(hook, 'shh');
    expect(await env.b.secretOf(hook)).toBe('shh');
    expect(await env.b.secretOf(uuidv7())).toBeUndefined();
    expect(await env.records.get(tables.webhook, hook)).not.toHaveProperty('secret', 'shh');
  });

  it('queues deliveries in the transaction of the change that caused them: a rollback queues nothing', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    expect(await env.a.subscribers()).toEqual([{ id: hook, eventTypes: new Set(['card.created']) }]);
    expect(await env.a.hasWebhooks()).toBe(true);
    await expect(
      withEnvironment(nodes[0], env.id, async (client) => {
        await PostgresWebhookQueue.in(client).enqueue(delivery(hook, 'rolled back'), t0);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await env.a.claim({ now: t0 })).toEqual([]);
  });
});

describe('two nodes claiming from one PostgreSQL queue', () => {
  it('send each of 200 deliveries over 10 webhooks exactly once, in order, one at a time per webhook', async () => {
    const env = await newEnvironment();
    const hooks: string[] = [];
    for (let i = 0; i < 10; i++) hooks.push(await newWebhook(env));
    // In runs of five per webhook, in one transaction, as a burst of edits queues them: a claim
    // that took more than a webhook's head would take several of one run at once.
    const queued = await withEnvironment(nodes[0], env.id, async (client) => {
      const queue = PostgresWebhookQueue.in(client);
      const byHook = new Map<string, string[]>(hooks.map((h) => [h, []]));
      for (let i = 0; i < 200; i++) {
        const hook = hooks[Math.floor(i / 5) % hooks.length]!;
        byHook.get(hook)!.push(await queue.enqueue(delivery(hook, `event ${i}`), t0));
      }
      return byHook;
    });

    const sends: { node: string; id: string; webhook: string }[] = [];
    const inFlight = new Map<string, string>();
    const overlaps: string[] = [];
    const deadline = Date.now() + 20_000;
    async function run(queue: PostgresWebhookQueue): Promise<void> {
      // Bounded: 200 deliveries need at most 200 claims that find something.
      for (let round = 0; round < 1000 && Date.now() < deadline; round++) {
        const claims = await queue.claim({ now: t0, limit: 3 });
        if (claims.length === 0) {
          if ((await queue.heads()).length === 0) return;
          await sleep(1);
          continue;
        }
        await Promise.all(
          claims.map(async (claim) => {
            const sending = inFlight.get(claim.webhook_id);
            if (sending) overlaps.push(`${claim.id} while ${sending} of webhook ${claim.webhook_id}`);
            inFlight.set(claim.webhook_id, claim.id);
            sends.push({ node: queue.nodeId, id: claim.id, webhook: claim.webhook_id });
            await sleep(Math.random() * 3);
            // The send is over; what follows is bookkeeping, which no other node waits on.
            inFlight.delete(claim.webhook_id);
            await queue.markSuccess(claim, ok, t0);
          }),
        );
      }
    }
    await Promise.all([run(env.a), run(env.b)]);

    expect(overlaps).toEqual([]);
    const allQueued = [...queued.values()].flat();
    expect(sends.map((s) => s.id).sort()).toEqual([...allQueued].sort());
    for (const [hook, ids] of queued) expect(sends.filter((s) => s.webhook === hook).map((s) => s.id)).toEqual(ids);
    // Both nodes did part of the work.
    expect(new Set(sends.map((s) => s.node))).toEqual(new Set(['node-a', 'node-b']));
  });

  it('passes over a head another node is claiming at this moment instead of waiting for it (SKIP LOCKED)', async () => {
    const env = await newEnvironment();
    const busy = await newWebhook(env);
    const free = await newWebhook(env);
    const [busyId] = await enqueue(env, busy, ['busy']);
    await enqueue(env, free, ['free']);

    // Node A is in the middle of a claim: it holds the row lock on one head.
    const locked = gate();
    const release = gate();
    const claiming = withEnvironment(nodes[0], env.id, async (client) => {
      await client.query('SELECT 1 FROM webhook_delivery WHERE id = $1 FOR UPDATE', [busyId]);
      locked.open();
      await release.opened;
    });
    await locked.opened;
    try {
      // Bounded: a claim that waits for node A's lock would wait until the release below.
      const outcome = await Promise.race([env.b.claim({ now: t0 }), sleep(5_000).then(() => 'waited for the other node' as const)]);
      expect(outcome === 'waited for the other node' ? outcome : names(outcome)).toEqual(['free']);
    } finally {
      release.open();
      await claiming;
    }
    expect(names(await env.b.claim({ now: t0 }))).toEqual(['busy']);
  });

  it('does not send a delivery before one queued earlier by a transaction that commits later', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    const queued = gate();
    const release = gate();
    // Node A queues first and commits last.
    const early = withEnvironment(nodes[0], env.id, async (client) => {
      await PostgresWebhookQueue.in(client).enqueue(delivery(hook, 'queued first'), t0);
      queued.open();
      await release.opened;
    });
    await queued.opened;
    await withEnvironment(nodes[1], env.id, (client) => PostgresWebhookQueue.in(client).enqueue(delivery(hook, 'committed first'), t0));

    try {
      expect(await env.b.claim({ now: t0 })).toEqual([]);
    } finally {
      release.open();
      await early;
    }
    const [first] = await env.b.claim({ now: t0 });
    expect(names([first!])).toEqual(['queued first']);
    await env.b.markSuccess(first!, ok, t0);
    expect(names(await env.a.claim({ now: t0 }))).toEqual(['committed first']);
  });
});

describe('leases on the PostgreSQL queue', () => {
  it('another node claims a delivery again once the lease of a node that died has run out, not before', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    await enqueue(env, hook, ['first', 'second']);

    // A third node claims and dies mid-attempt: its connections are gone, nothing is recorded.
    const doomed = openPostgresPool(team.url, { max: 1 });
    const [claim] = await new PostgresWebhookQueue(doomed, env.id, 'node-c').claim({ now: t0, leaseMs: 30_000 });
    await doomed.end();
    expect(claim).toMatchObject({ claimed_by: 'node-c', claimed_until: t0 + 30_000 });

    expect(await env.b.claim({ now: t0 + 29_999 })).toEqual([]);
    const [again] = await env.b.claim({ now: t0 + 30_000 });
    expect(again).toMatchObject({ id: claim!.id, attempts: 2, claimed_by: 'node-b' });
    expect(await env.a.claim({ now: t0 + 30_000 })).toEqual([]);
  });

  it('lets only the node that holds the claim record the result', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    await enqueue(env, hook, ['first']);
    const [late] = await env.a.claim({ now: t0, leaseMs: 1_000 });
    const [current] = await env.b.claim({ now: t0 + 1_000 });

    // Node A's lease ran out and node B sends it now: A's answer is not recorded.
    expect(await env.a.markSuccess(late!, ok, t0 + 1_500)).toBe(false);
    expect(await env.a.markFailure(late!, refused, t0 + 9_000, 250, t0 + 1_500)).toEqual({ recorded: false, disabled: false });
    // Nor can a node record on another's claim.
    expect(await env.a.markSuccess(current!, ok, t0 + 1_500)).toBe(false);
    expect(await deliveryRow(env, current!.id)).toMatchObject({ status: 'started', attempts: 2 });

    expect(await env.b.markSuccess(current!, ok, t0 + 1_500)).toBe(true);
    expect(await deliveryRow(env, current!.id)).toMatchObject({ status: 'successful' });
  });

  it("does not record an old claim's result once the same node has claimed the delivery again", async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    await enqueue(env, hook, ['first']);
    const [old] = await env.a.claim({ now: t0, leaseMs: 1_000 });
    const [renewed] = await env.a.claim({ now: t0 + 1_000 });
    expect(renewed).toMatchObject({ id: old!.id, attempts: 2, claimed_by: 'node-a' });
    expect(await env.a.markSuccess(old!, ok, t0 + 1_500)).toBe(false);
    expect(await env.a.markSuccess(renewed!, ok, t0 + 1_500)).toBe(true);
  });

  it('lets a stopping node give its claim back, so another node sends it at once', async () => {
    const env = await newEnvironment();
    const hook = await newWebhook(env);
    await enqueue(env, hook, ['first']);
    const [claim] = await env.a.claim({ now: t0 });
    expect(await env.b.claim({ now: t0 })).toEqual([]);
    expect(await env.a.release(claim!)).toBe(true);
    expect(await env.b.claim({ now: t0 })).toMatchObject([{ id: claim!.id, claimed_by: 'node-b' }]);
  });
});
