#!/usr/bin/env node
/**
 * `npm test`: typecheck, lint (ESLint and the Prettier format check), every vitest suite, the
 * build, a smoke run of every benchmark, and the Playwright end-to-end tests in Chromium. Every
 * step runs even when an earlier one fails, so one run shows all problems. Ends with a plain
 * `N passed, N failed, N flaky` line summed over all runners (typecheck, lint, build and each
 * benchmark script count as one check each), so a run that executed nothing is visible.
 *
 * Tests run at fixed days, never at the machine's (test/helpers/test-clock.ts): the whole suite
 * at a Monday, and the suites that depend on the day again at other hard days (vitest's day
 * projects in vitest.config.ts; the end-to-end specs below).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hardDays } from '../test/helpers/test-clock.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const output = join(root, '.test-output');
const chromium = process.env.PLANNER_CHROMIUM ?? '/usr/bin/chromium';
const bin = (name) => join(root, 'node_modules', '.bin', name);

let passed = 0;
let failed = 0;
let flaky = 0;
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(label, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

/** Adds a runner's own counts; a runner that wrote no report counts as one failure. */
function countReport(label, file, read) {
  if (!existsSync(file)) {
    check(`${label} (no report written)`, false);
    return;
  }
  const counts = read(JSON.parse(readFileSync(file, 'utf8')));
  passed += counts.passed;
  failed += counts.failed;
  flaky += counts.flaky ?? 0;
  if (counts.failed > 0) failures.push(`${label}: ${counts.failed} failed`);
  for (const name of counts.flakyNames ?? []) failures.push(`${label}: flaky: ${name}`);
}

/**
 * Debian packages the tests run: Chromium for the end-to-end tests, poppler-utils'
 * `pdftotext`, which reads the time-report PDFs back, and PostgreSQL, whose `initdb` and
 * `pg_ctl` start a throwaway cluster for the team-server store tests (Debian keeps them in
 * /usr/lib/postgresql/<version>/bin, off PATH). On a fresh Debian machine, as root,
 * the missing ones are installed with apt; elsewhere the message says what to install.
 */
const debianPackages = [
  { name: 'chromium', file: chromium, why: 'the end-to-end tests' },
  { name: 'poppler-utils', file: '/usr/bin/pdftotext', why: 'reading the PDF time reports back' },
  {
    name: 'postgresql',
    file: '/usr/lib/postgresql/*/bin/initdb',
    present: () =>
      existsSync('/usr/lib/postgresql') &&
      readdirSync('/usr/lib/postgresql').some((version) => existsSync(join('/usr/lib/postgresql', version, 'bin', 'initdb'))),
    why: 'a throwaway cluster for the PostgreSQL store tests',
  },
];

const isPresent = (p) => (p.present ? p.present() : existsSync(p.file));

function ensureDebianPackages() {
  const missing = debianPackages.filter((p) => !isPresent(p));
  if (missing.length === 0) return true;
  const names = missing.map((p) => p.name);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`Missing ${missing.map((p) => `${p.name} (${p.why})`).join(', ')}; installing with apt-get.`);
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (names.includes('postgresql')) {
      // No "main" cluster, so the package has no cluster of its own to start; the tests make theirs.
      mkdirSync('/etc/postgresql-common/createcluster.d', { recursive: true });
      writeFileSync('/etc/postgresql-common/createcluster.d/planner-tests.conf', 'create_main_cluster = false\n');
    }
    if (
      run('apt-get update', 'apt-get', ['update', '-qq'], env) &&
      run(`apt-get install ${names.join(' ')}`, 'apt-get', ['install', '-y', '-qq', ...names], env)
    ) {
      return missing.every(isPresent);
    }
    return false;
  }
  console.error(
    `Missing ${missing.map((p) => p.file).join(', ')}: install it with "sudo apt-get install -y ${names.join(' ')}" (or set PLANNER_CHROMIUM), then run npm test again.`,
  );
  return false;
}

rmSync(output, { recursive: true, force: true });
mkdirSync(output, { recursive: true });

if (!ensureDebianPackages()) {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}

check(
  'typecheck',
  run('typecheck', process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']) &&
    run('typecheck renderer', process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.web.json']) &&
    run('typecheck end-to-end tests', process.execPath, [
      join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      'tsconfig.e2e.json',
    ]),
);
check('lint', run('lint', bin('eslint'), ['.']) && run('format', bin('prettier'), ['--check', '.']));

const vitestReport = join(output, 'vitest.json');
run('vitest', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`]);
// A suite that failed to load has no test results of its own: count it as one failure.
countReport('vitest', vitestReport, (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length,
}));

const built = run('build', process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build']);
check('build', built);

/**
 * The end-to-end specs whose screens depend on the day (the planboard, capacity, time and
 * planning), run again at the other hard days after the whole suite has run at the Monday.
 */
const specsThatDependOnTheDay = [
  'planboard-workdays',
  'planboard-resources',
  'planboard-readable',
  'plan-finite',
  'absences',
  'time.spec',
  'time-day-totals',
];

/** Titles of the tests Playwright ran more than once before they passed. */
function flakyTitles(report) {
  const titles = [];
  const visit = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      if (spec.tests.some((t) => t.status === 'flaky')) titles.push(`${spec.file}: ${[...path, spec.title].join(' › ')}`);
    }
    for (const child of suite.suites ?? []) visit(child, suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  return titles;
}

/**
 * A flaky test, one that failed and then passed when run again, counts as failed: a retry
 * would only hide it. Playwright runs no retries (playwright.config.ts), so this holds for
 * anyone who turns them on to look at one.
 */
function playwright(label, day, specs = []) {
  const report = join(output, `playwright-${label}.json`);
  run(`playwright at ${day}`, bin('playwright'), ['test', '--reporter=list,json', ...specs], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    PLANNER_NOW: day,
  });
  countReport(`playwright at ${day}`, report, (r) => ({
    passed: r.stats.expected,
    failed: r.stats.unexpected + (r.stats.flaky ?? 0),
    flaky: r.stats.flaky ?? 0,
    flakyNames: flakyTitles(r),
  }));
}

if (built) {
  const benchReport = join(output, 'bench-smoke.json');
  run('benchmark smoke run', process.execPath, [
    join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
    join(root, 'test', 'bench', 'run.ts'),
    '--smoke',
    '--report',
    benchReport,
  ]);
  countReport('benchmark smoke run', benchReport, (r) => ({
    passed: r.scripts.filter((s) => s.ok).length,
    failed: r.scripts.filter((s) => !s.ok).length,
  }));

  playwright('monday', hardDays.monday);
  playwright('summer-time-ends', hardDays.summerTimeEnds, specsThatDependOnTheDay);
  playwright('new-years-eve', hardDays.newYearsEve, specsThatDependOnTheDay);
} else {
  check('benchmark smoke run and playwright (skipped: the build failed)', false);
}

if (failures.length > 0) console.log(`\nFailed: ${failures.join('; ')}`);
console.log(`\n${passed} passed, ${failed} failed, ${flaky} flaky`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
