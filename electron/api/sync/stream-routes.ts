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
 * - Streams are shared out so that no caller takes what the others need (security audit N4):
 *   at most `maxStreams` per process, `maxPerEnvironment` per environment (what one tenant
 *   cannot take stays for the others), and per owner, `maxPerUser` for a signed-in user
 *   whichever OAuth clients they use (a member, a guest), `maxPerKey` for an API key. A stream
 *   beyond the process's or the environment's share is 429 (the replica polls meanwhile); a new
 *   stream of an owner at its share displaces that owner's oldest, which is told so
 *   (`event: displaced`) and ended: a replica that came back (a restart, another network) finds
 *   its stale stream in the way, not a refusal, and an owner never takes more by opening more.
 * - A stream ends when the replica goes away, after `lifetimeMs` (so a revoked key stops
 *   hearing within minutes; the replica opens a new one at once), when it is displaced, or
 *   when the server closes.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { cursorIsAfter, type SyncCursor } from '../../../shared/sync.js';
import type { RecordStore } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import type { ResourceModule } from '../resource.js';
import { syncedResources } from './books.js';
import type { Caller } from '../resource.js';

export interface StreamLimits {
  /** Open streams of the whole process, every environment's. */
  maxStreams: number;
  /** Of one environment. */
  maxPerEnvironment: number;
  /** Of one signed-in user, across their OAuth clients. */
  maxPerUser: number;
  /** Of one API key. */
  maxPerKey: number;
  heartbeatMs: number;
  coalesceMs: number;
  lifetimeMs: number;
}

export const defaultStreamLimits: StreamLimits = {
  maxStreams: 200,
  maxPerEnvironment: 150,
  // A planner has a computer or two; ten leaves room for stale streams until they are displaced.
  maxPerUser: 10,
  // A key is an environment's own credential, which a team may give several replicas.
  maxPerKey: 100,
  heartbeatMs: 25_000,
  coalesceMs: 15,
  lifetimeMs: 10 * 60_000,
};

interface Stream {
  res: ServerResponse;
  /** The newest cursor this stream was sent (none before its first event). */
  sent: SyncCursor | undefined;
  end(): void;
  /** Ends the stream to make way for a newer one of its owner, telling the replica so. */
  displace(): void;
}

/** The open streams of one environment, and the one store listener they share. */
interface Channel {
  records: RecordStore;
  streams: Set<Stream>;
  unsubscribe: () => void;
  timer: NodeJS.Timeout | null;
}

const changeEvent = (seq: SyncCursor) => `id: ${seq}\nevent: change\ndata: {"seq":${JSON.stringify(seq)}}\n\n`;
/** The last event of a displaced stream: the replica waits before it opens another (electron/sync/live.ts). */
const displacedEvent = 'event: displaced\ndata: {"reason":"a newer stream of the same user or key took its place"}\n\n';

/** Whose share a stream counts in, and how large that share is. */
function shareOf(caller: Caller, limits: StreamLimits): { owner: string; max: number } {
  return caller.kind === 'api-key'
    ? { owner: `key:${caller.keyId}`, max: limits.maxPerKey }
    : { owner: `user:${caller.environment.id}:${caller.userId}`, max: limits.maxPerUser };
}

export function registerStreamRoutes(
  app: FastifyInstance,
  modules: readonly ResourceModule[],
  limits: StreamLimits = defaultStreamLimits,
): void {
  const synced = syncedResources(modules);
  const channels = new Map<RecordStore, Channel>();
  /** Each owner's open streams, oldest first (a Set keeps the order they were added in). */
  const owners = new Map<string, Set<Stream>>();
  const environments = new Map<string, number>();
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
      const { owner, max } = shareOf(ctx.caller, limits);
      const environment = ctx.caller.environment.id;
      const mine = owners.get(owner);
      if (mine && mine.size >= max) {
        // Its own oldest makes way: the counts stay as they are, so no other share is touched.
        mine.values().next().value!.displace();
      } else if (open >= limits.maxStreams || (environments.get(environment) ?? 0) >= limits.maxPerEnvironment) {
        const whose = open >= limits.maxStreams ? 'this server' : 'this environment';
        throw new ApiError(
          'tooManyRequests',
          [{ description: `As many live streams are open on ${whose} as it keeps; poll /v1/sync/changes meanwhile and try again later.` }],
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
        sent: undefined,
        end() {
          if (ended) return;
          ended = true;
          clearTimeout(lifetime);
          channel.streams.delete(stream);
          open--;
          const theirs = owners.get(owner);
          theirs?.delete(stream);
          if (theirs?.size === 0) owners.delete(owner);
          const left = (environments.get(environment) ?? 1) - 1;
          if (left > 0) environments.set(environment, left);
          else environments.delete(environment);
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
        displace() {
          if (!ended && !res.writableNeedDrain) res.write(displacedEvent);
          stream.end();
        },
      };
      const lifetime = setTimeout(() => stream.end(), limits.lifetimeMs);
      lifetime.unref();
      open++;
      owners.set(owner, (owners.get(owner) ?? new Set()).add(stream));
      environments.set(environment, (environments.get(environment) ?? 0) + 1);
      channel.streams.add(stream);
      heartbeat ??= setInterval(beat, limits.heartbeatMs).unref();
      res.on('close', () => stream.end());
      res.on('error', () => stream.end());
      res.on('drain', () => void sendLatest(channel.records, [stream]));
      void sendLatest(channel.records, [stream]);
    },
  );
}
