/**
 * The Planning API as a Fastify app. The same app serves HTTP (remote instance, optional local
 * port), the Electron IPC bridge (through `inject`) and the browser host, so there is one API
 * and one set of tests.
 */
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DataDir } from '../store/data-dir.js';
import type { RecordStore } from '../store/record-store.js';
import { contextOnRecords } from './resource.js';
import { adminRoutes } from './admin-routes.js';
import { actAsAppUser, registerAppUserRoutes, type AppUserOptions } from './app-user.js';
import { authenticate, type TeamDatabaseAccess } from './auth.js';
import { commandRoutes } from './commands/routes.js';
import { installErrorHandling, sendError, toApiError } from './errors.js';
import { FailureLog } from './failure-log.js';
import { standardOutputLog } from './log-output.js';
import { buildOpenApi } from './openapi.js';
import { refuseGuestWrite } from './permissions.js';
import { registerResourceRoutes } from './resource-routes.js';
import { registerSampleWorkshopRoutes } from './sample-workshop/routes.js';
import { resourceModules } from './resources/index.js';
import type { CollectedRoute } from './route-doc.js';
import type { ReplicaRole } from '../store/sync-book.js';
import { installSyncBooks } from './sync/books.js';
import type { SyncControl } from '../../shared/sync.js';
import { registerSyncRoutes } from './sync/routes.js';
import type { RateLimitOptions, SlidingWindowLimiter } from './rate-limit.js';
import { oauthRoutes } from './oauth/routes.js';
import { registerFloorRoutes } from './floor/floor-routes.js';
import { refuseKioskOutsideFloor } from './oauth/kiosk-routes.js';
import { inScenario } from './scenarios/scenario-context.js';
import { scenarioRoutes } from './scenarios/scenario-routes.js';
import { dataFolderOAuth, teamOAuth } from './oauth/access.js';
import type { DeliveryTiming } from './webhooks/dispatcher.js';
import { startWebhooks } from './webhooks/service.js';
import { startTeamWebhooks } from './webhooks/team-service.js';
import type { EnvironmentRef } from './webhooks/events.js';
import { registerHealthRoutes, type HealthOptions } from './health-routes.js';
import { installJsonBodies } from './conventions/request-body.js';
import { answerClientError, answerFrameworkError, maxPathParamLength } from './conventions/request-head.js';
import type { TrustedProxies } from './client-address.js';
import { defaultTimeLimits, installTimeLimits, type TimeLimits } from './conventions/time-limits.js';
import { installAnswersInParts } from './conventions/answer-json.js';
import { AnswerWork } from './conventions/answer-work.js';
import type { StreamLimits } from './sync/stream-routes.js';
import type { KeptLimits } from './sync/kept-data.js';

export const apiVersion = '0.1.0';

export interface ApiOptions {
  dataDir: DataDir;
  /** Log requests (the headless server turns this on); bodies are never logged. */
  logger?: boolean;
  /** Largest accepted JSON body, in bytes. */
  bodyLimit?: number;
  /** `local`: a replica that keeps an outbox for a remote (desktop, syncing client). Default `remote`. */
  role?: ReplicaRole;
  /** The sync client of a local replica, for the sync control routes (made after the API). */
  sync?: () => SyncControl | undefined;
  /** Change-log entries a remote keeps for pulls (older cursors get 410). */
  syncRetention?: number;
  /** Deliver webhooks to loopback and private addresses: the desktop instance and tests; off on a remote. */
  allowPrivateWebhookTargets?: boolean;
  /** Webhook retry and timeout timings (tests use milliseconds). */
  webhookDelivery?: Partial<DeliveryTiming>;
  /** A team server: how often a node looks at every environment's webhook queue (webhooks/team-service.ts). */
  webhookSweepMs?: number;
  /** Requests per window per IP and client on the OAuth sign-in and token endpoints (default 20 a minute), or the limiter to use. */
  oauthRateLimit?: RateLimitOptions | SlidingWindowLimiter;
  /** The clock of OAuth authorization codes (60 s lifetime), in ms; tests move it. Default: the process clock (shared/clock.ts). */
  oauthNow?: () => number;
  /** The desktop app and browser host: their bridge acts as the app's user (app-user.ts). */
  appUser?: AppUserOptions;
  /** `/health/live` and `/health/ready` for a proxy, behind the operator's health token (health-routes.ts). */
  health?: HealthOptions;
  /**
   * The records of an environment for the API, instead of its SQLite file (docs/architecture.md
   * "The asynchronous store boundary"). Given, a request has no synchronous store
   * (contextOnRecords): a route that needs one answers 503 rather than read another engine. The
   * tests run the API on PostgreSQL through it with the data folder's keys (docs/architecture.md
   * "Tests").
   */
  recordsOf?: (environment: EnvironmentRef) => RecordStore;
  /**
   * The team server's database (`npm run server -- --database …`): environments and API keys
   * come from it, and each request's records (no synchronous store, as with `recordsOf`).
   */
  teamDatabase?: TeamDatabaseAccess;
  /**
   * The reverse proxies in front of this server (`--trust-proxy`): a request from one of them
   * counts as the client its `X-Forwarded-For` names (client-address.ts). Off by default.
   */
  trustedProxies?: TrustedProxies;
  /** Time limits per route class, in ms (docs/API.md "Time limits"); tests shorten them. */
  timeLimits?: Partial<TimeLimits>;
  /** Connections open at once, idle ones included; more are closed as they come (docs/deployment.md "Connections"). */
  maxConnections?: number;
  /** How the live channel's streams are shared out (sync/stream-routes.ts); tests make them small. */
  streamLimits?: Partial<StreamLimits>;
  /** How much data of other versions a remote keeps (sync/kept-data.ts); tests make it small. */
  keptLimits?: Partial<KeptLimits>;
}

/** Connections a server keeps open at once by default (docs/deployment.md "Connections"). */
export const defaultMaxConnections = 10_000;

export async function buildApi(options: ApiOptions): Promise<FastifyInstance> {
  const trusted = options.trustedProxies;
  const app = Fastify({
    // Never pino's own destination: its synchronous retries hang the server on a full disk or pipe.
    logger: options.logger ? { level: 'info', stream: standardOutputLog() } : false,
    bodyLimit: options.bodyLimit ?? 10 * 1024 * 1024,
    // Ids in paths are case-insensitive UUIDs; everything else is lower case already.
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: true, maxParamLength: maxPathParamLength },
    // Refusals before any route runs get the documented error body too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // request.ip: the client behind a trusted proxy, else the connection's address (client-address.ts).
    trustProxy: trusted ? (address: string) => trusted.trusts(address) : false,
  });
  installErrorHandling(app, new FailureLog(join(options.dataDir.path, 'logs')), options.dataDir.path);
  installJsonBodies(app);

  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route) => {
    const doc = route.config?.doc;
    if (!doc) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, doc });
    }
  });
  // After the hook above: its wrapping of a handler is inside this one's.
  const limits = installTimeLimits(app, { ...defaultTimeLimits, ...options.timeLimits });
  app.decorate('timeLimits', limits);
  installAnswersInParts(app, (request) => request.ctx?.answer);
  // A cap on open connections, idle ones included: each holds memory and a file descriptor.
  app.server.maxConnections = options.maxConnections ?? defaultMaxConnections;

  // Fastify's placeholder for the decorator: the auth hook sets every request's ctx before a handler runs.
  app.decorateRequest('ctx', null as never);
  installSyncBooks(options.dataDir, options.role ?? 'remote', resourceModules);
  const webhookOptions = {
    allowPrivateTargets: options.allowPrivateWebhookTargets ?? false,
    ...(options.webhookDelivery ? { timing: options.webhookDelivery } : {}),
  };
  const team = options.teamDatabase;
  // OAuth's state and rate limits: the data folder's, or the team database's, which every node shares.
  const oauth = team ? teamOAuth(team) : dataFolderOAuth(options.dataDir, options.recordsOf);
  // A team server's deliveries are queued in its database, whose environments the data folder does not have.
  app.decorate(
    'webhooks',
    team
      ? startTeamWebhooks(app, {
          ...webhookOptions,
          pool: team.pool,
          listEnvironments: () => team.system.listEnvironments(),
          recordsOf: (environment) => team.recordsOf(environment),
          ...(options.webhookSweepMs !== undefined ? { sweepMs: options.webhookSweepMs } : {}),
        })
      : startWebhooks(app, { ...webhookOptions, dataDir: options.dataDir }),
  );

  if (options.health) registerHealthRoutes(app, options.health);

  await app.register(
    async (v1) => {
      v1.addHook('onRequest', async (request, reply) => {
        if (request.routeOptions.config?.public) return;
        try {
          request.ctx = await authenticate(options.dataDir, request, oauth, options.teamDatabase);
          if (options.recordsOf) request.ctx = contextOnRecords(request.ctx, options.recordsOf(request.ctx.caller.environment));
          request.ctx = await inScenario(request, request.ctx);
          if (options.appUser) await actAsAppUser(request.ctx, options.appUser);
          request.ctx.answer = new AnswerWork(limits.signalOf(request));
          refuseGuestWrite(request.ctx.caller, request.method, request.routeOptions.url);
          refuseKioskOutsideFloor(request.ctx.caller, request.routeOptions.url);
        } catch (error) {
          const apiError = toApiError(error);
          if (!apiError) throw error;
          return sendError(reply, apiError);
        }
      });

      registerResourceRoutes(v1);
      await v1.register(oauthRoutes, {
        access: oauth,
        ...(options.oauthRateLimit ? { rateLimit: options.oauthRateLimit } : {}),
        ...(options.oauthNow ? { now: options.oauthNow } : {}),
      });
      await v1.register(adminRoutes, { oauth: oauth.state });
      if (options.appUser) registerAppUserRoutes(v1, options.appUser);
      await v1.register(commandRoutes);
      await v1.register(scenarioRoutes);
      registerFloorRoutes(v1);
      registerSampleWorkshopRoutes(v1);
      registerSyncRoutes(v1, {
        modules: resourceModules,
        ...(options.sync ? { control: options.sync } : {}),
        retention: options.syncRetention ?? 1_000_000,
        ...(options.streamLimits ? { streamLimits: options.streamLimits } : {}),
        ...(options.keptLimits ? { keptLimits: options.keptLimits } : {}),
      });

      v1.get('/openapi.json', { config: { doc: { summary: 'This OpenAPI document', tag: 'Meta' } } }, () =>
        buildOpenApi(routes, apiVersion),
      );
    },
    { prefix: '/v1' },
  );

  return app;
}
