/**
 * The browser host: where no Electron runtime exists, the same renderer is served to a
 * browser from 127.0.0.1, and the bridge runs over HTTP instead of IPC.
 *
 * Why other web pages cannot use it:
 *  - it listens on 127.0.0.1 only, and answers only when the Host header names
 *    127.0.0.1 or localhost on its own port, so a DNS-rebinding page gets 421;
 *  - loading the page sets a random session cookie (HttpOnly, SameSite=Strict): a page
 *    elsewhere never has it, and cannot read it;
 *  - bridge calls must carry that cookie, a same-origin Origin (when the browser sends one)
 *    and the `x-planner-bridge` header, which a cross-origin form or image cannot set.
 * The API key stays in this process; the page only ever sees API responses.
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

export { contentSecurityPolicy };

const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

const sessionCookie = 'planner_session';

const bridgeBodyLimit = Math.ceil(maxBridgeUploadBytes / 3) * 4 + 1024 * 1024;

export interface BrowserHost {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface BrowserHostOptions {
  instance: LocalInstance;
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

function sameSecret(a: string | undefined, b: string): boolean {
  if (!a || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { instance } = options;
  const session = randomBytes(32).toString('base64url');
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

  const refuse = (reply: FastifyReply, status: number, error: ApiError) =>
    reply.code(status).type('application/json').send(error.body());

  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      return reply.code(421).type('text/plain').send('This host only answers as 127.0.0.1 or localhost.\n');
    }
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });

  const checkBridgeCaller = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const requestOrigin = request.headers.origin;
    const fromPage =
      sameSecret(cookieValue(request, sessionCookie), session) &&
      (requestOrigin === undefined || requestOrigin === origin || requestOrigin === origin.replace('127.0.0.1', 'localhost'));
    if (!fromPage) {
      void refuse(reply, 401, ApiError.notLoggedIn('Open the app page first; the bridge answers only that page.'));
      return false;
    }
    return true;
  };

  const checkBridgeHeader = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (request.headers['x-planner-bridge'] === '1') return true;
    void refuse(reply, 400, ApiError.badRequest('Bridge calls need the x-planner-bridge header.'));
    return false;
  };

  app.post('/bridge/request', async (request, reply) => {
    if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
    const parsed = parseBridgeRequest(request.body);
    if ('error' in parsed) return refuse(reply, 400, ApiError.badRequest(`Malformed bridge request: ${parsed.error}`));
    return instance.request(parsed);
  });

  app.get('/bridge/events', (request, reply) => {
    if (!checkBridgeCaller(request, reply)) return reply;
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
    return { path: instance.dataDir.path } satisfies DataFolder;
  });

  const { localApi } = options;
  if (localApi) {
    app.get('/host/local-api', async (request, reply) => {
      if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
      return localApi.state();
    });
    app.post('/host/local-api', async (request, reply) => {
      if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
      const change = parseLocalApiChange(request.body);
      if ('error' in change) return refuse(reply, 400, ApiError.badRequest(`Malformed local API change: ${change.error}`));
      return localApi.change(change);
    });
    app.post('/host/local-api/key', async (request, reply) => {
      if (!checkBridgeCaller(request, reply) || !checkBridgeHeader(request, reply)) return reply;
      if (request.body !== undefined && request.body !== null) return refuse(reply, 400, ApiError.badRequest('Making a new key takes no body.'));
      return localApi.newKey();
    });
  }

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

  app.get('/', (_request, reply) => serveFile('index.html', reply, true));
  app.get('/index.html', (_request, reply) => serveFile('index.html', reply, true));
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
  return {
    url: `${origin}/`,
    port,
    async close() {
      await app.close();
    },
  };
}
