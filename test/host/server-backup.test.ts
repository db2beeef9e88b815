/**
 * `npm run server -- backup` (docs/deployment.md "Backups"): a backup made while a real server
 * process runs and writes, restored with `restore` into another folder, serves what was there
 * when the backup was made.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

const folders: string[] = [];
const folder = () => {
  const made = tempDir('planner-backup-cli-');
  folders.push(made);
  return made;
};
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

const key = 'backup-test-key-1234';
const env = { PLANNER_API_KEY: key };
const start = async (dataDir: string) => {
  const server = await startServerProcess(['--data-dir', dataDir, '--api-env', 'shop'], 30_000, env);
  servers.push(server);
  return server;
};
const call = async (server: ServerProcess, method: string, path: string, body?: unknown) => {
  const response = await fetch(server.url + path, {
    method,
    headers: { 'x-api-key': key, 'x-api-env': 'shop', ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as any };
};

describe('backup', () => {
  it('backs up a running server, and restore brings back what was there then', async () => {
    const data = folder();
    const server = await start(data);
    expect((await call(server, 'POST', '/v1/board', { name: 'Before the backup' })).status).toBe(201);
    const file = join(folder(), 'shop.planner-backup');
    const run = await runServerCommand(['backup', '--data-dir', data, '--to', file]);
    expect(run.output).toMatch(/Backed up 1 environment and 0 attachment files to .*shop\.planner-backup \(\d+\.\d MiB\)\./);
    expect(run.code).toBe(0);
    // The server goes on serving and writing meanwhile.
    expect((await call(server, 'POST', '/v1/board', { name: 'After the backup' })).status).toBe(201);
    await server.stop();

    const restored = folder();
    const restore = await runServerCommand(['restore', '--data-dir', restored, '--backup', file]);
    expect(restore.code, restore.output).toBe(0);
    const again = await start(restored);
    const boards = await call(again, 'GET', '/v1/board');
    expect(boards.body.data.map((b: { name: string }) => b.name)).toEqual(['Before the backup']);
  });

  it('never overwrites a file, and says what is missing', async () => {
    const data = folder();
    const taken = join(folder(), 'taken.planner-backup');
    writeFileSync(taken, 'something else');
    const run = await runServerCommand(['backup', '--data-dir', data, '--to', taken]);
    expect(run.code).toBe(2);
    expect(run.output).toContain('exists already; a backup never overwrites a file');
    const missing = await runServerCommand(['backup', '--data-dir', data]);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('--to FILE is required');
    const nowhere = await runServerCommand(['backup', '--data-dir', join(data, 'nope'), '--to', join(data, 'x.backup')]);
    expect(nowhere.code).toBe(2);
    expect(existsSync(join(data, 'x.backup'))).toBe(false);
  });
});
