/**
 * Finding an Electron runtime. The `electron` package no longer downloads its binary at
 * install; it fetches it on first run, which fails on machines that reach only the package
 * registry (TOOLCHAIN.md). So `npm start` looks for the binary, tries the download once with
 * a time limit, and falls back to the browser host when neither works.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type RuntimeLookup = { found: true; executable: string } | { found: false; reason: string };

function electronPackageDir(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return undefined;
  }
}

export function findElectronRuntime(): RuntimeLookup {
  const dir = electronPackageDir();
  if (!dir) return { found: false, reason: 'the electron package is not installed' };
  const pathFile = join(dir, 'path.txt');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : undefined;
  if (override) {
    const executable = join(override, relative ?? 'electron');
    return existsSync(executable) ? { found: true, executable } : { found: false, reason: `no Electron binary at ${executable}` };
  }
  if (relative && existsSync(join(dir, 'dist', relative))) return { found: true, executable: join(dir, 'dist', relative) };
  return { found: false, reason: 'no Electron binary has been downloaded' };
}

/** Runs the electron package's own download once; returns why it failed, if it did. */
export function tryDownloadElectron(timeoutMs = 90_000): RuntimeLookup {
  const dir = electronPackageDir();
  if (!dir) return { found: false, reason: 'the electron package is not installed' };
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], { timeout: timeoutMs, encoding: 'utf8' });
  if (result.status === 0) return findElectronRuntime();
  const detail = (result.stderr || result.stdout || '').split('\n').find((l) => /error|fail|ENOTFOUND|ECONN|EAI_AGAIN/i.test(l));
  const reason = result.error
    ? `its download did not finish (${result.error.message})`
    : `its download failed${detail ? `: ${detail.trim().slice(0, 160)}` : ''}`;
  return { found: false, reason };
}
