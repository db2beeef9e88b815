/**
 * A pulled change fires its webhook events in the transaction that merges its page (docs/decisions/async-store-boundary.md):
 * the page, its clocks and its deliveries commit together, and a page whose merge fails leaves
 * no delivery queued. A real remote and a real replica (SQLite files, HTTP on 127.0.0.1).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordsOf } from '../../electron/store/record-store.js';
import type { EnvironmentStore } from '../../electron/store/environment-store.js';
import { checkBatch, mergeRecords } from '../../electron/sync/merge.js';
import { syncTables } from '../../electron/sync/tables.js';
import { ok } from '../helpers/sync-cluster.js';
import { createCollection, createPlanningBase, type PlanningBase } from '../helpers/sync-data.js';
import { startInProcessClient, startInProcessRemote, type InProcessClient, type InProcessRemote } from '../helpers/sync-inprocess.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let remote: InProcessRemote;
let replica: InProcessClient;
let receiver: Receiver;
let store: EnvironmentStore;

let base: PlanningBase;

/** The collection.created deliveries queued on the replica. */
const queued = () =>
  (store.db.prepare("SELECT count(*) AS n FROM webhook_delivery WHERE event = 'collection.created'").get() as { n: number }).n;

beforeAll(async () => {
  remote = await startInProcessRemote();
  base = await createPlanningBase(remote, 'Pulled');
  replica = await startInProcessClient(remote.url, 'replica');
  expect((await replica.instance.sync.run()).error).toBeNull();
  receiver = await startReceiver();
  await ok(replica, 'POST', '/v1/webhook', { url: receiver.url, event_types: ['collection.created'], description: 'pulled collections' });
  store = replica.instance.dataDir.environment(replica.instance.environment.id);
});

afterAll(async () => {
  await replica?.close();
  await remote?.close();
  await receiver?.close();
});

it('queues the deliveries of a pulled page inside its transaction, and none when the page fails', async () => {
  const collection = await createCollection(remote, base, 'Pulled press line');
  const page = await ok(remote, 'GET', '/v1/sync/snapshot?limit=5000');
  const entries = checkBatch(
    syncTables(),
    page.records.filter((entry: { id: string }) => entry.id === collection.id),
  );
  expect(entries).toHaveLength(1);
  const records = recordsOf(store);

  let inside = -1;
  const failing = mergeRecords(records, syncTables(), entries, {
    afterApply: async () => {
      // The page's change met the write hooks before its transaction ends.
      inside = queued();
      throw new Error('the page fails after its merge');
    },
  });
  await expect(failing).rejects.toThrow('the page fails after its merge');
  expect(inside).toBe(1);
  // Rolled back with the page: no record, no delivery, now or later.
  expect(queued()).toBe(0);
  expect(await records.get(syncTables().get('collection')!, collection.id)).toBeUndefined();
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(queued()).toBe(0);

  // The same page merged: the delivery is there as soon as the transaction is, and the whole
  // transaction, hooks included, ran within one turn of the event loop.
  let turned = false;
  setImmediate(() => (turned = true));
  let turnedInside: boolean | undefined;
  expect(await mergeRecords(records, syncTables(), entries, { afterApply: async () => void (turnedInside = turned) })).toBe(1);
  expect(turnedInside).toBe(false);
  expect(queued()).toBe(1);
  expect((await records.get(syncTables().get('collection')!, collection.id))?.name).toBe('Pulled press line');
});
