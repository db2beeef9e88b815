/**
 * Webhooks (docs/API.md "Webhooks"): the resource, events from the change log in their three
 * layouts, signed deliveries that are retried until a receiver takes them, in order, exactly
 * once from the receiver's point of view, and the delivery log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '../../electron/api/webhooks/signature.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { webhookEventTypes } from '../../shared/resources/webhook.js';
import { call, prepareFolder, startInstance, type Instance } from '../helpers/instance.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const key = { 'x-api-key': 'hook-key-123', 'x-api-env': 'hooks' };

let folder: ReturnType<typeof prepareFolder>;
let instance: Instance;
const receivers: Receiver[] = [];

const api = (method: string, path: string, body?: unknown) => call(instance.baseUrl, method, path, key, body);

async function receiver(options: { failFirst?: number } = {}) {
  const r = await startReceiver(options);
  receivers.push(r);
  return r;
}

async function webhook(url: string, eventTypes: readonly string[]) {
  const made = await api('POST', '/v1/webhook', { url, event_types: eventTypes, description: 'test' });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as { id: string; secret: string };
}

/** Every webhook of the environment switched off, so tests do not see each other's events. */
async function quiet() {
  const list = await api('GET', '/v1/webhook?limit=1000');
  for (const w of list.body.data as { id: string; active: boolean }[])
    if (w.active) await api('PUT', `/v1/webhook/${w.id}`, { active: false });
}

let boardId: string;
let stageId: string;
let labelId: string;

beforeAll(async () => {
  folder = prepareFolder([{ name: 'hooks', key: 'hook-key-123' }]);
  instance = await startInstance(folder.folder, {
    allowPrivateWebhookTargets: true,
    webhookDelivery: { retryBaseMs: 5, retryMaxMs: 40, timeoutMs: 2000 },
  });
  const board = await api('POST', '/v1/board', {
    name: 'Hooks',
    stages: [{ name: 'Cut' }],
    labels: [{ name: 'Rush' }],
    statuses: [{ name: 'Open' }],
  });
  expect(board.status, JSON.stringify(board.body)).toBe(201);
  boardId = board.body.id;
  const full = await api('GET', `/v1/board/${boardId}?with=stages,labels`);
  stageId = full.body.stages[0].id;
  labelId = full.body.labels[0].id;
});

afterEach(async () => {
  await quiet();
  for (const r of receivers.splice(0)) await r.close();
});

afterAll(async () => {
  await instance.stop();
  folder.remove();
});

describe('the webhook resource', () => {
  it('returns the secret once, in the answer to the POST', async () => {
    const made = await webhook('https://hooks.example.com/in', ['collection.created']);
    expect(made.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(made).toMatchObject({
      active: true,
      fail_streak: 0,
      disabled_until: null,
      last_failed_at: null,
      api_key_id: expect.any(String),
    });
    const got = await api('GET', `/v1/webhook/${made.id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    const list = await api('GET', '/v1/webhook');
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    const updated = await api('PUT', `/v1/webhook/${made.id}`, { description: 'changed', secret: 'mine', fail_streak: 99 });
    expect(updated.body).toMatchObject({ description: 'changed', fail_streak: 0 });
    expect(updated.body.secret).toBeUndefined();
    expect((await api('GET', '/v1/webhook?filter=secret:eq:x')).status).toBe(400);
    expect((await api('DELETE', `/v1/webhook/${made.id}`)).status).toBe(204);
    expect((await api('GET', `/v1/webhook/${made.id}`)).status).toBe(404);
  });

  it('validates the URL: http(s) only, at most 512 characters (422)', async () => {
    for (const url of [
      'ftp://example.com/x',
      'javascript:alert(1)',
      'not a url',
      '/relative',
      `https://example.com/${'a'.repeat(500)}`,
      'https://user:pw@example.com/',
    ]) {
      const answer = await api('POST', '/v1/webhook', { url, event_types: ['card.created'] });
      expect(answer.status, url).toBe(422);
      expect(answer.body.errors.map((e: { field: string }) => e.field)).toContain('url');
    }
    expect(
      (await api('POST', '/v1/webhook', { url: `https://example.com/${'a'.repeat(488)}`, event_types: ['card.created'] })).status,
    ).toBe(201);
  });

  it('accepts the 36 event types and nothing else', async () => {
    expect(webhookEventTypes).toHaveLength(36);
    expect((await api('POST', '/v1/webhook', { url: 'https://example.com/all', event_types: webhookEventTypes })).status).toBe(201);
    for (const event_types of [[], ['card.moved'], ['card.created', 'card.created'], 'card.created']) {
      const answer = await api('POST', '/v1/webhook', { url: 'https://example.com/x', event_types });
      expect(answer.status, JSON.stringify(event_types)).toBe(422);
      expect(answer.body.errors[0].field).toBe('event_types');
    }
  });

  it('finds webhooks by one of their event types (a list of plain texts)', async () => {
    const made = await api('POST', '/v1/webhook', {
      url: 'https://example.com/by-type',
      event_types: ['collection.created', 'collection.deleted'],
    });
    expect(made.status).toBe(201);
    const found = await api('GET', '/v1/webhook?filter=event_types:has:collection.deleted');
    expect(found.status).toBe(200);
    expect(found.body.data.map((hook: { id: string }) => hook.id)).toContain(made.body.id);
    const other = await api('GET', '/v1/webhook?filter=event_types:has:collection.updated');
    expect(other.status).toBe(200);
    expect(other.body.data.map((hook: { id: string }) => hook.id)).not.toContain(made.body.id);
  });
});

describe('delivery', () => {
  it('retries until the receiver takes it: every event once, signed, in order', async () => {
    const r = await receiver({ failFirst: 3 });
    const hook = await webhook(r.url, ['collection.created', 'collection.updated', 'collection.deleted']);
    const made = await api('POST', '/v1/collection', { board_id: boardId, name: 'Order 1' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.id as string;
    await api('PUT', `/v1/collection/${id}`, { name: 'Order 1b' });
    await api('PUT', `/v1/collection/${id}`, { name: 'Order 1c' });
    await api('DELETE', `/v1/collection/${id}`);

    await r.waitFor(() => r.delivered().length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 100)); // nothing more should come
    const delivered = r.delivered().filter((d) => d.json.data.id === id);
    expect(delivered.map((d) => d.json.event)).toEqual([
      'collection.created',
      'collection.updated',
      'collection.updated',
      'collection.deleted',
    ]);
    expect(delivered.map((d) => d.json.data.name)).toEqual(['Order 1', 'Order 1b', 'Order 1c', 'Order 1c']);
    expect(r.requests.filter((q) => q.answered >= 300)).toHaveLength(3);
    for (const d of r.requests) {
      expect(verifyDelivery(hook.secret, d.timestamp, d.body, d.signature), d.deliveryId).toBe(true);
      expect(d.signature).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(d.event).toBe(d.json.event);
    }
    expect(verifyDelivery('another secret', delivered[0]!.timestamp, delivered[0]!.body, delivered[0]!.signature)).toBe(false);
    expect(delivered[0]!.json).toMatchObject({
      event: 'collection.created',
      environment: { name: 'hooks' },
      created_at: expect.stringMatching(/Z$/),
    });
    expect(delivered[0]!.json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(delivered.map((d) => d.deliveryId)).size).toBe(4);

    // The log shows it: status, attempts, response code, timings.
    const log = await api('GET', `/v1/webhook/${hook.id}/delivery?sort=created_at:asc`);
    expect(log.status).toBe(200);
    expect(log.body.count).toBe(4);
    const first = log.body.data[0];
    expect(first).toMatchObject({ status: 'successful', attempts: 4, response_code: 200, event: 'collection.created', error: null });
    expect(first.duration_ms).toEqual(expect.any(Number));
    expect(first.delivered_at).toEqual(expect.any(String));
    expect(first.payload.data.id).toBe(id);
    const health = (await api('GET', `/v1/webhook/${hook.id}`)).body;
    expect(health.fail_streak).toBe(0);
    expect(health.last_failed_at).toEqual(expect.any(String));
  });

  it("keeps the order of one record's events while the receiver is down", async () => {
    const r = await receiver({ failFirst: 10 });
    await webhook(r.url, ['collection.created', 'collection.updated']);
    const made = await api('POST', '/v1/collection', { board_id: boardId, name: 'v0' });
    for (let i = 1; i <= 5; i++) await api('PUT', `/v1/collection/${made.body.id}`, { name: `v${i}` });
    await r.waitFor(() => r.delivered().length >= 6);
    expect(r.delivered().map((d) => d.json.data.name)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5']);
  });

  it('sends only the event types a webhook asked for, and nothing for writes that roll back', async () => {
    const r = await receiver();
    await webhook(r.url, ['collection.deleted']);
    const made = await api('POST', '/v1/collection', { board_id: boardId, name: 'quiet' });
    const refused = await api('PUT', `/v1/collection/${made.body.id}`, { status: 'planned' }); // 422: nothing written
    expect(refused.status).toBe(422);
    await api('DELETE', `/v1/collection/${made.body.id}`);
    await r.waitFor(() => r.delivered().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(r.requests.map((q) => q.json.event)).toEqual(['collection.deleted']);
  });

  it('redelivers on request as a new delivery of the same event', async () => {
    const r = await receiver();
    const hook = await webhook(r.url, ['collection.created']);
    await api('POST', '/v1/collection', { board_id: boardId, name: 'again' });
    await r.waitFor(() => r.delivered().length >= 1);
    const log = await api('GET', `/v1/webhook/${hook.id}/delivery`);
    const original = log.body.data[0];
    const again = await api('POST', `/v1/webhook/${hook.id}/delivery/${original.id}/redeliver`);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ redelivery_of: original.id, event_id: original.event_id, status: 'started' });
    await r.waitFor(() => r.delivered().length >= 2);
    const [a, b] = r.delivered();
    expect(b!.deliveryId).toBe(again.body.id);
    expect(b!.deliveryId).not.toBe(a!.deliveryId);
    expect(b!.json.id).toBe(a!.json.id);
    expect((await api('POST', `/v1/webhook/${hook.id}/delivery/00000000-0000-7000-8000-000000000000/redeliver`)).status).toBe(404);
    const filtered = await api('GET', `/v1/webhook/${hook.id}/delivery?filter=status:eq:successful&limit=1`);
    expect(filtered.body).toMatchObject({ count: 2, limit: 1 });
  });
});

describe('event layouts', () => {
  it('sends links as nested objects and pivots with their data', async () => {
    const r = await receiver();
    await webhook(r.url, [
      'collection.label.attached',
      'collection.label.detached',
      'collection.activity.attached',
      'collection.activity.updated',
      'collection.activity.detached',
    ]);
    const activity = await api('POST', '/v1/activity', { description: 'Welding' });
    expect(activity.status, JSON.stringify(activity.body)).toBe(201);
    const made = await api('POST', '/v1/collection', {
      board_id: boardId,
      name: 'links',
      labels: [{ id: labelId }],
      activities: [{ id: activity.body.id, time: 30 }],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await api('PUT', `/v1/collection/${made.body.id}`, { activities: [{ id: activity.body.id, time: 45 }] });
    await api('PUT', `/v1/collection/${made.body.id}`, { labels: [], activities: [] });
    await r.waitFor(() => r.delivered().length >= 5);
    const events = r.delivered().map((d) => d.json);
    expect(events.map((e) => e.event).sort()).toEqual(
      [
        'collection.activity.attached',
        'collection.activity.detached',
        'collection.activity.updated',
        'collection.label.attached',
        'collection.label.detached',
      ].sort(),
    );
    const attached = events.find((e) => e.event === 'collection.label.attached')!;
    expect(attached.data.parent).toMatchObject({ id: made.body.id, name: 'links' });
    expect(attached.data.attached).toMatchObject({ id: labelId, name: 'Rush' });
    expect(attached.data.pivot).toBeUndefined();
    const updated = events.find((e) => e.event === 'collection.activity.updated')!;
    expect(updated.data).toMatchObject({
      parent: { id: made.body.id },
      attached: { id: activity.body.id, description: 'Welding' },
      pivot: { time: 45 },
    });
    expect(events.find((e) => e.event === 'collection.activity.detached')!.data.pivot).toEqual({ time: 45 });
  });

  it('sends a follower without the invitation id (a receiver could accept the invitation with it)', async () => {
    const r = await receiver();
    await webhook(r.url, ['collection.follower.attached', 'collection.follower.detached']);
    expect((await api('POST', '/v1/user', { email: 'follower@example.com', role: 'admin' })).status).toBe(201);
    const user = (await api('GET', "/v1/user?filter=email:eq:'follower@example.com'")).body.data[0];
    expect(user.invite_id).toMatch(/^[0-9a-f-]{36}$/);
    const made = await api('POST', '/v1/collection', { board_id: boardId, name: 'followed', followers: [{ id: user.id }] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await api('PUT', `/v1/collection/${made.body.id}`, { followers: [] });
    await r.waitFor(() => r.delivered().length >= 2);
    for (const delivery of r.delivered()) {
      expect(delivery.json.data.attached).toMatchObject({ id: user.id, email: 'follower@example.com' });
      expect(delivery.json.data.attached).not.toHaveProperty('invite_id');
      expect(delivery.body).not.toContain(user.invite_id);
    }
  });

  it('sends card events, and several updates of one card in one request once as card.updated.merged', async () => {
    const r = await receiver();
    await webhook(r.url, ['card.created', 'card.updated.merged', 'card.label.attached']);
    const collection = await api('POST', '/v1/collection', { board_id: boardId, name: 'cards' });
    const card = await api('POST', `/v1/collection/${collection.body.id}/card`, {
      stage_id: stageId,
      name: 'C1',
      labels: [{ id: labelId }],
    });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    await api('PUT', `/v1/collection/${collection.body.id}/card/${card.body.id}`, { name: 'C1 renamed' });
    await r.waitFor(() => r.delivered().some((d) => d.json.event === 'card.updated.merged' && d.json.data.name === 'C1 renamed'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const events = r.delivered().map((d) => d.json);
    expect(events.filter((e) => e.event === 'card.created')).toHaveLength(1);
    expect(events.find((e) => e.event === 'card.created')!.data).toMatchObject({ id: card.body.id, stage_id: stageId });
    expect(events.find((e) => e.event === 'card.label.attached')!.data).toMatchObject({
      parent: { id: card.body.id },
      attached: { id: labelId },
    });
    // One merged event per request that changed the card, with the card as the request left it.
    const merged = events.filter((e) => e.event === 'card.updated.merged');
    expect(merged.at(-1)!.data.name).toBe('C1 renamed');
    expect(merged.filter((e) => e.data.name === 'C1 renamed')).toHaveLength(1);
  });

  it('merges the updates of one card in one transaction, and keeps every card.updated', async () => {
    const r = await receiver();
    await webhook(r.url, ['card.created', 'card.updated', 'card.updated.merged']);
    const collection = await api('POST', '/v1/collection', { board_id: boardId, name: 'merge' });
    const card = await api('POST', `/v1/collection/${collection.body.id}/card`, { stage_id: stageId, name: 'M0' });
    // The card's creation is delivered first, so what follows is the transaction's alone.
    await r.waitFor(() => r.delivered().some((d) => d.json.event === 'card.created'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = r.delivered().length;
    const records = recordsOf(instance.dataDir.environment(folder.environments[0]!.id));
    const table = { resource: 'card', table: 'card', fields: { name: { type: 'string' as const } }, unique: [] };
    await records.transaction(async (tx) => {
      await tx.update(table, card.body.id, { name: 'M1' });
      await tx.update(table, card.body.id, { name: 'M2' });
      await tx.update(table, card.body.id, { name: 'M3' });
    });
    await r.waitFor(() => r.delivered().length >= before + 4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = r
      .delivered()
      .slice(before)
      .map((d) => d.json);
    expect(after.filter((e) => e.event === 'card.updated').map((e) => e.data.name)).toEqual(['M1', 'M2', 'M3']);
    expect(after.filter((e) => e.event === 'card.updated.merged').map((e) => e.data.name)).toEqual(['M3']);
  });

  it('queues the events of a change written on the file outside the store’s transactions (a replica’s pull) right after it', async () => {
    const r = await receiver();
    await webhook(r.url, ['card.updated']);
    const collection = await api('POST', '/v1/collection', { board_id: boardId, name: 'pulled' });
    const card = await api('POST', `/v1/collection/${collection.body.id}/card`, { stage_id: stageId, name: 'P0' });
    const store = instance.dataDir.environment(folder.environments[0]!.id);
    const table = { resource: 'card', table: 'card', fields: { name: { type: 'string' as const } }, unique: [] };
    store.withOrigin({ kind: 'sync', clocks: {}, checkUnique: false }, () => store.writeForSync(table, card.body.id, { name: 'P1' }));
    await r.waitFor(() => r.delivered().some((d) => d.json.event === 'card.updated' && d.json.data.id === card.body.id));
    const pulled = r.delivered().filter((d) => d.json.event === 'card.updated' && d.json.data.id === card.body.id);
    expect(pulled.map((d) => d.json.data.name)).toEqual(['P1']);
  });
});
