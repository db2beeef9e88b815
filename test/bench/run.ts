/**
 * `npm run bench`: runs every benchmark script in test/bench (each a standalone script run
 * with tsx), one after the other, and exits non-zero when any of them fails. A script that
 * runs longer than ten minutes is stopped and counts as failed.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const tsxCli = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const self = basename(fileURLToPath(import.meta.url));
const timeoutMs = 10 * 60 * 1000;

const scripts = readdirSync(here)
  .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && name !== self)
  .sort();

const failures: string[] = [];
for (const name of scripts) {
  console.log(`\n=== bench: ${name} ===`);
  const result = spawnSync(process.execPath, [tsxCli, join(here, name)], { cwd: root, stdio: 'inherit', timeout: timeoutMs });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : result.signal ? `signal ${result.signal}` : `exit code ${result.status}`;
    console.log(`=== bench: ${name} FAILED (${why}) ===`);
    failures.push(name);
  }
}

console.log(
  `\n${scripts.length - failures.length} of ${scripts.length} benchmark scripts ran${failures.length ? `; failed: ${failures.join(', ')}` : ''}`,
);
process.exit(failures.length > 0 ? 1 : 0);
