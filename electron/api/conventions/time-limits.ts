/**
 * Time limits per route class, and the end of a request's work when nobody wants its answer
 * any more (docs/API.md "Time limits"):
 *
 *  - a read (GET, HEAD) gets `read` from its arrival to its answer; past it, it is answered 503
 *    and its work stops at its next batch (AnswerWork.turn);
 *  - a write gets `write` to arrive (headers and body) and to begin; once it has begun (its
 *    handler runs) it is finished and answered, never cut off halfway;
 *  - planning, exports, sync and files (`longRoutes`) get `long`, as a read or a write;
 *  - the live channel has a lifetime of its own and no limit here.
 *
 * A read whose client went away stops at its next batch; when the server stops, every read and
 * every write that has not begun is answered 503 and stopped, so stopping waits for none of them.
 * Every answer given here carries `Connection: close`: the connection may still hold the rest of
 * a body nobody reads.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError, sendError } from '../errors.js';

export interface TimeLimits {
  /** GET and HEAD, from arrival to answer. */
  read: number;
  /** Other methods, from arrival until the write begins. */
  write: number;
  /** The routes of `longRoutes`, as a read or a write. */
  long: number;
}

export const defaultTimeLimits: TimeLimits = { read: 30_000, write: 30_000, long: 120_000 };

/**
 * Routes that may take longer (`long`): planning and promise dates over a whole board, exports
 * and the printed plan, a replica's sync, attachments over a slow link, the sample workshop,
 * an imported holiday calendar. A name here that matches no route fails `unknownLongRoutes`.
 */
export const longRoutes: readonly string[] = [
  'POST /v1/collection/:id/board/:board_id',
  'POST /v1/command/replan_collections',
  'POST /v1/board/:id/promise_dates',
  'GET /v1/board/:id/print',
  'GET /v1/time_tracking/export',
  'GET /v1/time_tracking/payroll',
  'POST /v1/sync/push',
  'GET /v1/sync/changes',
  'GET /v1/sync/snapshot',
  'POST /v1/sync/run',
  'PUT /v1/sync/attachment/:id/content',
  'GET /v1/sync/attachment/:id/content',
  'POST /v1/collection/:collection_id/attachment/upload',
  'GET /v1/collection/:collection_id/attachment/:id/download',
  'POST /v1/sample_workshop',
  'DELETE /v1/sample_workshop',
  'POST /v1/schedule_deviation/holidays/ics',
];

/** Routes that stay open by design, with a lifetime of their own: the live channel. */
const openRoutes: readonly string[] = ['GET /v1/sync/stream'];

const readMethods = new Set(['GET', 'HEAD']);

function routeName(method: string, url: string | undefined): string {
  // A HEAD route is the GET route's (Fastify adds it), and named so above.
  return `${method === 'HEAD' ? 'GET' : method} ${url ?? ''}`;
}

/** A request on its way: its work's signal, its timer, and how far it got. */
interface Pending {
  request: FastifyRequest;
  reply: FastifyReply;
  controller: AbortController;
  read: boolean;
  timer?: NodeJS.Timeout;
  /** The write's handler has begun: it is finished, whatever happens. */
  begun: boolean;
  /** Answered here (time limit, stop): what the handler still does is not sent. */
  answered: boolean;
  /** The client went away before the answer. */
  gone: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's time limits (installTimeLimits). */
    timeLimits: RequestLimits;
  }
}

export interface RequestLimits {
  /** The signal of the request's work: aborted, with an ApiError as its reason, when nobody wants the answer any more. */
  signalOf(request: FastifyRequest): AbortSignal | undefined;
  /** The names in `longRoutes` that matched no route of the app. */
  unknownLongRoutes(): string[];
}

function tookTooLong(limit: number, read: boolean, long: boolean): ApiError {
  const what = long ? 'planning, exports, sync and files' : read ? 'reads' : 'a write to arrive';
  return new ApiError('unavailable', [
    {
      description: `The request took longer than ${limit / 1000} s, the limit for ${what} (docs/API.md "Time limits"). Ask for less (a smaller page, fewer relations), or send it again later.`,
    },
  ]);
}

const stopping = () => new ApiError('unavailable', [{ description: 'The server is stopping; send the request again.' }]);
const clientGone = () => new ApiError('unavailable', [{ description: 'The client went away before the answer.' }]);

export function installTimeLimits(app: FastifyInstance, limits: TimeLimits): RequestLimits {
  const pending = new WeakMap<FastifyRequest, Pending>();
  const inFlight = new Set<Pending>();
  const seen = new Set<string>();
  const long = new Set(longRoutes);
  const open = new Set(openRoutes);

  /** Answers `reason` now, unless the answer has begun already: then the connection is cut. */
  const cut = (entry: Pending, reason: ApiError) => {
    entry.controller.abort(reason);
    const raw = entry.reply.raw;
    if (raw.writableEnded) return;
    entry.answered = true;
    if (raw.headersSent) {
      raw.destroy();
      return;
    }
    void sendError(entry.reply.header('connection', 'close'), reason);
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) seen.add(routeName(method, route.url));
    const handler = route.handler;
    // What a handler does after its request was answered here is not sent: a read's result (or
    // the stop it threw at its next batch), or a write whose body arrived after its time.
    route.handler = async function (this: FastifyInstance, request, reply) {
      const entry = pending.get(request);
      if (!entry) return handler.call(this, request, reply);
      const unsent = (stopped: boolean) => {
        // The records the answer had read when it stopped: how much of its work was spared.
        if (stopped && entry.gone) request.log.info({ records: request.ctx?.answer?.records ?? 0 }, 'stopped: the client went away');
        return reply.hijack();
      };
      if (entry.answered || entry.gone) return unsent(true);
      entry.begun = true;
      try {
        const answer: unknown = await handler.call(this, request, reply);
        return entry.answered || entry.gone ? unsent(false) : answer;
      } catch (error) {
        if (entry.answered || entry.gone) return unsent(true);
        throw error;
      }
    };
  });

  app.addHook('onRequest', async (request, reply) => {
    const name = routeName(request.method, request.routeOptions.url);
    const read = readMethods.has(request.method);
    const entry: Pending = { request, reply, controller: new AbortController(), read, begun: false, answered: false, gone: false };
    pending.set(request, entry);
    inFlight.add(entry);
    if (!open.has(name)) {
      const isLong = long.has(name);
      const limit = isLong ? limits.long : read ? limits.read : limits.write;
      entry.timer = setTimeout(() => {
        // A write that has begun is finished and answered, however long it takes.
        if (!entry.read && entry.begun) return;
        cut(entry, tookTooLong(limit, read, isLong));
      }, limit);
      entry.timer.unref();
    }
    reply.raw.on('close', () => {
      clearTimeout(entry.timer);
      inFlight.delete(entry);
      // Closed before the answer was ended: the client went away (an answer ended but still
      // being sent needs no work any more).
      if (reply.raw.writableEnded || entry.answered) return;
      entry.gone = true;
      entry.controller.abort(clientGone());
    });
  });

  // Stopping waits for no read and no write that has not begun (see the file head).
  app.addHook('preClose', (done) => {
    for (const entry of inFlight) {
      if (open.has(routeName(entry.request.method, entry.request.routeOptions.url))) continue;
      if (!entry.read && entry.begun) continue;
      cut(entry, stopping());
    }
    done();
  });

  return {
    signalOf: (request) => pending.get(request)?.controller.signal,
    unknownLongRoutes: () => longRoutes.filter((name) => !seen.has(name)),
  };
}
