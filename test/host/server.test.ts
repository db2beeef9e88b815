import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

let server: ServerProcess | undefined;
const folders: string[] = [];

afterEach(async () => {
  await server?.stop();
  server = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder() {
  const dir = tempDir('planner-server-');
  folders.push(dir);
  return dir;
}

describe('npm run server', () => {
  it('serves the API on 127.0.0.1 with the given environment and key', async () => {
    const dataDir = folder();
    server = await startServerProcess(['--data-dir', dataDir, '--api-env', 'demo', '--api-key', 'secret']);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const ok = await fetch(`${server.url}/v1/project`, { headers: { 'x-api-key': 'secret', 'x-api-env': 'demo' } });
    expect(ok.status).toBe(200);
    expect((await ok.json()) as any).toEqual({ count: 0, limit: 100, offset: 0, data: [] });

    const wrong = await fetch(`${server.url}/v1/project`, { headers: { 'x-api-key': 'nope', 'x-api-env': 'demo' } });
    expect(wrong.status).toBe(401);
    const body = (await wrong.json()) as any;
    expect(body.errors[0]).toMatchObject({ message: 'Not Logged In' });
    expect(body.reference).toBeTruthy();
  });

  it('creates an environment and key on an empty data folder and prints them once', async () => {
    const dataDir = folder();
    server = await startServerProcess(['--data-dir', dataDir]);
    const m = /Created environment "default" with API key (\S+)/.exec(server.output());
    expect(m).not.toBeNull();
    const res = await fetch(`${server.url}/v1/project`, { headers: { 'x-api-key': m![1]!, 'x-api-env': 'default' } });
    expect(res.status).toBe(200);
    await server.stop();

    // The second start finds the environment and does not print a key again.
    server = await startServerProcess(['--data-dir', dataDir]);
    expect(server.output()).not.toContain('Created environment');
  });

  it('keeps data across restarts and closes the database cleanly on SIGTERM and SIGINT', async () => {
    const dataDir = folder();
    const headers = { 'x-api-key': 'secret', 'x-api-env': 'demo', 'content-type': 'application/json' };
    server = await startServerProcess(['--data-dir', dataDir, '--api-env', 'demo', '--api-key', 'secret']);
    await fetch(`${server.url}/v1/project`, { method: 'POST', headers, body: JSON.stringify({ name: 'Survives' }) });
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('databases closed');

    server = await startServerProcess(['--data-dir', dataDir, '--api-env', 'demo', '--api-key', 'secret']);
    const list = await ((await fetch(`${server.url}/v1/project`, { headers })).json() as Promise<any>);
    expect(list.data.map((p: { name: string }) => p.name)).toEqual(['Survives']);
    expect(await server.stop('SIGINT')).toBe(0);
    server = undefined;

    // A cleanly closed WAL database has been checkpointed: no -wal file is left behind.
    const systemDb = join(dataDir, 'system.sqlite');
    expect(existsSync(`${systemDb}-wal`)).toBe(false);
    const db = new Database(systemDb, { readonly: true });
    expect((db.prepare('SELECT count(*) AS n FROM environment').get() as { n: number }).n).toBe(1);
    db.close();
  });

  it('refuses unknown options and a missing data folder with a usage line and exit code 2', async () => {
    const unknown = await runServerCommand(['--data-dir', folder(), '--prot', '1']);
    expect(unknown.code).toBe(2);
    expect(unknown.output).toContain('unknown option --prot');
    const missing = await runServerCommand([]);
    expect(missing.code).toBe(2);
    expect(missing.output).toContain('--data-dir is required');
  });
});
