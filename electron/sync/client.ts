/**
 * The sync client of a local replica: pushes the outbox to the remote and pulls what changed
 * there, so the planner's offline work arrives exactly once and every replica converges.
 *
 * When it runs: shortly after every local change (debounced), on an interval, and on demand
 * (`run()`). A run pushes everything pending (in batches), then pulls until it is up to date.
 * Failures back off exponentially with jitter, capped so that coming back online is noticed
 * within the cap. Runs never overlap.
 *
 * Refused mutations go to the conflict list with their data and the remote's version, and the
 * remote's version is applied here, so the replica converges while the user decides.
 *
 * After the records, attachment content moves both ways (attachment-content.ts).
 */
import { cursorIsAfter, type SyncCursor } from '../../shared/sync.js';
import { randomBytes } from 'node:crypto';
import { maxClockSkewMs } from '../../shared/hlc.js';
import { nowTimestamp } from '../../shared/ids.js';
import { notConfiguredStatus, remoteUrlProblem, type SyncControl, type SyncRunSummary, type SyncStatus } from '../../shared/sync.js';
import type { SyncSettings, SyncSettingsInput } from '../../shared/operations/sync.js';
import type { RecordStore, RecordWrites } from '../store/record-store.js';
import type { ReplicaBookReads, ReplicaBookWrites } from '../store/replica-book.js';
import type { TableDef } from '../store/table-def.js';
import { mutationHash } from '../store/sync-book.js';
import { AttachmentContent, attachmentResource } from './attachment-content.js';
import { checkRemoteCredentials } from './credentials-check.js';
import type { CredentialVault } from './credentials.js';
import { bulkLoad, checkRows, isEmptyReplica } from './bulk-load.js';
import { LiveChannel } from './live.js';
import { checkBatch, mergeInto, mergeRecords, replicaOf, SyncMessageError } from './merge.js';
import { OverruledWatch } from './overruled.js';
import type { PlanCheck, PlanCheckRun, PulledChange } from './plan-changes.js';
import {
  CursorExpired,
  httpRemote,
  RemoteRateLimited,
  RemoteRefused,
  RemoteUnavailable,
  RemoteUnreachable,
  UpdateRequired,
  type PushResult,
  type RemoteApi,
} from './remote.js';
import { nowMs } from '../../shared/clock.js';

/** The description of an error body, when it is one. */
function describeError(error: unknown): string | undefined {
  const description = (error as { errors?: { description?: unknown }[] } | null)?.errors?.[0]?.description;
  return typeof description === 'string' ? description : undefined;
}

export interface SyncTiming {
  /**
   * Wait after a local change before pushing: each change waits again, so several quick edits
   * go together, but never longer than `maxPushWaitMs` after the first of them.
   */
  pushDelayMs: number;
  /**
   * The longest a local change waits for the edits after it: a planner writing steadily (an
   * import, a series of quick edits) pushes about once per this, not after every write, which
   * would make each write wait for the last push's work (docs/architecture.md "Push"). Each push
   * costs its acknowledgement, the pull of its echo and their commits whatever its size, so 3 s
   * rather than 1 s (issue 39); the remote still has every change within 5 s.
   */
  maxPushWaitMs: number;
  /**
   * Between pulls when idle. An edit on another computer shows here within about this plus
   * its push delay (issue 8 asks for 3 s); an idle pull is one small request.
   */
  pullIntervalMs: number;
  /** First retry delay after a failure; doubles up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /**
   * The most a replica waits between tries while nothing answers at all (RemoteUnreachable):
   * a refused connection costs the remote nothing, and the planner sees "Online: everything is
   * sent" within about this once the remote is back. A remote that answers with an error (5xx)
   * gets the longer back-off.
   */
  unreachableMaxBackoffMs: number;
  requestTimeoutMs: number;
  /** For trying new settings on the remote before they are saved: a planner waits for it. */
  checkTimeoutMs: number;
  /** For one attachment's content (up to 25 MiB). */
  contentTimeoutMs: number;
  pushBatch: number;
  pullPage: number;
  /** Snapshot pages loaded in bulk (bulk-load.ts) are the remote's largest: fewer commits. */
  bulkPage: number;
  /**
   * Listen to the remote's live channel (live.ts, docs/API.md "Live updates") and pull when it
   * announces a change. While it is up, a local change is pushed after `livePushDelayMs` and
   * the idle pull comes only every `livePullIntervalMs`, as a safety net. False: poll only.
   */
  live: boolean;
  livePushDelayMs: number;
  livePullIntervalMs: number;
  /** A stream silent this long is dead (the remote sends a comment every 25 s). */
  liveSilenceMs: number;
  /** When to ask a remote without a live channel (an older version) again. */
  liveAbsentRetryMs: number;
}

export const defaultTiming: SyncTiming = {
  pushDelayMs: 500,
  maxPushWaitMs: 3_000,
  pullIntervalMs: 1_000,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
  unreachableMaxBackoffMs: 2_000,
  requestTimeoutMs: 30_000,
  checkTimeoutMs: 5_000,
  contentTimeoutMs: 300_000,
  pushBatch: 500,
  pullPage: 2000,
  bulkPage: 5000,
  live: true,
  livePushDelayMs: 50,
  livePullIntervalMs: 300_000,
  liveSilenceMs: 60_000,
  liveAbsentRetryMs: 600_000,
};

/** Bounds on one run, so a run always ends (a larger backlog continues in the next run). */
const maxPushBatchesPerRun = 200;
const maxPullPagesPerRun = 1000;

/**
 * Lets a request just made go out before the synchronous work that follows it. `fetch` writes
 * a request to its socket only some event-loop turns after it is called, so without these the
 * next snapshot page was asked for only once this page had been written: the remote and the
 * replica took turns instead of working at once, and every page waited 50–60 ms for the next
 * (test/bench/sync.ts (a)). Five turns were measured to be enough; a slower start only costs
 * the overlap, never a page.
 */
async function letRequestGoOut(): Promise<void> {
  for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export interface SyncClientOptions {
  /** A local replica's store: its records, and its replica book (replica-book.ts). */
  records: RecordStore;
  tables: ReadonlyMap<string, TableDef>;
  vault: CredentialVault;
  environmentId: string;
  timing?: Partial<SyncTiming>;
  /** For tests: a remote other than HTTP. */
  remote?: RemoteApi;
  /** Checks the plan on the boards each pull touches, before and after it is merged (plan-changes.ts). */
  planCheck?: PlanCheck;
}

export class SyncClient implements SyncControl {
  readonly environmentId: string;
  private readonly timing: SyncTiming;
  private readonly remote: RemoteApi;
  private readonly content: AttachmentContent;
  private online = false;
  private running: Promise<SyncRunSummary> | null = null;
  private next: Promise<SyncRunSummary> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private nextAttemptAt: number | null = null;
  /** When the first local change the next push waits for was made; null when none waits. */
  private pushWaitingSince: number | null = null;
  /** The timer is a push's own wait, which the next local change may move later (pushSoon). */
  private timerIsPush = false;
  private lastPushAt: string | null = null;
  private lastPullAt: string | null = null;
  private lastError: string | null = null;
  /** How far this computer's clock runs ahead of the remote's, when beyond the allowed skew. */
  private clockAheadMs: number | null = null;
  /** Which side must be updated first, after the versions on the wire disagreed (remote.ts). */
  private updateRequired: SyncStatus['update_required'] = null;
  /** Notes this run's overruled edits (overruled.ts); one per run. */
  private watch: OverruledWatch | null = null;
  /** This run's plan check, and the records its pulls changed here (plan-changes.ts). */
  private planRun: PlanCheckRun | null = null;
  private pulledChanges: PulledChange[] = [];
  private stopped = true;
  private unsubscribe: (() => void) | null = null;
  private readonly live: LiveChannel | null;
  /** The newest change number the live channel announced. */
  /** The newest cursor the live channel announced (undefined before its first event). */
  private announcedSeq: SyncCursor | undefined = undefined;

  constructor(private readonly options: SyncClientOptions) {
    this.environmentId = options.environmentId;
    this.timing = { ...defaultTiming, ...options.timing };
    this.remote =
      options.remote ??
      httpRemote(() => options.vault.load(), {
        timeoutMs: this.timing.requestTimeoutMs,
        contentTimeoutMs: this.timing.contentTimeoutMs,
        onTokens: (tokens) => {
          const current = options.vault.load();
          if (current) options.vault.save({ ...current, ...tokens });
        },
      });
    this.content = new AttachmentContent(options.records, options.tables.get(attachmentResource)!, this.remote);
    this.live = this.timing.live
      ? new LiveChannel({
          remote: this.remote,
          timing: {
            retryMs: this.timing.backoffMs,
            maxRetryMs: this.timing.maxBackoffMs,
            unreachableMaxRetryMs: this.timing.unreachableMaxBackoffMs,
            absentRetryMs: this.timing.liveAbsentRetryMs,
            silenceMs: this.timing.liveSilenceMs,
          },
          configured: () => this.options.vault.load() !== null,
          onSeq: (seq, first) => this.remoteChanged(seq, first),
          // Without the channel, polling takes over from now.
          onState: (up) => {
            if (!up) this.schedule(this.timing.pullIntervalMs);
          },
        })
      : null;
  }

  /** The replica's books, read outside a transaction (replica-book.ts). */
  private get replica(): ReplicaBookReads {
    if (!this.options.records.replica) throw new Error("This store keeps no replica's books: only a local replica syncs with a remote.");
    return this.options.records.replica;
  }

  /** Writes the replica's books in a transaction of their own. */
  private writeBook<T>(fn: (replica: ReplicaBookWrites) => Promise<T>): Promise<T> {
    return this.options.records.transaction((tx) => fn(replicaOf(tx)));
  }

  /** Starts syncing in the background: after local changes, on the interval, after failures. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // Only local changes need a push; changes this client pulled itself have nothing to send.
    this.unsubscribe = this.options.records.onChange(() => {
      void this.replica
        .pendingCount()
        .then((pending) => {
          if (pending > 0) this.pushSoon();
        })
        // A store that closes meanwhile has nothing to push.
        .catch(() => undefined);
    });
    this.schedule(0);
    this.live?.ensure();
  }

  /** Stops the timers and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.live?.stop();
    await this.running?.catch(() => undefined);
  }

  /**
   * The live channel announced the remote's newest change: pull now unless this replica has it.
   * During a run that check waits for its end (cycle); after failures the backoff stands,
   * except for a stream's first event, which shows that the remote is reachable again.
   */
  private remoteChanged(seq: SyncCursor, first: boolean): void {
    if (this.announcedSeq === undefined || cursorIsAfter(seq, this.announcedSeq)) this.announcedSeq = seq;
    if (this.running || (this.failures > 0 && !first)) return;
    void this.replica
      .state<SyncCursor>('cursor')
      .then((cursor) => {
        if (cursorIsAfter(seq, cursor)) this.schedule(0);
      })
      .catch(() => undefined);
  }

  /**
   * A local change waits to be pushed: the push delay, counted again from each change, but at
   * most `maxPushWaitMs` after the first change waiting. During a backoff the wake-up the
   * backoff set stands (a local change does not hammer a remote that failed), and a wake-up
   * for something else that comes sooner takes the push along.
   */
  private pushSoon(): void {
    const delay = this.live?.up ? Math.min(this.timing.pushDelayMs, this.timing.livePushDelayMs) : this.timing.pushDelayMs;
    if (this.failures > 0) {
      this.schedule(delay);
      return;
    }
    const now = nowMs();
    this.pushWaitingSince ??= now;
    const at = Math.min(now + delay, this.pushWaitingSince + Math.max(delay, this.timing.maxPushWaitMs));
    const sooner = this.timer !== null && !this.timerIsPush && this.nextAttemptAt !== null && this.nextAttemptAt <= at;
    if (sooner) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.schedule(at - now, true);
  }

  /** Wakes up after `delayMs` for a run, unless a wake-up comes sooner; `forPush`: a push's own wait (pushSoon). */
  private schedule(delayMs: number, forPush = false): void {
    if (this.stopped || !this.options.vault.load()) return;
    const at = nowMs() + delayMs;
    // Keep an earlier wake-up; during a backoff a local change does not hammer the remote.
    if (this.timer && this.nextAttemptAt !== null && this.nextAttemptAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.nextAttemptAt = at;
    this.timerIsPush = forPush;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.nextAttemptAt = null;
      this.timerIsPush = false;
      // What waited is pushed by this run; a change made from now on waits anew.
      this.pushWaitingSince = null;
      void this.run().catch(() => undefined);
    }, delayMs);
    this.timer.unref?.();
  }

  /**
   * One consistent reading (docs/API.md "Sync", "Status"): without a remote nothing of an
   * earlier one shows; `online` means the last run reached the remote and ended, so with it
   * `last_error` is only that run's warning (changes on hold, files that did not move), never
   * a failure; while a run is under way no next attempt is planned.
   */
  status(): SyncStatus {
    const creds = this.options.vault.load();
    if (!creds) {
      return { ...notConfiguredStatus };
    }
    const syncing = this.running !== null;
    return {
      configured: true,
      remote_url: creds.remote_url,
      online: this.online,
      syncing,
      last_push_at: this.lastPushAt,
      last_pull_at: this.lastPullAt,
      last_error: this.lastError,
      next_attempt_at: this.nextAttemptAt && !syncing ? new Date(this.nextAttemptAt).toISOString() : null,
      clock_ahead_ms: this.clockAheadMs,
      update_required: this.updateRequired,
    };
  }

  /** Forgets what the last runs found: it was about other settings. */
  private forgetRuns(otherRemote: boolean): void {
    this.online = false;
    this.lastError = null;
    this.clockAheadMs = null;
    this.updateRequired = null;
    this.failures = 0;
    if (otherRemote) {
      this.lastPushAt = null;
      this.lastPullAt = null;
    }
  }

  settings(): SyncSettings {
    const creds = this.options.vault.load();
    return {
      remote_url: creds?.remote_url ?? null,
      api_env: creds?.api_env ?? null,
      auth: creds?.access_token ? 'oauth' : creds?.api_key ? 'api-key' : null,
      has_credentials: Boolean(creds?.access_token || creds?.api_key),
      allow_insecure_http: creds?.allow_insecure_http === true,
    };
  }

  /**
   * Saves new settings once the remote has taken them (credentials-check.ts): a wrong address
   * or key throws SyncSettingsProblem and leaves the stored settings as they were.
   */
  async updateSettings(input: SyncSettingsInput): Promise<SyncSettings> {
    if (input.remote_url === null) {
      this.options.vault.save(null);
      this.forgetRuns(true);
    } else {
      const previous = this.options.vault.load();
      const sameRemote = previous?.remote_url === input.remote_url;
      const next = {
        remote_url: input.remote_url,
        ...(input.api_env !== undefined
          ? { api_env: input.api_env }
          : sameRemote && previous?.api_env
            ? { api_env: previous.api_env }
            : {}),
        ...(input.api_key !== undefined
          ? { api_key: input.api_key }
          : sameRemote && previous?.api_key
            ? { api_key: previous.api_key }
            : {}),
        ...(input.access_token !== undefined ? { access_token: input.access_token } : {}),
        ...(input.refresh_token !== undefined ? { refresh_token: input.refresh_token } : {}),
        ...(input.allow_insecure_http === true ? { allow_insecure_http: true } : {}),
      };
      await checkRemoteCredentials(next, this.timing.checkTimeoutMs);
      this.options.vault.save(next);
      // Another remote means another history: start pulling it from the beginning.
      if (!sameRemote) await this.writeBook((replica) => replica.setState('cursor', undefined));
      this.forgetRuns(!sameRemote);
      this.schedule(0);
    }
    this.live?.restart();
    return this.settings();
  }

  /** One push-and-pull cycle now. A call during a run waits for it and runs once more. */
  run(): Promise<SyncRunSummary> {
    if (this.running) {
      this.next ??= this.running
        .catch(() => undefined)
        .then(() => {
          this.next = null;
          return this.run();
        });
      return this.next;
    }
    this.running = this.cycle().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async cycle(): Promise<SyncRunSummary> {
    const started = nowMs();
    const summary: SyncRunSummary = {
      pushed: 0,
      rejected: 0,
      pulled: 0,
      overruled: 0,
      files_sent: 0,
      files_fetched: 0,
      resynced: false,
      duration_ms: 0,
      error: null,
    };
    try {
      this.watch = new OverruledWatch(await this.replica.node());
      const creds = this.options.vault.load();
      if (!creds) throw new RemoteRefused(0, 'no remote is set up');
      // Settings saved by an older version may name a plain-http remote elsewhere: send nothing.
      const insecure = remoteUrlProblem(creds.remote_url, creds.allow_insecure_http === true);
      if (insecure) throw new RemoteRefused(0, insecure);
      const pushProblem = await this.pushAll(summary);
      this.planRun = this.options.planCheck?.() ?? null;
      this.pulledChanges = [];
      await this.pullAll(summary);
      await this.checkPlan();
      const problems = await this.content.move(summary);
      this.online = true;
      this.failures = 0;
      this.updateRequired = null;
      // Changes on hold and files the remote refused are tried again on the usual interval;
      // this is no reason to back off, but it is shown.
      summary.error =
        pushProblem ??
        this.clockProblem() ??
        (problems.length > 0 ? `${problems.length} attachment file(s) did not move; the first: ${problems[0]}` : null);
      this.lastError = summary.error;
      this.schedule(this.live?.up ? Math.max(this.timing.pullIntervalMs, this.timing.livePullIntervalMs) : this.timing.pullIntervalMs);
      this.live?.ensure();
      if (this.announcedSeq !== undefined && cursorIsAfter(this.announcedSeq, await this.replica.state<SyncCursor>('cursor')))
        this.schedule(0);
    } catch (error) {
      summary.error = (error as Error).message;
      this.lastError = summary.error;
      this.updateRequired = error instanceof UpdateRequired ? error.side : null;
      // Unreachable or refused, this run did not sync: never "online" beside a failure.
      this.online = false;
      this.failures++;
      const cap = error instanceof RemoteUnreachable ? this.timing.unreachableMaxBackoffMs : this.timing.maxBackoffMs;
      const backoff = Math.min(cap, this.timing.backoffMs * 2 ** (this.failures - 1));
      // A remote that limits us says when to come back; sooner would only be refused again.
      const asked = error instanceof RemoteRateLimited ? error.retryAfterMs : 0;
      this.schedule(Math.max(asked, Math.round(backoff * (0.5 + Math.random() / 2))));
    }
    summary.overruled = this.watch?.noticed ?? 0;
    this.watch = null;
    this.planRun = null;
    this.pulledChanges = [];
    summary.duration_ms = nowMs() - started;
    await this.keepInHistory(started, summary);
    return summary;
  }

  /** The run in the replica's sync history (store/sync-history.ts says which runs are kept). */
  private async keepInHistory(started: number, summary: SyncRunSummary): Promise<void> {
    try {
      await this.recordRun(started, summary);
    } catch (error) {
      // The history only reports; a failed write of it (a closing or full database) does not fail the run.
      console.warn(`The sync run could not be added to the sync history: ${(error as Error).message}`);
    }
  }

  private recordRun(started: number, summary: SyncRunSummary): Promise<void> {
    return this.writeBook((replica) =>
      replica.recordRun({
        started_at: new Date(started).toISOString(),
        ended_at: new Date(started + summary.duration_ms).toISOString(),
        duration_ms: summary.duration_ms,
        sent: summary.pushed,
        received: summary.pulled,
        overruled: summary.overruled,
        refused: summary.rejected,
        files_sent: summary.files_sent,
        files_fetched: summary.files_fetched,
        resynced: summary.resynced,
        error: summary.error,
      }),
    );
  }

  /** The id this replica pushes under: its node id, until the remote had a reason to refuse that. */
  private async pushClientId(): Promise<string> {
    return (await this.replica.state<string>('push_client_id')) ?? (await this.replica.node());
  }

  /**
   * A fresh replica id on the remote, with a mark of its own (docs/API.md "Sync"). Mutations
   * the remote applied under the old id and applies again under the new one change nothing:
   * their fields carry the same clocks.
   */
  private async renewPushClientId(): Promise<string> {
    const id = `${await this.replica.node()}.${randomBytes(6).toString('hex')}`;
    await this.writeBook((replica) => replica.setState('push_client_id', id));
    return id;
  }

  private clockProblem(): string | null {
    if (this.clockAheadMs === null) return null;
    const minutes = Math.round(this.clockAheadMs / 60_000);
    return `This computer's clock runs about ${minutes} minute(s) ahead of the server's. Set it right: changes stamped with a time the server has not reached yet wait until it has.`;
  }

  /** Compares the remote's clock with ours at the middle of the exchange. */
  private noteServerTime(serverTime: number | undefined, sentAt: number): void {
    if (serverTime === undefined) return;
    const ahead = Math.round((sentAt + nowMs()) / 2 - serverTime);
    this.clockAheadMs = ahead > maxClockSkewMs ? ahead : null;
  }

  /**
   * Pushes the outbox. A mutation leaves it only when the remote applied it or refused it on
   * its merits (a refusal goes to the conflict list); a resent mutation counts as applied only
   * when the remote's answer carries its own content hash. Returns a problem to show, if any.
   */
  private async pushAll(summary: SyncRunSummary): Promise<string | null> {
    let clientId = await this.pushClientId();
    let renewed = false;
    let problem: string | null = null;
    for (let i = 0; i < maxPushBatchesPerRun; i++) {
      const batch = await this.replica.nextPush(this.timing.pushBatch);
      if (batch.length === 0) return problem;
      const sentAt = nowMs();
      let answer;
      try {
        answer = await this.remote.push(clientId, batch);
      } catch (error) {
        // Another credential pushed under this id first: take an id of our own, once a run.
        if (error instanceof RemoteRefused && error.status === 403 && error.field === 'client_id' && !renewed) {
          renewed = true;
          clientId = await this.renewPushClientId();
          continue;
        }
        throw error;
      }
      this.noteServerTime(answer.server_time, sentAt);
      const byId = new Map(batch.map((m) => [m.mutation_id, m]));
      const ours = answer.results.filter((r) => byId.has(r.mutation_id));
      const trusted = (r: PushResult) => !r.duplicate || r.hash === mutationHash(byId.get(r.mutation_id)!);
      const done = ours.filter((r) => (r.status === 'applied' || r.status === 'rejected') && trusted(r));
      const waiting = ours.filter((r) => !done.includes(r));
      const refused = done.filter((r) => r.status === 'rejected');
      // Applied, but some fields lost to later changes: the answer has the remote's version.
      const overruled = this.checked(
        done
          .filter((r) => r.status === 'applied' && r.record && r.clocks && this.options.tables.has(byId.get(r.mutation_id)!.resource))
          .map((r) => ({
            resource: byId.get(r.mutation_id)!.resource,
            id: byId.get(r.mutation_id)!.id,
            record: r.record!,
            clocks: r.clocks!,
          })),
      );
      await this.options.records.transaction(async (tx) => {
        const replica = replicaOf(tx);
        // Before the acknowledgement: until then these changes count as not yet confirmed (overruled.ts).
        await mergeInto(tx, this.options.tables, overruled, { ...this.watching() });
        for (const result of refused) {
          const mutation = byId.get(result.mutation_id)!;
          await replica.addConflict(mutation, result.error ?? null, result.record ?? null);
          // Show the remote's version here too, so this replica converges while the user decides.
          if (this.options.tables.has(mutation.resource)) {
            await mergeInto(
              tx,
              this.options.tables,
              [{ resource: mutation.resource, id: mutation.id, record: result.record ?? null, clocks: result.clocks ?? {} }],
              { force: mutation.hlc },
            );
            await this.content.queueFetches(tx, [mutation]);
          }
        }
        await replica.acknowledge(done.map((r) => r.mutation_id));
        // With the acknowledgement, so an upload stays pending until its content has moved too.
        await this.content.queueSends(
          tx,
          done.filter((r) => r.status === 'applied').map((r) => byId.get(r.mutation_id)!),
        );
      });
      summary.pushed += done.length - refused.length;
      summary.rejected += refused.length;
      this.lastPushAt = nowTimestamp();
      if (waiting.some((r) => r.status === 'deferred')) {
        // They wait in the outbox until the clocks agree; pulling goes on meanwhile.
        return (
          describeError(waiting.find((r) => r.status === 'deferred')!.error) ??
          "The remote put changes on hold: this computer's clock runs ahead of the server's."
        );
      }
      if (waiting.length > 0) {
        // Not applied under this id (its mark is past them): they stay, and go again under a new id.
        if (renewed) throw new RemoteRefused(0, `The remote did not apply ${waiting.length} change(s); they stay waiting to be sent.`);
        renewed = true;
        clientId = await this.renewPushClientId();
        problem = `The remote had not applied ${waiting.length} change(s) it was sent before; they were sent again.`;
        continue;
      }
      if (ours.length < batch.length) throw new RemoteUnavailable('the remote answered only part of a push');
    }
    return problem;
  }

  private async pullAll(summary: SyncRunSummary): Promise<void> {
    let cursor = await this.replica.state<SyncCursor>('cursor');
    if (cursor === undefined) {
      await this.snapshot(summary);
      cursor = (await this.replica.state<SyncCursor>('cursor'))!;
    }
    for (let i = 0; i < maxPullPagesPerRun; i++) {
      let page;
      try {
        const sentAt = nowMs();
        page = await this.remote.changes(cursor, this.timing.pullPage);
        this.noteServerTime(page.server_time, sentAt);
      } catch (error) {
        if (!(error instanceof CursorExpired)) throw error;
        await this.snapshot(summary);
        cursor = (await this.replica.state<SyncCursor>('cursor'))!;
        continue;
      }
      const entries = this.checked(page.changes);
      const next = page.cursor;
      // The plan on the boards this page touches, as it is here before the merge; this
      // replica's own changes coming back change nothing here, and touch nothing.
      const incoming = this.planRun ? await this.bringingNews(entries) : [];
      if (this.planRun && incoming.length > 0) await this.planRun.before(incoming);
      // One transaction per page, all or nothing: the records, their clocks, the cursor, the
      // files to fetch, and the webhook events and automation of what it changed.
      summary.pulled += await mergeRecords(this.options.records, this.options.tables, entries, {
        ...this.watching(),
        ...(this.planRun ? { applied: (change: PulledChange) => this.pulledChanges.push(change) } : {}),
        afterApply: async (tx) => {
          await replicaOf(tx).setState('cursor', next);
          await this.content.queueFetches(tx, entries);
        },
      });
      cursor = next;
      this.lastPullAt = nowTimestamp();
      if (!page.more) return;
    }
  }

  /** The pulled records with a field clock later than this replica's: merging the others writes nothing. */
  private async bringingNews<E extends { resource: string; id: string; clocks: Record<string, string> }>(
    entries: readonly E[],
  ): Promise<E[]> {
    const news: E[] = [];
    for (const entry of entries) {
      const local = await this.replica.clocksOf(entry.resource, entry.id);
      if (Object.entries(entry.clocks).some(([field, hlc]) => hlc > (local[field] ?? ''))) news.push(entry);
    }
    return news;
  }

  /**
   * After a pull that changed records here: what the merge made of the plan that it did not
   * have before (plan-changes.ts). Only reports: a check that fails does not fail the run.
   */
  private async checkPlan(): Promise<void> {
    if (!this.planRun || this.pulledChanges.length === 0) return;
    try {
      await this.planRun.after(this.pulledChanges);
    } catch (error) {
      console.warn(`The plan check after the sync failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Downloads every record (first sync, or after 410), then continues from the snapshot's cursor. */
  private async snapshot(summary: SyncRunSummary): Promise<void> {
    summary.resynced = true;
    const { tables } = this.options;
    // A replica with no records and nothing to push has nothing to merge with (bulk-load.ts).
    const bulk = await isEmptyReplica(this.replica, tables);
    let seq: SyncCursor = 0;
    // The next page is asked for while this one is written, so the remote and this replica work at once.
    const size = bulk ? this.timing.bulkPage : this.timing.pullPage;
    // In bulk the pages come in rows, which cost both sides less (docs/API.md "Snapshot in rows").
    const options = { rows: bulk };
    let next = this.remote.snapshot(null, size, options);
    for (let i = 0; i < maxPullPagesPerRun * 10; i++) {
      const page = await next;
      if (page.cursor !== null) {
        next = this.remote.snapshot(page.cursor, size, options);
        next.catch(() => undefined);
        await letRequestGoOut();
      }
      const { loads, records } = bulk && page.tables !== undefined ? this.checkedRows(page.tables) : { loads: [], records: [] };
      const entries = this.checked(records.length > 0 ? [...page.records, ...records] : page.records);
      const afterApply = async (tx: RecordWrites) => {
        await this.content.queueFetches(tx, entries);
        for (const load of loads)
          if (load.table.resource === attachmentResource)
            await this.content.queueFetches(
              tx,
              load.rows.map((row) => ({ resource: load.table.resource, id: row[0] as string })),
            );
      };
      summary.pulled += bulk
        ? await bulkLoad(this.options.records, tables, entries, afterApply, loads)
        : await mergeRecords(this.options.records, tables, entries, { ...this.watching(), afterApply });
      seq = page.seq;
      if (page.cursor === null) break;
    }
    await this.writeBook((replica) => replica.setState('cursor', seq));
  }

  private watching(): { watch?: OverruledWatch } {
    return this.watch ? { watch: this.watch } : {};
  }

  private checkedRows(parts: unknown) {
    try {
      return checkRows(this.options.tables, parts);
    } catch (error) {
      if (error instanceof SyncMessageError) throw new RemoteRefused(0, `the remote sent data this app cannot read: ${error.message}`);
      throw error;
    }
  }

  private checked(entries: unknown) {
    try {
      return checkBatch(this.options.tables, entries);
    } catch (error) {
      if (error instanceof SyncMessageError) throw new RemoteRefused(0, `the remote sent data this app cannot read: ${error.message}`);
      throw error;
    }
  }
}
