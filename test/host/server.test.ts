import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

let server: ServerProcess | undefined;
let remote: ServerProcess | undefined;
const folders: string[] = [];

afterEach(async () => {
  await server?.stop();
  server = undefined;
  await remote?.stop();
  remote = undefined;
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

describe('npm run server: keys off the command line', () => {
  /** A key file only its owner reads, ending in a newline as editors save it. */
  function keyFile(key: string): string {
    const file = join(folder(), 'key');
    writeFileSync(file, `${key}\n`, { mode: 0o600 });
    return file;
  }

  async function projects(url: string, env: string, key: string): Promise<number> {
    return (await fetch(`${url}/v1/project`, { headers: { 'x-api-env': env, 'x-api-key': key } })).status;
  }

  it('opens the environment with a key from --api-key-file or PLANNER_API_KEY, and the key is not in its command line', async () => {
    const dataDir = folder();
    server = await startServerProcess(['--data-dir', dataDir, '--api-env', 'demo', '--api-key-file', keyFile('key-from-a-file')]);
    expect(await projects(server.url, 'demo', 'key-from-a-file')).toBe(200);
    // What ps shows of the server: its arguments name the file, not the key.
    const commandLine = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8');
    expect(commandLine).toContain('--api-key-file');
    expect(commandLine).not.toContain('key-from-a-file');
    await server.stop();

    server = await startServerProcess(['--data-dir', dataDir, '--api-env', 'demo'], 30_000, {
      PLANNER_API_KEY: 'key-from-the-environment',
    });
    expect(await projects(server.url, 'demo', 'key-from-the-environment')).toBe(200);
    expect(readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8')).not.toContain('key-from-the-environment');
  });

  it('syncs with a remote whose key comes from --remote-api-key-file or PLANNER_REMOTE_API_KEY', async () => {
    remote = await startServerProcess(['--data-dir', folder(), '--api-env', 'demo', '--api-key', 'remote-key-123']);
    const local = { 'x-api-env': 'local', 'x-api-key': 'local-key-123', 'content-type': 'application/json' };
    const replicas: [string[], Record<string, string>][] = [
      [['--remote-api-key-file', keyFile('remote-key-123')], {}],
      [[], { PLANNER_REMOTE_API_KEY: 'remote-key-123' }],
    ];
    for (const [index, [keyArgs, env]] of replicas.entries()) {
      const replica = [
        '--data-dir',
        folder(),
        '--api-env',
        'local',
        '--api-key',
        'local-key-123',
        '--remote',
        remote.url,
        '--remote-api-env',
        'demo',
        '--sync-interval-ms',
        '60000',
      ];
      server = await startServerProcess([...replica, ...keyArgs], 30_000, env);
      const name = `From replica ${index + 1}`;
      expect((await fetch(`${server.url}/v1/project`, { method: 'POST', headers: local, body: JSON.stringify({ name }) })).status).toBe(
        201,
      );
      const run = (await (await fetch(`${server.url}/v1/sync/run`, { method: 'POST', headers: local })).json()) as { error: string | null };
      expect(run.error).toBeNull();
      const onRemote = (await (
        await fetch(`${remote.url}/v1/project`, { headers: { 'x-api-env': 'demo', 'x-api-key': 'remote-key-123' } })
      ).json()) as { data: { name: string }[] };
      expect(onRemote.data.map((project) => project.name)).toContain(name);
      await server.stop();
      server = undefined;
    }
  });

  it('refuses a missing or empty key file, an empty PLANNER_API_KEY and a key given twice, with one clear line and exit code 2', async () => {
    const dataDir = folder();
    const empty = join(folder(), 'empty');
    // Its owner's alone, so that being empty is what is wrong with it (data-folder-modes.test.ts).
    writeFileSync(empty, '\n', { mode: 0o600 });
    const cases: [string[], Record<string, string>, string][] = [
      [['--api-key-file', join(dataDir, 'no-such-key')], {}, `--api-key-file ${join(dataDir, 'no-such-key')} cannot be read: no such file`],
      [['--api-key-file', empty], {}, `--api-key-file ${empty} is empty`],
      [[], { PLANNER_API_KEY: '' }, 'PLANNER_API_KEY is set but empty'],
      [['--api-key', 'one', '--api-key-file', keyFile('two')], {}, 'give --api-key or --api-key-file, not both'],
      [
        ['--remote', 'http://127.0.0.1:1', '--remote-api-env', 'demo', '--remote-api-key-file', empty, '--api-key', 'k'],
        {},
        `--remote-api-key-file ${empty} is empty`,
      ],
    ];
    for (const [args, env, message] of cases) {
      const refused = await runServerCommand(['--data-dir', dataDir, '--api-env', 'demo', ...args], 30_000, env);
      expect(refused.code, message).toBe(2);
      expect(refused.output.split('\n')[0], message).toBe(message);
    }
    // Nothing was opened: the data folder holds no database.
    expect(existsSync(join(dataDir, 'system.sqlite'))).toBe(false);
  });
});
