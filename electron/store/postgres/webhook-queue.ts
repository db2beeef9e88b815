/**
 * The webhook delivery queue of one environment on PostgreSQL, shared by every node of a team
 * server (docs/architecture.md "Team server on PostgreSQL", "The webhook queue"). The same
 * queue as the SQLite one (store/webhook-queue.ts), asynchronous:
 *
 * - Each webhook sends its deliveries one at a time in order: its head is its oldest delivery
 *   still `started` or `failed`, and nothing behind the head goes before the head succeeded.
 *   Order is (xid, seq), not seq alone, and a delivery is claimed only once its enqueuing
 *   transaction is older than the claiming snapshot's xmin: a delivery enqueued by a
 *   transaction that commits later can then never sort before one already sent
 *   (webhook-queue-tables.ts).
 * - Across nodes a delivery is sent by one node at a time. A node claims due heads in a short
 *   transaction of its own with `SELECT … FOR UPDATE SKIP LOCKED`, and marks each with its node
 *   id and a lease (`claimed_until`). No other node claims a delivery whose lease holds, nor
 *   anything behind a head, so one webhook never has two deliveries in flight. Only the
 *   claimer records the attempt's result (`markSuccess`, `markFailure`).
 * - Delivery is at least once, which is the webhook contract (docs/API.md "Webhooks"): a node
 *   that dies mid-attempt records nothing, its lease runs out and another node sends the same
 *   delivery (same id, the `x-planner-delivery` header receivers deduplicate on) again.
 *
 * Times (`now`, `due_at`, leases) are the calling node's clock in milliseconds, as on SQLite, so
 * nodes keep their clocks in step (NTP) and a lease is far longer than any skew between them.
 *
 * Where the SQLite queue's interface differs: the worker's `heads()` + `markAttemptStarted()`
 * is `claim()` here, which takes the heads and counts the attempt in one transaction (two
 * transactions would leave a window in which two nodes pick the same head); and the write
 * hook's `enqueue` and `replacePayload` run inside the transaction of the change that caused
 * the event, so they are on `WebhookQueueWrites`, made over that transaction's client.
 */
import { nowTimestamp, uuidv7 } from '../../../shared/ids.js';
import { withEnvironment } from './environment-schemas.js';
import { bigintsAsNumbers, type PostgresClient, type PostgresPool } from './postgres-database.js';
import { nowMs } from '../../../shared/clock.js';

/** `disabled_until` of a webhook that failures disabled: until someone activates it again. */
export const disabledForever = '9999-12-31T23:59:59Z';

/** How long a claim holds when the node does not say: far beyond an attempt's timeout. */
export const defaultLeaseMs = 5 * 60_000;

import type {
  AttemptResult,
  DeliveryQueueWrites,
  NewDelivery,
  PendingDelivery as SqlitePendingDelivery,
  Subscriber,
} from '../webhook-queue.js';

// The same shapes as the SQLite queue's: callers of either engine handle one kind of delivery.
export type { AttemptResult, NewDelivery, Subscriber };

/** A pending delivery as the SQLite queue has it, and who is sending it now. */
export interface PendingDelivery extends SqlitePendingDelivery {
  /** The node sending it now, while its lease holds (null: nobody). */
  claimed_by: string | null;
  claimed_until: number | null;
}

/** A delivery this node claimed: it sends it now, then records the result with this. */
export interface ClaimedDelivery extends PendingDelivery {
  claimed_by: string;
  claimed_until: number;
}

const pendingColumns = `d.id, d.seq, d.webhook_id, d.event, w.url, d.payload, d.attempts, d.due_at, d.claimed_by, d.claimed_until`;

/** Each live, active webhook's head: its first delivery still to send, in (xid, seq) order. */
const headIds = `SELECT DISTINCT ON (p.webhook_id) p.id FROM webhook_delivery p
   WHERE p.status IN ('started', 'failed')
   ORDER BY p.webhook_id, p.xid, p.seq`;

/**
 * The queue's statements on one transaction's client, inside `withEnvironment`: the write hook
 * uses it in the transaction of the change that caused the event, so the change and its
 * deliveries commit or roll back together.
 */
export class WebhookQueueWrites implements DeliveryQueueWrites {
  constructor(private readonly client: PostgresClient) {}

  private async rows<R>(text: string, values: unknown[] = []): Promise<R[]> {
    const result = await this.client.query({ text, values, types: bigintsAsNumbers });
    // The row shape of this queue's own SQL text.
    return result.rows as R[];
  }

  private async run(text: string, values: unknown[] = []): Promise<number> {
    return (await this.client.query({ text, values })).rowCount ?? 0;
  }

  /** Live, active webhooks with the event types they want. */
  async subscribers(): Promise<Subscriber[]> {
    const rows = await this.rows<{ id: string; event_types: string }>(
      'SELECT id, event_types FROM "webhook" WHERE deleted_at IS NULL AND active IS TRUE',
    );
    // event_types is JSON text of a list of event type names, as the record store writes it.
    return rows.map((row) => ({ id: row.id, eventTypes: new Set(JSON.parse(row.event_types) as string[]) }));
  }

  /** Whether this environment has any live webhook (a worker sleeps otherwise). */
  async hasWebhooks(): Promise<boolean> {
    return (await this.rows('SELECT 1 FROM "webhook" WHERE deleted_at IS NULL LIMIT 1')).length > 0;
  }

  async enqueue(delivery: NewDelivery, now: number = nowMs()): Promise<string> {
    const id = uuidv7();
    const at = nowTimestamp(new Date(now));
    await this.run(
      `INSERT INTO webhook_delivery (id, webhook_id, event_id, event, resource, record_id, status, attempts, next_attempt_at, due_at, payload, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'started', 0, $7, $8, $9, $7, $7)`,
      [id, delivery.webhookId, delivery.eventId, delivery.event, delivery.resource, delivery.recordId, at, now, delivery.payload],
    );
    return id;
  }

  /** Replaces the body of a delivery not yet attempted; false when there is none. */
  async replacePayload(id: string, payload: string): Promise<boolean> {
    return (
      (await this.run("UPDATE webhook_delivery SET payload = $2 WHERE id = $1 AND attempts = 0 AND status = 'started'", [id, payload])) > 0
    );
  }

  async saveSecret(webhookId: string, secret: string): Promise<void> {
    await this.run('INSERT INTO webhook_secret (webhook_id, secret) VALUES ($1, $2)', [webhookId, secret]);
  }

  async secretOf(webhookId: string): Promise<string | undefined> {
    const [row] = await this.rows<{ secret: string }>('SELECT secret FROM webhook_secret WHERE webhook_id = $1', [webhookId]);
    return row?.secret;
  }

  /**
   * The head delivery of every live, active webhook that has one, claimed or not: what a
   * worker looks at to know when to try `claim` again.
   */
  async heads(): Promise<PendingDelivery[]> {
    return this.rows<PendingDelivery>(
      `SELECT ${pendingColumns}
         FROM webhook_delivery d JOIN "webhook" w ON w.id = d.webhook_id
        WHERE d.id IN (${headIds}) AND w.deleted_at IS NULL AND w.active IS TRUE
        ORDER BY d.xid, d.seq`,
    );
  }

  /**
   * Holds the webhook's queued deliveries (it was switched off or deleted). A claim in flight
   * stays: its node still records what the receiver answered.
   */
  async suspend(webhookId: string, now: number = nowMs()): Promise<void> {
    const at = nowTimestamp(new Date(now));
    await this.run(
      "UPDATE webhook_delivery SET status = 'suspended', next_attempt_at = NULL, updated_at = $2 WHERE webhook_id = $1 AND status IN ('started', 'failed')",
      [webhookId, at],
    );
  }

  /** Sends the held deliveries again, at once and in their order (the webhook is active again). */
  async resume(webhookId: string, now: number = nowMs()): Promise<void> {
    const at = nowTimestamp(new Date(now));
    await this.run(
      "UPDATE webhook_delivery SET status = 'started', due_at = $2, next_attempt_at = $3, updated_at = $3 WHERE webhook_id = $1 AND status = 'suspended'",
      [webhookId, now, at],
    );
  }

  /**
   * Queues a delivery again as a new delivery (new id, same event id and body), behind
   * whatever the webhook still has to send. Undefined when there is no such delivery.
   */
  async redeliver(webhookId: string, deliveryId: string, now: number = nowMs()): Promise<string | undefined> {
    const [original] = await this.rows<{ event_id: string; event: string; resource: string; record_id: string; payload: string }>(
      'SELECT event_id, event, resource, record_id, payload FROM webhook_delivery WHERE id = $1 AND webhook_id = $2',
      [deliveryId, webhookId],
    );
    if (!original) return undefined;
    const [webhook] = await this.rows<{ active: boolean | null }>('SELECT active FROM "webhook" WHERE id = $1 AND deleted_at IS NULL', [
      webhookId,
    ]);
    const id = await this.enqueue(
      {
        webhookId,
        eventId: original.event_id,
        event: original.event,
        resource: original.resource,
        recordId: original.record_id,
        payload: original.payload,
      },
      now,
    );
    await this.run('UPDATE webhook_delivery SET redelivery_of = $2 WHERE id = $1', [id, deliveryId]);
    if (webhook?.active !== true) await this.suspend(webhookId, now);
    return id;
  }

  /**
   * Claims up to `limit` due heads for `nodeId` until `now + leaseMs`, and counts the attempt.
   * Call it in a transaction of its own (`PostgresWebhookQueue.claim`): the row locks that keep
   * two nodes from claiming one head last until its commit.
   *
   * The conditions on `d` are on the locked row itself: a row another node claimed (or sent)
   * after this statement's snapshot is read again once its lock is free, and these conditions
   * are checked on its new version, so it is not claimed twice. SKIP LOCKED passes over heads
   * another node is claiming at this moment instead of waiting for its commit, so nodes never
   * queue behind each other.
   */
  async claim(nodeId: string, options: { leaseMs?: number; limit?: number; now?: number } = {}): Promise<ClaimedDelivery[]> {
    const now = options.now ?? nowMs();
    const at = nowTimestamp(new Date(now));
    return this.rows<ClaimedDelivery>(
      `WITH claimable AS (
         SELECT d.id FROM webhook_delivery d JOIN "webhook" w ON w.id = d.webhook_id
          WHERE d.id IN (${headIds})
            AND d.xid < pg_snapshot_xmin(pg_current_snapshot())
            AND d.status IN ('started', 'failed') AND d.due_at <= $2
            AND (d.claimed_until IS NULL OR d.claimed_until <= $2)
            AND w.deleted_at IS NULL AND w.active IS TRUE
          ORDER BY d.xid, d.seq
          LIMIT $4
          FOR UPDATE OF d SKIP LOCKED)
       UPDATE webhook_delivery d
          SET claimed_by = $1, claimed_until = $3, attempts = d.attempts + 1,
              first_attempt_at = coalesce(d.first_attempt_at, $5), last_attempt_at = $5, updated_at = $5
         FROM claimable c, "webhook" w
        WHERE d.id = c.id AND w.id = d.webhook_id
        RETURNING ${pendingColumns}`,
      [nodeId, now, now + (options.leaseMs ?? defaultLeaseMs), options.limit ?? 100, at],
    );
  }

  /**
   * Records a successful attempt, if `claim` is still `nodeId`'s: false when the lease ran out
   * and another node (or this one) claimed the delivery again since (a claim is known by its
   * node and its attempt number, which every claim counts up).
   */
  async markSuccess(nodeId: string, claim: ClaimedDelivery, result: AttemptResult, now: number = nowMs()): Promise<boolean> {
    const at = nowTimestamp(new Date(now));
    const recorded = await this.run(
      `UPDATE webhook_delivery SET status = 'successful', response_code = $4, duration_ms = $5, error = NULL, delivered_at = $6,
              next_attempt_at = NULL, claimed_by = NULL, claimed_until = NULL, updated_at = $6
        WHERE id = $1 AND claimed_by = $2 AND attempts = $3`,
      [claim.id, nodeId, claim.attempts, result.responseCode, result.durationMs, at],
    );
    if (recorded === 0) return false;
    await this.run('UPDATE "webhook" SET fail_streak = 0, fail_streak_started_at = NULL WHERE id = $1', [claim.webhook_id]);
    return true;
  }

  /**
   * Records a failed attempt, if `claim` is still `nodeId`'s: the delivery waits until
   * `dueAt`, the webhook's streak grows, and at `disableAfter` failures in a row the webhook is
   * switched off (its queue is suspended).
   */
  async markFailure(
    nodeId: string,
    claim: ClaimedDelivery,
    result: AttemptResult,
    dueAt: number,
    disableAfter: number,
    now: number = nowMs(),
  ): Promise<{ recorded: boolean; disabled: boolean }> {
    const at = nowTimestamp(new Date(now));
    const recorded = await this.run(
      `UPDATE webhook_delivery SET status = CASE WHEN status = 'suspended' THEN status ELSE 'failed' END,
              response_code = $4, duration_ms = $5, error = $6, due_at = $7, next_attempt_at = $8,
              claimed_by = NULL, claimed_until = NULL, updated_at = $9
        WHERE id = $1 AND claimed_by = $2 AND attempts = $3`,
      [claim.id, nodeId, claim.attempts, result.responseCode, result.durationMs, result.error, dueAt, nowTimestamp(new Date(dueAt)), at],
    );
    if (recorded === 0) return { recorded: false, disabled: false };
    // One statement: the streak read is the one this update wrote.
    const [webhook] = await this.rows<{ fail_streak: number }>(
      `UPDATE "webhook" SET fail_streak = coalesce(fail_streak, 0) + 1, last_failed_at = $2,
              fail_streak_started_at = CASE WHEN coalesce(fail_streak, 0) = 0 THEN $2 ELSE fail_streak_started_at END
        WHERE id = $1 RETURNING fail_streak`,
      [claim.webhook_id, at],
    );
    if (!webhook || webhook.fail_streak < disableAfter) return { recorded: true, disabled: false };
    await this.run('UPDATE "webhook" SET active = false, disabled_until = $2, updated_at = $3 WHERE id = $1', [
      claim.webhook_id,
      disabledForever,
      at,
    ]);
    await this.suspend(claim.webhook_id, now);
    return { recorded: true, disabled: true };
  }

  /**
   * Gives a claim back without a result (a node that stops mid-attempt): another node may send
   * the delivery at once instead of after the lease. The attempt stays counted, as on SQLite.
   */
  async release(nodeId: string, claim: ClaimedDelivery): Promise<boolean> {
    return (
      (await this.run(
        'UPDATE webhook_delivery SET claimed_by = NULL, claimed_until = NULL WHERE id = $1 AND claimed_by = $2 AND attempts = $3',
        [claim.id, nodeId, claim.attempts],
      )) > 0
    );
  }
}

/**
 * The queue of one environment for one node: each call is a short transaction of its own in
 * `withEnvironment`. `in(client)` gives the same statements inside a caller's transaction.
 */
export class PostgresWebhookQueue {
  constructor(
    private readonly pool: PostgresPool,
    readonly environmentId: string,
    /** This node's id, written as `claimed_by` on what it claims. */
    readonly nodeId: string,
  ) {}

  /** The queue's statements inside a transaction the caller runs (the write hook's). */
  static in(client: PostgresClient): WebhookQueueWrites {
    return new WebhookQueueWrites(client);
  }

  private run<T>(fn: (queue: WebhookQueueWrites) => Promise<T>): Promise<T> {
    return withEnvironment(this.pool, this.environmentId, (client) => fn(new WebhookQueueWrites(client)));
  }

  subscribers(): Promise<Subscriber[]> {
    return this.run((q) => q.subscribers());
  }

  hasWebhooks(): Promise<boolean> {
    return this.run((q) => q.hasWebhooks());
  }

  enqueue(delivery: NewDelivery, now?: number): Promise<string> {
    return this.run((q) => q.enqueue(delivery, now));
  }

  replacePayload(id: string, payload: string): Promise<boolean> {
    return this.run((q) => q.replacePayload(id, payload));
  }

  saveSecret(webhookId: string, secret: string): Promise<void> {
    return this.run((q) => q.saveSecret(webhookId, secret));
  }

  secretOf(webhookId: string): Promise<string | undefined> {
    return this.run((q) => q.secretOf(webhookId));
  }

  heads(): Promise<PendingDelivery[]> {
    return this.run((q) => q.heads());
  }

  suspend(webhookId: string, now?: number): Promise<void> {
    return this.run((q) => q.suspend(webhookId, now));
  }

  resume(webhookId: string, now?: number): Promise<void> {
    return this.run((q) => q.resume(webhookId, now));
  }

  redeliver(webhookId: string, deliveryId: string, now?: number): Promise<string | undefined> {
    return this.run((q) => q.redeliver(webhookId, deliveryId, now));
  }

  /** Due heads for this node to send now, claimed in a short transaction of their own. */
  claim(options: { leaseMs?: number; limit?: number; now?: number } = {}): Promise<ClaimedDelivery[]> {
    return this.run((q) => q.claim(this.nodeId, options));
  }

  markSuccess(claim: ClaimedDelivery, result: AttemptResult, now?: number): Promise<boolean> {
    return this.run((q) => q.markSuccess(this.nodeId, claim, result, now));
  }

  markFailure(
    claim: ClaimedDelivery,
    result: AttemptResult,
    dueAt: number,
    disableAfter: number,
    now?: number,
  ): Promise<{ recorded: boolean; disabled: boolean }> {
    return this.run((q) => q.markFailure(this.nodeId, claim, result, dueAt, disableAfter, now));
  }

  release(claim: ClaimedDelivery): Promise<boolean> {
    return this.run((q) => q.release(this.nodeId, claim));
  }
}
