/**
 * A reverse proxy of the test's own in front of a server, both on 127.0.0.1, as
 * docs/deployment.md puts nginx or HAProxy in front of one: it forwards every request and
 * appends the client's address to `X-Forwarded-For` (as nginx's `$proxy_add_x_forwarded_for`
 * does, after whatever the client sent itself), and sets `X-Forwarded-Proto: https`.
 *
 * One machine plays many clients: the address the proxy takes a request to come from is the one
 * in its `x-test-client` header (which it removes), else the connection's. It connects to the
 * server from `from` (a loopback address), so a server can trust it and not clients that
 * connect directly from 127.0.0.1. `refuseWith429(match)` makes it answer matching requests
 * 429 itself, as a proxy's own rate limit does (nginx's `limit_req`).
 */
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardingProxy {
  url: string;
  /** Answers requests whose `METHOD /path` matches 429 with `Retry-After`, itself; `undefined` ends it. */
  refuseWith429(match: RegExp | undefined, retryAfterSeconds?: number): void;
  /** How many requests it answered 429 itself. */
  refused(): number;
  close(): Promise<void>;
}

export const testClientHeader = 'x-test-client';

export async function startForwardingProxy(target: string, options: { from?: string } = {}): Promise<ForwardingProxy> {
  const server = new URL(target);
  if (server.hostname !== '127.0.0.1') throw new Error(`the test proxy forwards to 127.0.0.1 only, not ${server.hostname}`);
  const agent = new Agent({ keepAlive: true, localAddress: options.from ?? '127.0.0.1' });
  let limited: { match: RegExp; retryAfter: number } | undefined;
  let refused = 0;
  const proxy = createServer((request, response) => {
    if (limited?.match.test(`${request.method} ${request.url}`)) {
      refused++;
      request.resume();
      response.writeHead(429, { 'retry-after': String(limited.retryAfter), 'content-type': 'text/html' });
      response.end('<html><body><h1>429 Too Many Requests</h1></body></html>');
      return;
    }
    const { [testClientHeader]: client, ...headers } = request.headers;
    const seenFrom = typeof client === 'string' ? client : (request.socket.remoteAddress ?? '');
    const sent = request.headers['x-forwarded-for'];
    headers['x-forwarded-for'] = typeof sent === 'string' ? `${sent}, ${seenFrom}` : seenFrom;
    headers['x-forwarded-proto'] = 'https';
    const forwarded = httpRequest(
      { host: '127.0.0.1', port: server.port, method: request.method, path: request.url, headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refuseWith429(match, retryAfterSeconds = 30) {
      limited = match ? { match, retryAfter: retryAfterSeconds } : undefined;
    },
    refused: () => refused,
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((closed) => proxy.close(() => closed()));
      agent.destroy();
    },
  };
}
