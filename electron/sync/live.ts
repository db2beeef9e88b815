/**
 * The replica's end of the live channel (docs/API.md "Sync", "Live updates"): one open
 * `GET /v1/sync/stream` to the remote, whose `change` events carry the remote's newest change
 * number. The sync client pulls when that number is past its cursor, so while the stream is up
 * an idle replica sends no requests at all, and polling is only the fallback.
 *
 * The stream is "up" from its first event until it ends. A stream that fails to open, or ends
 * early, is opened again after a backoff (doubling up to `maxRetryMs`, with jitter); a remote
 * without a live channel (404: an older version) is asked again only after `absentRetryMs`.
 * A stream that stays silent for `silenceMs` (the remote sends a comment every 25 s) is taken
 * for dead (a connection lost without a word, a sleeping laptop) and opened again.
 */
import { isSyncCursor, type SyncCursor } from '../../shared/sync.js';
import { RemoteRefused, RemoteUnreachable, type RemoteApi } from './remote.js';
import { nowMs } from '../../shared/clock.js';

export interface LiveTiming {
  retryMs: number;
  maxRetryMs: number;
  /** While nothing answers at all (RemoteUnreachable): asking costs the remote nothing. */
  unreachableMaxRetryMs: number;
  absentRetryMs: number;
  silenceMs: number;
}

export interface LiveOptions {
  remote: RemoteApi;
  timing: LiveTiming;
  /** Whether there is a remote to listen to (settings may be removed at any time). */
  configured(): boolean;
  /** The remote's change log has reached `seq`; `first`: the first event of a stream. */
  onSeq(seq: SyncCursor, first: boolean): void;
  /** The stream came up (its first event arrived) or went down. */
  onState(up: boolean): void;
}

/** A stream that lasted this long ended normally (the remote closes streams now and then). */
const longEnoughMs = 30_000;

/** An event of a text/event-stream answer (the fields this channel uses). */
interface StreamEvent {
  type: string;
  data: string;
}

/**
 * Reads Server-Sent Events from text as it arrives: `event:` and `data:` lines, an event
 * ending at a blank line, comments (`:`) ignored. A line may come split over chunks.
 */
export class EventStreamReader {
  private buffer = '';
  private type = '';
  private data: string[] = [];

  push(text: string): StreamEvent[] {
    this.buffer += text;
    const events: StreamEvent[] = [];
    let end: number;
    while ((end = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (this.data.length > 0) events.push({ type: this.type || 'message', data: this.data.join('\n') });
        this.type = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') this.type = value;
      else if (field === 'data') this.data.push(value);
    }
    // A remote that never ends a line is not a live channel; do not keep its text forever.
    if (this.buffer.length > 64 * 1024) throw new RemoteRefused(0, 'the live channel sent a line longer than 64 KiB');
    return events;
  }
}

/** The cursor of a `change` event (a change number, or text from a remote on PostgreSQL), or undefined when it carries none. */
function seqOf(event: StreamEvent): SyncCursor | undefined {
  if (event.type !== 'change') return undefined;
  try {
    const seq = (JSON.parse(event.data) as { seq?: unknown } | null)?.seq;
    return isSyncCursor(seq) ? seq : undefined;
  } catch {
    return undefined;
  }
}

export class LiveChannel {
  private controller: AbortController | null = null;
  private listening: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private notBefore = 0;
  private connected = false;
  private stopped = false;

  constructor(private readonly options: LiveOptions) {}

  /** Whether the stream is open and has spoken. */
  get up(): boolean {
    return this.connected;
  }

  /** Opens the stream, unless it is open or its next attempt is not due yet. */
  ensure(): void {
    if (this.stopped || this.listening || nowMs() < this.notBefore || !this.options.remote.stream || !this.options.configured()) return;
    this.listening = this.listen().finally(() => {
      this.listening = null;
    });
  }

  /** Closes the stream and opens it again at once (the remote or its credentials changed). */
  restart(): void {
    this.controller?.abort();
    void (this.listening ?? Promise.resolve()).then(() => {
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = null;
      this.failures = 0;
      this.notBefore = 0;
      this.ensure();
    });
  }

  /** Closes the stream for good and waits until it is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.controller?.abort();
    await this.listening;
  }

  private async listen(): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const opened = nowMs();
    let silence: NodeJS.Timeout | undefined;
    const listenOn = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(), this.options.timing.silenceMs);
      silence.unref?.();
    };
    let problem: unknown = null;
    // The remote ended this stream for a newer one of the same user or key (api/sync/stream-routes.ts).
    let displaced = false;
    try {
      const reader = await this.options.remote.stream!(controller.signal);
      // Closing ends the body too, and the loop stops at the next chunk whatever the body does:
      // a replica that had pulled a lot was seen reading heartbeats for minutes after the abort
      // (its fetch body never rejected), holding SIGTERM until the remote ended the stream.
      const cancel = () => void reader.cancel().catch(() => undefined);
      if (controller.signal.aborted) cancel();
      else controller.signal.addEventListener('abort', cancel, { once: true });
      listenOn();
      const events = new EventStreamReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done || controller.signal.aborted) break;
        listenOn();
        for (const event of events.push(decoder.decode(value, { stream: true }))) {
          if (event.type === 'displaced') displaced = true;
          const seq = seqOf(event);
          if (seq === undefined) continue;
          const first = !this.connected;
          if (first) {
            this.connected = true;
            this.options.onState(true);
          }
          this.options.onSeq(seq, first);
        }
      }
    } catch (error) {
      problem = error;
    } finally {
      clearTimeout(silence);
      this.controller = null;
      if (this.connected) {
        this.connected = false;
        this.options.onState(false);
      }
    }
    if (this.stopped) return;
    // Opened again after a backoff, however long it lasted: were it opened at once, replicas of
    // one user or key beyond its share would displace each other without pause.
    this.retry(problem ?? (displaced ? new Error('displaced by a newer stream of the same user or key') : null), nowMs() - opened);
  }

  private retry(problem: unknown, lastedMs: number): void {
    const { timing } = this.options;
    let delay: number;
    if (problem === null && lastedMs >= longEnoughMs) {
      this.failures = 0;
      delay = 0;
    } else if (problem instanceof RemoteRefused && problem.status === 404) {
      delay = timing.absentRetryMs;
    } else {
      this.failures++;
      const cap = problem instanceof RemoteUnreachable ? timing.unreachableMaxRetryMs : timing.maxRetryMs;
      const backoff = Math.min(cap, timing.retryMs * 2 ** (this.failures - 1));
      delay = Math.round(backoff * (0.5 + Math.random() / 2));
    }
    this.notBefore = nowMs() + delay;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.ensure();
    }, delay);
    this.retryTimer.unref?.();
  }
}
