/**
 * Benchmark: a remote's write throughput (issue 21 "Remote write throughput"). 50 concurrent
 * clients write for 20 s against a real server process (`npm run server`, real HTTP on
 * 127.0.0.1): each client creates a project, then changes it, again and again, waiting for
 * each answer before its next request, as a replica's pushes and a team's edits do. Printed per
 * engine: requests answered, requests per second, the latency p50, p95 and max, and errors.
 *
 * Engines, in one run: SQLite (the server as it runs by default, one process on its data
 * folder, every write committed with `synchronous=FULL`); PostgreSQL with one node and with two
 * nodes (`npm run server -- --database …`, each node a process with a data folder of its own,
 * on one throwaway cluster run durably: fsync and synchronous commits, as a team server runs).
 * With two nodes the clients are spread over both, alternately. The budget is that two
 * nodes beat one. The load comes from this process, and PostgreSQL runs on the same machine.
 * Exits non-zero only when something is broken (an error answer, a server that fails).
 */
import { rmSync } from 'node:fs';
import { tempDir } from '../helpers/api.js';
import { percentile } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';

// A smoke run (bench-size.ts) writes with a few clients for a moment, on every engine still.
const clients = benchSize(50, 4);
const seconds = benchSize(20, 1);
const key = 'bench-remote-writes-key';
const environment = 'bench';

interface Figures {
  requests: number;
  errors: number;
  latencies: number[];
  ms: number;
}

/** Spreads the clients over `servers`, one after the other. */
async function load(servers: readonly ServerProcess[]): Promise<Figures> {
  const headers = { 'x-api-key': key, 'x-api-env': environment, 'content-type': 'application/json' };
  const latencies: number[] = [];
  let errors = 0;
  const began = performance.now();
  const until = began + seconds * 1000;
  const client = async (n: number) => {
    const server = servers[n % servers.length]!;
    let id: string | null = null;
    for (let i = 0; performance.now() < until && i < 1_000_000; i++) {
      const started = performance.now();
      const response: Response = id
        ? await fetch(`${server.url}/v1/project/${id}`, { method: 'PUT', headers, body: JSON.stringify({ description: `change ${i}` }) })
        : await fetch(`${server.url}/v1/project`, { method: 'POST', headers, body: JSON.stringify({ name: `Client ${n} project ${i}` }) });
      const body = (await response.json()) as { id?: string };
      latencies.push(performance.now() - started);
      if (response.status >= 300) errors++;
      // A new project every tenth request, changes in between.
      id = i % 10 === 9 ? null : (body.id ?? id);
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, n) => client(n)));
  return { requests: latencies.length, errors, latencies: latencies.sort((a, b) => a - b), ms: performance.now() - began };
}

const folders: string[] = [];
const folder = () => {
  const made = tempDir('planner-bench-writes-');
  folders.push(made);
  return made;
};
const servers: ServerProcess[] = [];
let team: TeamDatabase<0> | undefined;
try {
  const sqliteServer = await startServerProcess(['--data-dir', folder(), '--api-env', environment], 30_000, { PLANNER_API_KEY: key });
  servers.push(sqliteServer);
  const sqlite = await load([sqliteServer]);
  await sqliteServer.stop();

  team = await startTeamDatabase('bench_writes', { nodes: 0, durable: true });
  const node = () =>
    startServerProcess(['--data-dir', folder(), '--database', team!.url, '--api-env', environment], 60_000, { PLANNER_API_KEY: key });
  const first = await node();
  servers.push(first);
  const oneNode = await load([first]);
  const second = await node();
  servers.push(second);
  const twoNodes = await load([first, second]);

  const all = [sqlite, oneNode, twoNodes];
  process.exitCode = all.some((f) => f.errors > 0) ? 1 : 0;
  const perSecond = (f: Figures) => f.requests / (f.ms / 1000);
  const row = (engine: string, f: Figures) =>
    `| ${engine.padEnd(22)} | ${String(f.requests).padStart(8)} | ${perSecond(f).toFixed(0).padStart(6)} | ${percentile(f.latencies, 0.5).toFixed(1).padStart(6)} | ${percentile(f.latencies, 0.95).toFixed(1).padStart(6)} | ${f.latencies.at(-1)!.toFixed(1).padStart(7)} | ${String(f.errors).padStart(6)} |`;
  console.log(`\nRemote write throughput: ${clients} clients writing for ${seconds} s; node ${process.version}`);
  console.log('| engine                 | requests |  req/s | p50 ms | p95 ms |  max ms | errors |');
  console.log('|------------------------|----------|--------|--------|--------|---------|--------|');
  console.log(row('SQLite, one process', sqlite));
  console.log(row('PostgreSQL, one node', oneNode));
  console.log(row('PostgreSQL, two nodes', twoNodes));
  const beats = perSecond(twoNodes) > perSecond(oneNode);
  console.log(
    `\nBudget (two nodes beat one): ${beats ? 'PASS' : 'OVER BUDGET'} (${perSecond(twoNodes).toFixed(0)} against ${perSecond(oneNode).toFixed(0)} req/s).`,
  );
} finally {
  for (const server of servers) await server.stop();
  await team?.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
}
