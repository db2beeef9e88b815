/**
 * The delivery worker of one environment. Each webhook has at most one delivery in flight,
 * always its oldest unsent one (see store/webhook-queue.ts), so a receiver gets events in the
 * order they happened. A failed attempt waits an exponentially growing, jittered delay (capped)
 * before it is tried again; after `disableAfterFailures` failures in a row the webhook is
 * switched off and its queue suspended until someone activates it again.
 *
 * All state is in SQLite: a worker started on the same data after a restart picks up exactly
 * where the last one stopped. An attempt cut off by `stop()` is not recorded as a failure; it
 * is simply sent again (same delivery id) by the next worker.
 */
import { AsyncResource } from 'node:async_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { DeliveryQueueWork, PendingDelivery } from '../../store/webhook-queue.js';
import { postJson, type PostOptions, type PostResult } from './post.js';
import { deliveryHeader, eventHeader, signatureHeader, signDelivery, timestampHeader } from './signature.js';
import { nowMs } from '../../../shared/clock.js';

export interface DeliveryTiming {
  /** Wait after the first failure; every further failure doubles it. */
  retryBaseMs: number;
  /** The longest wait between two attempts. */
  retryMaxMs: number;
  /** How long an attempt may take before it counts as failed. */
  timeoutMs: number;
  /** Failures in a row that disable a webhook. */
  disableAfterFailures: number;
}

export const defaultDeliveryTiming: DeliveryTiming = {
  retryBaseMs: 10_000,
  retryMaxMs: 60 * 60_000,
  timeoutMs: 10_000,
  disableAfterFailures: 250,
};

/** "Equal jitter": half the exponential delay, plus a random part of the other half. */
export function retryDelay(failures: number, timing: DeliveryTiming, random: () => number = Math.random): number {
  const exponential = Math.min(timing.retryMaxMs, timing.retryBaseMs * 2 ** Math.min(Math.max(failures - 1, 0), 40));
  return Math.round(exponential / 2 + (random() * exponential) / 2);
}

/**
 * One attempt at a delivery: its body posted to the webhook's URL, signed with the webhook's
 * secret and the time the attempt started (docs/API.md "Webhooks"). Both engines' workers send
 * through this (team-dispatcher.ts is PostgreSQL's).
 */
export function sendDelivery(
  delivery: Pick<PendingDelivery, 'id' | 'url' | 'payload' | 'event'>,
  secret: string,
  startedAt: number,
  options: PostOptions,
): Promise<PostResult> {
  const timestamp = String(Math.floor(startedAt / 1000));
  return postJson(
    delivery.url,
    delivery.payload,
    {
      [signatureHeader]: signDelivery(secret, timestamp, delivery.payload),
      [timestampHeader]: timestamp,
      [deliveryHeader]: delivery.id,
      [eventHeader]: delivery.event,
    },
    options,
  );
}

/**
 * What the workers of both engines share: a pass looks for work soon after a wake, one pass at
 * a time, a timer brings the next pass when something falls due, and each webhook has one
 * attempt in flight at a time, whose end wakes the worker for that webhook's next delivery.
 * Each engine says only how it looks at its queue (`look`) and sends one delivery.
 */
export abstract class DeliveryWorker {
  protected readonly inFlight = new Map<string, Promise<void>>();
  protected readonly closing = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private immediate: NodeJS.Immediate | undefined;
  /** The pass under way, if any; a wake during it makes another one after it (`passAgain`). */
  private passing: Promise<void> | undefined;
  private passAgain = false;
  protected stopped = false;

  /** `logContext` goes into the worker's log lines (the team server names the environment). */
  constructor(
    protected readonly log: FastifyBaseLogger,
    private readonly logContext: Record<string, string> = {},
  ) {}

  /** Looks at the queue: starts what is due, schedules what is not yet. */
  protected abstract look(): Promise<void>;

  /**
   * One pass at a time. A queue that cannot be read (the store busy or gone for a moment) is
   * looked at again in a second, not given up on.
   */
  private pass(): void {
    if (this.stopped) return;
    if (this.passing) {
      this.passAgain = true;
      return;
    }
    this.passing = this.look()
      .catch((error: unknown) => {
        this.log.error({ err: error, ...this.logContext }, 'webhook queue could not be read');
        this.schedule(nowMs() + 1000);
      })
      .finally(() => {
        this.passing = undefined;
        if (this.passAgain) {
          this.passAgain = false;
          this.wake();
        }
      });
  }

  /**
   * Looks for work soon. Called after writes that queued deliveries: the pass runs in a later
   * turn of the event loop, so after the writing transaction has committed.
   */
  wake(): void {
    if (this.stopped || this.immediate) return;
    this.immediate = setImmediate(this.woken);
  }

  /**
   * The pass a wake brings, in the context the worker was made in: a wake comes from inside a
   * writing transaction (webhookWriteHook), and a pass that ran in that transaction's context
   * would be refused by the store (record-store.ts: inside a transaction, only its `tx`).
   */
  private readonly woken = AsyncResource.bind(() => {
    this.immediate = undefined;
    this.pass();
  });

  /**
   * Stops sending: no timer is left, attempts in flight are cut off and awaited, and so is the
   * pass under way, with whatever it started before it saw the stop.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = this.immediate = undefined;
    this.closing.abort();
    const passing = this.passing;
    await Promise.allSettled([...this.inFlight.values()]);
    await passing;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** A pass at `at` (unless one comes sooner already); never for infinity. */
  protected schedule(at: number): void {
    if (this.stopped || at === Number.POSITIVE_INFINITY || (this.timer && this.timerAt <= at)) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pass();
      },
      Math.max(0, at - nowMs()),
    );
  }

  /** Runs one attempt of `webhookId`'s head; its end (or failure) wakes the worker. */
  protected start(webhookId: string, deliveryId: string, attempt: () => Promise<void>): void {
    const run = attempt()
      .catch((error: unknown) => this.log.error({ err: error, delivery: deliveryId }, 'webhook delivery bookkeeping failed'))
      .finally(() => {
        this.inFlight.delete(webhookId);
        this.wake();
      });
    this.inFlight.set(webhookId, run);
  }
}

/**
 * The worker of one environment on SQLite: everything it needs is in the environment's file,
 * read and recorded through its RecordStore (`deliveryWork`), in turn with the file's other callers.
 */
export class WebhookDispatcher extends DeliveryWorker {
  constructor(
    private readonly queue: DeliveryQueueWork,
    private readonly timing: DeliveryTiming,
    private readonly allowPrivateTargets: boolean,
    log: FastifyBaseLogger,
  ) {
    super(log);
  }

  protected async look(): Promise<void> {
    const heads = await this.queue.heads();
    if (this.stopped) return;
    const now = nowMs();
    let next = Number.POSITIVE_INFINITY;
    for (const head of heads) {
      if (this.inFlight.has(head.webhook_id)) continue;
      if (head.due_at <= now) this.start(head.webhook_id, head.id, () => this.attempt(head));
      else next = Math.min(next, head.due_at);
    }
    this.schedule(next);
  }

  private async attempt(head: PendingDelivery): Promise<void> {
    const secret = (await this.queue.secretOf(head.webhook_id)) ?? '';
    const startedAt = nowMs();
    await this.queue.markAttemptStarted(head.id, startedAt);
    const result = await sendDelivery(head, secret, startedAt, {
      timeoutMs: this.timing.timeoutMs,
      allowPrivate: this.allowPrivateTargets,
      signal: this.closing.signal,
    });
    // Closing: leave the delivery as it is; the next worker sends it again.
    if (this.stopped) return;
    const outcome = { responseCode: result.status, durationMs: result.durationMs, error: result.error };
    if (result.ok) {
      await this.queue.markSuccess(head.id, head.webhook_id, outcome);
      return;
    }
    const now = nowMs();
    const disabled = await this.queue.markFailure(
      head.id,
      head.webhook_id,
      outcome,
      now + retryDelay(head.attempts + 1, this.timing),
      this.timing.disableAfterFailures,
      now,
    );
    if (disabled)
      this.log.warn({ webhook: head.webhook_id }, `webhook disabled after ${this.timing.disableAfterFailures} failed deliveries in a row`);
  }
}
