/**
 * Starting the sync client of a local replica: the desktop app, the browser host, or a
 * headless server run with --remote. It syncs one environment with the remote named in its
 * credential vault.
 *
 * `PLANNER_SYNC_LIVE=off` in the environment turns the live channel off: the replica polls
 * (docs/API.md "Live updates"), for a network whose proxy holds streamed answers back.
 */
import { planCheckRun } from '../api/planning/plan-check.js';
import { requestContext } from '../api/resource.js';
import type { DataDir } from '../store/data-dir.js';
import { recordsOf } from '../store/record-store.js';
import { SyncClient, type SyncTiming } from '../sync/client.js';
import type { CredentialVault } from '../sync/credentials.js';
import { syncTables } from '../sync/tables.js';

export function startReplicaSync(options: {
  dataDir: DataDir;
  environmentId: string;
  vault: CredentialVault;
  timing?: Partial<SyncTiming>;
}): SyncClient {
  const store = options.dataDir.environment(options.environmentId);
  const environment = options.dataDir.system.listEnvironments().find((e) => e.id === options.environmentId);
  const records = recordsOf(store);
  const client = new SyncClient({
    records,
    tables: syncTables(),
    vault: options.vault,
    environmentId: options.environmentId,
    // What a pull's merge makes of the plan (docs/API.md "Plan check"), read as the environment's own API key would.
    ...(environment ? { planCheck: () => planCheckRun(requestContext({ kind: 'api-key', environment }, records)) } : {}),
    timing: { ...options.timing, ...(process.env.PLANNER_SYNC_LIVE === 'off' ? { live: false } : {}) },
  });
  client.start();
  return client;
}
