/**
 * A server whose disk is full (docs/API.md "Errors"): a write answers 507 with the error body,
 * reads go on, and once there is room again writes do too, without a restart. A full disk is
 * made as the security audit made it: a file size limit (RLIMIT_FSIZE, set on the running
 * server with `prlimit`), at which the database's WAL stops growing (EFBIG, which SQLite reports
 * as a disk I/O error).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../helpers/api-errors.js';
import { tempDir } from '../helpers/api.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

const headers = { 'x-api-env': 'full', 'x-api-key': 'full-key-123', 'content-type': 'application/json' };
const servers: ServerProcess[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The soft file size limit of a running process (`unlimited` or bytes); the hard one stays. */
function limitFileSize(pid: number, limit: number | 'unlimited'): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${limit}:`]);
}

function largestFile(folder: string): number {
  return Math.max(...readdirSync(folder).map((name) => statSync(join(folder, name)).size));
}

const createProject = (url: string, i: number) =>
  fetch(`${url}/v1/project`, { method: 'POST', headers, body: JSON.stringify({ name: `p${i}`, description: 'y'.repeat(2000) }) });

describe('a server whose disk is full', () => {
  it('answers a write 507 with the error body, goes on reading, and writes again once there is room', async () => {
    const folder = tempDir('planner-full-');
    folders.push(folder);
    const server = await startServerProcess(['--data-dir', folder, '--api-env', 'full', '--api-key', 'full-key-123']);
    servers.push(server);
    expect((await createProject(server.url, 0)).status).toBe(201);

    // Room for a few more writes, then none.
    limitFileSize(server.child.pid!, largestFile(folder) + 16 * 1024);
    const statuses: number[] = [];
    let refusal: any;
    for (let i = 1; i <= 200 && refusal === undefined; i++) {
      const response = await createProject(server.url, i);
      statuses.push(response.status);
      if (response.status !== 201) refusal = await response.json();
    }
    expect(statuses.at(-1), JSON.stringify(refusal)).toBe(507);
    expect(statuses.filter((s) => s !== 201 && s !== 507)).toEqual([]);
    expectErrorBody(refusal, 10507, 'Insufficient Storage');
    expect(refusal.errors[0].description).toMatch(/disk of the server is full/);
    // Another write meets the same full disk, and says the same.
    expect((await createProject(server.url, 1000)).status).toBe(507);

    const read = await fetch(`${server.url}/v1/project?limit=1000`, { headers });
    expect(read.status).toBe(200);
    const written = statuses.filter((s) => s === 201).length + 1;
    expect(((await read.json()) as { data: unknown[] }).data).toHaveLength(written);
    expect(server.output()).toMatch(/is full: writes are answered 507/);

    limitFileSize(server.child.pid!, 'unlimited');
    expect((await createProject(server.url, 2000)).status).toBe(201);
    expect(server.child.exitCode).toBeNull();
  });
});
