/**
 * An HTTP proxy on 127.0.0.1 in front of a remote Planning API, with switchable faults, for
 * the sync tests (test/sync/*). A client replica is started with `--remote <proxy url>`; the
 * proxy's port never changes, so the remote behind it can be swapped and the client restarted.
 *
 * Modes (each request is read whole first, then handled by the mode chosen for it):
 *  - `pass`           forward it and send the answer back;
 *  - `refuse`         offline: the proxy stops listening, so connections are refused (ECONNREFUSED),
 *                     and the connections a client keeps open are closed; it listens again on
 *                     the same port when another mode is set. (As a rule with `fraction` or
 *                     `match`, the chosen requests are read and their connections reset, as
 *                     `drop-request`: resetting a connection before the request is sent makes
 *                     Node's fetch wait for its time-out on a POST.)
 *  - `drop-request`   never forward it; close the client's socket;
 *  - `drop-response`  forward it, wait for the remote's whole answer (the remote has applied it),
 *                     then close the client's socket without answering (the classic duplicate bug);
 *  - `delay`          wait a random time in `delayMs` (default 200–800 ms), then pass;
 *  - `cut-request`    send the request head and half its body to the remote, then cut both sides;
 *  - `cut-response`   forward it, then send the client the answer's head and half its body and cut;
 *  - `reorder`        hold the request; when a second one arrives release both, newest first
 *                     (each forwarded only after the one before has been answered); a request
 *                     left alone is released after `holdMs`;
 *  - `hold`           hold the request until `release()`; then forward it (even when the client
 *                     has gone away meanwhile: a request in flight outlives its sender);
 *  - `late`           close the client's socket at once, but keep the request and deliver it to
 *                     the remote on `release()`: a stale copy arriving after newer requests.
 *
 * A rule may apply to a fraction of the requests (seeded randomness, so a run can be replayed)
 * and only to requests whose `METHOD path` matches `match`; the others pass. `mix` picks one of
 * several modes per request by weight.
 *
 * The live channel (`GET /v1/sync/stream`, an answer that lasts as long as the replica listens)
 * is streamed through as it comes, and its entry counts as answered once its head is through.
 * Rules leave it alone unless their `match` names it (then `drop-request`, `delay` and `hold`
 * suit it; the modes that wait for a whole answer do not); `refuse` closes it like any other.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type FaultMode =
  'pass' | 'refuse' | 'drop-request' | 'drop-response' | 'delay' | 'cut-request' | 'cut-response' | 'reorder' | 'hold' | 'late';

export interface FaultRule {
  mode: FaultMode;
  /** Share of the matching requests the mode applies to (the rest pass); default 1. */
  fraction?: number;
  /** Applies only to requests whose `METHOD /path?query` matches; default every request. */
  match?: RegExp;
  /** For `delay`: [min, max] milliseconds. */
  delayMs?: [number, number];
  /** For `reorder`: how long a lone request waits for a partner. */
  holdMs?: number;
}

export interface MixRule {
  /** Modes with weights; one is chosen per matching request. */
  mix: { mode: FaultMode; weight: number }[];
  match?: RegExp;
  delayMs?: [number, number];
  holdMs?: number;
}

export interface ProxyLogEntry {
  method: string;
  path: string;
  mode: FaultMode;
  /** The remote's status when it was asked (undefined when never forwarded or cut). */
  status?: number;
  /** Whether the remote sent a whole answer (it processed the request). */
  reachedRemote: boolean;
  /** Whether the client got the whole answer. */
  answered: boolean;
  /** For `reorder`: released as part of a pair, after a newer request (true), or alone. */
  reversed?: boolean;
  /** When the proxy got the request, and when the remote's whole answer was back (ms, Date.now()). */
  startedAt: number;
  remoteDoneAt?: number;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Changes where it forwards to (a new remote on another port). */
  retarget(targetUrl: string): void;
  /** Resolves once the proxy listens (or stopped listening) as the mode needs. */
  set(rule: FaultMode | FaultRule | MixRule): Promise<void>;
  /** Requests seen, oldest first. */
  log: ProxyLogEntry[];
  /** How many requests are held now (`hold` and `reorder`). */
  heldCount(): number;
  /** Resolves when at least `n` requests are held (bounded by `timeoutMs`). */
  waitForHeld(n: number, timeoutMs?: number): Promise<void>;
  /** Forwards every held request (oldest first) and resolves when the remote has answered them all. */
  release(): Promise<void>;
  /** Resolves when no request is in flight through the proxy (bounded). */
  idle(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same fault sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Held {
  forward: () => Promise<void>;
}

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('client aborted')));
  });
}

function forwardHeaders(headers: IncomingHttpHeaders, target: URL, bodyLength: number): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name)) continue;
    out[name] = value;
  }
  out.host = target.host;
  out['content-length'] = String(bodyLength);
  out.connection = 'close';
  return out;
}

export async function startFaultProxy(targetUrl: string, options: { seed?: number; spreadOver?: string[] } = {}): Promise<FaultProxy> {
  let targets = [new URL(targetUrl), ...(options.spreadOver ?? []).map((url) => new URL(url))];
  /** Where one request goes: the remote, or one of several at random (the nodes of a team server behind a balancer). */
  const pickTarget = () => targets[Math.floor(spread() * targets.length)]!;
  const spread = seededRandom((options.seed ?? 1) + 7919);
  let rule: FaultRule | MixRule = { mode: 'pass' };
  const random = seededRandom(options.seed ?? 1);
  const sockets = new Set<Socket>();
  const held: Held[] = [];
  const reorderQueue: { forward: () => Promise<void>; timer: NodeJS.Timeout; entry: ProxyLogEntry }[] = [];
  const log: ProxyLogEntry[] = [];
  let inFlight = 0;
  let reorderChain: Promise<void> = Promise.resolve();

  const refusing = () => 'mode' in rule && rule.mode === 'refuse' && (rule.fraction ?? 1) >= 1 && !rule.match;

  function choose(method: string, path: string): FaultMode {
    const line = `${method} ${path}`;
    if (rule.match && !rule.match.test(line)) return 'pass';
    if ('mix' in rule) {
      const total = rule.mix.reduce((s, m) => s + m.weight, 0);
      let pick = random() * total;
      for (const m of rule.mix) {
        pick -= m.weight;
        if (pick < 0) return m.mode;
      }
      return rule.mix[rule.mix.length - 1]!.mode;
    }
    if ((rule.fraction ?? 1) < 1 && random() >= rule.fraction!) return 'pass';
    return rule.mode;
  }

  function delayRange(): [number, number] {
    return rule.delayMs ?? [200, 800];
  }

  /** Sends the request to the remote; `cut` sends half of the body and aborts. */
  function upstream(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer, cut = false): Promise<Upstream | undefined> {
    const target = pickTarget();
    return new Promise((resolve) => {
      const request = httpRequest(
        {
          host: target.hostname,
          port: Number(target.port),
          method,
          path,
          headers: forwardHeaders(headers, target, body.length),
          agent: false,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on('error', () => resolve(undefined));
          response.on('aborted', () => resolve(undefined));
        },
      );
      request.on('error', () => resolve(undefined));
      if (cut) {
        request.flushHeaders();
        request.write(body.subarray(0, Math.floor(body.length / 2)), () => {
          // Let the remote read the partial body before the connection goes away.
          setTimeout(() => {
            request.destroy();
            resolve(undefined);
          }, 50);
        });
        return;
      }
      request.end(body);
    });
  }

  function answer(res: ServerResponse, up: Upstream): void {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(up.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
    headers['content-length'] = String(up.body.length);
    if (res.destroyed) return;
    res.writeHead(up.status, headers);
    res.end(up.body);
  }

  function reached(entry: ProxyLogEntry, up: Upstream): void {
    entry.status = up.status;
    entry.reachedRemote = true;
    entry.remoteDoneAt = Date.now();
  }

  function kill(req: IncomingMessage): void {
    req.socket.destroy();
  }

  const isStream = (method: string, path: string) => method === 'GET' && /^\/v1\/sync\/stream(\?|$)/.test(path);

  /** Forwards a live-channel request and streams its answer through; resolves once the head is back. */
  function streamThrough(req: IncomingMessage, res: ServerResponse, body: Buffer, entry: ProxyLogEntry): Promise<void> {
    const target = pickTarget();
    return new Promise((resolve) => {
      const request = httpRequest(
        {
          host: target.hostname,
          port: Number(target.port),
          method: entry.method,
          path: entry.path,
          headers: forwardHeaders(req.headers, target, body.length),
          agent: false,
        },
        (response) => {
          reached(entry, { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.alloc(0) });
          const cut = () => kill(req);
          response.on('error', cut);
          response.on('aborted', cut);
          if (res.destroyed) {
            request.destroy();
            resolve();
            return;
          }
          const headers: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(response.headers))
            if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
          res.writeHead(response.statusCode ?? 502, headers);
          res.flushHeaders();
          response.pipe(res);
          entry.answered = true;
          resolve();
        },
      );
      request.on('error', () => {
        kill(req);
        resolve();
      });
      res.on('close', () => request.destroy());
      request.end(body);
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const stream = isStream(method, path);
    const mode = stream && !rule.match?.test(`${method} ${path}`) ? 'pass' : choose(method, path);
    const entry: ProxyLogEntry = { method, path, mode, reachedRemote: false, answered: false, startedAt: Date.now() };
    log.push(entry);
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch {
      return;
    }
    const pass = async () => {
      if (stream) return streamThrough(req, res, body, entry);
      const up = await upstream(method, path, req.headers, body);
      if (!up) {
        kill(req);
        return;
      }
      reached(entry, up);
      if (req.socket.destroyed) return;
      answer(res, up);
      entry.answered = true;
    };
    switch (mode) {
      case 'pass':
        return pass();
      case 'refuse': // a partial refusal (some requests only): the connection is reset
      case 'drop-request':
        kill(req);
        return;
      case 'drop-response': {
        const up = await upstream(method, path, req.headers, body);
        if (up) {
          reached(entry, up);
        }
        kill(req);
        return;
      }
      case 'delay': {
        const [min, max] = delayRange();
        await new Promise((r) => setTimeout(r, min + random() * (max - min)));
        return pass();
      }
      case 'cut-request':
        await upstream(method, path, req.headers, body, true);
        kill(req);
        return;
      case 'cut-response': {
        const up = await upstream(method, path, req.headers, body);
        if (!up) {
          kill(req);
          return;
        }
        reached(entry, up);
        if (res.destroyed) return;
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(up.headers)) if (value !== undefined && !hopByHop.has(name)) headers[name] = value;
        headers['content-length'] = String(up.body.length);
        res.writeHead(up.status, headers);
        await new Promise<void>((r) => res.write(up.body.subarray(0, Math.floor(up.body.length / 2)), () => r()));
        await new Promise((r) => setTimeout(r, 20));
        kill(req);
        return;
      }
      case 'hold':
        await new Promise<void>((released) => held.push({ forward: () => pass().finally(released) }));
        return;
      case 'late':
        kill(req);
        held.push({
          forward: async () => {
            const up = await upstream(method, path, req.headers, body);
            if (up) {
              reached(entry, up);
            }
          },
        });
        return;
      case 'reorder': {
        await new Promise<void>((released) => {
          const forward = () => pass().finally(released);
          const holdMs = ('holdMs' in rule ? rule.holdMs : undefined) ?? 400;
          entry.reversed = false;
          const item = {
            forward,
            entry,
            timer: setTimeout(() => {
              // Nobody came: release it alone.
              const i = reorderQueue.indexOf(item);
              if (i !== -1) reorderQueue.splice(i, 1);
              reorderChain = reorderChain.then(forward);
            }, holdMs),
          };
          reorderQueue.push(item);
          if (reorderQueue.length >= 2) {
            const pair = reorderQueue.splice(0, reorderQueue.length).reverse();
            for (const p of pair) clearTimeout(p.timer);
            for (const p of pair.slice(1)) p.entry.reversed = true;
            reorderChain = reorderChain.then(async () => {
              for (const p of pair) await p.forward();
            });
          }
        });
        return;
      }
    }
  }

  const server = createServer((req, res) => {
    inFlight++;
    res.on('error', () => undefined);
    req.on('error', () => undefined);
    void handle(req, res)
      .catch(() => kill(req))
      .finally(() => inFlight--);
  });
  server.keepAliveTimeout = 1000;
  server.on('connection', (socket) => {
    socket.on('error', () => undefined);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');
  const port = address.port;
  let listening = true;
  let closed = false;

  let switching: Promise<void> = Promise.resolve();

  /** Listens on the proxy's port exactly when the rule is not a full refusal (one switch at a time). */
  function applyListening(): Promise<void> {
    switching = switching.then(switchListening, switchListening);
    return switching;
  }

  async function switchListening(): Promise<void> {
    const want = !refusing() && !closed;
    if (want === listening) return;
    listening = want;
    if (!want) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    } else {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
    }
  }

  async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`fault proxy: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    retarget(url) {
      targets = [new URL(url)];
    },
    async set(next) {
      rule = typeof next === 'string' ? { mode: next } : next;
      await applyListening();
    },
    heldCount: () => held.length + reorderQueue.length,
    waitForHeld: (n, timeoutMs = 10_000) => until(() => held.length >= n, timeoutMs, `${n} held request(s)`),
    async release() {
      const all = held.splice(0, held.length);
      for (const h of all) await h.forward();
    },
    idle: (timeoutMs = 10_000) => until(() => inFlight === 0, timeoutMs, 'the proxy to be idle'),
    async close() {
      closed = true;
      for (const item of reorderQueue.splice(0)) clearTimeout(item.timer);
      held.splice(0);
      await applyListening();
      for (const socket of sockets) socket.destroy();
    },
  };
}
