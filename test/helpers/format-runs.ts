/**
 * What the time-report benchmarks (test/bench) share: each format measured in a child process of its own
 * (so one format's memory does not count against the next), and the peak resident memory of
 * that process while it works.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** MiB, whole. */
export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/**
 * Starts watching this process's RSS: sampled every 5 ms, and at each `sample()` (call it at
 * every chunk of a stream, where the timer may not get a turn). `stop()` gives the RSS at the
 * start (after a collection, when `--expose-gc` is on) and the highest seen.
 */
export function watchPeakRss(): { sample: () => void; stop: () => { baseline: number; peak: number } } {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sample = () => {
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
  };
  const timer = setInterval(sample, 5);
  return {
    sample,
    stop: () => {
      clearInterval(timer);
      sample();
      return { baseline, peak };
    },
  };
}

/** The format this run measures, when it is the child; undefined in the parent. */
export function childFormat(): string | undefined {
  const at = process.argv.indexOf('--format');
  return at > 0 ? process.argv[at + 1] : undefined;
}

/**
 * Runs `script` once per format, each in a child process (`--format <name>` plus `args`),
 * and answers whether every run ended well. Five minutes at most each.
 */
export function runEachFormat(script: string, formats: readonly string[], args: string[] = []): boolean {
  const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
  const tsxCli = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  let ok = true;
  for (const format of formats) {
    const run = spawnSync(process.execPath, ['--expose-gc', tsxCli, fileURLToPath(script), '--format', format, ...args], {
      stdio: 'inherit',
      timeout: 5 * 60_000,
    });
    if (run.status !== 0) ok = false;
  }
  return ok;
}
