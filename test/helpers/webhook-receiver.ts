/**
 * A webhook receiver on 127.0.0.1 (node:http), as an integration would run one: it answers
 * with whatever status the test scripts (fail the first N requests, then succeed), and keeps
 * every request it saw. `delivered` holds what it accepted, deduplicated by delivery id, in
 * the order it accepted them: what the integration "received".
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  deliveryId: string;
  event: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
  answered: number;
  /** Date.now() when the request had arrived whole. */
  receivedAt: number;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Accepted deliveries, each delivery id once, in acceptance order. */
  delivered(): ReceivedRequest[];
  /** Resolves once `predicate` holds (polled), or rejects after `timeoutMs`. */
  waitFor(predicate: () => boolean, timeoutMs?: number): Promise<void>;
  /** Changes how the following requests are answered (request number counts from 1). */
  answerWith(status: (requestNumber: number) => number): void;
  close(): Promise<void>;
}

export async function startReceiver(options: { failFirst?: number; path?: string } = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let answer = (n: number): number => (n <= (options.failFirst ?? 0) ? 500 : 200);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = answer(requests.length + 1);
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // kept as text
      }
      requests.push({
        deliveryId: String(request.headers['x-planner-delivery'] ?? ''),
        event: String(request.headers['x-planner-event'] ?? ''),
        timestamp: String(request.headers['x-planner-timestamp'] ?? ''),
        signature: String(request.headers['x-planner-signature'] ?? ''),
        body,
        json,
        answered: status,
        receivedAt: Date.now(),
      });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/hook'}`,
    port,
    requests,
    delivered() {
      const seen = new Set<string>();
      return requests.filter((r) => r.answered < 300 && !seen.has(r.deliveryId) && seen.add(r.deliveryId));
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > until) throw new Error(`timed out waiting; ${requests.length} requests so far`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    answerWith(status) {
      answer = status;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls an async condition (for state read through the API). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
