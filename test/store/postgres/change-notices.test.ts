/**
 * Live change notices across nodes on PostgreSQL (docs/architecture.md "Team server on
 * PostgreSQL", "Live notices across nodes"): a commit on one node reaches the subscribers of that
 * environment on every node, a rollback reaches nobody, and a listener whose connection is
 * killed comes back and tells its subscribers to pull anyway. Two pools are two nodes on one
 * real cluster; each node has its own listener.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import { appendChange, type ChangeCursor } from '../../../electron/store/postgres/change-log.js';
import { ChangeNotices, notifyChange, type ChangeNotice } from '../../../electron/store/postgres/change-notices.js';
import { ensureEnvironmentSchema, withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations } from '../../../electron/store/postgres/migrations.js';
import type { PostgresPool } from '../../../electron/store/postgres/postgres-database.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let nodeA: PostgresPool;
let nodeB: PostgresPool;
/** Listeners opened by a test, closed in afterAll whatever happened. */
const listeners: ChangeNotices[] = [];

beforeAll(async () => {
  team = await startTeamDatabase('notices');
  [nodeA, nodeB] = team.nodes;
});

afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
  await team?.stop();
});

const errors: Error[] = [];

async function listen(options: Parameters<typeof ChangeNotices.listen>[1] = {}): Promise<ChangeNotices> {
  const notices = await ChangeNotices.listen(team.url, { onError: (e) => errors.push(e), ...options });
  listeners.push(notices);
  return notices;
}

async function newEnvironment(): Promise<string> {
  const id = uuidv7();
  await ensureEnvironmentSchema(nodeA, id, environmentMigrations);
  return id;
}

/** Records what a subscriber is told. */
function follow(notices: ChangeNotices, environmentId: string): ChangeNotice[] {
  const told: ChangeNotice[] = [];
  notices.subscribe(environmentId, (notice) => told.push(notice));
  return told;
}

/** A write and its notice in one transaction on `node`; answers the write's cursor. */
function commitChange(node: PostgresPool, environmentId: string, recordId = uuidv7()): Promise<ChangeCursor> {
  return withEnvironment(node, environmentId, async (client) => {
    const cursor = await appendChange(client, { resource: 'card', recordId, op: 'update', fields: { name: 'Weld' } });
    await notifyChange(client, environmentId, cursor);
    return cursor;
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `ready()` holds, polling, for at most `ms`; answers whether it did. */
async function until(ready: () => boolean, ms = 5_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!ready() && Date.now() < end) await sleep(10);
  return ready();
}

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('change notices over LISTEN/NOTIFY', () => {
  it('reaches a subscriber on the other node when the transaction commits, not before', async () => {
    const env = await newEnvironment();
    const onB = await listen();
    const onA = await listen();
    const toldB = follow(onB, env);
    const toldA = follow(onA, env);
    const notified = gate();
    const release = gate();
    const write = withEnvironment(nodeA, env, async (client) => {
      const cursor = await appendChange(client, { resource: 'card', recordId: uuidv7(), op: 'create' });
      await notifyChange(client, env, cursor);
      notified.open();
      await release.opened;
      return cursor;
    });
    await notified.opened;
    // Raised but not committed: nobody is told yet.
    await sleep(200);
    expect(toldB).toEqual([]);
    release.open();
    const cursor = await write;
    expect(await until(() => toldB.length > 0 && toldA.length > 0)).toBe(true);
    expect(toldB).toEqual([{ environmentId: env, reason: 'change', cursor }]);
    expect(toldA).toEqual([{ environmentId: env, reason: 'change', cursor }]);
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const env = await newEnvironment();
    const onB = await listen();
    const told = follow(onB, env);
    const outcome = await withEnvironment(nodeA, env, async (client) => {
      const cursor = await appendChange(client, { resource: 'card', recordId: uuidv7(), op: 'create' });
      await notifyChange(client, env, cursor);
      throw new Error('refused');
    }).catch((error: Error) => error.message);
    expect(outcome).toBe('refused');
    await sleep(400);
    expect(told).toEqual([]);
    // The listener does hear this environment: a commit after it arrives, and only that one.
    const cursor = await commitChange(nodeA, env);
    expect(await until(() => told.length > 0)).toBe(true);
    await sleep(100);
    expect(told).toEqual([{ environmentId: env, reason: 'change', cursor }]);
  });

  it("keeps environments apart: a subscriber of one environment is not told of another's commits", async () => {
    const [envX, envY] = [await newEnvironment(), await newEnvironment()];
    const onB = await listen();
    const toldX = follow(onB, envX);
    const toldY = follow(onB, envY);
    const cursor = await commitChange(nodeA, envX);
    expect(await until(() => toldX.length > 0)).toBe(true);
    await sleep(200);
    expect(toldX).toEqual([{ environmentId: envX, reason: 'change', cursor }]);
    expect(toldY).toEqual([]);
  });

  it('makes a burst of commits of one environment one call, with the newest cursor', async () => {
    const env = await newEnvironment();
    const onB = await listen({ coalesceMs: 1_000 });
    const told = follow(onB, env);
    const cursors: ChangeCursor[] = [];
    for (let i = 0; i < 5; i++) cursors.push(await commitChange(i % 2 ? nodeA : nodeB, env));
    expect(await until(() => told.length > 0)).toBe(true);
    await sleep(200);
    expect(told).toEqual([{ environmentId: env, reason: 'change', cursor: cursors.at(-1) }]);
  });

  it('refuses to raise a notice for something that is not an environment id', async () => {
    const env = await newEnvironment();
    const outcome = await withEnvironment(nodeA, env, (client) => notifyChange(client, 'env; DROP TABLE x')).catch(
      (error: Error) => error.name,
    );
    expect(outcome).toBe('UnknownEnvironmentError');
  });

  it('listens again after its connection is killed, and tells subscribers to pull anyway', async () => {
    const env = await newEnvironment();
    const before = errors.length;
    const onB = await listen({ minBackoffMs: 600, maxBackoffMs: 1_200 });
    const told = follow(onB, env);
    const killed = onB.backendPid;
    expect(killed).toEqual(expect.any(Number));
    const { rows } = await nodeA.query<{ done: boolean }>('SELECT pg_terminate_backend($1) AS done', [killed]);
    expect(rows[0]!.done).toBe(true);
    expect(await until(() => !onB.connected)).toBe(true);

    // Sent while the listener is down: PostgreSQL keeps it for nobody, so it is lost ...
    await commitChange(nodeA, env);
    // ... and the subscriber hears "pull anyway" once the listener is back.
    expect(await until(() => told.length > 0)).toBe(true);
    expect(told).toEqual([{ environmentId: env, reason: 'reconnected' }]);
    expect(onB.connected).toBe(true);
    expect(onB.backendPid).not.toBe(killed);
    expect(errors.slice(before).map((e) => e.message)).toEqual([expect.stringContaining('lost the listening connection')]);

    // Notices come through again.
    const cursor = await commitChange(nodeB, env);
    expect(await until(() => told.length > 1)).toBe(true);
    expect(told[1]).toEqual({ environmentId: env, reason: 'change', cursor });
  });

  it('tells nobody once closed or unsubscribed', async () => {
    const env = await newEnvironment();
    const onB = await listen();
    const stays = await listen();
    const toldStays = follow(stays, env);
    const told: ChangeNotice[] = [];
    const unsubscribe = onB.subscribe(env, (n) => told.push(n));
    const toldClosed = follow(onB, env);
    unsubscribe();
    await onB.close();
    expect(onB.connected).toBe(false);
    await commitChange(nodeA, env);
    expect(await until(() => toldStays.length > 0)).toBe(true);
    await sleep(100);
    expect(told).toEqual([]);
    expect(toldClosed).toEqual([]);
  });
});
