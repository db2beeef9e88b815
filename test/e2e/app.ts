/**
 * Starting the app as a user would (`npm start`), in browser-host mode, on a free port with
 * its own data folder. The build is done once by `npm test` before Playwright runs, so each
 * start passes --no-build. `stop()` ends the process and waits for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..', '..');

export interface RunningApp {
  /** The address the app prints: the host with its page key (`?key=…`). Open it with page.goto. */
  url: string;
  dataDir: string;
  output: () => string;
  stop(): Promise<void>;
}

export function newDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'planner-e2e-'));
}

export async function startApp(dataDir: string = newDataDir()): Promise<RunningApp> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href, join(root, 'electron', 'host', 'start.ts'), '--browser', '--no-build', '--port', '0', '--data-dir', dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`app did not start in 30 s:\n${log}`)), 30_000);
    const onData = () => {
      // The data-folder line is the last of the start-up lines.
      // The address carries the page key (?key=…), which the page keeps and sends on every call.
      const m = /running at (http:\/\/127\.0\.0\.1:\d+\/\?key=[\w-]+)[\s\S]*Data folder: .*\n/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited with ${code}:\n${log}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => log,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(force);
          done();
        });
        child.kill('SIGTERM');
      }),
  };
}
