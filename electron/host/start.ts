/**
 * `npm start`: build the app, then open the desktop window when an Electron runtime exists,
 * or serve the same UI to a browser from 127.0.0.1 when it does not.
 *
 *   npm start -- [--data-dir DIR] [--port P] [--browser] [--no-build]
 *
 * --browser skips the Electron lookup; --no-build reuses out/ (tests build once).
 *
 * The browser host holds the data folder's lock while it runs (data-dir-lock.ts); with
 * --browser it takes it before building, so a folder in use is refused at once. The desktop
 * app takes its own lock.
 *
 * It prints the address to open, with the page key (`?key=…`, browser-host.ts). When the data
 * folder cannot be opened (a damaged file, a newer schema), that address shows the recovery
 * page instead of exiting, and the facts are printed too (recovery.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataDirLock } from '../store/data-dir-lock.js';
import { defaultDataDir } from './app-paths.js';
import { serveDataFolder } from './browser-app.js';
import { ArgsError, parseArgs, portOption } from './cli-args.js';
import { startClockFromEnvironment } from './test-clock.js';
import { findElectronRuntime, tryDownloadElectron, type RuntimeLookup } from './electron-runtime.js';
import { describeRecovery } from './recovery.js';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const usage = 'Usage: npm start -- [--data-dir DIR] [--port P] [--browser] [--no-build]';

function build(): void {
  const cli = join(projectRoot, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('building the app failed (electron-vite build); see the messages above');
}

function openDesktopWindow(executable: string, dataDir: string): void {
  const child = spawn(executable, [projectRoot, `--data-dir=${dataDir}`], { stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('exit', (code) => process.exit(code ?? 0));
}

async function serveInBrowser(dataDir: string, lock: DataDirLock, port: number, why: string): Promise<void> {
  const served = await serveDataFolder({
    dataPath: dataDir,
    lock,
    rendererDir: join(projectRoot, 'out', 'renderer'),
    port,
    onFolder: (path) => console.log(`Data folder: ${path}`),
  });
  if (served.recovery) {
    console.error(
      describeRecovery(
        served.recovery.facts,
        'open the address below in a browser: its page restores a backup, starts fresh with the broken file kept aside, or opens another data folder.',
      ),
    );
  }
  console.log(`Planner is running at ${served.host.openUrl}`);
  console.log(`Not a desktop window: ${why}; the same app is served to your browser instead.`);
  console.log(`Data folder: ${dataDir}`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await served.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

async function main(argv: string[]): Promise<void> {
  const { options } = parseArgs(argv, { values: ['data-dir', 'port'], flags: ['browser', 'no-build', 'help'] });
  const clockLine = startClockFromEnvironment();
  if (clockLine) console.log(clockLine);
  if (options.help) {
    console.log(usage);
    return;
  }
  const dataDir = resolve(typeof options['data-dir'] === 'string' ? options['data-dir'] : defaultDataDir());
  const port = portOption(options.port, 0);
  let lock = options.browser ? DataDirLock.acquire(dataDir, 'browser host') : undefined;
  if (!options['no-build'] || !existsSync(join(projectRoot, 'out', 'renderer', 'index.html'))) build();

  let runtime: RuntimeLookup = { found: false, reason: '--browser was given' };
  if (!options.browser) {
    runtime = findElectronRuntime();
    if (!runtime.found) runtime = tryDownloadElectron();
  }
  if (runtime.found) {
    openDesktopWindow(runtime.executable, dataDir);
    return;
  }
  lock ??= DataDirLock.acquire(dataDir, 'browser host');
  await serveInBrowser(dataDir, lock, port, `no Electron runtime on this machine (${runtime.reason})`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ArgsError) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
