/**
 * Benchmark: a remote's write throughput (issue 21 "Remote write throughput"). 50 concurrent
 * clients write for 20 s against a real server process (`npm run server`, real HTTP on
 * 127.0.0.1): each client creates a project, then changes it, again and again, waiting for
 * each answer before its next request, as a replica's pushes and a team's edits do. Printed per
 * engine: requests answered, requests per second, the latency p50, p95 and max, and errors.
 *
 * Engines: SQLite (the server as it runs today, one process on its data folder, every write
 * committed with `synchronous=FULL`). PostgreSQL with one node and with two nodes are printed as
 * not built: the API does not run on PostgreSQL yet (docs/architecture.md "Team server on
 * PostgreSQL (in progress)"); their rows fill in when it does, and the budget (two
 * nodes beat one) is judged then. The load comes from this process, on the same machine.
 * Exits non-zero only when something is broken (an error answer, a server that fails).
 */
import { rmSync } from 'node:fs';
import { tempDir } from '../helpers/api.js';
import { percentile } from '../helpers/bench-seed.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

const clients = 50;
const seconds = 20;
const key = 'bench-remote-writes-key';
const environment = 'bench';

interface Figures {
  requests: number;
  errors: number;
  latencies: number[];
  ms: number;
}

async function load(server: ServerProcess): Promise<Figures> {
  const headers = { 'x-api-key': key, 'x-api-env': environment, 'content-type': 'application/json' };
  const latencies: number[] = [];
  let errors = 0;
  const began = performance.now();
  const until = began + seconds * 1000;
  const client = async (n: number) => {
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

const folder = tempDir('planner-bench-writes-');
let server: ServerProcess | undefined;
try {
  server = await startServerProcess(['--data-dir', folder, '--api-env', environment], 30_000, { PLANNER_API_KEY: key });
  const sqlite = await load(server);
  process.exitCode = sqlite.errors > 0 ? 1 : 0;
  const row = (engine: string, f: Figures) =>
    `| ${engine.padEnd(22)} | ${String(f.requests).padStart(8)} | ${(f.requests / (f.ms / 1000)).toFixed(0).padStart(6)} | ${percentile(f.latencies, 0.5).toFixed(1).padStart(6)} | ${percentile(f.latencies, 0.95).toFixed(1).padStart(6)} | ${f.latencies.at(-1)!.toFixed(1).padStart(7)} | ${String(f.errors).padStart(6)} |`;
  console.log(`\nRemote write throughput: ${clients} clients writing for ${seconds} s; node ${process.version}`);
  console.log('| engine                 | requests |  req/s | p50 ms | p95 ms |  max ms | errors |');
  console.log('|------------------------|----------|--------|--------|--------|---------|--------|');
  console.log(row('SQLite, one process', sqlite));
  console.log('| PostgreSQL, one node   | not built: the API does not run on PostgreSQL yet                 |');
  console.log('| PostgreSQL, two nodes  | not built: the API does not run on PostgreSQL yet                 |');
  console.log('\nBudget (two nodes beat one): not judged until the API runs on PostgreSQL.');
} finally {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
}
