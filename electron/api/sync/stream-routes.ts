/**
 * The live channel (docs/API.md "Sync", "Live updates"):
 *
 *   GET /v1/sync/stream   text/event-stream, authenticated like every route
 *
 * The answer stays open. It starts with an `event: change` carrying the environment's newest
 * cursor (`data: {"seq": N}`, text from a team server on PostgreSQL), sends another whenever a
 * write to a synced resource commits (on a team server: on any node, postgres/change-notices.ts), and a comment line every 25 s, so proxies keep an idle connection open and the
 * replica notices a dead one. A replica pulls when `seq` is past its cursor: nobody asks the
 * remote every second, and an edit reaches the others in a fraction of a second.
 *
 * - One listener per environment store, shared by its streams, told after commit (onSyncedChange), so
 *   a rolled-back write announces nothing. A burst of commits within `coalesceMs` is one event;
 *   a stream whose reader is slow gets only the newest number once it drains.
 * - At most `maxStreams` open streams per process and `maxPerCredential` per API key or
 *   signed-in user and client: beyond, 429 (the replica polls meanwhile). A stream ends when the
 *   replica goes away, after `lifetimeMs` (so a revoked key stops hearing within minutes; the
 *   replica opens a new one at once), or when the server closes.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { cursorIsAfter, type SyncCursor } from '../../../shared/sync.js';
import type { RecordStore } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import type { ResourceModule } from '../resource.js';
import { syncedResources } from './books.js';
import { replicaOwner } from './push.js';

export interface StreamLimits {
  maxStreams: number;
  maxPerCredential: number;
  heartbeatMs: number;
  coalesceMs: number;
  lifetimeMs: number;
}

export const defaultStreamLimits: StreamLimits = {
  maxStreams: 200,
  maxPerCredential: 100,
  heartbeatMs: 25_000,
  coalesceMs: 15,
  lifetimeMs: 10 * 60_000,
};

interface Stream {
  res: ServerResponse;
  owner: string;
  /** The newest cursor this stream was sent (none before its first event). */
  sent: SyncCursor | undefined;
  end(): void;
}

/** The open streams of one environment, and the one store listener they share. */
interface Channel {
  records: RecordStore;
  streams: Set<Stream>;
  unsubscribe: () => void;
  timer: NodeJS.Timeout | null;
}

const changeEvent = (seq: SyncCursor) => `id: ${seq}\nevent: change\ndata: {"seq":${JSON.stringify(seq)}}\n\n`;

export function registerStreamRoutes(
  app: FastifyInstance,
  modules: readonly ResourceModule[],
  limits: StreamLimits = defaultStreamLimits,
): void {
  const synced = syncedResources(modules);
  const channels = new Map<RecordStore, Channel>();
  const owners = new Map<string, number>();
  let open = 0;
  let heartbeat: NodeJS.Timeout | null = null;

  /** Sends `seq` unless the stream has it; a stream that cannot take more now gets the newest once it drains. */
  function send(stream: Stream, seq: SyncCursor): void {
    if ((stream.sent !== undefined && !cursorIsAfter(seq, stream.sent)) || stream.res.writableNeedDrain) return;
    stream.sent = seq;
    stream.res.write(changeEvent(seq));
  }

  /** Sends the newest cursor to `streams`; when it cannot be read (the database went away) they end, and the replicas poll. */
  async function sendLatest(records: RecordStore, streams: Iterable<Stream>): Promise<void> {
    let seq: SyncCursor;
    try {
      seq = await records.feed.latest();
    } catch {
      for (const stream of [...streams]) stream.end();
      return;
    }
    for (const stream of streams) send(stream, seq);
  }

  function announce(channel: Channel): void {
    channel.timer = null;
    void sendLatest(channel.records, channel.streams);
  }

  function channelOf(records: RecordStore): Channel {
    let channel = channels.get(records);
    if (!channel) {
      const made: Channel = { records, streams: new Set(), unsubscribe: () => undefined, timer: null };
      made.unsubscribe = records.onSyncedChange(synced, () => {
        made.timer ??= setTimeout(() => announce(made), limits.coalesceMs);
      });
      channels.set(records, made);
      channel = made;
    }
    return channel;
  }

  function beat(): void {
    for (const channel of channels.values()) {
      for (const stream of channel.streams) if (!stream.res.writableNeedDrain) stream.res.write(': keep-alive\n\n');
    }
  }

  // A stream never ends by itself: without this, closing the server would wait for them all.
  // One whose request was still being authenticated when closing began is refused below.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    for (const channel of [...channels.values()]) for (const stream of [...channel.streams]) stream.end();
    done();
  });

  app.get(
    '/sync/stream',
    {
      exposeHeadRoute: false,
      config: {
        doc: {
          summary: "Live channel: an event with the newest change number whenever this environment's records change (Server-Sent Events)",
          tag: 'Sync',
        },
      },
    },
    (request, reply) => {
      const { ctx } = request;
      if (closing) throw new ApiError('unavailable', [{ description: 'The server is shutting down; poll /v1/sync/changes meanwhile.' }]);
      const owner = replicaOwner(ctx.caller);
      if (open >= limits.maxStreams || (owners.get(owner) ?? 0) >= limits.maxPerCredential) {
        throw new ApiError(
          'tooManyRequests',
          [{ description: 'Too many live streams are open; poll /v1/sync/changes meanwhile and try again later.' }],
          { 'retry-after': '30' },
        );
      }
      const channel = channelOf(ctx.records);
      const res = reply.raw;
      reply.hijack();
      res.writeHead(200, {
        // Headers set on this reply so far (CORS, security): strings, as this API sets them.
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // Tells nginx-style proxies not to hold the events back.
        'x-accel-buffering': 'no',
        // The connection ends with the stream: never reused, and never left open when the server closes.
        connection: 'close',
      });
      request.raw.socket.setNoDelay(true);
      request.raw.socket.setTimeout(0);

      let ended = false;
      const stream: Stream = {
        res,
        owner,
        sent: undefined,
        end() {
          if (ended) return;
          ended = true;
          clearTimeout(lifetime);
          channel.streams.delete(stream);
          open--;
          const left = (owners.get(owner) ?? 1) - 1;
          if (left > 0) owners.set(owner, left);
          else owners.delete(owner);
          if (channel.streams.size === 0) {
            channel.unsubscribe();
            if (channel.timer) clearTimeout(channel.timer);
            channels.delete(channel.records);
          }
          if (open === 0 && heartbeat) {
            clearInterval(heartbeat);
            heartbeat = null;
          }
          res.end();
        },
      };
      const lifetime = setTimeout(() => stream.end(), limits.lifetimeMs);
      lifetime.unref();
      open++;
      owners.set(owner, (owners.get(owner) ?? 0) + 1);
      channel.streams.add(stream);
      heartbeat ??= setInterval(beat, limits.heartbeatMs).unref();
      res.on('close', () => stream.end());
      res.on('error', () => stream.end());
      res.on('drain', () => void sendLatest(channel.records, [stream]));
      void sendLatest(channel.records, [stream]);
    },
  );
}
