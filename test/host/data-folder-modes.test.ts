/**
 * The data folder is for its owner only (docs/deployment.md "The data folder"; security audit N5
 * and I3): a server process under the usual umask (022) makes the folder 0700 and every file in
 * it 0600 (databases with their -wal and -shm, the lock, logs, attachments), and so are backups
 * and the folders a restore sets the old data aside in; a folder others may read is tightened at
 * start, and the server says so; a key file others may read is refused, as ssh refuses such a
 * private key. The tests may run as root, so they check modes, not what another user can open.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

const headers = { 'x-api-env': 'modes', 'x-api-key': 'modes-key-123' };
const keyArgs = ['--api-env', 'modes', '--api-key', 'modes-key-123'];
const servers: ServerProcess[] = [];
const folders: string[] = [];
let umaskBefore: number;

beforeAll(() => {
  // The usual umask, whatever the runner's: what a server made under it would leave open.
  umaskBefore = process.umask(0o022);
});

afterAll(() => {
  process.umask(umaskBefore);
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = tempDir('planner-modes-');
  folders.push(dir);
  return dir;
}

async function start(args: string[]): Promise<ServerProcess> {
  const server = await startServerProcess(args);
  servers.push(server);
  return server;
}

const modeOf = (path: string) => (lstatSync(path).mode & 0o777).toString(8);

/** Every folder and file under `root` (symbolic links left out) with its mode, e.g. `{'logs': '700', …}`. */
function modesUnder(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(root.length + 1)] = modeOf(path);
  }
  return out;
}

async function writeSomething(url: string): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status, path).toBe(201);
    return (await response.json()) as { id: string };
  };
  const board = await post('/v1/board', {
    name: 'Files',
    stages: [{ name: 'Only', priority: 0 }],
    statuses: [{ name: 'Open', entry: true }],
  });
  const collection = await post('/v1/collection', { name: 'With a file', board_id: board.id });
  const form = new FormData();
  form.append('file', new Blob([new TextEncoder().encode('drawing')], { type: 'text/plain' }), 'drawing.txt');
  const upload = await fetch(`${url}/v1/collection/${collection.id}/attachment/upload`, { method: 'POST', headers, body: form });
  expect(upload.status, await upload.clone().text()).toBe(201);
}

describe('a data folder the server makes', () => {
  it('is for its owner only, and so is everything in it, its backups and what a restore sets aside', async () => {
    const parent = folder();
    const data = join(parent, 'new', 'data');
    const server = await start(['--data-dir', data, ...keyArgs]);
    await writeSomething(server.url);

    expect(modeOf(join(parent, 'new'))).toBe('700');
    expect(modeOf(data)).toBe('700');
    const modes = modesUnder(data);
    const names = Object.keys(modes);
    // The databases with their WAL and shared memory, the lock, and an attachment in its folders.
    expect(names).toEqual(
      expect.arrayContaining(['system.sqlite', 'system.sqlite-wal', 'system.sqlite-shm', '.lock', '.lock-holder.json']),
    );
    expect(names.filter((n) => /^env-.*\.sqlite(-wal|-shm)$/.test(n))).toHaveLength(2);
    expect(names.filter((n) => /^attachments\/.+\/[0-9a-f]{64}$/.test(n))).toHaveLength(1);
    for (const [name, mode] of Object.entries(modes)) expect(mode, name).toBe(statSync(join(data, name)).isDirectory() ? '700' : '600');

    const backup = join(parent, 'planner.backup');
    const made = await runServerCommand(['backup', '--data-dir', data, '--to', backup]);
    expect(made.code, made.output).toBe(0);
    expect(modeOf(backup)).toBe('600');
    await server.stop();

    const restored = await runServerCommand(['restore', '--data-dir', data, '--backup', backup]);
    expect(restored.code, restored.output).toBe(0);
    const after = modesUnder(data);
    expect(Object.keys(after).filter((n) => n.startsWith('before-restore-')).length).toBeGreaterThan(1);
    for (const [name, mode] of Object.entries(after)) expect(mode, name).toBe(statSync(join(data, name)).isDirectory() ? '700' : '600');
  });
});

describe('a data folder that other users could read', () => {
  it('is tightened at start, with everything in it, and the server says so once', async () => {
    const data = folder();
    const first = await start(['--data-dir', data, ...keyArgs]);
    await writeSomething(first.url);
    await first.stop();
    // As an older version left it, with a file of the planner's own beside the databases.
    mkdirSync(join(data, 'notes'));
    writeFileSync(join(data, 'notes', 'todo.txt'), 'call the customer');
    const outside = join(folder(), 'shared.txt');
    writeFileSync(outside, 'for everyone');
    symlinkSync(outside, join(data, 'link-to-shared.txt'));
    for (const name of Object.keys(modesUnder(data))) chmodSync(join(data, name), statSync(join(data, name)).isDirectory() ? 0o755 : 0o644);
    chmodSync(data, 0o755);

    const server = await start(['--data-dir', data, ...keyArgs]);
    expect(server.output()).toContain(`The data folder ${data} was open to other users of this computer (mode 755)`);
    expect(modeOf(data)).toBe('700');
    for (const [name, mode] of Object.entries(modesUnder(data)))
      expect(mode, name).toBe(statSync(join(data, name)).isDirectory() ? '700' : '600');
    // What a link points at is not the folder's: left as it was.
    expect(modeOf(outside)).toBe('644');
    expect((await fetch(`${server.url}/v1/project`, { headers })).status).toBe(200);
    await server.stop();

    const again = await start(['--data-dir', data, ...keyArgs]);
    expect(again.output()).not.toContain('was open to other users');
  });
});

describe('a secret in a file others may read', () => {
  it('is refused, as ssh refuses such a private key, with the chmod that fixes it', async () => {
    const dir = folder();
    const data = join(dir, 'data');
    const secret = (name: string, mode: number, text = 'a-long-random-secret-123') => {
      const file = join(dir, name);
      writeFileSync(file, `${text}\n`);
      chmodSync(file, mode);
      return file;
    };
    const cases: [string[], string][] = [
      [['--api-env', 'modes', '--api-key-file', secret('world', 0o644)], 'world'],
      [['--api-env', 'modes', '--api-key-file', secret('group', 0o640)], 'group'],
      [['--api-env', 'modes', '--api-key-file', secret('writable', 0o620)], 'writable'],
      [['--health-token-file', secret('health', 0o604)], 'health'],
      [
        [
          '--api-env',
          'modes',
          '--api-key',
          'k',
          '--remote',
          'http://127.0.0.1:1',
          '--remote-api-env',
          'x',
          '--remote-api-key-file',
          secret('remote', 0o644),
        ],
        'remote',
      ],
    ];
    for (const [args, name] of cases) {
      const file = join(dir, name);
      const refused = await runServerCommand(['--data-dir', data, ...args]);
      expect(refused.code, refused.output).toBe(2);
      const option = args.find((a) => a.endsWith('-file'))!;
      expect(refused.output.split('\n')[0]).toBe(
        `${option} ${file} can be read or changed by other users of this computer (mode ${modeOf(file)}); a secret must be readable by its owner alone: run chmod 600 ${file}`,
      );
    }
    // Nothing was made: the folder is not there.
    expect(() => statSync(data)).toThrow();

    const server = await start(['--data-dir', data, '--api-env', 'modes', '--api-key-file', secret('owner', 0o600, 'modes-key-123')]);
    expect((await fetch(`${server.url}/v1/project`, { headers })).status).toBe(200);
  });
});
