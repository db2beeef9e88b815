/**
 * The Planning API as a Fastify app. The same app serves HTTP (remote instance, optional local
 * port), the Electron IPC bridge (through `inject`) and the browser host, so there is one API
 * and one set of tests.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { DataDir } from '../store/data-dir.js';
import { authenticate } from './auth.js';
import { registerResource } from './crud.js';
import { installErrorHandling, sendError, toApiError } from './errors.js';
import { buildOpenApi } from './openapi.js';
import { resourceModules } from './resources/index.js';
import type { CollectedRoute } from './route-doc.js';

export const apiVersion = '0.1.0';

export interface ApiOptions {
  dataDir: DataDir;
  /** Log requests (the headless server turns this on); bodies are never logged. */
  logger?: boolean;
  /** Largest accepted JSON body, in bytes. */
  bodyLimit?: number;
}

export async function buildApi(options: ApiOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { level: 'info' } : false,
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    // Ids in paths are case-insensitive UUIDs; everything else is lower case already.
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: true },
  });
  installErrorHandling(app);

  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route) => {
    const doc = route.config?.doc;
    if (!doc) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, doc });
    }
  });

  app.decorateRequest('ctx', null as never);

  await app.register(
    async (v1) => {
      v1.addHook('onRequest', async (request, reply) => {
        if (request.routeOptions.config?.public) return;
        try {
          request.ctx = authenticate(options.dataDir, request);
        } catch (error) {
          const apiError = toApiError(error);
          if (!apiError) throw error;
          return sendError(reply, apiError);
        }
      });

      for (const module of resourceModules) registerResource(v1, module);

      v1.get(
        '/openapi.json',
        { config: { doc: { summary: 'This OpenAPI document', tag: 'Meta' } } },
        () => buildOpenApi(routes, apiVersion),
      );
    },
    { prefix: '/v1' },
  );

  return app;
}
