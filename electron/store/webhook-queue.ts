/**
 * The webhook delivery queue of one environment (migration environment/0008-webhooks).
 *
 * Events are enqueued by a write hook inside the transaction of the change that caused them.
 * Each webhook sends its deliveries one at a time in `seq` order: the head is the oldest
 * delivery still `started` or `failed`, and nothing behind it goes before it has succeeded, so
 * a receiver sees the events of one record in the order they happened.
 *
 * The worker's bookkeeping (attempts, health fields) is written here directly, not through the
 * change log: it is this instance's business and must not sync or wake the renderer.
 */
import { nowTimestamp, uuidv7 } from '../../shared/ids.js';
import type { EnvironmentStore } from './environment-store.js';
import { onePerStore, SideTable } from './side-table.js';
import { nowMs } from '../../shared/clock.js';

/** `disabled_until` of a webhook that failures disabled: until someone activates it again. */
export const disabledForever = '9999-12-31T23:59:59Z';

export interface Subscriber {
  id: string;
  eventTypes: ReadonlySet<string>;
}

export interface NewDelivery {
  webhookId: string;
  eventId: string;
  event: string;
  resource: string;
  recordId: string;
  payload: string;
}

export interface PendingDelivery {
  id: string;
  seq: number;
  webhook_id: string;
  event: string;
  url: string;
  payload: string;
  attempts: number;
  due_at: number;
}

/**
 * What a write does to the delivery queue, inside its own transaction, on either engine
 * (`RecordWrites.deliveries`): the webhook events a change queues, a webhook's secret, its
 * queue held and resumed, a delivery sent again. The SQLite queue below has the same methods,
 * answering at once; the PostgreSQL one (postgres/webhook-queue.ts) answers these.
 */
export interface DeliveryQueueWrites {
  subscribers(): Promise<Subscriber[]>;
  enqueue(delivery: NewDelivery): Promise<string>;
  replacePayload(id: string, payload: string): Promise<boolean>;
  saveSecret(webhookId: string, secret: string): Promise<void>;
  secretOf(webhookId: string): Promise<string | undefined>;
  suspend(webhookId: string): Promise<void>;
  resume(webhookId: string): Promise<void>;
  redeliver(webhookId: string, deliveryId: string): Promise<string | undefined>;
}

/**
 * What an environment's delivery worker reads and records of the queue (api/webhooks/dispatcher.ts),
 * each call on its own, outside any write's transaction: the SQLite engine's RecordStore has it
 * (`deliveryWork`), taking turns with the file's other callers.
 */
export interface DeliveryQueueWork {
  /** Whether this environment has any live webhook (the worker sleeps otherwise). */
  hasWebhooks(): Promise<boolean>;
  /** The head delivery of every live, active webhook that has one. */
  heads(): Promise<PendingDelivery[]>;
  secretOf(webhookId: string): Promise<string | undefined>;
  markAttemptStarted(id: string, now: number): Promise<void>;
  markSuccess(id: string, webhookId: string, result: AttemptResult, now?: number): Promise<void>;
  /** WebhookQueue.markFailure: whether the webhook was disabled. */
  markFailure(id: string, webhookId: string, result: AttemptResult, dueAt: number, disableAfter: number, now?: number): Promise<boolean>;
}

export interface AttemptResult {
  responseCode: number | null;
  durationMs: number;
  error: string | null;
}

export class WebhookQueue extends SideTable {
  /** The webhook queue of an environment database (one per open store). */
  static readonly of = onePerStore((store) => new WebhookQueue(store));

  /** Live, active webhooks with the event types they want. */
  subscribers(): Subscriber[] {
    const rows = this.sql<{ id: string; event_types: string }>(
      'SELECT id, event_types FROM "webhook" WHERE deleted_at IS NULL AND active = 1',
    ).all();
    // event_types is written through the webhook table handle: JSON of a list of event type names.
    return rows.map((row) => ({ id: row.id, eventTypes: new Set(JSON.parse(row.event_types) as string[]) }));
  }

  /** Whether this environment has any live webhook (the worker sleeps otherwise). */
  hasWebhooks(): boolean {
    return this.sql('SELECT 1 FROM "webhook" WHERE deleted_at IS NULL LIMIT 1').get() !== undefined;
  }

  enqueue(delivery: NewDelivery, now: number = nowMs()): string {
    const id = uuidv7();
    const at = nowTimestamp(new Date(now));
    this.sql(
      `INSERT INTO webhook_delivery (id, webhook_id, event_id, event, resource, record_id, status, attempts, next_attempt_at, due_at, payload, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'started', 0, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      delivery.webhookId,
      delivery.eventId,
      delivery.event,
      delivery.resource,
      delivery.recordId,
      at,
      now,
      delivery.payload,
      at,
      at,
    );
    return id;
  }

  /** Replaces the body of a delivery not yet attempted; false when there is none. */
  replacePayload(id: string, payload: string): boolean {
    return (
      this.sql("UPDATE webhook_delivery SET payload = ? WHERE id = ? AND attempts = 0 AND status = 'started'").run(payload, id).changes > 0
    );
  }

  saveSecret(webhookId: string, secret: string): void {
    this.sql('INSERT INTO webhook_secret (webhook_id, secret) VALUES (?, ?)').run(webhookId, secret);
  }

  secretOf(webhookId: string): string | undefined {
    return this.sql<{ secret: string }>('SELECT secret FROM webhook_secret WHERE webhook_id = ?').get(webhookId)?.secret;
  }

  /** The head delivery of every live, active webhook that has one. */
  heads(): PendingDelivery[] {
    // The row shape of this queue's own SQL text (SQLite gives untyped rows).
    return this.sql(
      `SELECT d.id, d.seq, d.webhook_id, d.event, w.url, d.payload, d.attempts, d.due_at
       FROM "webhook" w
       JOIN webhook_delivery d ON d.seq = (
         SELECT min(seq) FROM webhook_delivery p WHERE p.webhook_id = w.id AND p.status IN ('started', 'failed'))
       WHERE w.deleted_at IS NULL AND w.active = 1
       ORDER BY d.seq`,
    ).all() as PendingDelivery[];
  }

  markAttemptStarted(id: string, now: number = nowMs()): void {
    const at = nowTimestamp(new Date(now));
    this.sql(
      'UPDATE webhook_delivery SET attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, ?), last_attempt_at = ?, updated_at = ? WHERE id = ?',
    ).run(at, at, at, id);
  }

  markSuccess(id: string, webhookId: string, result: AttemptResult, now: number = nowMs()): void {
    const at = nowTimestamp(new Date(now));
    this.store.db.transaction(() => {
      this.sql(
        "UPDATE webhook_delivery SET status = 'successful', response_code = ?, duration_ms = ?, error = NULL, delivered_at = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?",
      ).run(result.responseCode, result.durationMs, at, at, id);
      this.sql('UPDATE "webhook" SET fail_streak = 0, fail_streak_started_at = NULL WHERE id = ?').run(webhookId);
    })();
  }

  /**
   * Records a failed attempt: the delivery waits until `dueAt`, the webhook's streak grows, and
   * at `disableAfter` failures in a row the webhook is switched off (its queue is suspended).
   * Returns whether it was disabled.
   */
  markFailure(id: string, webhookId: string, result: AttemptResult, dueAt: number, disableAfter: number, now: number = nowMs()): boolean {
    const at = nowTimestamp(new Date(now));
    return this.store.db.transaction(() => {
      this.sql(
        "UPDATE webhook_delivery SET status = 'failed', response_code = ?, duration_ms = ?, error = ?, due_at = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?",
      ).run(result.responseCode, result.durationMs, result.error, dueAt, nowTimestamp(new Date(dueAt)), at, id);
      this.sql(
        `UPDATE "webhook" SET fail_streak = fail_streak + 1, last_failed_at = ?,
           fail_streak_started_at = CASE WHEN fail_streak = 0 THEN ? ELSE fail_streak_started_at END WHERE id = ?`,
      ).run(at, at, webhookId);
      const { fail_streak } = this.sql<{ fail_streak: number }>('SELECT fail_streak FROM "webhook" WHERE id = ?').get(webhookId)!;
      if (fail_streak < disableAfter) return false;
      this.sql('UPDATE "webhook" SET active = 0, disabled_until = ?, updated_at = ? WHERE id = ?').run(disabledForever, at, webhookId);
      this.suspend(webhookId);
      return true;
    })();
  }

  /** Holds the webhook's queued deliveries (it was switched off or deleted). */
  suspend(webhookId: string): void {
    this.sql(
      "UPDATE webhook_delivery SET status = 'suspended', next_attempt_at = NULL, updated_at = ? WHERE webhook_id = ? AND status IN ('started', 'failed')",
    ).run(nowTimestamp(), webhookId);
  }

  /** Sends the held deliveries again, at once and in their order (the webhook is active again). */
  resume(webhookId: string, now: number = nowMs()): void {
    const at = nowTimestamp(new Date(now));
    this.sql(
      "UPDATE webhook_delivery SET status = 'started', due_at = ?, next_attempt_at = ?, updated_at = ? WHERE webhook_id = ? AND status = 'suspended'",
    ).run(now, at, at, webhookId);
  }

  /**
   * Queues a delivery again as a new delivery (new id, same event id and body), behind
   * whatever the webhook still has to send. Undefined when there is no such delivery.
   */
  redeliver(webhookId: string, deliveryId: string, now: number = nowMs()): string | undefined {
    // The row shape of this queue's own SQL text (SQLite gives untyped rows).
    const original = this.sql(
      'SELECT event_id, event, resource, record_id, payload FROM webhook_delivery WHERE id = ? AND webhook_id = ?',
    ).get(deliveryId, webhookId) as { event_id: string; event: string; resource: string; record_id: string; payload: string } | undefined;
    if (!original) return undefined;
    const active = this.sql<{ active: number }>('SELECT active FROM "webhook" WHERE id = ? AND deleted_at IS NULL').get(webhookId);
    return this.store.db.transaction(() => {
      const id = this.enqueue(
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
      this.sql('UPDATE webhook_delivery SET redelivery_of = ? WHERE id = ?').run(deliveryId, id);
      if (active?.active !== 1) this.suspend(webhookId);
      return id;
    })();
  }
}

/** The SQLite queue as a transaction's `deliveries` (the transaction holds the file meanwhile). */
export function sqliteDeliveryWrites(store: EnvironmentStore): DeliveryQueueWrites {
  const queue = WebhookQueue.of(store);
  return {
    subscribers: async () => queue.subscribers(),
    enqueue: async (delivery) => queue.enqueue(delivery),
    replacePayload: async (id, payload) => queue.replacePayload(id, payload),
    saveSecret: async (webhookId, secret) => queue.saveSecret(webhookId, secret),
    secretOf: async (webhookId) => queue.secretOf(webhookId),
    suspend: async (webhookId) => queue.suspend(webhookId),
    resume: async (webhookId) => queue.resume(webhookId),
    redeliver: async (webhookId, deliveryId) => queue.redeliver(webhookId, deliveryId),
  };
}

/** The SQLite queue as its delivery worker's (DeliveryQueueWork); `inTurn` runs each call in the file's turn (record-store.ts). */
export function sqliteDeliveryWork(store: EnvironmentStore, inTurn: <T>(fn: () => T) => Promise<T>): DeliveryQueueWork {
  const queue = WebhookQueue.of(store);
  return {
    hasWebhooks: () => inTurn(() => queue.hasWebhooks()),
    heads: () => inTurn(() => queue.heads()),
    secretOf: (webhookId) => inTurn(() => queue.secretOf(webhookId)),
    markAttemptStarted: (id, now) => inTurn(() => queue.markAttemptStarted(id, now)),
    markSuccess: (id, webhookId, result, now) => inTurn(() => queue.markSuccess(id, webhookId, result, now)),
    markFailure: (id, webhookId, result, dueAt, disableAfter, now) =>
      inTurn(() => queue.markFailure(id, webhookId, result, dueAt, disableAfter, now)),
  };
}
