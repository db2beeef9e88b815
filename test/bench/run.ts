/**
 * `npm run bench`: runs every benchmark script in test/bench (each a standalone script run
 * with tsx), one after the other, and exits non-zero when any of them fails. A script that
 * runs longer than ten minutes is stopped, with every process it started, and counts as failed.
 *
 * `--smoke` runs each script on a small data set instead (PLANNER_BENCH_SMOKE=1, see
 * test/helpers/bench-size.ts), for `npm test`: it shows that every bench still works, not how
 * fast anything is, so a script there fails only when it is broken, never when it is slow. A
 * smoke script gets three minutes, and the run ends with one line `bench smoke: N passed, M
 * failed` for the test runner to read. `--report FILE` writes what ran as JSON:
 * `{ "scripts": [{ "name": "capacity.ts", "ok": true, "ms": 1234 }, …] }`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const tsxCli = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const self = basename(fileURLToPath(import.meta.url));

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const reportAt = args.indexOf('--report');
const reportFile = reportAt >= 0 ? args[reportAt + 1] : undefined;
if (reportAt >= 0 && (!reportFile || reportFile.startsWith('--'))) {
  console.error('usage: npx tsx test/bench/run.ts [--smoke] [--report FILE]');
  process.exit(2);
}
const timeoutMs = (smoke ? 3 : 10) * 60 * 1000;
// The scripts inherit this process's environment; a smoke run adds its switch, and a real run
// drops one left in the shell, so `npm run bench` always measures the full sizes.
const { PLANNER_BENCH_SMOKE: _inherited, ...inherited } = process.env;
const env = smoke ? { ...inherited, PLANNER_BENCH_SMOKE: '1' } : inherited;

/** The process group of the script running now (its pid), for Ctrl-C to reach. */
let running: number | undefined;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    interrupted = true;
    if (running !== undefined) stopGroup(running, signal);
  });
}

function stopGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group has ended already.
  }
}

/**
 * Runs one script in a process group of its own, so that a timeout stops the servers and
 * browsers it started too, not only tsx; the PostgreSQL clusters stop by their own watchdog
 * (test/helpers/postgres.ts). Answers why it failed, or null.
 */
function runScript(path: string): Promise<string | null> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsxCli, path], { cwd: root, env, stdio: 'inherit', detached: true });
    running = child.pid;
    let timedOut = false;
    let kill: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child.pid!, 'SIGTERM');
      kill = setTimeout(() => stopGroup(child.pid!, 'SIGKILL'), 10_000);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      running = undefined;
      done(error.message);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(kill);
      running = undefined;
      if (timedOut) {
        // Whatever of the group did not end on SIGTERM.
        stopGroup(child.pid!, 'SIGKILL');
        done(`stopped after ${timeoutMs / 60_000} minutes`);
      } else done(code === 0 ? null : signal ? `signal ${signal}` : `exit code ${code}`);
    });
  });
}

const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && name !== self)
  .sort();

const results: { name: string; ok: boolean; ms: number }[] = [];
for (const name of scripts) {
  console.log(`\n=== bench${smoke ? ' smoke' : ''}: ${name} ===`);
  const started = performance.now();
  const why = await runScript(join(here, name));
  const ms = Math.round(performance.now() - started);
  if (why) console.log(`=== bench: ${name} FAILED (${why}) ===`);
  else if (smoke) console.log(`=== bench smoke: ${name} passed in ${(ms / 1000).toFixed(1)} s ===`);
  results.push({ name, ok: why === null, ms });
  if (interrupted) break;
}

// After Ctrl-C the scripts not run yet count as failed: the run did not show that they work.
const failures = scripts.filter((name) => !results.some((r) => r.name === name && r.ok));
console.log(
  `\n${scripts.length - failures.length} of ${scripts.length} benchmark scripts ran${failures.length ? `; failed: ${failures.join(', ')}` : ''}${interrupted ? ' (interrupted)' : ''}`,
);
if (smoke) console.log(`bench smoke: ${scripts.length - failures.length} passed, ${failures.length} failed`);
if (reportFile) {
  const file = resolve(reportFile);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ scripts: results }, null, 2)}\n`);
}
process.exit(failures.length > 0 ? 1 : 0);
