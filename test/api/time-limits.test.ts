/**
 * Time limits per route class and the cap on open connections (docs/API.md "Time limits",
 * docs/deployment.md "Connections"), over real HTTP and raw sockets on 127.0.0.1, each test on
 * an API of its own with short limits.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSqliteApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';

const apis: TestApi[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const api of apis.splice(0)) await api.close();
});

async function started(options: NonNullable<Parameters<typeof startSqliteApi>[0]>['api']): Promise<TestApi> {
  const api = await startSqliteApi({ api: options });
  apis.push(api);
  return api;
}

function portOf(api: TestApi): number {
  return Number(new URL(api.baseUrl).port);
}

/** A raw connection to the API; resolves once it is open. */
function opened(api: TestApi): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(portOf(api), '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** Everything the server sends on `socket` until it closes it, or what came within `ms`. */
function answerOn(socket: Socket, ms: number): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

function statusAndBody(text: string): { status: number; body: any } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: JSON.parse(body) };
}

describe('time limits', () => {
  it('answers a write whose body does not arrive within the write limit with 503 and the error body, and writes nothing', async () => {
    const api = await started({ timeLimits: { write: 500 } });
    const socket = await opened(api);
    const answer = answerOn(socket, 5_000);
    // The audit's slow client: an authenticated body that trickles (then stops) short of its length.
    socket.write(
      `POST /v1/project HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-env: ${api.headers['x-api-env']}\r\nx-api-key: ${api.headers['x-api-key']}\r\n` +
        'content-type: application/json\r\ncontent-length: 100\r\n\r\n{"name":"',
    );
    const { text, closed } = await answer;
    expect(closed, text).toBe(true);
    const { status, body } = statusAndBody(text);
    expect(status).toBe(503);
    expectErrorBody(body, 10503, 'Service Unavailable');
    expect(body.errors[0].description).toContain('took longer than 0.5 s, the limit for a write to arrive');
    expect((await api.http('GET', '/v1/project')).body.count).toBe(0);
  });

  it('answers a read that passes the read limit with 503 and the error body', async () => {
    const api = await started({ timeLimits: { read: 1 } });
    const made = async (path: string, body: unknown) => {
      const res = await api.http('POST', path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const board = await made('/v1/board?with=stages', { name: 'Shop', stages: [{ name: 'Cut' }], statuses: [{ name: 'To do' }] });
    for (const order of ['A', 'B']) {
      const cards = Array.from({ length: 510 }, (_, i) => ({ stage_id: board.stages[0].id, name: `Job ${order}${i}` }));
      await made('/v1/collection', { name: `Order ${order}`, board_id: board.id, cards });
    }
    // The board's 1,020 cards, read a batch of 500 at a time: the later ones wait their turn.
    const res = await api.http('GET', `/v1/board/${board.id}?with=cards`);
    expect(res.status).toBe(503);
    expectErrorBody(res.body, 10503, 'Service Unavailable');
    expect(res.body.errors[0].description).toContain('the limit for reads');
    expect(res.headers.get('connection')).toBe('close');
  });

  it('gives the long limit to routes that exist: every name in the list matches a route', async () => {
    const api = await started({});
    expect(api.app.timeLimits.unknownLongRoutes()).toEqual([]);
  });
});

describe('open connections', () => {
  it('keeps at most maxConnections open, idle ones included, and closes the rest as they come', async () => {
    const api = await started({ maxConnections: 20 });
    const idle = await Promise.all(Array.from({ length: 20 }, () => opened(api)));
    for (const socket of idle) socket.write('GET / HTTP/1.1\r\n');
    const over = await Promise.all(Array.from({ length: 5 }, () => opened(api)));
    const closed = await Promise.all(over.map((socket) => answerOn(socket, 5_000)));
    expect(closed.map((c) => c.closed)).toEqual([true, true, true, true, true]);
    expect(idle.filter((socket) => socket.destroyed)).toHaveLength(0);
    for (const socket of idle) socket.destroy();
    // Room again once they are gone.
    await expect.poll(async () => (await api.http('GET', '/v1/project')).status, { timeout: 5_000 }).toBe(200);
  });
});
