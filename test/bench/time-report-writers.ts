/**
 * Benchmark: the time report file writers (electron/api/time-tracking/export) on a report of
 * 100,000 lines grouped by users and days (20 users × 25 days × 200 lines).
 *
 * Each format runs in a child process of its own (this script with `--format`), so one
 * format's garbage does not count against the next. The body is read as fast as it comes and
 * thrown away. Printed per format: the wall time from `writeReport` to the end of the body, the
 * file size, the CPU time of the process (all threads: zlib runs in Node's thread pool; on a
 * busy machine it shows the work apart from the waiting), and peak RSS (sampled every 5 ms and at every chunk) above the RSS with the
 * report already built. Budgets: CSV ≤ 1 s, XLSX ≤ 5 s, PDF ≤ 5 s; the verdict is PASS or
 * OVER BUDGET. Exits non-zero only when something is broken.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join, resolve, dirname } from 'node:path';
import { writeReport, type ReportFileFormat } from '../../electron/api/time-tracking/export/index.js';
import { bulkReport } from '../helpers/time-report.js';

const budgetsMs: Record<ReportFileFormat, number> = { csv: 1000, xlsx: 5000, pdf: 5000 };
const users = 20;
const days = 25;
const perDay = 200;

async function measure(format: ReportFileFormat): Promise<void> {
  const report = bulkReport(users, days, perDay);
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
  };
  const timer = setInterval(sample, 5);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const file = writeReport(report, format);
  let bytes = 0;
  for await (const chunk of file.body) {
    bytes += (chunk as Buffer).length;
    sample();
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  clearInterval(timer);
  sample();
  if (bytes === 0) throw new Error(`${format}: empty file`);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(0);
  const verdict = ms <= budgetsMs[format] ? 'PASS' : 'OVER BUDGET';
  console.log(
    `${format.padEnd(4)} ${report.lines.length} lines  ${ms.toFixed(0).padStart(5)} ms (budget ${budgetsMs[format]} ms, CPU ${cpuMs.toFixed(0)} ms)  ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MiB  peak RSS ${mb(peak)} MiB (+${mb(peak - baseline)} MiB over the built report, ${mb(baseline)} MiB)  ${verdict}`,
  );
}

const formatArg = process.argv.indexOf('--format');
if (formatArg > 0) {
  await measure(process.argv[formatArg + 1] as ReportFileFormat);
} else {
  const here = dirname(fileURLToPath(import.meta.url));
  const tsxCli = join(resolve(here, '..', '..'), 'node_modules', 'tsx', 'dist', 'cli.mjs');
  console.log(`time report writers: ${users * days * perDay} lines, grouped by users, days; node ${process.version}`);
  let broken = false;
  for (const format of ['csv', 'xlsx', 'pdf'] as const) {
    const run = spawnSync(process.execPath, ['--expose-gc', tsxCli, fileURLToPath(import.meta.url), '--format', format], { stdio: 'inherit' });
    if (run.status !== 0) broken = true;
  }
  process.exit(broken ? 1 : 0);
}
