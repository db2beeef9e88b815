/**
 * Live change notices across nodes on PostgreSQL (docs/architecture.md "Team server on
 * PostgreSQL", "Live channel"). A replica streams from one node, and a write it must hear of
 * may commit on any other: so the writing transaction raises a notice in the database
 * (`notifyChange`, `pg_notify`), and every node listens on one dedicated connection
 * (`ChangeNotices`) and tells its streams of that environment to pull.
 *
 * - PostgreSQL delivers a notice at the commit of the transaction that raised it and never for
 *   one that rolled back: a notice always follows a change a reader can see (it is the
 *   SQLite store's `onChange` after commit, across nodes).
 * - The payload is the environment's id and, when given, the change-log cursor of the
 *   transaction's last change; never record data: every node receives every notice, and a
 *   payload is at most 8000 bytes.
 * - One channel for all environments: a node listens once, whatever the number of
 *   environments it serves, and drops notices of environments nobody on it streams.
 * - Notices sent while the listening connection is down are lost (PostgreSQL queues them only
 *   for sessions that are listening). So after a reconnect every subscriber is told to pull
 *   anyway (`reason: 'reconnected'`): a pull finds whatever was missed, since the cursor, not
 *   the notice, says what is new.
 *
 * Raise one notice per transaction, at its end: PostgreSQL serialises the commits of all
 * transactions that raised one on a single lock (so the notice queue is in commit order).
 */
import pg from 'pg';
import { compareCursors, type ChangeCursor } from './change-log.js';
import { environmentSchemaOf } from './environment-schemas.js';
import type { PostgresClient } from './postgres-database.js';

/** The one channel every node listens on. */
export const changeNoticeChannel = 'planner_changes';

/** What a node's subscriber is told about one environment. */
export interface ChangeNotice {
  environmentId: string;
  /**
   * `change`: a transaction of this environment committed. `reconnected`: the listener was
   * down, and notices sent meanwhile are lost: pull anyway.
   */
  reason: 'change' | 'reconnected';
  /** The newest cursor among the notices this one stands for, when they carried one. */
  cursor?: ChangeCursor;
}

export type ChangeNoticeSubscriber = (notice: ChangeNotice) => void;

/** What a notice's payload holds: `{"environment": id, "cursor": {xid, position}}`. */
interface NoticePayload {
  environment: string;
  cursor?: ChangeCursor;
}

/**
 * Raises the environment's change notice in the caller's transaction (`client` inside
 * `withEnvironment` or `inTransaction`): listeners on every node get it when that transaction
 * commits, and nobody does if it rolls back. Call it once per transaction, after its writes.
 */
export async function notifyChange(client: PostgresClient, environmentId: string, cursor?: ChangeCursor): Promise<void> {
  // Checked as an environment id (a UUID): the payload stays small and holds no user data.
  environmentSchemaOf(environmentId);
  const payload: NoticePayload = { environment: environmentId.toLowerCase() };
  if (cursor) payload.cursor = { xid: cursor.xid, position: cursor.position };
  await client.query('SELECT pg_notify($1, $2)', [changeNoticeChannel, JSON.stringify(payload)]);
}

/** A payload this module wrote, or null for anything else on the channel. */
function parsePayload(text: string | undefined): NoticePayload | null {
  try {
    const value = JSON.parse(text ?? '') as Partial<NoticePayload> | null;
    if (typeof value?.environment !== 'string') return null;
    const cursor = value.cursor;
    const cursorOk = cursor === undefined || (typeof cursor?.xid === 'string' && typeof cursor.position === 'string');
    return cursorOk ? { environment: value.environment, cursor } : null;
  } catch {
    return null;
  }
}

export interface ChangeNoticeOptions {
  /** Notices of one environment within this many ms are one call (default 15, as the stream's). */
  coalesceMs?: number;
  /** The first wait before a reconnect, doubled at each failure up to `maxBackoffMs` (default 100). */
  minBackoffMs?: number;
  /** The longest wait between reconnects (default 5000). */
  maxBackoffMs?: number;
  /**
   * How often the idle connection is checked with a query (default 30 s): a connection cut
   * without a word (a failover, a dropped route) would otherwise look alive for hours.
   */
  heartbeatMs?: number;
  /** A lost connection, a failed reconnect, a subscriber that threw (default: logged). */
  onError?: (error: Error) => void;
}

/**
 * One node's listener: a connection of its own (a pooled one would go back to the pool and
 * stop listening), `LISTEN` on the channel, subscribers per environment. Open it with
 * `ChangeNotices.listen(url)`; `close()` ends it.
 */
export class ChangeNotices {
  private client: pg.Client | null = null;
  private pid: number | null = null;
  private closed = false;
  private failures = 0;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly subscribers = new Map<string, Set<ChangeNoticeSubscriber>>();
  /** Per environment: the notice being coalesced and the timer that delivers it. */
  private readonly pending = new Map<string, { notice: ChangeNotice; timer: NodeJS.Timeout }>();
  private readonly options: Required<ChangeNoticeOptions>;

  private constructor(
    private readonly url: string,
    options: ChangeNoticeOptions,
  ) {
    this.options = {
      coalesceMs: 15,
      minBackoffMs: 100,
      maxBackoffMs: 5_000,
      heartbeatMs: 30_000,
      onError: (error) => console.error(`Change notices: ${error.message}`),
      ...options,
    };
  }

  /**
   * Listens on the database at `url`. The first connection must succeed (a node that cannot
   * reach its database does not start); a connection lost later is made again.
   */
  static async listen(url: string, options: ChangeNoticeOptions = {}): Promise<ChangeNotices> {
    const notices = new ChangeNotices(url, options);
    await notices.connect();
    return notices;
  }

  /** Whether the listening connection is up now (notices sent while it is not are lost). */
  get connected(): boolean {
    return this.client !== null;
  }

  /** The server process of the listening connection, for operators (pg_stat_activity). */
  get backendPid(): number | null {
    return this.pid;
  }

  /** Calls `fn` for the environment's notices until the returned function is called. */
  subscribe(environmentId: string, fn: ChangeNoticeSubscriber): () => void {
    const key = environmentId.toLowerCase();
    let set = this.subscribers.get(key);
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size > 0 || this.subscribers.get(key) !== set) return;
      this.subscribers.delete(key);
      const waiting = this.pending.get(key);
      if (waiting) clearTimeout(waiting.timer);
      this.pending.delete(key);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const { timer } of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    this.subscribers.clear();
    const client = this.client;
    this.client = null;
    this.pid = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.url,
      application_name: 'planner change notices',
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    // Until it is the listening client, an error is the connect's and rejects below.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('the listening connection ended')));
    client.on('notification', (message) => {
      if (message.channel === changeNoticeChannel) this.received(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${changeNoticeChannel}`);
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      if (this.closed) throw new Error('closed');
      this.client = client;
      this.pid = rows[0]!.pid;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (!this.heartbeat) this.heartbeat = setInterval(() => this.check(), this.options.heartbeatMs).unref();
  }

  /** A query on the idle connection; no answer within a heartbeat is a lost connection. */
  private check(): void {
    const client = this.client;
    if (!client) return;
    const timeout = setTimeout(() => this.lost(client, new Error('the listening connection stopped answering')), this.options.heartbeatMs);
    client.query('SELECT 1').then(
      () => clearTimeout(timeout),
      (error: Error) => {
        clearTimeout(timeout);
        this.lost(client, error);
      },
    );
  }

  private lost(client: pg.Client, error: Error): void {
    if (client !== this.client) return;
    this.client = null;
    this.pid = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.onError(new Error(`lost the listening connection (${error.message}); notices sent until it is back are lost`));
    this.reconnectLater();
  }

  private reconnectLater(): void {
    if (this.closed || this.retry) return;
    const ceiling = Math.min(this.options.maxBackoffMs, this.options.minBackoffMs * 2 ** this.failures);
    // Half to all of the ceiling, so the nodes a failover cut off do not all come back at once.
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().then(
        () => {
          this.failures = 0;
          // Anything sent while the connection was down is lost: every subscriber pulls.
          for (const environmentId of this.subscribers.keys()) this.queue({ environmentId, reason: 'reconnected' });
        },
        (error: Error) => {
          if (this.closed) return;
          this.failures = Math.min(this.failures + 1, 30);
          this.options.onError(new Error(`could not listen again: ${error.message}`));
          this.reconnectLater();
        },
      );
    }, delay);
  }

  private received(text: string | undefined): void {
    const payload = parsePayload(text);
    if (!payload) return;
    const environmentId = payload.environment.toLowerCase();
    // Every node gets every environment's notices; only those someone here follows count.
    if (!this.subscribers.has(environmentId)) return;
    this.queue({ environmentId, reason: 'change', cursor: payload.cursor });
  }

  /** Coalesces the environment's notices for `coalesceMs`; `reconnected` wins over `change`. */
  private queue(notice: ChangeNotice): void {
    const waiting = this.pending.get(notice.environmentId);
    if (waiting) {
      const merged = waiting.notice;
      if (notice.reason === 'reconnected') merged.reason = 'reconnected';
      if (notice.cursor && (!merged.cursor || compareCursors(notice.cursor, merged.cursor) > 0)) merged.cursor = notice.cursor;
      return;
    }
    const timer = setTimeout(() => this.deliver(notice.environmentId), this.options.coalesceMs);
    this.pending.set(notice.environmentId, { notice: { ...notice }, timer });
  }

  private deliver(environmentId: string): void {
    const waiting = this.pending.get(environmentId);
    this.pending.delete(environmentId);
    if (!waiting || this.closed) return;
    const { notice } = waiting;
    if (notice.cursor === undefined) delete notice.cursor;
    for (const fn of [...(this.subscribers.get(environmentId) ?? [])]) {
      try {
        fn({ ...notice });
      } catch (error) {
        this.options.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
