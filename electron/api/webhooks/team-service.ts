/**
 * Webhooks on a team-server node (docs/architecture.md "Team server on PostgreSQL", "The
 * webhook queue"): the service beside the SQLite one (service.ts). Writes queue deliveries in
 * their own transactions on any node (events.ts, webhookWriteHook); every node runs a worker
 * (team-dispatcher.ts) for each environment with webhooks, and the workers share the queue.
 *
 * A worker is woken by every node's commits to the resources that send events (the change
 * notices), by this node's webhook writes, and by a sweep every `sweepMs` that also finds
 * environments made since and picks up what a stopped node left. An environment with no
 * worker on this node yet (no webhook when it last looked) is looked at again on a commit
 * at most every two seconds: a webhook made on another node raises no notice.
 */
import type { FastifyInstance } from 'fastify';
import { uuidv7 } from '../../../shared/ids.js';
import { PostgresWebhookQueue } from '../../store/postgres/webhook-queue.js';
import type { PostgresPool } from '../../store/postgres/postgres-database.js';
import type { RecordStore } from '../../store/record-store.js';
import { defaultDeliveryTiming, type DeliveryTiming } from './dispatcher.js';
import { eventSources, type EnvironmentRef } from './events.js';
import type { WebhookService } from './service.js';
import { TeamWebhookDispatcher } from './team-dispatcher.js';
import { nowMs } from '../../../shared/clock.js';

export interface TeamWebhookOptions {
  pool: PostgresPool;
  /** The team database's environments. */
  listEnvironments(): Promise<EnvironmentRef[]>;
  /** The node's record store of an environment (team-records.ts). */
  recordsOf(environment: EnvironmentRef): RecordStore;
  /** Deliver to loopback and private addresses (tests; `--allow-private-webhooks`). */
  allowPrivateTargets: boolean;
  timing?: Partial<DeliveryTiming>;
  /** How often the node looks at every environment's queue, whatever it heard. Default 30 s. */
  sweepMs?: number;
}

/** How often an environment without webhooks is looked at again on its commits. */
const lookAgainMs = 2000;

/** The resources whose changes queue deliveries: their commits wake the workers. */
const eventResources: ReadonlySet<string> = new Set(Object.keys(eventSources));

export function startTeamWebhooks(app: FastifyInstance, options: TeamWebhookOptions): WebhookService {
  const timing: DeliveryTiming = { ...defaultDeliveryTiming, ...options.timing };
  // Written as `claimed_by` on what this node claims: a fresh id per process, as nodes come and go.
  const nodeId = uuidv7();
  const workers = new Map<string, TeamWebhookDispatcher>();
  const watched = new Set<string>();
  const detach: (() => void)[] = [];
  let closed = false;

  /** Hears the environment's commits, from the first time this node sees it. */
  function watch(environment: EnvironmentRef): void {
    if (closed || watched.has(environment.id)) return;
    watched.add(environment.id);
    const records = options.recordsOf(environment);
    // A webhook made or switched on here starts the worker at once; others' in a sweep.
    detach.push(records.onChange((events) => events.some((e) => e.resource === 'webhook') && wake(environment.id)));
    let lookedAt = 0;
    detach.push(
      records.onSyncedChange(eventResources, () => {
        const worker = workers.get(environment.id);
        if (worker) return worker.wake();
        // No webhook here when last looked. Another node may have made one since (a webhook
        // raises no notice): look again now and then, not at every commit.
        if (nowMs() - lookedAt < lookAgainMs) return;
        lookedAt = nowMs();
        wake(environment.id);
      }),
    );
  }

  /** Wakes the environment's worker, first starting it if the environment has webhooks now. */
  async function look(environmentId: string): Promise<void> {
    const running = workers.get(environmentId);
    if (running || closed) return running?.wake();
    const queue = new PostgresWebhookQueue(options.pool, environmentId, nodeId);
    if (!(await queue.hasWebhooks()) || closed || workers.has(environmentId)) return;
    const worker = new TeamWebhookDispatcher(queue, timing, options.allowPrivateTargets, app.log);
    workers.set(environmentId, worker);
    worker.wake();
  }

  function wake(environmentId: string): void {
    look(environmentId).catch((error: unknown) => app.log.error({ err: error }, 'webhook worker could not start'));
  }

  async function sweep(): Promise<void> {
    for (const environment of await options.listEnvironments()) {
      if (closed) return;
      watch(environment);
      // One environment that cannot be read (its schema missing) does not keep the others waiting.
      await look(environment.id).catch((error: unknown) =>
        app.log.error({ err: error, environment: environment.id }, 'webhook queue could not be looked at'),
      );
    }
  }
  // One sweep at a time: when the next is due while one is still under way, it is left out.
  let sweeping: Promise<void> | undefined;
  const startSweep = () => {
    sweeping ??= sweep()
      .catch((error: unknown) => app.log.error({ err: error }, 'webhook sweep failed'))
      .finally(() => (sweeping = undefined));
  };
  startSweep();
  const timer = setInterval(startSweep, options.sweepMs ?? 30_000);

  app.addHook('onClose', async () => {
    closed = true;
    clearInterval(timer);
    await sweeping;
    for (const undo of detach.splice(0)) undo();
    await Promise.all([...workers.values()].map((worker) => worker.stop()));
    workers.clear();
  });

  return { wake };
}
