/**
 * A node of the team server killed in the middle of a burst of writes (docs/deployment.md
 * "Several nodes behind the proxy"): two real node processes on one throwaway PostgreSQL
 * cluster, writes spread over both at random, one node killed with SIGKILL while writes are in
 * flight on it. Each write names its command (`x-planner-command-id`), so a client that got no
 * answer sends it again to the other node: 201 when the killed node had not committed it, 409
 * when it had. Every acknowledged write is there afterwards, and none is there twice.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uuidv7 } from '../../shared/ids.js';
import { tempDir } from '../helpers/api.js';
import { seededRandom } from '../helpers/fault-proxy.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

const key = 'failover-key-0123456789';
const headers = { 'x-api-key': key, 'x-api-env': 'team', 'content-type': 'application/json' };
const folders: string[] = [];
let team: TeamDatabase<0>;
const nodes: ServerProcess[] = [];

const startNode = async (dataDir: string) =>
  startServerProcess(['--data-dir', dataDir, '--database', team.url, '--api-env', 'team', '--api-key', key], 60_000);

beforeAll(async () => {
  team = await startTeamDatabase('failover', { nodes: 0 });
  for (let i = 0; i < 2; i++) {
    const dataDir = tempDir('planner-node-');
    folders.push(dataDir);
    nodes.push(await startNode(dataDir));
  }
}, 120_000);

afterAll(async () => {
  for (const node of nodes) await node.stop().catch(() => undefined);
  await team?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Write {
  commandId: string;
  name: string;
  /** The answer's status, or 0 when the connection broke before one came. */
  status: number;
}

async function send(node: ServerProcess, write: Omit<Write, 'status'>): Promise<number> {
  try {
    const response = await fetch(`${node.url}/v1/project`, {
      method: 'POST',
      headers: { ...headers, 'x-planner-command-id': write.commandId },
      body: JSON.stringify({ name: write.name }),
      signal: AbortSignal.timeout(20_000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

it('keeps every acknowledged write and applies none twice when a node is killed mid-burst', async () => {
  const [a, b] = nodes as [ServerProcess, ServerProcess];
  const random = seededRandom(21);
  const writes: Write[] = Array.from({ length: 240 }, (_, i) => ({ commandId: uuidv7(), name: `Burst ${i}`, status: -1 }));
  let killed: Promise<number | null> | undefined;
  let next = 0;
  /** Writes whose first attempt got no answer: in flight on node A when it died. */
  let unanswered = 0;
  // Eight clients, each sending its next write to either node at random; node A dies after 80 writes went out.
  const client = async () => {
    while (next < writes.length) {
      const write = writes[next++]!;
      if (next === 80) killed = a.stop('SIGKILL');
      const target = killed || random() < 0.5 ? b : a;
      write.status = await send(target === a && killed ? b : target, write);
      if (write.status === 0 || write.status >= 500) {
        unanswered++;
        write.status = await send(b, write);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  expect(await killed).not.toBe(0);
  console.log(`failover: ${unanswered} write(s) in flight on the killed node, sent again`);

  // Each write was answered: 201, or 409 when its first attempt had committed on the killed node.
  const statuses = new Map<number, number>();
  for (const write of writes) statuses.set(write.status, (statuses.get(write.status) ?? 0) + 1);
  expect(
    [...statuses.keys()].every((status) => status === 201 || status === 409),
    JSON.stringify([...statuses]),
  ).toBe(true);

  const listed = await fetch(`${b.url}/v1/project?limit=1000`, { headers });
  const names = ((await listed.json()) as { data: { name: string }[] }).data.map((p) => p.name);
  // Every write is there (acknowledged, or acknowledged as done before), once.
  expect(names.length).toBe(writes.length);
  expect(new Set(names).size).toBe(writes.length);
  for (const write of writes) expect(names).toContain(write.name);

  // The command history has each command once.
  const history = await fetch(`${b.url}/v1/command?limit=1000`, { headers });
  const ids = ((await history.json()) as { data: { id: string }[] }).data.map((c) => c.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const write of writes) expect(ids).toContain(write.commandId);

  // The killed node comes back on its data folder and serves the same records.
  nodes[0] = await startNode(folders[0]!);
  const again = await fetch(`${nodes[0].url}/v1/project?limit=0`, { headers });
  expect(((await again.json()) as { count: number }).count).toBe(writes.length);
}, 120_000);
