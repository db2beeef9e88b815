/**
 * Benchmark: back to "Online: everything is sent" after the remote comes back (docs/architecture.md
 * "Sync", sync/client.ts `unreachableMaxBackoffMs`). A replica keeps working while its remote is
 * away, backing off; once the remote answers again, the replica should notice quickly.
 *
 * A remote and a replica of it (the app's own sync timing, live channel on), each a server
 * process on 127.0.0.1, the remote on a port of its own so that it comes back where it was. Each
 * round stops the remote, makes a change on the replica while it is away, waits, starts the remote
 * again on the same folder and port, and times from its "listening" line until the replica says
 * it is online with nothing pending. Budget: p95 ≤ 5 s over the rounds. Exits non-zero only when
 * something is broken. PLANNER_BENCH_BASELINE=DIR runs the same rounds on the servers of DIR,
 * another checkout of the project (with its node_modules), first, to compare in one run.
 *
 *   npx tsx test/bench/reconnect.ts
 */
import { performance } from 'node:perf_hooks';
import { rmSync } from 'node:fs';
import { tempDir } from '../helpers/api.js';
import { percentile, runBench } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { freePort } from '../helpers/ports.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';
import { localHeaders, ok, remoteEnv, remoteKey, status, waitFor } from '../helpers/sync-cluster.js';

// A smoke run (bench-size.ts) goes round twice, with a short absence.
const rounds = benchSize(10, 2);
const awayMs = benchSize(20_000, 2_000);
const budgetMs = 5_000;

async function measure(label: string, checkout: string | undefined): Promise<void> {
  const remoteFolder = tempDir('planner-bench-remote-');
  const replicaFolder = tempDir('planner-bench-replica-');
  const port = await freePort();
  const where = checkout ? [checkout] : [];
  const startRemote = () =>
    startServerProcess(
      ['--data-dir', remoteFolder, '--port', String(port), '--api-env', remoteEnv, '--api-key', remoteKey],
      undefined,
      {},
      ...where,
    );
  let remote: ServerProcess | undefined = await startRemote();
  let replica: ServerProcess | undefined;
  try {
    replica = await startServerProcess(
      [
        ...['--data-dir', replicaFolder, '--api-env', 'local', '--api-key', 'local-key'],
        ...['--remote', `http://127.0.0.1:${port}`, '--remote-api-env', remoteEnv, '--remote-api-key', remoteKey],
      ],
      undefined,
      { PLANNER_SYNC_LIVE: 'on' },
      ...where,
    );
    const node = { url: replica.url, headers: localHeaders, name: 'replica' };
    const everythingSent = async () => {
      const s = await status(node);
      return s.online === true && s.pending === 0;
    };
    await waitFor(everythingSent, 'the replica to be online', 30_000, 50);
    const backMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      await remote.stop();
      remote = undefined;
      await ok(node, 'POST', '/v1/project', { name: `Made while the remote was away, round ${round + 1}` });
      await new Promise((done) => setTimeout(done, awayMs));
      remote = await startRemote();
      const listening = performance.now();
      await waitFor(everythingSent, 'everything sent', 120_000, 20);
      backMs.push(performance.now() - listening);
    }
    backMs.sort((a, b) => a - b);
    const p95 = percentile(backMs, 0.95);
    console.log(`${label}: back to "everything is sent" after the remote restarts, ${rounds} rounds, ${awayMs / 1000} s away each`);
    console.log(
      `p50 ${(percentile(backMs, 0.5) / 1000).toFixed(2)} s  p95 ${(p95 / 1000).toFixed(2)} s  max ${(backMs.at(-1)! / 1000).toFixed(2)} s  ` +
        `(budget p95 ≤ ${budgetMs / 1000} s) ${p95 <= budgetMs ? 'PASS' : 'OVER BUDGET'}`,
    );
  } finally {
    await replica?.stop();
    await remote?.stop();
    rmSync(remoteFolder, { recursive: true, force: true });
    rmSync(replicaFolder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const baseline = process.env.PLANNER_BENCH_BASELINE;
  if (baseline) await measure(`baseline (${baseline})`, baseline);
  await measure('this checkout', undefined);
}

runBench(main);
