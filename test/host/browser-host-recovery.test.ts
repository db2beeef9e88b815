/**
 * The browser host on a data folder with a broken database (security audit, finding 9): it
 * serves a recovery page at its usual address instead of exiting, and each way out works on
 * real files: start fresh (the broken file kept aside, byte for byte), restore a real backup
 * (uploaded, or by its path), open another data folder. Bad choices are refused with 4xx
 * and change nothing.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { serveDataFolder, type BrowserApp } from '../../electron/host/browser-app.js';
import { openLocalInstance } from '../../electron/host/local-instance.js';
import { writeBackup } from '../../electron/store/backup/backup-file.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { DataDirLock } from '../../electron/store/data-dir-lock.js';
import { tempDir } from '../helpers/api.js';
import { damagePages, environmentFileIn, keptFolders, overwriteStart, sha256Of } from '../helpers/broken-data.js';

let folder: string;
let rendererDir: string;
let served: BrowserApp | undefined;

beforeAll(() => {
  folder = tempDir('planner-recovery-');
  rendererDir = join(folder, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Planner app</title>');
});

afterEach(async () => {
  await served?.stop();
  served = undefined;
});

afterAll(() => rmSync(folder, { recursive: true, force: true }));

let folders = 0;

/** A data folder the app used, with the projects named, and a backup of it made then. */
async function usedFolder(projects: string[]): Promise<{ dataPath: string; backup: string }> {
  const dataPath = join(folder, `data-${++folders}`);
  const instance = await openLocalInstance(dataPath);
  for (const name of projects) expect((await instance.request({ method: 'POST', path: '/v1/project', body: { name } })).status).toBe(201);
  const backup = join(folder, `Planner backup ${folders}.sqlite`);
  await writeBackup(instance.dataDir, backup, { appVersion: '0.1.0' });
  await instance.close();
  return { dataPath, backup };
}

async function serve(dataPath: string): Promise<BrowserApp> {
  served = await serveDataFolder({ dataPath, lock: DataDirLock.acquire(dataPath, 'browser host'), rendererDir });
  return served;
}

/** The page as the planner's browser has it: opened from the printed address. */
async function openPage(
  app: BrowserApp,
): Promise<{ html: string; status: number; cookie: string; key: string; csp: string | null; referrerPolicy: string | null }> {
  const answer = await fetch(app.host.openUrl, { headers: { accept: 'text/html' } });
  return {
    status: answer.status,
    referrerPolicy: answer.headers.get('referrer-policy'),
    html: await answer.text(),
    cookie: (answer.headers.get('set-cookie') ?? '').split(';')[0]!,
    key: new URL(app.host.openUrl).searchParams.get('key')!,
    csp: answer.headers.get('content-security-policy'),
  };
}

/** A recovery form sent as the browser sends it (same origin, asking for HTML). */
function choose(app: BrowserApp, action: string, fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}) {
  return fetch(`${app.host.url}recovery/${action}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      origin: app.host.url.slice(0, -1),
      cookie,
      ...headers,
    },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
}

function bridge(app: BrowserApp, page: { cookie: string; key: string }, path: string) {
  return fetch(`${app.host.url}bridge/request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-planner-bridge': '1', 'x-planner-page-key': page.key, cookie: page.cookie },
    body: JSON.stringify({ method: 'GET', path, query: { sort: 'name' } }),
  });
}

async function projectNames(app: BrowserApp, page: { cookie: string; key: string }): Promise<string[]> {
  const answer = (await (await bridge(app, page, '/v1/project')).json()) as { status: number; body: { data: { name: string }[] } };
  expect(answer.status).toBe(200);
  return answer.body.data.map((project) => project.name);
}

describe('the browser host on a damaged environment file', () => {
  it('serves the recovery page at the printed address, naming the file and offering the three ways out', async () => {
    const { dataPath } = await usedFolder(['Kitchen']);
    const file = environmentFileIn(dataPath);
    damagePages(file);
    const app = await serve(dataPath);
    expect(app.recovery?.facts).toMatchObject({ file, problem: 'corrupt' });

    const page = await openPage(app);
    expect(page.status).toBe(200);
    expect(page.html).toContain(file.split('/').pop()!);
    expect(page.html).toContain(dataPath);
    expect(page.html).toContain('the file is damaged');
    for (const way of ['Restore a backup', 'Start fresh', 'Open another data folder']) expect(page.html).toContain(way);
    expect(page.csp).toMatch(/default-src 'none'/);
    // Under no-referrer a browser's form would say `Origin: null`, which the host refuses.
    expect(page.referrerPolicy).toBe('same-origin');
    expect(page.html).toContain('<meta name="referrer" content="same-origin">');
    expect(page.cookie).toMatch(new RegExp(`^planner_session_${app.host.port}=`));

    // Without the page key, nothing about the data: only where to find the address.
    const bare = await (await fetch(app.host.url)).text();
    expect(bare).not.toContain(dataPath);
    expect(bare).toContain('Open the address Planner printed');
    // The bridge waits for the data: 503 with the error body.
    const waiting = await bridge(app, page, '/v1/project');
    expect(waiting.status).toBe(503);
    expect(((await waiting.json()) as { errors: { code: number }[] }).errors[0]!.code).toBe(10503);
  });

  it('starts fresh: the broken file is kept aside byte for byte, then the app is served', async () => {
    const { dataPath } = await usedFolder(['Kitchen']);
    const file = environmentFileIn(dataPath);
    damagePages(file);
    const damaged = sha256Of(file);
    const app = await serve(dataPath);
    const page = await openPage(app);

    const answer = await choose(app, 'start-fresh', { key: page.key }, page.cookie);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/?key=${encodeURIComponent(page.key)}`);

    const [aside] = keptFolders(dataPath, 'broken-');
    expect(aside).toBeDefined();
    const kept = join(aside!, file.split('/').pop()!);
    expect(sha256Of(kept)).toBe(damaged);
    expect(await (await fetch(app.host.url)).text()).toContain('<title>Planner app</title>');
    expect(await projectNames(app, page)).toEqual([]);
    expect(app.host.served()?.instance.dataDir.path).toBe(dataPath);
  });

  it('restores a real backup uploaded through the page, keeping the damaged file in before-restore', async () => {
    const { dataPath, backup } = await usedFolder(['Kitchen', 'Bathroom']);
    const file = environmentFileIn(dataPath);
    damagePages(file);
    const damaged = sha256Of(file);
    const app = await serve(dataPath);
    const page = await openPage(app);

    const form = new FormData();
    form.append('key', page.key);
    form.append('path', '');
    form.append('file', new Blob([readFileSync(backup)]), 'Planner backup.sqlite');
    const answer = await fetch(`${app.host.url}recovery/restore`, {
      method: 'POST',
      headers: { accept: 'text/html', cookie: page.cookie },
      body: form,
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);

    expect(await projectNames(app, page)).toEqual(['Bathroom', 'Kitchen']);
    const [aside] = keptFolders(dataPath, 'before-restore-');
    expect(sha256Of(join(aside!, file.split('/').pop()!))).toBe(damaged);
  });

  it('restores a backup by the path typed in', async () => {
    const { dataPath, backup } = await usedFolder(['Garden']);
    damagePages(environmentFileIn(dataPath));
    const app = await serve(dataPath);
    const page = await openPage(app);
    const form = new FormData();
    form.append('key', page.key);
    form.append('path', backup);
    const answer = await fetch(`${app.host.url}recovery/restore`, {
      method: 'POST',
      headers: { cookie: page.cookie },
      body: form,
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);
    expect(await projectNames(app, page)).toEqual(['Garden']);
  });

  it('refuses what is not a Planner backup with 4xx and the reason, and changes nothing', async () => {
    const { dataPath } = await usedFolder(['Kitchen']);
    const file = environmentFileIn(dataPath);
    damagePages(file);
    const damaged = sha256Of(file);
    const app = await serve(dataPath);
    const page = await openPage(app);
    const notABackup = join(folder, 'notes.sqlite');
    writeFileSync(notABackup, 'just some notes');

    const send = (fields: Record<string, string | Blob>, accept = 'text/html') => {
      const form = new FormData();
      form.append('key', page.key);
      for (const [name, value] of Object.entries(fields)) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, value, name === 'file' ? 'notes.sqlite' : name);
      }
      return fetch(`${app.host.url}recovery/restore`, {
        method: 'POST',
        headers: { accept, cookie: page.cookie },
        body: form,
        redirect: 'manual',
      });
    };
    const typed = await send({ path: notABackup });
    expect(typed.status).toBe(422);
    const html = await typed.text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('Restore a backup');
    const uploaded = await send({ file: new Blob(['just some notes']) }, 'application/json');
    expect(uploaded.status).toBe(422);
    expect(((await uploaded.json()) as { errors: { code: number; description: string }[] }).errors[0]).toMatchObject({ code: 10422 });
    expect((await send({ path: 'relative/backup.sqlite' })).status).toBe(422);
    expect((await send({ path: join(folder, 'backup.txt') })).status).toBe(422);
    expect((await send({ path: join(folder, 'missing.sqlite') })).status).toBe(422);
    expect((await send({})).status).toBe(400);

    expect(sha256Of(file)).toBe(damaged);
    expect(keptFolders(dataPath, 'before-restore-')).toEqual([]);
    expect(app.host.served()).toBeUndefined();
  });

  it('opens another data folder the planner names, and leaves this one as it is', async () => {
    const { dataPath } = await usedFolder(['Kitchen']);
    const file = environmentFileIn(dataPath);
    damagePages(file);
    const damaged = sha256Of(file);
    const app = await serve(dataPath);
    const page = await openPage(app);
    const other = join(folder, 'other-data');

    expect((await choose(app, 'open-folder', { key: page.key, folder: 'not/a/full/path' }, page.cookie)).status).toBe(422);
    const answer = await choose(app, 'open-folder', { key: page.key, folder: other }, page.cookie);
    expect(answer.status).toBe(303);
    const where = await fetch(`${app.host.url}host/data-folder`, {
      headers: { 'x-planner-bridge': '1', 'x-planner-page-key': page.key, cookie: page.cookie },
    });
    expect(await where.json()).toEqual({ path: other });
    expect(app.dataPath()).toBe(other);
    expect(sha256Of(file)).toBe(damaged);
    // The first folder is let go: another process may take it now.
    DataDirLock.acquire(dataPath, 'browser host').release();
  });

  it('takes no choice without the page key or from another origin, and none once the data is open', async () => {
    const { dataPath } = await usedFolder(['Kitchen']);
    const file = environmentFileIn(dataPath);
    damagePages(file);
    const app = await serve(dataPath);
    const page = await openPage(app);

    expect((await choose(app, 'start-fresh', {}, page.cookie)).status).toBe(401);
    expect((await choose(app, 'start-fresh', { key: 'guess' }, page.cookie)).status).toBe(401);
    expect((await choose(app, 'start-fresh', { key: page.key }, '')).status).toBe(401);
    expect((await choose(app, 'start-fresh', { key: page.key }, page.cookie, { origin: 'http://127.0.0.1:4701' })).status).toBe(401);
    const json = await choose(app, 'start-fresh', { key: 'guess' }, page.cookie, { accept: 'application/json' });
    expect(((await json.json()) as { errors: { code: number }[] }).errors[0]!.code).toBe(10401);
    expect(existsSync(file)).toBe(true);
    expect(keptFolders(dataPath, 'broken-')).toEqual([]);

    expect((await choose(app, 'start-fresh', { key: page.key }, page.cookie)).status).toBe(303);
    const again = await choose(app, 'start-fresh', { key: page.key }, page.cookie, { accept: 'application/json' });
    expect(again.status).toBe(409);
    expect(keptFolders(dataPath, 'broken-')).toHaveLength(1);
  });
});

describe('the browser host on an overwritten system.sqlite', () => {
  it('names system.sqlite, and starting fresh keeps every database file of the folder aside', async () => {
    const { dataPath } = await usedFolder(['Kitchen']);
    const system = DataDir.systemFile(dataPath);
    const environment = environmentFileIn(dataPath);
    overwriteStart(system);
    const digests = { system: sha256Of(system), environment: sha256Of(environment) };
    const app = await serve(dataPath);
    const page = await openPage(app);
    expect(page.html).toContain('<code>system.sqlite</code>');
    expect(page.html).toContain('not a Planner database');

    expect((await choose(app, 'start-fresh', { key: page.key }, page.cookie)).status).toBe(303);
    const [aside] = keptFolders(dataPath, 'broken-');
    expect(sha256Of(join(aside!, 'system.sqlite'))).toBe(digests.system);
    expect(sha256Of(join(aside!, environment.split('/').pop()!))).toBe(digests.environment);
    expect(await projectNames(app, page)).toEqual([]);
  });
});
