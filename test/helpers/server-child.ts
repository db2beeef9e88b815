/**
 * The headless server (`electron/host/server.ts`) as a direct child process: `node --import
 * <tsx loader> server.ts`, without the tsx command-line wrapper in between. The sync tests need
 * this because they kill replicas with SIGKILL: `startServerProcess` (process.ts) starts the
 * tsx CLI, which runs the server in a grandchild; SIGKILL cannot be relayed, so it kills only
 * the wrapper and leaves the real server running, orphaned, with its databases open.
 *
 * Same interface as process.ts: resolves once the server prints its URL; `stop(signal)` sends
 * the signal and waits for the exit (SIGKILL after 10 s if it hangs).
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerProcess } from './process.js';

const root = resolve(import.meta.dirname, '..', '..');
const loader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const entry = join(root, 'electron', 'host', 'server.ts');

export async function startServerChild(args: string[], startTimeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', loader, entry, '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill(signal);
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
}
