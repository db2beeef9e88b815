/**
 * A read nobody waits for does not hold a server process (docs/API.md "Relations", "Time
 * limits"): its work stops when its client goes away, and SIGTERM stops the server while reads
 * are under way. Real server processes, raw sockets on 127.0.0.1.
 *
 * The plan: 15 orders of 20 cards (300 cards), 4 people with 75 cards each. Every one of 30
 * cards with its order's cards, their person and that person's cards
 * (`with=collection.cards.resources.cards`) embeds 1,541 records: 46,230, about 32 MB of JSON,
 * within the budget. The audit's read, the board with its cards, their people, their cards,
 * their people and their cards, would embed 1,733,100: more JSON than one string can hold.
 */
import { rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

const env = 'plant';
const key = 'plant-key-123';
const headers = { 'x-api-env': env, 'x-api-key': key, 'content-type': 'application/json' };
const bigRead = '/v1/card?limit=30&with=collection.cards.resources.cards';

let server: ServerProcess | undefined;
let boardId = '';
const folders: string[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.stop('SIGKILL');
  server = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function startSeeded(extra: string[] = []): Promise<ServerProcess> {
  const folder = tempDir('planner-stops-');
  folders.push(folder);
  server = await startServerProcess(['--data-dir', folder, '--api-env', env, '--api-key', key, ...extra]);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(server!.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(res.status).toBe(201);
    return (await res.json()) as any;
  };
  const board = await post('/v1/board?with=stages', { name: 'Shop', stages: [{ name: 'Cut' }], statuses: [{ name: 'To do' }] });
  const people: string[] = [];
  for (let p = 0; p < 4; p++) people.push((await post('/v1/resource', { name: `Person ${p}` })).id);
  const cards: string[] = [];
  for (let c = 0; c < 15; c++) {
    const inline = Array.from({ length: 20 }, (_, i) => ({ stage_id: board.stages[0].id, name: `Job ${c}-${i}` }));
    cards.push(
      ...(await post('/v1/collection?with=cards', { name: `Order ${c}`, board_id: board.id, cards: inline })).cards.map(
        (card: any) => card.id,
      ),
    );
  }
  for (let p = 0; p < 4; p++) {
    const res = await fetch(`${server.url}/v1/command/assign_cards`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ cards: cards.filter((_, i) => i % 4 === p), add: [people[p]] }),
    });
    expect(res.status).toBe(200);
  }
  boardId = board.id;
  return server;
}

/**
 * Sends a read on a raw connection of its own, whose answer nobody reads unless the test does.
 * `hangUp`: the client closes its side with the request itself, in one call, so the server sees
 * it gone however long a busy machine keeps the test's own process from running next.
 */
function sendRead(url: string, path = bigRead, hangUp = false): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
      const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-env: ${env}\r\nx-api-key: ${key}\r\n\r\n`;
      if (hangUp) socket.end(request);
      else socket.write(request);
      resolve(socket);
    });
    socket.on('error', reject);
    sockets.push(socket);
  });
}

/** Resolves when `condition` holds, polling every 50 ms; fails after `ms`. */
async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  for (const end = performance.now() + ms; !condition();) {
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a read nobody waits for', () => {
  it('stops its work when its client goes away, and says how far it got', async () => {
    const running = await startSeeded(['--log']);
    await sendRead(running.url, bigRead, true);
    await until(() => running.output().includes('stopped: the client went away'), 15_000, 'the stopped read in the log');
    const line = running
      .output()
      .split('\n')
      .find((l) => l.includes('stopped: the client went away'))!;
    // Fewer than the 46,260 records of the whole answer.
    expect((JSON.parse(line) as { records: number }).records).toBeLessThan(46_260);
    // The server goes on serving.
    expect((await fetch(`${running.url}/v1/project`, { headers })).status).toBe(200);
  });

  it("stops on SIGTERM without waiting for reads under way: the audit's read, or an answer its client does not take", async () => {
    const running = await startSeeded();
    const slow = await sendRead(running.url);
    // Its answer has begun; from here on its client reads nothing, so the server cannot finish it.
    await new Promise<void>((resolve) => slow.once('data', () => resolve()));
    slow.pause();
    // The audit's read (its client reads nothing either): it held the server until the JSON
    // outgrew a string, and the signal waited for it; now it is refused at once.
    await sendRead(running.url, `/v1/board/${boardId}?with=cards.resources.cards.resources.cards`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = performance.now();
    // stop() kills the server (exit code null) when it has not stopped 10 s after the signal.
    expect(await running.stop('SIGTERM')).toBe(0);
    const stoppedAfter = performance.now() - signalled;
    expect(running.output()).toContain('Stopped (SIGTERM)');
    // Well within systemd's TimeoutStopSec=30 (docs/deployment.md): it waited for nothing.
    expect(stoppedAfter).toBeLessThan(3_000);
  });
});
