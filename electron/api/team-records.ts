/**
 * The record stores of a team-server node (docs/architecture.md "Team server on PostgreSQL"):
 * one PostgresRecordStore per environment, all stamping field clocks with the node's one
 * clock, for the resources that sync, and (with `notices`) raising and hearing every node's
 * change notices for the live channel. Each write queues the webhook deliveries its changes
 * make, in its transaction (webhooks/events.ts).
 */
import { HybridClock } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import type { ChangeNotices } from '../store/postgres/change-notices.js';
import type { PostgresPool } from '../store/postgres/postgres-database.js';
import { PostgresRecordStore, type PostgresSyncStamps } from '../store/postgres/record-store.js';
import { resourceModules } from './resources/index.js';
import { syncedResources } from './sync/books.js';
import { webhookWriteHook, type EnvironmentRef } from './webhooks/events.js';

/**
 * A node's record store for each environment, made on first use. The node's clock gets a
 * fresh node id per process: nodes come and go, and a clock only has to differ from every
 * other writer's (a replica's node id is kept for its database's life, sync-book.ts).
 */
export function teamRecordStores(
  pool: PostgresPool,
  options: { notices?: ChangeNotices } = {},
): (environment: EnvironmentRef) => PostgresRecordStore {
  const stamps: PostgresSyncStamps = {
    clock: new HybridClock(uuidv7().replace(/-/g, '').slice(-12)),
    synced: syncedResources(resourceModules),
    ...options,
  };
  const stores = new Map<string, PostgresRecordStore>();
  // An event names its environment by id and name only, whatever else the caller's record holds.
  return (environment) => {
    let found = stores.get(environment.id);
    if (!found)
      stores.set(
        environment.id,
        (found = new PostgresRecordStore(pool, environment.id, stamps, webhookWriteHook({ id: environment.id, name: environment.name }))),
      );
    return found;
  };
}
