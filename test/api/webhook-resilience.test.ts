/**
 * Webhook delivery when things go wrong: the retry backoff (doubling, jitter, the cap), the
 * server restarts while a receiver is down, a receiver never answers well (250 failures disable
 * the webhook), a receiver is slow, and a remote instance is asked to post into its own network.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDeliveryTiming, retryDelay, type DeliveryTiming } from '../../electron/api/webhooks/dispatcher.js';
import { verifyDelivery } from '../../electron/api/webhooks/signature.js';
import { isPrivateAddress } from '../../electron/api/webhooks/target-guard.js';
import { call, prepareFolder, startInstance } from '../helpers/instance.js';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const key = { 'x-api-key': 'hook-key-123', 'x-api-env': 'hooks' };
const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function setUp(options: Parameters<typeof startInstance>[1]) {
  const folder = prepareFolder([{ name: 'hooks', key: 'hook-key-123' }]);
  cleanup.push(() => folder.remove());
  let instance = await startInstance(folder.folder, options);
  cleanup.push(() => instance.stop());
  const board = await call(instance.baseUrl, 'POST', '/v1/board', key, { name: 'B', stages: [{ name: 'S' }] });
  return {
    folder,
    get instance() {
      return instance;
    },
    api: (method: string, path: string, body?: unknown) => call(instance.baseUrl, method, path, key, body),
    boardId: board.body.id as string,
    async restart(next: Parameters<typeof startInstance>[1]) {
      await instance.stop();
      instance = await startInstance(folder.folder, next);
    },
  };
}

async function receiver(options: { failFirst?: number } = {}): Promise<Receiver> {
  const r = await startReceiver(options);
  cleanup.push(() => r.close());
  return r;
}

describe('the retry backoff', () => {
  /** docs/API.md "Delivery": after the n-th failure, between half and all of min(1 h, 10 s × 2^(n-1)). */
  const documented: [failures: number, min: number, max: number][] = [
    [1, 5_000, 10_000],
    [2, 10_000, 20_000],
    [3, 20_000, 40_000],
    [4, 40_000, 80_000],
    [5, 80_000, 160_000],
    [6, 160_000, 320_000],
    [7, 320_000, 640_000],
    [8, 640_000, 1_280_000],
    [9, 1_280_000, 2_560_000],
    // 10 s × 2^9 = 5,120 s is over the hour: capped from here on.
    [10, 1_800_000, 3_600_000],
    [11, 1_800_000, 3_600_000],
    [250, 1_800_000, 3_600_000],
    [100_000, 1_800_000, 3_600_000],
  ];
  const lowest = () => 0;
  const highest = () => 1 - Number.EPSILON;

  it('doubles after every failure, from 10 s up to the one-hour cap: the ends of each range with a chosen random', () => {
    for (const [failures, min, max] of documented) {
      expect(retryDelay(failures, defaultDeliveryTiming, lowest), `failure ${failures}, lowest`).toBe(min);
      expect(retryDelay(failures, defaultDeliveryTiming, highest), `failure ${failures}, highest`).toBe(max);
      expect(
        retryDelay(failures, defaultDeliveryTiming, () => 0.5),
        `failure ${failures}, middle`,
      ).toBe((min + max) / 2);
    }
  });

  it('draws its jitter from the whole range and never leaves it', () => {
    for (const [failures, min, max] of documented) {
      const draws = Array.from({ length: 2000 }, () => retryDelay(failures, defaultDeliveryTiming));
      const [low, high] = [Math.min(...draws), Math.max(...draws)];
      expect(low, `failure ${failures}`).toBeGreaterThanOrEqual(min);
      expect(high, `failure ${failures}`).toBeLessThanOrEqual(max);
      // 2000 uniform draws: one in the lowest and one in the highest tenth, but for a chance of 2 × 0.9^2000.
      expect(low, `failure ${failures}`).toBeLessThan(min + (max - min) / 10);
      expect(high, `failure ${failures}`).toBeGreaterThan(max - (max - min) / 10);
      for (const d of draws) expect(Number.isInteger(d)).toBe(true);
    }
  });

  it('caps at retryMaxMs also when it is not a doubling of the base', () => {
    const timing: DeliveryTiming = { ...defaultDeliveryTiming, retryBaseMs: 100, retryMaxMs: 300 };
    const ranges = [1, 2, 3, 4, 5].map((n) => [retryDelay(n, timing, lowest), retryDelay(n, timing, highest)]);
    expect(ranges).toEqual([
      [50, 100],
      [100, 200],
      [150, 300],
      [150, 300],
      [150, 300],
    ]);
  });

  it('makes a delivery wait longer after each failed attempt (base below the cap)', async () => {
    const r = await receiver({ failFirst: 3 });
    const base = 150;
    const env = await setUp({ allowPrivateWebhookTargets: true, webhookDelivery: { retryBaseMs: base, retryMaxMs: 60_000 } });
    const hook = await env.api('POST', '/v1/webhook', { url: r.url, event_types: ['collection.created'] });
    await env.api('POST', '/v1/collection', { board_id: env.boardId, name: 'backoff' });
    await r.waitFor(() => r.delivered().length >= 1);
    expect(r.requests.map((q) => q.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(r.requests.map((q) => q.deliveryId)).size).toBe(1);
    const gaps = r.requests.slice(1).map((q, i) => q.receivedAt - r.requests[i]!.receivedAt);
    // After the n-th failure the wait is between half and all of base × 2^(n-1); the next
    // attempt cannot come sooner (the failure is recorded after the receiver saw the request),
    // so each wait is at least the longest the one before it could have been: 75–150 ms,
    // 150–300 ms, 300–600 ms. Slack above: the attempt itself and a busy machine.
    const slack = 250;
    gaps.forEach((gap, i) => {
      const exponential = base * 2 ** i;
      expect(gap, `wait after failure ${i + 1}: ${JSON.stringify(gaps)}`).toBeGreaterThanOrEqual(exponential / 2);
      expect(gap, `wait after failure ${i + 1}: ${JSON.stringify(gaps)}`).toBeLessThanOrEqual(exponential + slack);
    });
    const log = await eventually(
      () => env.api('GET', `/v1/webhook/${hook.body.id}/delivery`),
      (answer) => answer.body.data[0]?.status === 'successful',
    );
    expect(log.body.data[0]).toMatchObject({ attempts: 4, response_code: 200 });
  });
});

describe('a restart while deliveries wait for a retry', () => {
  it('loses nothing: every event arrives once, in order, after the new server starts', async () => {
    const r = await receiver({ failFirst: 2 });
    // Retries far apart: the first server is stopped while they wait.
    const env = await setUp({ allowPrivateWebhookTargets: true, webhookDelivery: { retryBaseMs: 300, retryMaxMs: 300 } });
    const hook = await env.api('POST', '/v1/webhook', {
      url: r.url,
      event_types: ['collection.created', 'collection.updated', 'collection.deleted'],
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const made = await env.api('POST', '/v1/collection', { board_id: env.boardId, name: `c${i}` });
      ids.push(made.body.id);
      await env.api('PUT', `/v1/collection/${made.body.id}`, { name: `c${i}!` });
    }
    await env.api('DELETE', `/v1/collection/${ids[0]}`);
    await r.waitFor(() => r.requests.length >= 2); // both failures seen, the retry is pending
    expect(r.delivered()).toHaveLength(0);

    await env.restart({ allowPrivateWebhookTargets: true, webhookDelivery: { retryBaseMs: 5, retryMaxMs: 20 } });
    await r.waitFor(() => r.delivered().length >= 7);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const delivered = r.delivered();
    expect(delivered).toHaveLength(7);
    expect(delivered.map((d) => `${d.json.event} ${d.json.data.name}`)).toEqual([
      'collection.created c0',
      'collection.updated c0!',
      'collection.created c1',
      'collection.updated c1!',
      'collection.created c2',
      'collection.updated c2!',
      'collection.deleted c0!',
    ]);
    for (const d of delivered) expect(verifyDelivery(hook.body.secret, d.timestamp, d.body, d.signature)).toBe(true);
  });

  it('sends an attempt cut off by the shutdown again, under the same delivery id', async () => {
    // The receiver never answers its first request; later ones at once.
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const slow = createServer((request, response) => {
      seen.push(String(request.headers['x-planner-delivery']));
      request.resume();
      if (seen.length > 1) response.writeHead(200).end();
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      slow.closeAllConnections();
      return new Promise<void>((resolve) => slow.close(() => resolve()));
    });
    const url = `http://127.0.0.1:${(slow.address() as { port: number }).port}/`;

    const env = await setUp({ allowPrivateWebhookTargets: true, webhookDelivery: { retryBaseMs: 5, retryMaxMs: 20 } });
    const hook = await env.api('POST', '/v1/webhook', { url, event_types: ['collection.created'] });
    await env.api('POST', '/v1/collection', { board_id: env.boardId, name: 'held' });
    await eventually(
      async () => seen.length,
      (n) => n === 1,
    );
    await env.restart({ allowPrivateWebhookTargets: true, webhookDelivery: { retryBaseMs: 5, retryMaxMs: 20 } });
    await eventually(
      async () => seen.length,
      (n) => n === 2,
    );
    expect(seen[1]).toBe(seen[0]);
    const log = await eventually(
      () => env.api('GET', `/v1/webhook/${hook.body.id}/delivery/${seen[0]}`),
      (answer) => answer.body.status === 'successful',
    );
    expect(log.body).toMatchObject({ status: 'successful', attempts: 2, response_code: 200 });
  });
});

describe('a receiver that keeps failing', () => {
  it('is disabled after 250 failures in a row, and resumes when activated again', async () => {
    const r = await receiver({ failFirst: Number.POSITIVE_INFINITY });
    const env = await setUp({ allowPrivateWebhookTargets: true, webhookDelivery: { retryBaseMs: 1, retryMaxMs: 1 } });
    const hook = await env.api('POST', '/v1/webhook', { url: r.url, event_types: ['collection.created'] });
    await env.api('POST', '/v1/collection', { board_id: env.boardId, name: 'first' });
    const disabled = await eventually(
      () => env.api('GET', `/v1/webhook/${hook.body.id}`),
      (answer) => answer.body.active === false,
      30_000,
    );
    expect(disabled.body).toMatchObject({ active: false, fail_streak: 250, disabled_until: expect.any(String) });
    expect(disabled.body.fail_streak_started_at).toEqual(expect.any(String));
    expect(disabled.body.last_failed_at).toEqual(expect.any(String));
    expect(r.requests).toHaveLength(250);
    // Events made while it is off are not recorded; what was queued is suspended.
    await env.api('POST', '/v1/collection', { board_id: env.boardId, name: 'while off' });
    const log = await env.api('GET', `/v1/webhook/${hook.body.id}/delivery`);
    expect(log.body.count).toBe(1);
    expect(log.body.data[0]).toMatchObject({ status: 'suspended', attempts: 250, response_code: 500 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.requests).toHaveLength(250);

    r.answerWith(() => 204);
    const active = await env.api('PUT', `/v1/webhook/${hook.body.id}`, { active: true });
    expect(active.body).toMatchObject({ active: true, fail_streak: 0, disabled_until: null });
    await r.waitFor(() => r.delivered().length >= 1);
    expect(r.delivered()[0]!.json.data.name).toBe('first');
    const done = await eventually(
      () => env.api('GET', `/v1/webhook/${hook.body.id}/delivery`),
      (answer) => answer.body.data[0]?.status === 'successful',
    );
    expect(done.body.data[0]).toMatchObject({ attempts: 251, response_code: 204 });
  });

  it('counts a timeout as a failure', async () => {
    const { createServer } = await import('node:http');
    let calls = 0;
    const sleepy = createServer((request, response) => {
      calls++;
      request.resume();
      if (calls > 1) response.writeHead(200).end();
      // the first request is never answered
    });
    await new Promise<void>((resolve) => sleepy.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      sleepy.closeAllConnections();
      return new Promise<void>((resolve) => sleepy.close(() => resolve()));
    });
    const env = await setUp({ allowPrivateWebhookTargets: true, webhookDelivery: { retryBaseMs: 5, retryMaxMs: 5, timeoutMs: 150 } });
    const hook = await env.api('POST', '/v1/webhook', {
      url: `http://127.0.0.1:${(sleepy.address() as { port: number }).port}/`,
      event_types: ['collection.created'],
    });
    await env.api('POST', '/v1/collection', { board_id: env.boardId, name: 'late' });
    const done = await eventually(
      () => env.api('GET', `/v1/webhook/${hook.body.id}/delivery`),
      (answer) => answer.body.data[0]?.status === 'successful',
    );
    expect(done.body.data[0]).toMatchObject({ attempts: 2, response_code: 200 });
    expect(calls).toBe(2);
  });
});

describe('private targets', () => {
  it('are refused by an instance that does not allow them, and logged as failed with the reason', async () => {
    const r = await receiver();
    const env = await setUp({ webhookDelivery: { retryBaseMs: 60_000, retryMaxMs: 60_000 } });
    const urls = [r.url, `http://localhost:${r.port}/hook`, `http://[::1]:${r.port}/hook`, `http://[::ffff:127.0.0.1]:${r.port}/hook`];
    const hooks: string[] = [];
    for (const url of urls) {
      const made = await env.api('POST', '/v1/webhook', { url, event_types: ['collection.created'] });
      expect(made.status).toBe(201); // the address is checked when delivering: names can resolve differently later
      hooks.push(made.body.id);
    }
    await env.api('POST', '/v1/collection', { board_id: env.boardId, name: 'inside' });
    for (const id of hooks) {
      const log = await eventually(
        () => env.api('GET', `/v1/webhook/${id}/delivery`),
        (answer) => answer.body.data[0]?.status === 'failed',
      );
      expect(log.body.data[0].error).toMatch(/^refused: .*loopback, private/);
      expect(log.body.data[0].response_code).toBeNull();
      expect((await env.api('GET', `/v1/webhook/${id}`)).body.fail_streak).toBe(1);
    }
    expect(r.requests).toHaveLength(0);
  });

  it('knows the private, loopback and link-local ranges of IPv4 and IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      '2002:c0a8:101::1',
      'ff02::1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});
