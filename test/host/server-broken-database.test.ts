/**
 * The headless server on a data folder with a broken database (security audit, finding 9), as
 * real processes: it stops with a non-zero exit naming the file, what is wrong, the folder and
 * the way back; its `start-fresh` and `restore` commands take that way back on real files,
 * keeping the broken file aside byte for byte, and the server then starts.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBackup } from '../../electron/store/backup/backup-file.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { tempDir } from '../helpers/api.js';
import { damagePages, environmentFileIn, keptFolders, overwriteStart, sha256Of } from '../helpers/broken-data.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

const envArgs = ['--api-env', 'alpha', '--api-key', 'alpha-key-123'];
const keyHeaders = { 'x-api-env': 'alpha', 'x-api-key': 'alpha-key-123' };
let server: ServerProcess | undefined;
const folders: string[] = [];

afterEach(async () => {
  await server?.stop();
  server = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * A server's data folder with environment `alpha` and the projects named, closed cleanly: by
 * a real server when there are projects to make, else as the server leaves it (its files made
 * in this process, which is quicker than a process more).
 */
async function serverFolder(projects: string[] = []): Promise<string> {
  const folder = tempDir('planner-broken-');
  folders.push(folder);
  if (projects.length === 0) {
    const dataDir = DataDir.open(folder);
    const environment = dataDir.system.ensureEnvironment('alpha');
    dataDir.system.ensureApiKey(environment.id, 'alpha-key-123', 'cli');
    dataDir.environment(environment.id);
    dataDir.close();
    return folder;
  }
  server = await startServerProcess(['--data-dir', folder, ...envArgs]);
  // The first request opens (makes) the environment's file.
  expect((await fetch(`${server.url}/v1/project`, { headers: keyHeaders })).status).toBe(200);
  for (const name of projects) {
    const made = await fetch(`${server.url}/v1/project`, {
      method: 'POST',
      headers: { ...keyHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(made.status).toBe(201);
  }
  expect(await server.stop()).toBe(0);
  server = undefined;
  return folder;
}

async function projectNames(url: string): Promise<string[]> {
  const answer = await fetch(`${url}/v1/project?sort=name`, { headers: keyHeaders });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { name: string }[] }).data.map((project) => project.name);
}

// Each case starts two or three real processes; on a busy machine that takes a while.
describe('npm run server on a broken database', { timeout: 120_000 }, () => {
  it('exits non-zero naming the damaged environment file, the folder and how to restore a backup', async () => {
    const folder = await serverFolder();
    const file = environmentFileIn(folder);
    damagePages(file);
    const damaged = sha256Of(file);
    const { code, output } = await runServerCommand(['--port', '0', '--data-dir', folder, ...envArgs]);
    expect(code).not.toBe(0);
    expect(output).toContain(file);
    expect(output).toContain('the file is damaged');
    expect(output).toContain(`Data folder: ${folder}`);
    expect(output).toMatch(/backup/);
    expect(output).toContain(`npm run server -- restore --data-dir "${folder}" --backup`);
    expect(output).not.toContain('listening on');
    expect(sha256Of(file)).toBe(damaged);
  });

  it('exits non-zero naming an overwritten system.sqlite', async () => {
    const folder = await serverFolder();
    overwriteStart(DataDir.systemFile(folder));
    const { code, output } = await runServerCommand(['--port', '0', '--data-dir', folder, ...envArgs]);
    expect(code).not.toBe(0);
    expect(output).toContain(DataDir.systemFile(folder));
    expect(output).toContain('not a Planner database');
    expect(output).toMatch(/backup/);
  });

  it('names the folders that keep earlier data', async () => {
    const folder = await serverFolder();
    damagePages(environmentFileIn(folder));
    expect((await runServerCommand(['start-fresh', '--data-dir', folder])).code).toBe(0);
    damagePages(DataDir.systemFile(folder), 0, 1);
    const { output } = await runServerCommand(['--port', '0', '--data-dir', folder, ...envArgs]);
    const [aside] = keptFolders(folder, 'broken-');
    expect(output).toContain(`Earlier data kept in this folder: ${aside!.split('/').pop()}`);
  });

  it('starts fresh with `start-fresh`: the damaged file kept aside byte for byte, and the server starts again', async () => {
    const folder = await serverFolder(['Kitchen']);
    const file = environmentFileIn(folder);
    damagePages(file);
    const damaged = sha256Of(file);
    const fresh = await runServerCommand(['start-fresh', '--data-dir', folder]);
    expect(fresh.code).toBe(0);
    const [aside] = keptFolders(folder, 'broken-');
    expect(fresh.output).toContain(aside!);
    expect(sha256Of(join(aside!, file.split('/').pop()!))).toBe(damaged);

    server = await startServerProcess(['--data-dir', folder, ...envArgs]);
    expect(await projectNames(server.url)).toEqual([]);
  });

  it('restores a real backup with `restore`, keeping the damaged file in before-restore', async () => {
    const folder = await serverFolder(['Kitchen', 'Bathroom']);
    const backup = join(folder, '..', `${folder.split('/').pop()}-backup.sqlite`);
    folders.push(backup);
    const dataDir = DataDir.open(folder);
    try {
      await writeBackup(dataDir, backup, { appVersion: '0.1.0' });
    } finally {
      dataDir.close();
    }
    const file = environmentFileIn(folder);
    damagePages(file);
    const damaged = sha256Of(file);

    const refused = await runServerCommand(['restore', '--data-dir', folder, '--backup', file]);
    expect(refused.code).not.toBe(0);
    expect(keptFolders(folder, 'before-restore-')).toEqual([]);
    expect(sha256Of(file)).toBe(damaged);

    const restored = await runServerCommand(['restore', '--data-dir', folder, '--backup', backup]);
    expect(restored.code).toBe(0);
    const [aside] = keptFolders(folder, 'before-restore-');
    expect(sha256Of(join(aside!, file.split('/').pop()!))).toBe(damaged);
    server = await startServerProcess(['--data-dir', folder, ...envArgs]);
    expect(await projectNames(server.url)).toEqual(['Bathroom', 'Kitchen']);
  });

  it('refuses `start-fresh` on a folder that opens, and moves nothing', async () => {
    const folder = await serverFolder(['Kitchen']);
    const { code, output } = await runServerCommand(['start-fresh', '--data-dir', folder]);
    expect(code).not.toBe(0);
    expect(output).toContain('opens as it is');
    expect(keptFolders(folder, 'broken-')).toEqual([]);
  });
});
