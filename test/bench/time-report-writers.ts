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
import { writeReport, type ReportFileFormat } from '../../electron/api/time-tracking/export/index.js';
import { bulkReport } from '../helpers/time-report.js';
import { benchSize } from '../helpers/bench-size.js';
import { childFormat, mib, runEachFormat, watchPeakRss } from '../helpers/format-runs.js';

const budgetsMs: Record<ReportFileFormat, number> = { csv: 1000, xlsx: 5000, pdf: 5000 };
// A smoke run (bench-size.ts) writes a few hundred lines; the children, started with this
// process's environment, read the same sizes.
const users = benchSize(20, 2);
const days = benchSize(25, 3);
const perDay = benchSize(200, 40);

async function measure(format: ReportFileFormat): Promise<void> {
  const report = bulkReport(users, days, perDay);
  const rss = watchPeakRss();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const file = writeReport(report, format);
  let bytes = 0;
  for await (const chunk of file.body) {
    bytes += (chunk as Buffer).length;
    rss.sample();
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const { baseline, peak } = rss.stop();
  if (bytes === 0) throw new Error(`${format}: empty file`);
  const verdict = ms <= budgetsMs[format] ? 'PASS' : 'OVER BUDGET';
  console.log(
    `${format.padEnd(4)} ${report.lines.length} lines  ${ms.toFixed(0).padStart(5)} ms (budget ${budgetsMs[format]} ms, CPU ${cpuMs.toFixed(0)} ms)  ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MiB  peak RSS ${mib(peak)} MiB (+${mib(peak - baseline)} MiB over the built report, ${mib(baseline)} MiB)  ${verdict}`,
  );
}

const format = childFormat();
if (format) {
  await measure(format as ReportFileFormat);
} else {
  console.log(`time report writers: ${users * days * perDay} lines, grouped by users, days; node ${process.version}`);
  process.exit(runEachFormat(import.meta.url, ['csv', 'xlsx', 'pdf']) ? 0 : 1);
}
