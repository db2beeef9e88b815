/**
 * Webhooks on a team server (docs/architecture.md "Team server on PostgreSQL", "The webhook
 * queue"): two real node processes on one throwaway cluster share one delivery queue. Writes
 * go to either node at random; every node's worker claims from the queue with FOR UPDATE
 * SKIP LOCKED, and each event reaches the receiver once, signed, in its record's order.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '../../electron/api/webhooks/signature.js';
import { tempDir } from '../helpers/api.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';
import { remoteEnv, remoteHeaders, remoteKey, waitFor } from '../helpers/sync-cluster.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let team: TeamDatabase<0>;
let receiver: Receiver;
const nodes: ServerProcess[] = [];
const folders: string[] = [];

beforeAll(async () => {
  team = await startTeamDatabase('hooks', { nodes: 0 });
  receiver = await startReceiver();
  for (let i = 0; i < 2; i++) {
    const dataDir = tempDir('planner-node-');
    folders.push(dataDir);
    // One after the other: the first migrates the database and makes the environment.
    nodes.push(
      await startServerProcess(
        ['--data-dir', dataDir, '--database', team.url, '--api-env', remoteEnv, '--api-key', remoteKey, '--allow-private-webhooks'],
        60_000,
      ),
    );
  }
}, 120_000);

afterAll(async () => {
  for (const node of nodes) await node.stop('SIGTERM').catch(() => undefined);
  await receiver?.close();
  await team?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}, 60_000);

async function send(node: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(node.url + path, {
    method,
    headers: { ...remoteHeaders, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const anyNode = () => nodes[Math.floor(Math.random() * nodes.length)]!;

/** Runs `work` for each item, `width` at a time. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

describe('webhooks on two nodes of one database', () => {
  it('delivers each event once, signed and in order, whichever node wrote it and whichever sends it', async () => {
    const hook = await send(nodes[0]!, 'POST', '/v1/webhook', {
      url: receiver.url,
      event_types: ['collection.created', 'collection.updated'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const secret: string = hook.body.secret;
    const board = await send(nodes[1]!, 'POST', '/v1/board', { name: 'Gates' });
    expect(board.status).toBe(201);

    // 60 collections made and then renamed, each write on either node at random, 6 at a time.
    const names = Array.from({ length: 60 }, (_, i) => `Gate ${i + 1}`);
    const made = new Map<string, string>();
    await inParallel(names, 6, async (name) => {
      const answer = await send(anyNode(), 'POST', '/v1/collection', { name, board_id: board.body.id });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      made.set(answer.body.id, name);
    });
    await inParallel([...made.keys()], 6, async (id) => {
      const answer = await send(anyNode(), 'PUT', `/v1/collection/${id}`, { name: `${made.get(id)} (welded)` });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });

    const expected = made.size * 2;
    await receiver.waitFor(() => receiver.delivered().length >= expected, 30_000);
    // Long enough for a second node's copy of any delivery to arrive, were there one.
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const accepted = receiver.requests.filter((r) => r.answered < 300);
    expect(accepted).toHaveLength(expected);
    expect(new Set(accepted.map((r) => r.deliveryId)).size).toBe(expected);
    expect(new Set(accepted.map((r) => r.json.id)).size).toBe(expected);
    for (const request of accepted) expect(verifyDelivery(secret, request.timestamp, request.body, request.signature)).toBe(true);
    // Each collection's creation before its rename, both for a collection this test made.
    for (const [id, name] of made) {
      const events = accepted.filter((r) => r.json.data.id === id);
      expect(events.map((r) => r.event)).toEqual(['collection.created', 'collection.updated']);
      expect(events.map((r) => r.json.data.name)).toEqual([name, `${name} (welded)`]);
      expect(events[0]!.json.environment).toEqual({ id: expect.any(String), name: remoteEnv });
    }

    // Either node shows the same log: every delivery sent once, with the receiver's answer.
    const logs = await Promise.all(nodes.map((node) => send(node, 'GET', `/v1/webhook/${hook.body.id}/delivery?limit=1000`)));
    for (const log of logs) {
      expect(log.status).toBe(200);
      expect(log.body.data).toHaveLength(expected);
      for (const delivery of log.body.data) expect(delivery).toMatchObject({ status: 'successful', attempts: 1, response_code: 200 });
    }

    // Sent again on request through the other node: a new delivery of the same event, once.
    const first = accepted[0]!;
    const again = await send(nodes[1]!, 'POST', `/v1/webhook/${hook.body.id}/delivery/${first.deliveryId}/redeliver`);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    await receiver.waitFor(() => receiver.delivered().length >= expected + 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const resent = receiver.requests.filter((r) => r.answered < 300 && r.json.id === first.json.id);
    expect(resent.map((r) => r.deliveryId)).toEqual([first.deliveryId, again.body.id]);
  }, 90_000);

  it('holds the queue of a webhook switched off on one node, and sends it on from the other once switched on', async () => {
    const hook = await send(nodes[1]!, 'POST', '/v1/webhook', { url: receiver.url, event_types: ['collection.deleted'] });
    expect(hook.status).toBe(201);
    const board = await send(nodes[0]!, 'POST', '/v1/board', { name: 'Held' });
    const collection = await send(nodes[1]!, 'POST', '/v1/collection', { name: 'Held gate', board_id: board.body.id });
    expect(collection.status).toBe(201);
    const before = receiver.requests.length;
    const deletedHere = () =>
      receiver.requests.slice(before).filter((r) => r.event === 'collection.deleted' && r.json.data?.id === collection.body.id);

    // The receiver is down: the first attempt fails, and the next waits seconds.
    receiver.answerWith(() => 503);
    expect((await send(nodes[1]!, 'DELETE', `/v1/collection/${collection.body.id}`)).status).toBe(204);
    await receiver.waitFor(() => deletedHere().length === 1, 10_000);
    const log = () => send(nodes[0]!, 'GET', `/v1/webhook/${hook.body.id}/delivery`);
    await waitFor(async () => (await log()).body.data[0]?.response_code === 503, 'the failed attempt recorded');
    expect((await send(nodes[0]!, 'PUT', `/v1/webhook/${hook.body.id}`, { active: false })).status).toBe(200);
    expect((await log()).body.data).toMatchObject([{ status: 'suspended', attempts: 1, response_code: 503 }]);

    // Up again and switched on through the other node: sent at once, and once.
    receiver.answerWith(() => 200);
    expect((await send(nodes[1]!, 'PUT', `/v1/webhook/${hook.body.id}`, { active: true })).status).toBe(200);
    await receiver.waitFor(() => deletedHere().length === 2, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(deletedHere().map((r) => r.answered)).toEqual([503, 200]);
    expect((await log()).body.data).toMatchObject([{ status: 'successful', attempts: 2, response_code: 200 }]);
  }, 60_000);
});
