/**
 * The headless server as a real second process (`npm run server`), for tests that need one:
 * CLI behaviour, sync between instances. Waits for the "listening on http://…" line; stop()
 * sends a signal and waits for the exit, killing it if it hangs.
 *
 * The server is the direct child (`node --import <tsx loader> server.ts`), not a grandchild
 * under the tsx command-line wrapper: a SIGKILL (the crash tests) must hit the server itself,
 * which a wrapper cannot relay.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { clockEnvironment } from './test-clock.js';

const root = resolve(import.meta.dirname, '..', '..');
const tsxLoader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** The server of a checkout of the project (with its node_modules): this one, or another a bench compares with. */
function serverEntryIn(checkout: string): string {
  return join(resolve(checkout), 'electron', 'host', 'server.ts');
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `env`: variables added to this process's environment for the server (e.g. PLANNER_API_KEY). */
export function runServerCommand(
  args: string[],
  timeoutMs = 30_000,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, serverEntryIn(root), ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...clockEnvironment(), ...env },
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/**
 * `checkout`: another checkout of Planner (with its node_modules) whose server to run, for a
 * bench that measures the code before a change beside the code after it; default this one.
 */
export async function startServerProcess(
  args: string[],
  startTimeoutMs = 30_000,
  env: Record<string, string> = {},
  checkout = root,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', tsxLoader, serverEntryIn(checkout), '--port', '0', ...args], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...clockEnvironment(), ...env },
  });
  let output = '';
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
    child.stdout!.on('data', () => {
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
