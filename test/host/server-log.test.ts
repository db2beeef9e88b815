/**
 * `npm run server -- --log` whose standard output cannot take the log: a file at its size
 * limit (how a full disk looks, made with `ulimit -f`) or a pipe that nobody reads. The
 * server keeps answering, says once that it drops log lines, and SIGTERM still stops it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { freePort } from '../helpers/ports.js';
import { startServerProcess } from '../helpers/process.js';

const root = resolve(import.meta.dirname, '..', '..');
const loader = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const entry = join(root, 'electron', 'host', 'server.ts');
const headers = { 'x-api-env': 'logged', 'x-api-key': 'logged-key-123' };
const keyArgs = ['--api-env', 'logged', '--api-key', 'logged-key-123'];

const children: ChildProcess[] = [];
const folders: string[] = [];
const descriptors: number[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const fd of descriptors.splice(0)) closeSync(fd);
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = tempDir('planner-log-');
  folders.push(dir);
  return dir;
}

interface Started {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** SIGTERM, then the exit code; SIGKILL (and null) when it does not stop within 15 s. */
  terminate(): Promise<number | null>;
}

/** The server with `stdout` as its standard output, ready once it answers on its port. */
async function startWithOutput(command: string, args: string[], stdout: number): Promise<Started> {
  const port = await freePort();
  const child = spawn(command, [...args, '--port', String(port)], { cwd: root, stdio: ['ignore', stdout, 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    const answer = await fetch(`${url}/v1/project?limit=1`, { headers, signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (answer?.status === 200) break;
    if (attempt >= 120 || child.exitCode !== null) throw new Error(`the server did not start:\n${stderr}`);
    await new Promise((wait) => setTimeout(wait, 250));
  }
  return {
    child,
    url,
    stderr: () => stderr,
    async terminate() {
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
}

/** `count` reads, each logging a line of about `padding` bytes; how many were answered 200 within 5 s each. */
async function readMany(url: string, count: number, padding: number): Promise<number> {
  const filter = encodeURIComponent(`name:eq:'${'x'.repeat(padding)}'`);
  let answered = 0;
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/v1/project?limit=1&filter=${filter}`, { headers, signal: AbortSignal.timeout(5000) }).catch(
      () => undefined,
    );
    if (response?.status !== 200) break;
    await response.arrayBuffer();
    answered++;
  }
  return answered;
}

const dropNotice = /log lines are dropped until it can be written again/g;

describe('npm run server --log with an output that cannot take the log', () => {
  it('keeps answering and stops on SIGTERM when standard output is a file at its size limit', async () => {
    const dataDir = folder();
    // The databases first, without a limit: only the log should meet it.
    const first = await startServerProcess(['--data-dir', dataDir, ...keyArgs]);
    await fetch(`${first.url}/v1/project`, { headers });
    await first.stop();

    const out = openSync(join(folder(), 'out.log'), 'w');
    descriptors.push(out);
    // SIGXFSZ ignored, so a write past the limit fails with EFBIG (as ENOSPC would) instead of killing it.
    const script = `trap '' XFSZ; ulimit -f 64; exec "$0" "$@"`;
    const server = await startWithOutput(
      'bash',
      ['-c', script, process.execPath, '--import', loader, entry, '--data-dir', dataDir, ...keyArgs, '--log'],
      out,
    );

    // About 1 KiB of log per request: 64 KiB are full after some 60.
    expect(await readMany(server.url, 150, 1000)).toBe(150);
    expect(server.stderr().match(dropNotice)).toHaveLength(1);
    expect(server.stderr()).toContain('EFBIG');
    expect(await server.terminate()).toBe(0);
  });

  it('keeps answering and stops on SIGTERM when standard output is a pipe nobody reads', async () => {
    const dataDir = folder();
    const fifo = join(folder(), 'unread');
    execFileSync('mkfifo', [fifo]);
    // Opened for reading and writing, so opening does not wait for a reader; nothing ever reads it.
    const pipe = openSync(fifo, 'r+');
    descriptors.push(pipe);
    const server = await startWithOutput(process.execPath, ['--import', loader, entry, '--data-dir', dataDir, ...keyArgs, '--log'], pipe);

    // About 4 KiB of log per request: the pipe (64 KiB) and what may wait for it (256 KiB) are full after some 80.
    expect(await readMany(server.url, 150, 4000)).toBe(150);
    expect(server.stderr().match(dropNotice)).toHaveLength(1);
    expect(await server.terminate()).toBe(0);
  });
});
