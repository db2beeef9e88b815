/**
 * Nothing overruled in silence (docs/API.md "Sync", "Overruled edits", "History", "Checked
 * before saved", "Status"): a change made offline that loses to a later change elsewhere is
 * listed with both values, who and when, and the planner keeps it or accepts the other; every
 * run that moved something is in the history; new settings are tried on the remote before
 * they are stored; the status never says two things at once. Two replicas and a remote in
 * this process, over real HTTP on 127.0.0.1, with real SQLite files.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookOf } from '../../electron/store/sync-book.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { call, ok, remoteEnv, remoteKey, status } from '../helpers/sync-cluster.js';
import { createCollection, createPlanningBase, nextMillisecond, plan, update, type PlanningBase } from '../helpers/sync-data.js';
import { startInProcessClient, startInProcessRemote, type InProcessClient, type InProcessRemote } from '../helpers/sync-inprocess.js';

let remote: InProcessRemote;
let a: InProcessClient;
let b: InProcessClient;
let base: PlanningBase;

const nodeOf = (client: InProcessClient) => bookOf(client.instance.dataDir.environment(client.instance.environment.id)).clock.node;
const cardPath = (card: { id: string; collection_id: string }) => `/v1/collection/${card.collection_id}/card/${card.id}`;
/** One sync run on a replica; its summary (docs/API.md "Local control"). */
const runSync = (client: InProcessClient): Promise<any> => ok(client, 'POST', '/v1/sync/run', undefined, 200);
const overruled = async (client: InProcessClient, query = '') => (await ok(client, 'GET', `/v1/sync/overruled${query}`)).data as any[];

/** A card planned on A and synced to B, to disagree about. */
async function sharedCard(name: string): Promise<any> {
  const collection = await createCollection(a, base, name);
  const [card] = await plan(a, base, collection.id);
  expect((await runSync(a)).error).toBeNull();
  expect((await runSync(b)).error).toBeNull();
  expect((await ok(b, 'GET', cardPath(card))).id).toBe(card.id);
  return card;
}

beforeAll(async () => {
  remote = await startInProcessRemote();
  a = await startInProcessClient(remote.url, 'A');
  b = await startInProcessClient(remote.url, 'B');
  base = await createPlanningBase(a, 'Workshop');
  expect((await runSync(a)).error).toBeNull();
  expect((await runSync(b)).error).toBeNull();
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await remote?.close();
});

describe('an offline edit that loses to a later edit elsewhere', () => {
  it('is listed on the replica that lost, with both values, who changed it and when', async () => {
    const card = await sharedCard('Frame');
    // A renames the card while it does not sync; B renames it later and syncs first.
    await update(a, cardPath(card), { name: 'Weld frame (A)' });
    await nextMillisecond();
    const before = Date.now();
    await update(b, cardPath(card), { name: 'Weld frame (B)' });
    expect((await runSync(b)).error).toBeNull();

    const summary = await runSync(a);
    expect(summary).toMatchObject({ error: null, overruled: 1 });
    expect((await ok(a, 'GET', cardPath(card))).name).toBe('Weld frame (B)');
    const [entry, ...more] = await overruled(a);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      resource: 'card',
      record_id: card.id,
      collection_id: card.collection_id,
      record_name: 'Weld frame (B)',
      field: 'name',
      mine: 'Weld frame (A)',
      theirs: 'Weld frame (B)',
      changed_by: nodeOf(b),
      status: 'open',
      resolved_at: null,
    });
    expect(Date.parse(entry.changed_at)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(entry.changed_at)).toBeLessThanOrEqual(Date.now());
    expect(await status(a)).toMatchObject({ overruled: 1 });
    // The card's own entries, for its panel and its mark on the planboard.
    expect((await overruled(a, `?resource=card&record_id=${card.id}`)).map((e) => e.id)).toEqual([entry.id]);
    // Only the field the planner wrote: its server fields (updated_at) lost too, and are not listed.
    expect(entry.field).not.toBe('updated_at');
    // B's change won: nothing is listed there.
    expect(await overruled(b)).toEqual([]);
    expect(await status(b)).toMatchObject({ overruled: 0 });
  });

  it('keep mine writes my value again as a new edit, and it wins everywhere after sync', async () => {
    const [entry] = await overruled(a);
    const kept = await ok(a, 'POST', `/v1/sync/overruled/${entry.id}/keep`, undefined, 200);
    expect(kept).toMatchObject({ id: entry.id, status: 'kept', record_name: 'Weld frame (A)' });
    expect(kept.resolved_at).toEqual(expect.any(String));
    const card = await ok(a, 'GET', cardPath({ id: entry.record_id, collection_id: entry.collection_id }));
    expect(card.name).toBe('Weld frame (A)');
    expect((await status(a)).pending).toBeGreaterThan(0);

    expect((await runSync(a)).error).toBeNull();
    expect((await runSync(b)).error).toBeNull();
    for (const node of [a, b, remote]) {
      expect((await ok(node, 'GET', cardPath(card))).name, node.name).toBe('Weld frame (A)');
    }
    // B took a later edit: that is no loss of B's, and A's entry is closed.
    expect(await overruled(b)).toEqual([]);
    expect(await overruled(a)).toEqual([]);
    expect((await overruled(a, '?all=true')).map((e) => e.status)).toEqual(['kept']);
    const again = await call(a, 'POST', `/v1/sync/overruled/${entry.id}/keep`);
    expect(again.status).toBe(409);
    expectErrorBody(again.body, 10409, 'Conflict');
  });

  it('accept theirs closes the entry and leaves their value', async () => {
    const card = await sharedCard('Paint');
    await update(a, cardPath(card), { description: 'Two coats' });
    await nextMillisecond();
    await update(b, cardPath(card), { description: 'One coat, matt' });
    expect((await runSync(b)).error).toBeNull();
    expect((await runSync(a)).overruled).toBe(1);
    const [entry] = await overruled(a);
    expect(entry).toMatchObject({ field: 'description', mine: 'Two coats', theirs: 'One coat, matt', record_name: 'Paint' });

    const accepted = await ok(a, 'POST', `/v1/sync/overruled/${entry.id}/accept`, undefined, 200);
    expect(accepted).toMatchObject({ status: 'accepted' });
    expect(await overruled(a)).toEqual([]);
    expect((await ok(a, 'GET', cardPath(card))).description).toBe('One coat, matt');
    expect((await status(a)).pending).toBe(0);
    expect((await runSync(a)).pushed).toBe(0);
    expect((await ok(remote, 'GET', cardPath(card))).description).toBe('One coat, matt');
    const twice = await call(a, 'POST', `/v1/sync/overruled/${entry.id}/accept`);
    expect(twice.status).toBe(409);
  });

  it('does not list a change the remote took that someone changed later, having seen it', async () => {
    const card = await sharedCard('Crate');
    await update(a, cardPath(card), { name: 'Crate, pine' });
    expect((await runSync(a)).error).toBeNull();
    expect((await runSync(b)).error).toBeNull();
    await update(b, cardPath(card), { name: 'Crate, oak' });
    expect((await runSync(b)).error).toBeNull();
    const summary = await runSync(a);
    expect(summary).toMatchObject({ error: null, overruled: 0 });
    expect((await ok(a, 'GET', cardPath(card))).name).toBe('Crate, oak');
    expect(await overruled(a)).toEqual([]);
  });

  it('answers bad requests with the error body and changes nothing', async () => {
    expect((await call(a, 'GET', '/v1/sync/overruled?all=maybe')).status).toBe(400);
    expect((await call(a, 'GET', '/v1/sync/overruled?resource=nothing')).status).toBe(400);
    expect((await call(a, 'GET', '/v1/sync/overruled?record_id=12')).status).toBe(400);
    expect((await call(a, 'GET', '/v1/sync/overruled?limit=5000')).status).toBe(400);
    const unknown = await call(a, 'POST', '/v1/sync/overruled/0190a0a0-0000-7000-8000-000000000000/keep');
    expect(unknown.status).toBe(404);
    expectErrorBody(unknown.body, 10404, 'Not Found');
    expect((await call(a, 'POST', '/v1/sync/overruled/not-an-id/accept')).status).toBe(404);
    expect((await call(a, 'GET', '/v1/sync/history?limit=51')).status).toBe(400);
  });
});

describe('the sync history', () => {
  it('keeps the runs that moved something, newest first, with counts and durations', async () => {
    const card = await sharedCard('Shelf');
    await update(a, cardPath(card), { name: 'Shelf (A)' });
    await nextMillisecond();
    await update(b, cardPath(card), { name: 'Shelf (B)' });
    expect((await runSync(b)).error).toBeNull();
    // A project B made first: A's copy with the same external_ref is refused.
    await ok(b, 'POST', '/v1/project', { name: 'Shelves B', external_ref: 'SHELF-1' });
    expect((await runSync(b)).error).toBeNull();
    await ok(a, 'POST', '/v1/project', { name: 'Shelves A', external_ref: 'SHELF-1' });

    const summary = await runSync(a);
    expect(summary).toMatchObject({ error: null, overruled: 1, rejected: 1 });
    const history = await ok(a, 'GET', '/v1/sync/history');
    expect(history.count).toBe(history.data.length);
    const [newest] = history.data;
    expect(newest).toMatchObject({
      sent: summary.pushed,
      received: summary.pulled,
      overruled: 1,
      refused: 1,
      duration_ms: summary.duration_ms,
      error: null,
      runs: 1,
    });
    expect(Date.parse(newest.ended_at) - Date.parse(newest.started_at)).toBe(newest.duration_ms);
    const ids = history.data.map((run: any) => run.id);
    expect(ids).toEqual([...ids].sort((x, y) => y - x));

    // A run that moves nothing is not kept: the list shows what happened, not the idle pulls.
    expect(await runSync(a)).toMatchObject({ pushed: 0, pulled: 0, error: null });
    expect((await ok(a, 'GET', '/v1/sync/history')).data[0].id).toBe(newest.id);
  });

  it('keeps at most 50 runs, and failures in a row with the same problem as one entry', async () => {
    const lonely = await startInProcessClient(remote.url, 'C');
    try {
      for (let i = 0; i < 52; i++) {
        await ok(lonely, 'POST', '/v1/project', { name: `Run ${i}` });
        expect((await runSync(lonely)).error).toBeNull();
      }
      const kept = await ok(lonely, 'GET', '/v1/sync/history');
      expect(kept.data).toHaveLength(50);
      expect(kept.data.every((run: any) => run.sent === 1)).toBe(true);

      // A replica whose remote is gone (nothing listens on port 9).
      const offline = await startInProcessClient('http://127.0.0.1:9', 'D');
      try {
        const first = await runSync(offline);
        const second = await runSync(offline);
        expect(first.error).toMatch(/could not be reached/);
        expect(second.error).toBe(first.error);
        const [entry, ...rest] = (await ok(offline, 'GET', '/v1/sync/history')).data;
        expect(rest).toEqual([]);
        // Its own first run, at start, failed the same way too.
        expect(entry).toMatchObject({ error: first.error, sent: 0, received: 0 });
        expect(entry.runs).toBeGreaterThanOrEqual(2);
      } finally {
        await offline.close();
      }
    } finally {
      await lonely.close();
    }
  });
});

describe('new sync settings', () => {
  let notPlanner: Server;
  let notPlannerUrl: string;

  beforeAll(async () => {
    notPlanner = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
    });
    await new Promise<void>((resolve) => notPlanner.listen(0, '127.0.0.1', resolve));
    const address = notPlanner.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    notPlannerUrl = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => notPlanner?.close(resolve));
  });

  async function expectRefused(body: Record<string, unknown>, field: string, description: RegExp): Promise<void> {
    const before = await ok(a, 'GET', '/v1/sync/settings');
    const answer = await call(a, 'PUT', '/v1/sync/settings', body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expectErrorBody(answer.body, 10422, 'Unprocessable Content');
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0]).toMatchObject({ field, description: expect.stringMatching(description) });
    // Not stored: the settings, and the sync that runs on them, are as they were.
    expect(await ok(a, 'GET', '/v1/sync/settings')).toEqual(before);
    expect((await runSync(a)).error).toBeNull();
  }

  it('refuses a key that does not open the environment, and stores nothing', async () => {
    await expectRefused(
      { remote_url: remote.url, api_env: remoteEnv, api_key: 'wrong-key-123' },
      'api_key',
      /does not open environment “prod”/,
    );
    await expectRefused(
      { remote_url: remote.url, api_env: 'elsewhere', api_key: remoteKey },
      'api_key',
      /does not open environment “elsewhere”/,
    );
  });

  it('refuses an address that cannot be reached or is no Planner server', async () => {
    await expectRefused(
      { remote_url: 'http://127.0.0.1:9', api_env: remoteEnv, api_key: remoteKey },
      'remote_url',
      /Could not reach http:\/\/127\.0\.0\.1:9/,
    );
    await expectRefused(
      { remote_url: notPlannerUrl, api_env: remoteEnv, api_key: remoteKey },
      'remote_url',
      /does not answer as a Planner server/,
    );
    // Settings the remote takes are stored.
    const saved = await ok(a, 'PUT', '/v1/sync/settings', { remote_url: remote.url, api_env: remoteEnv, api_key: remoteKey });
    expect(saved).toMatchObject({ remote_url: remote.url, api_env: remoteEnv, has_credentials: true });
    expect((await runSync(a)).error).toBeNull();
  });
});

describe('the status', () => {
  it('is not online beside a failure, and shows nothing of a remote that was removed', async () => {
    const label = 'short-lived';
    remote.dataDir.system.ensureApiKey(remote.environment.id, 'short-lived-key', label);
    const client = await startInProcessClient(remote.url, 'E');
    try {
      await ok(client, 'PUT', '/v1/sync/settings', { remote_url: remote.url, api_env: remoteEnv, api_key: 'short-lived-key' });
      expect((await runSync(client)).error).toBeNull();
      expect(await status(client)).toMatchObject({ configured: true, online: true, last_error: null });

      // The key is revoked on the remote: the run is refused, which is not being online.
      remote.dataDir.system.revokeApiKeys(remote.environment.id, label);
      expect((await runSync(client)).error).toEqual(expect.any(String));
      const refused = await status(client);
      expect(refused).toMatchObject({ configured: true, online: false, last_error: expect.any(String) });

      // Sync stopped: nothing of that remote, its error included, is shown.
      await ok(client, 'PUT', '/v1/sync/settings', { remote_url: null });
      expect(await status(client)).toMatchObject({
        configured: false,
        remote_url: null,
        online: false,
        syncing: false,
        last_error: null,
        last_push_at: null,
        last_pull_at: null,
        next_attempt_at: null,
        clock_ahead_ms: null,
      });
    } finally {
      await client.close();
    }
  });
});
