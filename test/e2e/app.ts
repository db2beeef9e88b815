/**
 * Starting the app as a user would (`npm start`), in browser-host mode, on a free port with
 * its own data folder, which knows its planner unless the spec asks for a new install. The
 * build is done once by `npm test` before Playwright runs, so each start passes --no-build. `stop()` ends the process and waits for it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openLocalInstance } from '../../electron/host/local-instance.js';

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

/** The user a fresh data folder's app already knows as its own, so it does not ask "Who are you?". */
export const e2ePlanner = { firstname: 'Pat', lastname: 'Planner', fullname: 'Pat Planner' };

export interface StartOptions {
  /**
   * `ask`: a fresh data folder stays as a new install has it, and the app asks who the planner
   * is. By default a fresh folder knows its planner already (e2ePlanner), as after that question.
   */
  appUser?: 'ask';
}

/**
 * Chooses the app's user in a fresh data folder, through the local instance's own API. It runs in
 * this process, on its clock, which test/e2e/fixtures.ts sets to the run's: a user stamped with
 * the machine's time would be held back by a remote on the run's time when the machine's day is later.
 */
async function knowThePlanner(dataDir: string): Promise<void> {
  const instance = await openLocalInstance(dataDir);
  try {
    // An e-mail of this folder's own: two apps syncing with one remote are two planners, and
    // e-mails are unique there.
    const email = `pat.planner.${basename(dataDir)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}@example.com`;
    const user = { firstname: e2ePlanner.firstname, lastname: e2ePlanner.lastname, email };
    const answer = await instance.request({ method: 'PUT', path: '/v1/app_user', body: { user } });
    if (answer.status !== 200) throw new Error(`choosing the app's user failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  } finally {
    await instance.close();
  }
}

export async function startApp(dataDir: string = newDataDir(), options: StartOptions = {}): Promise<RunningApp> {
  if (options.appUser !== 'ask' && readdirSync(dataDir).length === 0) await knowThePlanner(dataDir);
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href,
      join(root, 'electron', 'host', 'start.ts'),
      '--browser',
      '--no-build',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ],
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
