/**
 * The delivery worker of one environment on a team-server node (docs/architecture.md "Team
 * server on PostgreSQL", "The webhook queue"). Every node runs one for each environment with
 * webhooks, and they share the queue in the database (store/postgres/webhook-queue.ts): a
 * worker claims due heads with `FOR UPDATE SKIP LOCKED` for a lease, and only the claimant
 * records the answer, so each delivery goes out once across all nodes, in order per webhook.
 *
 * Its node's service (team-service.ts) wakes it on every node's commits and at least once a
 * sweep; between those it comes back when a head it saw falls due, or when another node's
 * lease on one runs out (that node stopped mid-attempt).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ClaimedDelivery, PostgresWebhookQueue } from '../../store/postgres/webhook-queue.js';
import { DeliveryWorker, retryDelay, sendDelivery, type DeliveryTiming } from './dispatcher.js';
import { nowMs } from '../../../shared/clock.js';

/** How soon to look again at a head that is due but was not claimable (see claimableAgainMs). */
const claimableAgainMs = 250;

/** How many due heads one pass claims: the rest are claimed by the next pass, or by another node. */
const claimsPerPass = 50;

export class TeamWebhookDispatcher extends DeliveryWorker {
  /** A claim outlives the longest attempt with room to record its answer; then another node may send it. */
  private readonly leaseMs: number;

  constructor(
    private readonly queue: PostgresWebhookQueue,
    private readonly timing: DeliveryTiming,
    private readonly allowPrivateTargets: boolean,
    log: FastifyBaseLogger,
  ) {
    super(log, { environment: queue.environmentId });
    this.leaseMs = timing.timeoutMs + 60_000;
  }

  /** What this pass claimed after a stop is given back at once (see look). */
  protected async look(): Promise<void> {
    const claims = await this.queue.claim({ leaseMs: this.leaseMs, limit: claimsPerPass });
    for (const claim of claims) {
      if (this.stopped) await this.queue.release(claim);
      else this.start(claim.webhook_id, claim.id, () => this.attempt(claim));
    }
    if (this.stopped) return;
    const now = nowMs();
    let next = claims.length === claimsPerPass ? now : Number.POSITIVE_INFINITY;
    for (const head of await this.queue.heads()) {
      if (this.inFlight.has(head.webhook_id)) continue;
      const leased = head.claimed_until !== null && head.claimed_until > now;
      // Due, yet not claimed: a transaction older than the one that queued it is still open
      // (claim waits for it, so that no delivery can later sort before one already sent), or
      // another node claimed it a moment ago.
      const at = leased ? head.claimed_until! : head.due_at > now ? head.due_at : now + claimableAgainMs;
      next = Math.min(next, at);
    }
    this.schedule(next);
  }

  private async attempt(claim: ClaimedDelivery): Promise<void> {
    const secret = (await this.queue.secretOf(claim.webhook_id)) ?? '';
    const result = await sendDelivery(claim, secret, nowMs(), {
      timeoutMs: this.timing.timeoutMs,
      allowPrivate: this.allowPrivateTargets,
      signal: this.closing.signal,
    });
    // Cut off by closing: another node (or this one, started again) sends it at once.
    if (result.aborted) {
      await this.queue.release(claim);
      return;
    }
    const outcome = { responseCode: result.status, durationMs: result.durationMs, error: result.error };
    if (result.ok) {
      if (!(await this.queue.markSuccess(claim, outcome)))
        this.log.warn({ delivery: claim.id }, 'webhook delivery answered after its claim ran out; another node may send it again');
      return;
    }
    const now = nowMs();
    // The claim counted this attempt already.
    const due = now + retryDelay(claim.attempts, this.timing);
    const { disabled } = await this.queue.markFailure(claim, outcome, due, this.timing.disableAfterFailures, now);
    if (disabled)
      this.log.warn({ webhook: claim.webhook_id }, `webhook disabled after ${this.timing.disableAfterFailures} failed deliveries in a row`);
  }
}
