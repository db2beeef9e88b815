/**
 * Webhooks for one API instance: the event hook and a delivery worker on every environment
 * store (open now or opened later), started when the app is built and stopped when it closes,
 * leaving no timer or socket behind. Environments with deliveries queued before a restart are
 * opened at once, so their queue moves on without waiting for a request.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DataDir } from '../../store/data-dir.js';
import { OAuthStore } from '../../store/oauth-store.js';
import { recordsOf, type SqliteRecordStore } from '../../store/record-store.js';
import { defaultDeliveryTiming, WebhookDispatcher, type DeliveryTiming } from './dispatcher.js';
import { webhookWriteHook, type EnvironmentRef } from './events.js';

export interface WebhookService {
  /** Looks for deliveries to send in this environment (after a redelivery was queued). */
  wake(environmentId: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: WebhookService;
  }
}

export interface WebhookOptions {
  dataDir: DataDir;
  /** Deliver to loopback and private addresses (the desktop instance, tests). */
  allowPrivateTargets: boolean;
  timing?: Partial<DeliveryTiming>;
}

export function startWebhooks(app: FastifyInstance, options: WebhookOptions): WebhookService {
  const timing: DeliveryTiming = { ...defaultDeliveryTiming, ...options.timing };
  const dispatchers = new Map<SqliteRecordStore, WebhookDispatcher>();
  const detach: (() => void)[] = [];
  const oauth = OAuthStore.of(options.dataDir.system);
  let closed = false;

  options.dataDir.onOpen((store) => {
    // From here on, through the environment's RecordStore only (docs/architecture.md "The asynchronous store boundary").
    const records = recordsOf(store);
    if (closed || dispatchers.has(records)) return;
    const dispatcher = new WebhookDispatcher(records.deliveryWork, timing, options.allowPrivateTargets, app.log);
    dispatchers.set(records, dispatcher);
    let environment: EnvironmentRef | undefined;
    const environmentRef = () =>
      (environment ??= { id: records.environmentId, name: oauth.environmentById(records.environmentId)?.name ?? '' });
    detach.push(records.onTransactionWrite(webhookWriteHook(environmentRef, () => dispatcher.wake())));
    // Activating a webhook again resumes its suspended deliveries.
    detach.push(records.onChange((events) => events.some((e) => e.resource === 'webhook') && dispatcher.wake()));
    void records.deliveryWork.hasWebhooks().then(
      (has) => has && dispatcher.wake(),
      (error: unknown) => app.log.error({ err: error, environment: records.environmentId }, 'webhook queue could not be read'),
    );
  });
  for (const environment of options.dataDir.system.listEnvironments()) {
    if (existsSync(join(options.dataDir.path, `env-${environment.id}.sqlite`))) options.dataDir.environment(environment.id);
  }

  app.addHook('onClose', async () => {
    closed = true;
    for (const undo of detach.splice(0)) undo();
    await Promise.all([...dispatchers.values()].map((d) => d.stop()));
    dispatchers.clear();
  });

  return {
    wake: (environmentId) => {
      for (const [records, dispatcher] of dispatchers) if (records.environmentId === environmentId) dispatcher.wake();
    },
  };
}
