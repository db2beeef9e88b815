/**
 * A remote and two replicas of it, A and B, in the test's process (sync-inprocess.ts), with a
 * planning base made on A and both synced: where a sync test shows that what one replica did
 * holds on the other and on the remote.
 */
import { expect } from 'vitest';
import { ok } from './sync-cluster.js';
import { createPlanningBase, type PlanningBase } from './sync-data.js';
import { startInProcessClient, startInProcessRemote, type InProcessClient, type InProcessRemote } from './sync-inprocess.js';

export interface TwoReplicas {
  remote: InProcessRemote;
  a: InProcessClient;
  b: InProcessClient;
  /** The board "Workshop" and what plans on it, made on A. */
  base: PlanningBase;
  /** Closes both replicas, then the remote. */
  close(): Promise<void>;
}

/** Runs one sync on the replica and expects it to end without an error. */
export async function runSync(client: InProcessClient): Promise<void> {
  expect((await ok(client, 'POST', '/v1/sync/run', undefined, 200)).error).toBeNull();
}

export async function startTwoReplicas(): Promise<TwoReplicas> {
  const remote = await startInProcessRemote();
  const a = await startInProcessClient(remote.url, 'A');
  const b = await startInProcessClient(remote.url, 'B');
  const base = await createPlanningBase(a, 'Workshop');
  await runSync(a);
  await runSync(b);
  return {
    remote,
    a,
    b,
    base,
    async close() {
      await a.close();
      await b.close();
      await remote.close();
    },
  };
}
