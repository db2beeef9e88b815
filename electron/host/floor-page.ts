/**
 * The floor view's page (docs/architecture.md "Renderer"): `/floor/` and the built files
 * it loads (`/assets/…`, `/favicon.svg`) from the renderer's build (out/renderer), under the
 * app's Content Security Policy. The headless server serves it beside the API; the browser host
 * serves it with its own files and passes the floor's API calls to its instance
 * (browser-host.ts). The page holds its own sign-in's tokens, so nothing here adds a credential.
 */
import { readFile, realpath } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentSecurityPolicy } from '../../shared/csp.js';

export const mimeTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

/** The floor view's own files beside its page: what makes it installable and work offline (renderer/public/floor). */
export const floorPageFiles = ['sw.js', 'manifest.webmanifest'] as const;

/** The renderer's build of this checkout (out/renderer), where `npm run build` puts it. */
export function builtRendererDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'renderer');
}

const notBuilt = 'The floor view is not built on this server: run `npm run build` and start the server again.\n';

/** The file at `relative` inside `root`, or undefined when it is not there (or lies outside). */
async function fileIn(root: string, relative: string): Promise<Buffer | undefined> {
  try {
    const realRoot = await realpath(root);
    const file = await realpath(join(realRoot, relative));
    if (!file.startsWith(realRoot + sep)) return undefined;
    return await readFile(file);
  } catch {
    return undefined;
  }
}

async function serve(reply: FastifyReply, root: string, relative: string): Promise<FastifyReply> {
  const content = await fileIn(root, relative);
  if (!content)
    return reply
      .code(404)
      .type('text/plain; charset=utf-8')
      .send(relative === 'floor/index.html' ? notBuilt : 'Not found\n');
  return reply
    .headers({
      'content-security-policy': contentSecurityPolicy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      // The page and its files change with each build (the asset names carry a hash).
      'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    })
    .type(mimeTypes[extname(relative)] ?? 'application/octet-stream')
    .send(content);
}

/** `/floor/` and its files, on a server that answers nothing else outside `/v1` and `/health`. */
export function registerFloorPage(app: FastifyInstance, rendererDir: string): void {
  // The API's router ignores a trailing slash: `/floor` is this page too (its files are named from the root up).
  app.get('/floor/', (_request, reply) => serve(reply, rendererDir, 'floor/index.html'));
  app.get('/floor/index.html', (_request, reply) => serve(reply, rendererDir, 'floor/index.html'));
  for (const file of floorPageFiles) app.get(`/floor/${file}`, (_request, reply) => serve(reply, rendererDir, `floor/${file}`));
  app.get('/favicon.svg', (_request, reply) => serve(reply, rendererDir, 'favicon.svg'));
  app.get<{ Params: { '*': string } }>('/assets/*', (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
    const name = request.params['*'];
    if (!/^[A-Za-z0-9._-]+$/.test(name)) return reply.code(404).type('text/plain; charset=utf-8').send('Not found\n');
    return serve(reply, rendererDir, `assets/${name}`);
  });
}
