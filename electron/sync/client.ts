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
import { nowTimestamp } from '../../shared/ids.js';
import type { SyncControl, SyncRunSummary, SyncSettings, SyncSettingsInput, SyncStatus } from '../../shared/sync.js';
import type { EnvironmentStore, TableDef } from '../store/environment-store.js';
import type { SyncBook } from '../store/sync-book.js';
import { AttachmentContent, attachmentResource } from './attachment-content.js';
import type { CredentialVault } from './credentials.js';
import { checkBatch, mergeRecords, SyncMessageError } from './merge.js';
import { CursorExpired, httpRemote, RemoteRefused, RemoteUnavailable, type RemoteApi } from './remote.js';

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
    };
  }

  settings(): SyncSettings {
    const creds = this.options.vault.load();
    return {
      remote_url: creds?.remote_url ?? null,
      api_env: creds?.api_env ?? null,
      auth: creds?.access_token ? 'oauth' : creds?.api_key ? 'api-key' : null,
      has_credentials: Boolean(creds?.access_token || creds?.api_key),
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
      if (!this.options.vault.load()) throw new RemoteRefused(0, 'no remote is set up');
      await this.pushAll(summary);
      await this.pullAll(summary);
      const problems = await this.content.move(summary);
      this.online = true;
      this.failures = 0;
      // Files the remote refused stay listed and are tried again on the usual interval; the
      // records are in sync, so this is no reason to back off, but it is shown.
      summary.error = problems.length > 0 ? `${problems.length} attachment file(s) did not move; the first: ${problems[0]}` : null;
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

  private async pushAll(summary: SyncRunSummary): Promise<void> {
    const clientId = this.book.getState<string>('node_id')!;
    for (let i = 0; i < maxPushBatchesPerRun; i++) {
      const batch = this.book.pending(this.timing.pushBatch);
      if (batch.length === 0) return;
      const results = await this.remote.push(clientId, batch);
      const byId = new Map(batch.map((m) => [m.mutation_id, m]));
      const refused = results.filter((r) => r.status === 'rejected' && byId.has(r.mutation_id));
      const answered = results.filter((r) => byId.has(r.mutation_id)).map((r) => r.mutation_id);
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
        this.book.acknowledge(answered);
        // With the acknowledgement, so an upload stays pending until its content has moved too.
        this.content.queueSends(results.filter((r) => r.status === 'applied' && byId.has(r.mutation_id)).map((r) => byId.get(r.mutation_id)!));
      });
      summary.pushed += answered.length - refused.length;
      summary.rejected += refused.length;
      this.lastPushAt = nowTimestamp();
      if (answered.length < batch.length) throw new RemoteUnavailable('the remote answered only part of a push');
    }
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
        page = await this.remote.changes(cursor, this.timing.pullPage);
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
