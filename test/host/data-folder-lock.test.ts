/**
 * One process per data folder, with real processes: a second server, or a browser host, on a
 * folder in use is refused at once with one line naming the folder and the process that has
 * it; the lock dies with its process, kill -9 included.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

const root = resolve(import.meta.dirname, '..', '..');
const servers: ServerProcess[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = tempDir('planner-lock-');
  folders.push(dir);
  return dir;
}

async function server(args: string[]): Promise<ServerProcess> {
  const started = await startServerProcess(args);
  servers.push(started);
  return started;
}

/**
 * `npm start -- --browser --no-build` as a process. A refused start ends before it would
 * build or open anything; the timeout kills one that does not.
 */
function runBrowserHost(dataDir: string, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  const loader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const child = spawn(
    process.execPath,
    ['--import', loader, join(root, 'electron', 'host', 'start.ts'), '--browser', '--no-build', '--port', '0', '--data-dir', dataDir],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

const key = ['--api-env', 'lock', '--api-key', 'lock-key-123'];

describe('one process per data folder', () => {
  it('refuses a second server on a folder in use with one line naming the folder and the first; after kill -9 of the first a new one starts', async () => {
    const dataDir = folder();
    const first = await server(['--data-dir', dataDir, ...key]);

    const second = await runServerCommand(['--port', '0', '--data-dir', dataDir, ...key], 20_000);
    expect(second.code).toBe(1);
    const lines = second.output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dataDir);
    expect(lines[0]).toContain(`server (pid ${first.child.pid}`);

    // The first one never noticed.
    const headers = { 'x-api-env': 'lock', 'x-api-key': 'lock-key-123', 'content-type': 'application/json' };
    expect((await fetch(`${first.url}/v1/project`, { method: 'POST', headers, body: JSON.stringify({ name: 'Kept' }) })).status).toBe(201);

    // Its lock ends with it, even with kill -9: the next server starts and finds the data.
    expect(await first.stop('SIGKILL')).toBeNull();
    const next = await server(['--data-dir', dataDir, ...key]);
    const list = (await (await fetch(`${next.url}/v1/project`, { headers })).json()) as { data: { name: string }[] };
    expect(list.data.map((project) => project.name)).toEqual(['Kept']);
  });

  it('refuses a browser host on a folder a server has, before it builds or opens anything', async () => {
    const dataDir = folder();
    const running = await server(['--data-dir', dataDir, ...key]);

    const host = await runBrowserHost(dataDir, 20_000);
    expect(host.code).toBe(1);
    const lines = host.output.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dataDir);
    expect(lines[0]).toContain(`server (pid ${running.child.pid}`);
  });
});
