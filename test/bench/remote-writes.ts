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
 * With two nodes the clients are spread over both, alternately. The load comes from this
 * process, and PostgreSQL runs on the same machine.
 *
 * Budgets: two nodes beat one, and one node answers at least 60 % of the requests per second of
 * one SQLite process. On a two-core machine the nodes, PostgreSQL and this process share the same
 * cores, so two nodes cannot show scaling here: the CPU time each request costs the server
 * processes and the database (from /proc, test/helpers/cpu-time.ts) is printed beside the rates.
 * Exits non-zero only when something is broken (an error answer, a server that fails).
 */
import { rmSync } from 'node:fs';
import { tempDir } from '../helpers/api.js';
import { percentile } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { postmasterPid, processCpuMs, processTreeCpuMs } from '../helpers/cpu-time.js';
import pg from 'pg';

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
  /** CPU time of the server processes, and of the database's (0 without one), during the load. */
  serverCpuMs: number;
  databaseCpuMs: number;
}

/** Runs the load on `servers`, counting the CPU time their processes and the cluster of `postmaster` spend meanwhile. */
async function measured(servers: readonly ServerProcess[], postmaster?: number): Promise<Figures> {
  const serverCpu = () => servers.reduce((sum, server) => sum + processCpuMs(server.child.pid!), 0);
  const databaseCpu = () => (postmaster === undefined ? 0 : processTreeCpuMs(postmaster));
  const [server0, database0] = [serverCpu(), databaseCpu()];
  const figures = await load(servers);
  return { ...figures, serverCpuMs: serverCpu() - server0, databaseCpuMs: databaseCpu() - database0 };
}

/** Spreads the clients over `servers`, one after the other. */
async function load(servers: readonly ServerProcess[]): Promise<Omit<Figures, 'serverCpuMs' | 'databaseCpuMs'>> {
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

/** The cluster's postmaster, whose tree of processes is the database's CPU. */
async function clusterPostmaster(superuserUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return postmasterPid(rows[0]!.data_directory);
  } finally {
    await client.end();
  }
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
  const sqlite = await measured([sqliteServer]);
  await sqliteServer.stop();

  team = await startTeamDatabase('bench_writes', { nodes: 0, durable: true });
  const node = () =>
    startServerProcess(['--data-dir', folder(), '--database', team!.url, '--api-env', environment], 60_000, { PLANNER_API_KEY: key });
  const postmaster = await clusterPostmaster(team.cluster.url);
  const first = await node();
  servers.push(first);
  const oneNode = await measured([first], postmaster);
  const second = await node();
  servers.push(second);
  const twoNodes = await measured([first, second], postmaster);

  const all = [sqlite, oneNode, twoNodes];
  process.exitCode = all.some((f) => f.errors > 0) ? 1 : 0;
  const perSecond = (f: Figures) => f.requests / (f.ms / 1000);
  const cpuPerRequest = (ms: number, f: Figures, width: number) => (f.requests === 0 ? 0 : ms / f.requests).toFixed(2).padStart(width);
  const row = (engine: string, f: Figures) =>
    `| ${engine.padEnd(22)} | ${String(f.requests).padStart(8)} | ${perSecond(f).toFixed(0).padStart(6)} | ${percentile(f.latencies, 0.5).toFixed(1).padStart(6)} | ${percentile(f.latencies, 0.95).toFixed(1).padStart(6)} | ${f.latencies.at(-1)!.toFixed(1).padStart(7)} | ${String(f.errors).padStart(6)} | ${cpuPerRequest(f.serverCpuMs, f, 10)} | ${cpuPerRequest(f.databaseCpuMs, f, 12)} |`;
  console.log(`\nRemote write throughput: ${clients} clients writing for ${seconds} s; node ${process.version}`);
  console.log('| engine                 | requests |  req/s | p50 ms | p95 ms |  max ms | errors | server CPU | database CPU |');
  console.log('|                        |          |        |        |        |         |        |  ms/req    |  ms/req      |');
  console.log('|------------------------|----------|--------|--------|--------|---------|--------|------------|--------------|');
  console.log(row('SQLite, one process', sqlite));
  console.log(row('PostgreSQL, one node', oneNode));
  console.log(row('PostgreSQL, two nodes', twoNodes));
  const beats = perSecond(twoNodes) > perSecond(oneNode);
  console.log(
    `\nBudget (two nodes beat one): ${beats ? 'PASS' : 'OVER BUDGET'} (${perSecond(twoNodes).toFixed(0)} against ${perSecond(oneNode).toFixed(0)} req/s).`,
  );
  const share = perSecond(oneNode) / perSecond(sqlite);
  console.log(
    `Budget (one node at least 60 % of SQLite): ${share >= 0.6 ? 'PASS' : 'OVER BUDGET'} (${(share * 100).toFixed(0)} %: ${perSecond(oneNode).toFixed(0)} against ${perSecond(sqlite).toFixed(0)} req/s).`,
  );
} finally {
  for (const server of servers) await server.stop();
  await team?.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
}
