/**
 * The browser host: where no Electron runtime exists, the same renderer is served to a
 * browser from 127.0.0.1, and the bridge runs over HTTP instead of IPC.
 *
 * Why other web pages, and other programs on this computer, cannot use it:
 *  - it listens on 127.0.0.1 only, and answers only when the Host header names
 *    127.0.0.1 or localhost on its own port, so a DNS-rebinding page gets 421;
 *  - the address it prints carries a page key (`?key=…`, random for each run). The page keeps
 *    it in its origin's localStorage and sends it as `x-planner-page-key` on every bridge
 *    call. The key is what proves a call comes from the page the planner opened: loading `/`
 *    does not give it out, so a program that can merely connect to the port gets nothing;
 *  - bridge calls must also carry the session cookie (`planner_session_<port>`, HttpOnly,
 *    SameSite=Strict), a same-origin Origin (when the browser sends one) and the
 *    `x-planner-bridge` header, which a cross-origin form or image cannot set.
 * Why the key and not the cookie alone: browsers send a cookie for 127.0.0.1 to every port
 * of 127.0.0.1, so any other local server the planner visits receives it, and could replay
 * it from a script (security audit, finding 10). localStorage is per origin, port included,
 * so the key never leaves this host's pages; the cookie captured elsewhere is useless without it.
 * The API key stays in this process; the page only ever sees API responses.
 *
 * While the data folder cannot be opened, `/` shows the recovery page instead of the app
 * (recovery-routes.ts), and the bridge answers 503 until one of its choices opens the data.
 *
 * The floor view (`/floor/`, floor-page.ts) is served here as on the headless server; its calls
 * to `/v1/floor/…`, `/v1/oauth/token` and attachment downloads go to the instance with the page's
 * own bearer token, never the bridge key.
 *
 * The Settings screen's local API section (shared/local-api.ts) uses `/host/local-api`, and its
 * data folder section `/host/data-folder`, under the same rules: what the desktop app does
 * through its shell channels, done here over HTTP.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { contentSecurityPolicy } from '../../shared/csp.js';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { maxBridgeUploadBytes, parseBridgeRequest, type ChangeEvent, type DataFolder } from '../../shared/ipc.js';
import { parseLocalApiChange } from '../../shared/local-api.js';
import { installDepthCheckedJson } from '../api/conventions/request-body.js';
import { answerClientError, answerFrameworkError } from '../api/conventions/request-head.js';
import { ApiError, installErrorHandling } from '../api/errors.js';
import type { LocalApi } from './local-api.js';
import type { LocalInstance } from './local-instance.js';
import type { DataFolderRecovery } from './recovery.js';
import { registerRecoveryRoutes } from './recovery-routes.js';
import { floorPageFiles, mimeTypes } from './floor-page.js';

export { contentSecurityPolicy };

/** The cookie's name carries the port, so hosts on other ports never overwrite or read each other's. */
const sessionCookieOf = (port: number) => `planner_session_${port}`;
/** The header that carries the page key on bridge calls; the event stream sends it as `?key=`. */
export const pageKeyHeader = 'x-planner-page-key';

const bridgeBodyLimit = Math.ceil(maxBridgeUploadBytes / 3) * 4 + 1024 * 1024;

export interface BrowserHost {
  /** The host's base address, `http://127.0.0.1:<port>/`. */
  url: string;
  /** The address to open: the base with this run's page key (`?key=…`). */
  openUrl: string;
  port: number;
  /** The app it serves; undefined while it shows the recovery page. */
  served(): HostedApp | undefined;
  close(): Promise<void>;
}

/** What the host serves once the data folder is open. */
export interface HostedApp {
  instance: LocalInstance;
  localApi?: LocalApi;
}

export interface BrowserHostOptions {
  /** The app to serve; absent when the data folder could not be opened (see `recovery`). */
  instance?: LocalInstance;
  /** The ways out of a data folder that could not be opened, offered at `/` until one opens it. */
  recovery?: DataFolderRecovery<HostedApp>;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** The local API the Settings screen switches on and off; without it `/host/local-api` is 404. */
  localApi?: LocalApi;
}

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** Compared as bytes: a string of the same length may still encode longer (timingSafeEqual throws). */
export function sameSecret(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const given = Buffer.from(a);
  const expected = Buffer.from(b);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  if (!options.instance === !options.recovery) throw new Error('the browser host serves either an instance or a recovery');
  let served: HostedApp | undefined = options.instance
    ? { instance: options.instance, ...(options.localApi ? { localApi: options.localApi } : {}) }
    : undefined;
  const session = randomBytes(32).toString('base64url');
  const pageKey = randomBytes(32).toString('base64url');
  const rendererRoot = await realpath(options.rendererDir);
  // forceCloseConnections: open event streams must not keep a stopping host alive. The body
  // limit fits the largest upload the bridge takes, base64-encoded (a third larger), in JSON.
  const app: FastifyInstance = Fastify({
    logger: false,
    bodyLimit: bridgeBodyLimit,
    forceCloseConnections: true,
    // Refusals get the API's error body (docs/API.md "Errors"), before routing too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  });
  installErrorHandling(app);
  installDepthCheckedJson(app);
  let allowedHosts = new Set<string>();
  let origin = '';
  let sessionCookie = '';

  const refuse = (reply: FastifyReply, status: number, error: ApiError) => reply.code(status).type('application/json').send(error.body());

  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      return reply.code(421).type('text/plain').send('This host only answers as 127.0.0.1 or localhost.\n');
    }
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });

  /** The session cookie, a same-origin Origin (or none) and the page key all match. */
  const fromPage = (request: FastifyRequest, presentedKey: unknown): boolean => {
    const requestOrigin = request.headers.origin;
    return (
      sameSecret(cookieValue(request, sessionCookie), session) &&
      sameSecret(typeof presentedKey === 'string' ? presentedKey : undefined, pageKey) &&
      (requestOrigin === undefined || requestOrigin === origin || requestOrigin === origin.replace('127.0.0.1', 'localhost'))
    );
  };

  const checkBridgeCaller = (
    request: FastifyRequest,
    reply: FastifyReply,
    presentedKey: unknown = request.headers[pageKeyHeader],
  ): boolean => {
    if (!fromPage(request, presentedKey)) {
      void refuse(
        reply,
        401,
        ApiError.notLoggedIn(
          'Open the address Planner printed when it started (it carries the page key); the bridge answers only that page.',
        ),
      );
      return false;
    }
    return true;
  };

  /** The app being served, or a 503 while the recovery page is up. */
  const servedApp = (reply: FastifyReply): HostedApp | undefined => {
    if (served) return served;
    void refuse(
      reply,
      503,
      new ApiError('unavailable', [{ description: 'Planner could not open its data folder; reload the page to see how to go on.' }]),
    );
    return undefined;
  };

  const checkBridgeHeader = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (request.headers['x-planner-bridge'] === '1') return true;
    void refuse(reply, 400, ApiError.badRequest('Bridge calls need the x-planner-bridge header.'));
    return false;
  };

  app.post('/bridge/request', async (request, reply) => {
    if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
    const hosted = servedApp(reply);
    if (!hosted) return reply;
    const parsed = parseBridgeRequest(request.body);
    if ('error' in parsed) return refuse(reply, 400, ApiError.badRequest(`Malformed bridge request: ${parsed.error}`));
    return hosted.instance.request(parsed);
  });

  // EventSource cannot send headers, so the page key comes as `?key=` (same origin only).
  app.get<{ Querystring: { key?: unknown } }>('/bridge/events', (request, reply) => {
    if (!checkBridgeCaller(request, reply, request.query.key)) return reply;
    const hosted = servedApp(reply);
    if (!hosted) return reply;
    const { instance } = hosted;
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    out.write(': connected\n\n');
    const send = (events: ChangeEvent[]) => out.write(`data: ${JSON.stringify(events)}\n\n`);
    const unsubscribe = instance.onChange(send);
    // A comment line now and then keeps proxies and the browser from timing the stream out.
    const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), 25_000);
    request.raw.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
    });
  });

  // Where the data is, for the Settings screen (the desktop shell answers the same through
  // its channel). Opening it is the desktop's: this page cannot reach a file manager.
  app.get('/host/data-folder', async (request, reply) => {
    if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
    const hosted = servedApp(reply);
    if (!hosted) return reply;
    return { path: hosted.instance.dataDir.path } satisfies DataFolder;
  });

  // The served app's local API: 404 when it has none (as when the host was made without one).
  const localApiOf = (reply: FastifyReply): LocalApi | undefined => {
    const localApi = servedApp(reply)?.localApi;
    if (!localApi && !reply.sent) void refuse(reply, 404, ApiError.notFound('This host has no local API.'));
    return localApi;
  };
  app.get('/host/local-api', async (request, reply) => {
    if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
    return localApiOf(reply)?.state() ?? reply;
  });
  app.post('/host/local-api', async (request, reply) => {
    if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
    const localApi = localApiOf(reply);
    if (!localApi) return reply;
    const change = parseLocalApiChange(request.body);
    if ('error' in change) return refuse(reply, 400, ApiError.badRequest(`Malformed local API change: ${change.error}`));
    return localApi.change(change);
  });
  app.post('/host/local-api/key', async (request, reply) => {
    if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
    const localApi = localApiOf(reply);
    if (!localApi) return reply;
    if (request.body !== undefined && request.body !== null)
      return refuse(reply, 400, ApiError.badRequest('Making a new key takes no body.'));
    return localApi.newKey();
  });

  const recovery = options.recovery;
  const recoveryRoutes = recovery
    ? registerRecoveryRoutes(app, {
        recovery,
        pageKey,
        fromPage,
        setSessionCookie: (reply) => {
          reply.header('set-cookie', `${sessionCookie}=${session}; HttpOnly; SameSite=Strict; Path=/`);
        },
        isRecovering: () => served === undefined,
        recovered: (hosted) => {
          served = hosted;
        },
      })
    : undefined;

  const serveFile = async (relative: string, reply: FastifyReply, withSession: boolean) => {
    let file: string;
    try {
      file = await realpath(join(rendererRoot, relative));
    } catch {
      return reply.code(404).type('text/plain').send('Not found\n');
    }
    if (file !== rendererRoot && !file.startsWith(rendererRoot + sep)) {
      return reply.code(404).type('text/plain').send('Not found\n');
    }
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch {
      return reply.code(404).type('text/plain').send('Not found\n');
    }
    reply.header('content-security-policy', contentSecurityPolicy);
    reply.header('cache-control', 'no-cache');
    if (withSession) {
      reply.header('set-cookie', `${sessionCookie}=${session}; HttpOnly; SameSite=Strict; Path=/`);
    }
    return reply.type(mimeTypes[extname(file)] ?? 'application/octet-stream').send(content);
  };

  // The floor view (floor-page.ts) is served here too, from the same build. Its API calls carry
  // the page's own bearer token and go to the instance as they came: no bridge key is added, so
  // they act as the signed-in operator only.
  app.get('/floor', (_request, reply) => reply.redirect('/floor/', 301));
  app.get('/floor/', (_request, reply) => serveFile('floor/index.html', reply, false));
  for (const file of floorPageFiles) app.get(`/floor/${file}`, (_request, reply) => serveFile(`floor/${file}`, reply, false));
  const toInstance = async (request: FastifyRequest, reply: FastifyReply) => {
    const hosted = servedApp(reply);
    if (!hosted) return reply;
    const { authorization } = request.headers;
    // A kiosk's own calls carry its key instead (docs/API.md "The floor", kiosk mode).
    const kioskKey = request.headers['x-kiosk-key'];
    const method = request.method === 'POST' || request.method === 'PUT' || request.method === 'DELETE' ? request.method : 'GET';
    const response = await hosted.instance.api.inject({
      method,
      url: request.url,
      headers: {
        ...(authorization ? { authorization } : {}),
        ...(typeof kioskKey === 'string' ? { 'x-kiosk-key': kioskKey } : {}),
        ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(request.body !== undefined ? { payload: JSON.stringify(request.body) } : {}),
    });
    for (const name of [
      'content-type',
      'content-disposition',
      'cache-control',
      'retry-after',
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
    ]) {
      const value = response.headers[name];
      if (typeof value === 'string') reply.header(name, value);
    }
    return reply.code(response.statusCode).send(response.rawPayload);
  };
  app.route({ method: ['GET', 'POST', 'PUT', 'DELETE'], url: '/v1/floor/*', handler: toInstance });
  app.post('/v1/oauth/token', toInstance);
  app.get('/v1/collection/:collection/attachment/:attachment/download', toInstance);

  // While recovering, `/` is the recovery page.
  const servePage = (request: FastifyRequest, reply: FastifyReply) =>
    served || !recoveryRoutes ? serveFile('index.html', reply, true) : recoveryRoutes.page(request, reply);
  app.get('/', servePage);
  app.get('/index.html', servePage);
  app.get('/*', (request, reply) => {
    const path = decodeURIComponent(request.url.split('?')[0]!).replace(/^\/+/, '');
    return serveFile(path, reply, false);
  });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('browser host has no port');
  const port = address.port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  origin = `http://127.0.0.1:${port}`;
  sessionCookie = sessionCookieOf(port);
  return {
    url: `${origin}/`,
    openUrl: `${origin}/?key=${pageKey}`,
    port,
    served: () => served,
    async close() {
      await app.close();
    },
  };
}
