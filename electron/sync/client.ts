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
import { randomBytes } from 'node:crypto';
import { maxClockSkewMs } from '../../shared/hlc.js';
import { nowTimestamp } from '../../shared/ids.js';
import { remoteUrlProblem, type SyncControl, type SyncRunSummary, type SyncSettings, type SyncSettingsInput, type SyncStatus } from '../../shared/sync.js';
import type { EnvironmentStore, TableDef } from '../store/environment-store.js';
import { mutationHash, type SyncBook } from '../store/sync-book.js';
import { AttachmentContent, attachmentResource } from './attachment-content.js';
import type { CredentialVault } from './credentials.js';
import { checkBatch, mergeRecords, SyncMessageError } from './merge.js';
import { CursorExpired, httpRemote, RemoteRefused, RemoteUnavailable, type PushResult, type RemoteApi } from './remote.js';

/** The description of an error body, when it is one. */
function describeError(error: unknown): string | undefined {
  const description = (error as { errors?: { description?: unknown }[] } | null)?.errors?.[0]?.description;
  return typeof description === 'string' ? description : undefined;
}

export interface SyncTiming {
  /** Wait after a local change before pushing (several quick edits go together). */
  pushDelayMs: number;
  /**
   * Between pulls when idle. An edit on another computer shows here within about this plus
   * its push delay (issue 8 asks for 3 s); an idle pull is one small request.
   */
  pullIntervalMs: number;
  /** First retry delay after a failure; doubles up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  requestTimeoutMs: number;
  /** For one attachment's content (up to 25 MiB). */
  contentTimeoutMs: number;
  pushBatch: number;
  pullPage: number;
}

export const defaultTiming: SyncTiming = {
  pushDelayMs: 500,
  pullIntervalMs: 1_000,
  backoffMs: 1_000,
  maxBackoffMs: 30_000,
  requestTimeoutMs: 30_000,
  contentTimeoutMs: 300_000,
  pushBatch: 500,
  pullPage: 2000,
};

/** Bounds on one run, so a run always ends (a larger backlog continues in the next run). */
const maxPushBatchesPerRun = 200;
const maxPullPagesPerRun = 1000;

export interface SyncClientOptions {
  store: EnvironmentStore;
  book: SyncBook;
  tables: ReadonlyMap<string, TableDef>;
  vault: CredentialVault;
  environmentId: string;
  timing?: Partial<SyncTiming>;
  /** For tests: a remote other than HTTP. */
  remote?: RemoteApi;
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
  private lastPushAt: string | null = null;
  private lastPullAt: string | null = null;
  private lastError: string | null = null;
  /** How far this computer's clock runs ahead of the remote's, when beyond the allowed skew. */
  private clockAheadMs: number | null = null;
  private stopped = true;
  private unsubscribe: (() => void) | null = null;

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
    this.content = new AttachmentContent(options.store, options.book, options.tables.get(attachmentResource)!, this.remote);
  }

  private get book() {
    return this.options.book;
  }

  /** Starts syncing in the background: after local changes, on the interval, after failures. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // Only local changes need a push; changes this client pulled itself have nothing to send.
    this.unsubscribe = this.options.store.onChange(() => {
      if (this.book.pendingCount() > 0) this.schedule(this.timing.pushDelayMs);
    });
    this.schedule(0);
  }

  /** Stops the timers and waits for a run in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    if (this.stopped || !this.options.vault.load()) return;
    const at = Date.now() + delayMs;
    // Keep an earlier wake-up; during a backoff a local change does not hammer the remote.
    if (this.timer && this.nextAttemptAt !== null && this.nextAttemptAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.nextAttemptAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.nextAttemptAt = null;
      void this.run().catch(() => undefined);
    }, delayMs);
    this.timer.unref?.();
  }

  status(): SyncStatus {
    const creds = this.options.vault.load();
    return {
      configured: creds !== null,
      remote_url: creds?.remote_url ?? null,
      online: this.online,
      syncing: this.running !== null,
      last_push_at: this.lastPushAt,
      last_pull_at: this.lastPullAt,
      last_error: this.lastError,
      next_attempt_at: this.nextAttemptAt ? new Date(this.nextAttemptAt).toISOString() : null,
      clock_ahead_ms: this.clockAheadMs,
    };
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

  async updateSettings(input: SyncSettingsInput): Promise<SyncSettings> {
    if (input.remote_url === null) {
      this.options.vault.save(null);
    } else {
      const previous = this.options.vault.load();
      const sameRemote = previous?.remote_url === input.remote_url;
      this.options.vault.save({
        remote_url: input.remote_url,
        ...(input.api_env !== undefined ? { api_env: input.api_env } : sameRemote && previous?.api_env ? { api_env: previous.api_env } : {}),
        ...(input.api_key !== undefined ? { api_key: input.api_key } : sameRemote && previous?.api_key ? { api_key: previous.api_key } : {}),
        ...(input.access_token !== undefined ? { access_token: input.access_token } : {}),
        ...(input.refresh_token !== undefined ? { refresh_token: input.refresh_token } : {}),
        ...(input.allow_insecure_http === true ? { allow_insecure_http: true } : {}),
      });
      // Another remote means another history: start pulling it from the beginning.
      if (!sameRemote) this.book.setState('cursor', undefined);
      this.failures = 0;
      this.schedule(0);
    }
    return this.settings();
  }

  /** One push-and-pull cycle now. A call during a run waits for it and runs once more. */
  run(): Promise<SyncRunSummary> {
    if (this.running) {
      this.next ??= this.running.catch(() => undefined).then(() => {
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
    const started = Date.now();
    const summary: SyncRunSummary = { pushed: 0, rejected: 0, pulled: 0, files_sent: 0, files_fetched: 0, resynced: false, duration_ms: 0, error: null };
    try {
      const creds = this.options.vault.load();
      if (!creds) throw new RemoteRefused(0, 'no remote is set up');
      // Settings saved by an older version may name a plain-http remote elsewhere: send nothing.
      const insecure = remoteUrlProblem(creds.remote_url, creds.allow_insecure_http === true);
      if (insecure) throw new RemoteRefused(0, insecure);
      const pushProblem = await this.pushAll(summary);
      await this.pullAll(summary);
      const problems = await this.content.move(summary);
      this.online = true;
      this.failures = 0;
      // Changes on hold and files the remote refused are tried again on the usual interval;
      // this is no reason to back off, but it is shown.
      summary.error = pushProblem ?? this.clockProblem() ?? (problems.length > 0 ? `${problems.length} attachment file(s) did not move; the first: ${problems[0]}` : null);
      this.lastError = summary.error;
      this.schedule(this.timing.pullIntervalMs);
    } catch (error) {
      summary.error = (error as Error).message;
      this.lastError = summary.error;
      if (error instanceof RemoteUnavailable) this.online = false;
      this.failures++;
      const backoff = Math.min(this.timing.maxBackoffMs, this.timing.backoffMs * 2 ** (this.failures - 1));
      this.schedule(Math.round(backoff * (0.5 + Math.random() / 2)));
    }
    summary.duration_ms = Date.now() - started;
    return summary;
  }

  /** The id this replica pushes under: its node id, until the remote had a reason to refuse that. */
  private pushClientId(): string {
    return this.book.getState<string>('push_client_id') ?? this.book.getState<string>('node_id')!;
  }

  /**
   * A fresh replica id on the remote, with a mark of its own (docs/API.md "Sync"). Mutations
   * the remote applied under the old id and applies again under the new one change nothing:
   * their fields carry the same clocks.
   */
  private renewPushClientId(): string {
    const id = `${this.book.getState<string>('node_id')}.${randomBytes(6).toString('hex')}`;
    this.book.setState('push_client_id', id);
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
    const ahead = Math.round((sentAt + Date.now()) / 2 - serverTime);
    this.clockAheadMs = ahead > maxClockSkewMs ? ahead : null;
  }

  /**
   * Pushes the outbox. A mutation leaves it only when the remote applied it or refused it on
   * its merits (a refusal goes to the conflict list); a resent mutation counts as applied only
   * when the remote's answer carries its own content hash. Returns a problem to show, if any.
   */
  private async pushAll(summary: SyncRunSummary): Promise<string | null> {
    let clientId = this.pushClientId();
    let renewed = false;
    let problem: string | null = null;
    for (let i = 0; i < maxPushBatchesPerRun; i++) {
      const batch = this.book.pending(this.timing.pushBatch);
      if (batch.length === 0) return problem;
      const sentAt = Date.now();
      let answer;
      try {
        answer = await this.remote.push(clientId, batch);
      } catch (error) {
        // Another credential pushed under this id first: take an id of our own, once a run.
        if (error instanceof RemoteRefused && error.status === 403 && error.field === 'client_id' && !renewed) {
          renewed = true;
          clientId = this.renewPushClientId();
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
      this.options.store.transaction(() => {
        for (const result of refused) {
          const mutation = byId.get(result.mutation_id)!;
          this.book.addConflict(mutation, result.error ?? null, result.record ?? null);
          // Show the remote's version here too, so this replica converges while the user decides.
          if (this.options.tables.has(mutation.resource)) {
            mergeRecords(this.options.store, this.book, this.options.tables, [{ resource: mutation.resource, id: mutation.id, record: result.record ?? null, clocks: result.clocks ?? {} }], { force: mutation.hlc });
            this.content.queueFetches([mutation]);
          }
        }
        this.book.acknowledge(done.map((r) => r.mutation_id));
        // With the acknowledgement, so an upload stays pending until its content has moved too.
        this.content.queueSends(done.filter((r) => r.status === 'applied').map((r) => byId.get(r.mutation_id)!));
      });
      summary.pushed += done.length - refused.length;
      summary.rejected += refused.length;
      this.lastPushAt = nowTimestamp();
      if (waiting.some((r) => r.status === 'deferred')) {
        // They wait in the outbox until the clocks agree; pulling goes on meanwhile.
        return describeError(waiting.find((r) => r.status === 'deferred')!.error) ?? 'The remote put changes on hold: this computer\'s clock runs ahead of the server\'s.';
      }
      if (waiting.length > 0) {
        // Not applied under this id (its mark is past them): they stay, and go again under a new id.
        if (renewed) throw new RemoteRefused(0, `The remote did not apply ${waiting.length} change(s); they stay waiting to be sent.`);
        renewed = true;
        clientId = this.renewPushClientId();
        problem = `The remote had not applied ${waiting.length} change(s) it was sent before; they were sent again.`;
        continue;
      }
      if (ours.length < batch.length) throw new RemoteUnavailable('the remote answered only part of a push');
    }
    return problem;
  }

  private async pullAll(summary: SyncRunSummary): Promise<void> {
    let cursor = this.book.getState<number>('cursor');
    if (cursor === undefined) {
      await this.snapshot(summary);
      cursor = this.book.getState<number>('cursor')!;
    }
    for (let i = 0; i < maxPullPagesPerRun; i++) {
      let page;
      try {
        const sentAt = Date.now();
        page = await this.remote.changes(cursor, this.timing.pullPage);
        this.noteServerTime(page.server_time, sentAt);
      } catch (error) {
        if (!(error instanceof CursorExpired)) throw error;
        await this.snapshot(summary);
        cursor = this.book.getState<number>('cursor')!;
        continue;
      }
      const entries = this.checked(page.changes);
      const next = page.cursor;
      summary.pulled += mergeRecords(this.options.store, this.book, this.options.tables, entries, {
        afterApply: () => {
          this.book.setState('cursor', next);
          this.content.queueFetches(entries);
        },
      });
      cursor = next;
      this.lastPullAt = nowTimestamp();
      if (!page.more) return;
    }
  }

  /** Downloads every record (first sync, or after 410), then continues from the snapshot's cursor. */
  private async snapshot(summary: SyncRunSummary): Promise<void> {
    summary.resynced = true;
    let cursor: string | null = null;
    let seq = 0;
    for (let i = 0; i < maxPullPagesPerRun * 10; i++) {
      const page = await this.remote.snapshot(cursor, this.timing.pullPage);
      const entries = this.checked(page.records);
      summary.pulled += mergeRecords(this.options.store, this.book, this.options.tables, entries, { afterApply: () => this.content.queueFetches(entries) });
      seq = page.seq;
      cursor = page.cursor;
      if (cursor === null) break;
    }
    this.book.setState('cursor', seq);
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
