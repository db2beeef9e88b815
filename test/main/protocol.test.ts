/**
 * The `app://planner/` protocol against a real renderer folder on disk, with a secret file
 * placed where a path climbing out of that folder would land.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appEntryUrl, createRendererHandler, isAppUrl, registerAppScheme, serveRenderer } from '../../electron/main/protocol.js';
import { contentSecurityPolicy } from '../../electron/main/security.js';
import { tempDir } from '../helpers/api.js';

const fake = vi.hoisted(() => ({ registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() }));
vi.mock('electron', () => ({ protocol: fake }));

const secret = 'root:x:0:0:secret';
let folder: string;
let serve: (request: Request) => Promise<Response>;
const get = (url: string, method = 'GET') => serve(new Request(url, { method }));

beforeAll(() => {
  folder = tempDir();
  const renderer = join(folder, 'out', 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Planner</title>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log("planner")');
  writeFileSync(join(renderer, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(folder, 'out', 'secret.txt'), secret);
  writeFileSync(join(folder, 'secret.txt'), secret);
  serve = createRendererHandler(renderer);
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('registration', () => {
  it('registers app: as a standard, secure, fetch-capable scheme', () => {
    registerAppScheme();
    expect(fake.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
  });

  it('handles the app scheme with the renderer handler', () => {
    serveRenderer(join(folder, 'out', 'renderer'));
    expect(fake.handle).toHaveBeenCalledWith('app', expect.any(Function));
  });
});

describe('serving the renderer', () => {
  it('serves the entry page as HTML under the CSP', async () => {
    const response = await get(appEntryUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(contentSecurityPolicy);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Planner</title>');
  });

  it('serves the entry page for the bare origin', async () => {
    expect(await (await get('app://planner/')).text()).toContain('<title>Planner</title>');
  });

  it('serves assets with their content type', async () => {
    expect((await get('app://planner/assets/app.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('app://planner/assets/logo.svg')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers a missing file or a folder with 404', async () => {
    expect((await get('app://planner/nope.js')).status).toBe(404);
    expect((await get('app://planner/assets')).status).toBe(404);
  });

  it('answers only GET and HEAD', async () => {
    expect((await get('app://planner/index.html', 'POST')).status).toBe(405);
    const head = await get('app://planner/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves nothing for another host of the scheme', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
  });
});

describe('refusing paths that escape the renderer folder', () => {
  it.each([
    'app://planner/../../etc/passwd',
    'app://planner/../secret.txt',
    'app://planner/..%2fsecret.txt',
    'app://planner/..%2f..%2fsecret.txt',
    'app://planner/%2e%2e%2fsecret.txt',
    'app://planner/assets/..%2f..%2fsecret.txt',
    'app://planner/assets/%2e%2e/%2e%2e/%2e%2e/secret.txt',
    'app://planner/%2Fetc%2Fpasswd',
    'app://planner/index.html%00.js',
    'app://planner/%E0%A4%A',
  ])('refuses %s', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('secret');
  });
});

describe('isAppUrl', () => {
  it.each([
    ['app://planner/index.html', true],
    ['app://planner/', true],
    ['app://planner.evil.example/', false],
    ['app://user@planner/', false],
    ['app://other/', false],
    ['https://planner/', false],
    ['file:///planner/index.html', false],
    ['', false],
  ])('%s → %s', (url, expected) => {
    expect(isAppUrl(url)).toBe(expected);
  });
});
