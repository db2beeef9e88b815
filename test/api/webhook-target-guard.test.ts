/**
 * The webhook guard's IPv6 forms that carry an IPv4 address on a translating network: the
 * IPv4-translated range (RFC 2765, `::ffff:0:a.b.c.d`) and the local-use NAT64 prefix
 * (RFC 8215, `64:ff9b:1::/48`). On a network that translates them they reach the operator's
 * own IPv4 hosts, so a remote refuses them like loopback and private addresses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../electron/api/webhooks/target-guard.js';
import { call, prepareFolder, startInstance } from '../helpers/instance.js';
import { eventually, startReceiver } from '../helpers/webhook-receiver.js';

const key = { 'x-api-key': 'guard-key-123', 'x-api-env': 'guard' };
const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('the webhook guard', () => {
  it('refuses IPv4-translated and local-use NAT64 addresses', () => {
    for (const address of [
      '::ffff:0:127.0.0.1',
      '::ffff:0:7f00:1',
      '::ffff:0:8.8.8.8',
      '64:ff9b:1::7f00:1',
      '64:ff9b:1:ffff::1',
      '64:ff9b:1::a00:1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    // Neighbours of those ranges that are ordinary public addresses stay allowed.
    for (const address of ['64:ff9b:2::808:808', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('logs a delivery to such an address as refused, and never connects', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const folder = prepareFolder([{ name: 'guard', key: 'guard-key-123' }]);
    cleanup.push(() => folder.remove());
    const instance = await startInstance(folder.folder, { webhookDelivery: { retryBaseMs: 60_000, retryMaxMs: 60_000 } });
    cleanup.push(() => instance.stop());
    const api = (method: string, path: string, body?: unknown) => call(instance.baseUrl, method, path, key, body);

    const board = await api('POST', '/v1/board', { name: 'B' });
    const hooks: string[] = [];
    for (const url of [`http://[::ffff:0:127.0.0.1]:${receiver.port}/hook`, `http://[64:ff9b:1::7f00:1]:${receiver.port}/hook`]) {
      const made = await api('POST', '/v1/webhook', { url, event_types: ['collection.created'] });
      expect(made.status).toBe(201);
      hooks.push(made.body.id);
    }
    await api('POST', '/v1/collection', { board_id: board.body.id, name: 'inside' });
    for (const id of hooks) {
      const log = await eventually(
        () => api('GET', `/v1/webhook/${id}/delivery`),
        (answer) => answer.body.data[0]?.status === 'failed',
      );
      // Before the guard knew these ranges the connection was attempted (EHOSTUNREACH here).
      expect(log.body.data[0].error).toMatch(/^refused: .*loopback, private/);
    }
    expect(receiver.requests).toHaveLength(0);
  });
});
