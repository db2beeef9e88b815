import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/host/browser-host.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { tempDir } from '../helpers/api.js';

let folder: string;
let instance: LocalInstance;
let host: BrowserHost;
let cookie: string;
/** The page key, from the address the host prints: what the page sends on every bridge call. */
let key: string;

/** fetch cannot set Host; this can. */
function rawGet(port: number, path: string, hostHeader: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: hostHeader } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });
}

const bridge = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${host.url}bridge/request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-planner-bridge': '1', 'x-planner-page-key': key, cookie, ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  folder = tempDir('planner-host-');
  const rendererDir = join(folder, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Planner</title>');
  mkdirSync(join(rendererDir, 'floor'));
  writeFileSync(join(rendererDir, 'floor', 'index.html'), '<!doctype html><title>Planner floor</title>');
  writeFileSync(join(rendererDir, 'floor', 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(rendererDir, 'floor', 'manifest.webmanifest'), '{"name": "Planner floor"}');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(folder, 'secret.txt'), 'do not serve');
  instance = await openLocalInstance(join(folder, 'data'));
  host = await startBrowserHost({ instance, rendererDir });
  const page = await fetch(host.openUrl);
  cookie = (page.headers.get('set-cookie') ?? '').split(';')[0]!;
  key = new URL(host.openUrl).searchParams.get('key')!;
});

afterAll(async () => {
  await host.close();
  await instance.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('browser host', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves the page with a strict CSP and an HttpOnly SameSite=Strict session cookie', async () => {
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-eval');
    const setCookie = page.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect((await fetch(`${host.url}assets/app.js`)).headers.get('content-type')).toContain('javascript');
  });

  it('serves the floor view, whose API calls reach the instance with their own token only, never the bridge key', async () => {
    const floor = await fetch(`${host.url}floor/`);
    expect(floor.status).toBe(200);
    expect(await floor.text()).toContain('Planner floor');
    expect(floor.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(floor.headers.get('set-cookie')).toBeNull();
    // Installable and offline: its service worker and manifest, as what they are, and no other file of the folder.
    const worker = await fetch(`${host.url}floor/sw.js`);
    expect(worker.headers.get('content-type')).toContain('javascript');
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${host.url}floor/manifest.webmanifest`)).headers.get('content-type')).toContain('application/manifest+json');
    expect((await fetch(`${host.url}floor/index.js`)).status).toBe(404);
    const environment = await fetch(`${host.url}v1/floor/sign_in`);
    expect(await environment.json()).toEqual({ environment: instance.environment.name });
    const wrong = await fetch(`${host.url}v1/floor/sign_in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ environment: instance.environment.name, email: 'nobody@example.com', password: 'wrong-password' }),
    });
    expect(wrong.status).toBe(401);
    // Without a token nothing opens, page key and session cookie or not; nor does the rest of the API.
    expect((await fetch(`${host.url}v1/floor/jobs`, { headers: { cookie, 'x-planner-page-key': key } })).status).toBe(401);
    expect((await fetch(`${host.url}v1/project`, { headers: { cookie, 'x-planner-page-key': key } })).status).toBe(404);
    // A kiosk's calls (kiosk mode) reach the instance with their key: an unknown key is the instance's 401, by any method.
    for (const method of ['GET', 'DELETE']) {
      const kiosk = await fetch(`${host.url}v1/floor/kiosk`, { method, headers: { 'x-kiosk-key': 'kiosk.a.b.c' } });
      expect(kiosk.status, method).toBe(401);
      expect(JSON.stringify(await kiosk.json())).toMatch(/kiosk key is not known/);
    }
  });

  it('answers 421 to a request under any other host name (DNS rebinding)', async () => {
    expect(await rawGet(host.port, '/', `evil.example:${host.port}`)).toBe(421);
    expect(await rawGet(host.port, '/bridge/events', `attacker.test`)).toBe(421);
    expect(await rawGet(host.port, '/', `localhost:${host.port}`)).toBe(200);
  });

  it('never serves files outside the renderer folder', async () => {
    expect(await rawGet(host.port, '/../secret.txt', `127.0.0.1:${host.port}`)).toBe(404);
    expect(await rawGet(host.port, '/%2e%2e/secret.txt', `127.0.0.1:${host.port}`)).toBe(404);
  });

  it('answers bridge requests from the page, adding the credentials itself', async () => {
    const created = await ((await bridge({ method: 'POST', path: '/v1/project', body: { name: 'Via bridge' } })).json() as Promise<any>);
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Via bridge');
    expect(created.headers['content-type']).toContain('application/json');
    const listed = await ((await bridge({ method: 'GET', path: '/v1/project', query: { sort: 'name:desc' } })).json() as Promise<any>);
    expect(listed.body.count).toBe(1);
  });

  it('refuses bridge calls without the session cookie, from another origin, or without the bridge header', async () => {
    expect((await bridge({ method: 'GET', path: '/v1/project' }, { cookie: '' })).status).toBe(401);
    expect((await bridge({ method: 'GET', path: '/v1/project' }, { cookie: `planner_session_${host.port}=guess` })).status).toBe(401);
    expect((await bridge({ method: 'GET', path: '/v1/project' }, { origin: 'https://evil.example' })).status).toBe(401);
    expect((await bridge({ method: 'GET', path: '/v1/project' }, { 'x-planner-bridge': '0' })).status).toBe(400);
  });

  it('tells the page where the data folder is, and only the page', async () => {
    const folderAt = (headers: Record<string, string>) =>
      fetch(`${host.url}host/data-folder`, { headers: { 'x-planner-bridge': '1', 'x-planner-page-key': key, cookie, ...headers } });
    const answer = await folderAt({});
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ path: join(folder, 'data') });
    expect((await folderAt({ cookie: '' })).status).toBe(401);
    expect((await folderAt({ origin: 'https://evil.example' })).status).toBe(401);
    expect((await folderAt({ 'x-planner-bridge': '0' })).status).toBe(400);
  });

  it('refuses malformed bridge payloads with 400 and changes nothing', async () => {
    const before = ((await (await bridge({ method: 'GET', path: '/v1/project' })).json()) as any).body.count;
    for (const payload of [
      [1, 2],
      { method: 'PATCH', path: '/v1/project' },
      { method: 'POST', path: '/v1/../v1/project', body: { name: 'x' } },
      { method: 'POST', path: '/bridge/request', body: {} },
      { method: 'GET', path: '/v1/project', query: { limit: 5 } },
      { method: 'POST', path: '/v1/project', body: { name: 'x' }, extra: true },
    ]) {
      const res = await bridge(payload);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).errors[0].message).toBe('Bad Request');
    }
    expect(((await (await bridge({ method: 'GET', path: '/v1/project' })).json()) as any).body.count).toBe(before);
  });

  const newCollection = async (name: string) => {
    const board = ((await (await bridge({ method: 'POST', path: '/v1/board', body: { name } })).json()) as any).body;
    return ((await (await bridge({ method: 'POST', path: '/v1/collection', body: { name, board_id: board.id } })).json()) as any).body;
  };

  it('carries an upload to the multipart route and its download back, and refuses a malformed one', async () => {
    const collection = await newCollection('Files');
    const content = Buffer.from('hello, planner\n');
    const path = `/v1/collection/${collection.id}/attachment/upload`;
    const uploaded = (await (
      await bridge({ method: 'POST', path, upload: { filename: 'note.txt', contentType: 'text/plain', data: content.toString('base64') } })
    ).json()) as any;
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ filename: 'note.txt', bytes: content.length, content_type: 'text/plain' });
    const downloaded = (await (
      await bridge({ method: 'GET', path: `/v1/collection/${collection.id}/attachment/${uploaded.body.id}/download` })
    ).json()) as any;
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers['content-disposition']).toContain('note.txt');
    // Text comes back as text; other types as base64 (shared/bridge-body.ts).
    expect(downloaded.body).toBe('hello, planner\n');
    const refused = await bridge({ method: 'POST', path, upload: { filename: 'note.txt', contentType: 'text/plain', data: '%%%' } });
    expect(refused.status).toBe(400);
  });

  it('takes an upload larger than an ordinary JSON body', async () => {
    const collection = await newCollection('Big files');
    const content = Buffer.alloc(21 * 1024 * 1024, 7);
    const res = await bridge({
      method: 'POST',
      path: `/v1/collection/${collection.id}/attachment/upload`,
      upload: { filename: 'big.bin', contentType: 'application/octet-stream', data: content.toString('base64') },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).body).toMatchObject({ bytes: content.length });
  });

  it('streams change events to the page', async () => {
    const controller = new AbortController();
    const events = await fetch(`${host.url}bridge/events?key=${key}`, { headers: { cookie }, signal: controller.signal });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const reader = events.body!.getReader();
    const received = (async () => {
      let text = '';
      for (let i = 0; i < 20 && !text.includes('data:'); i++) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text;
    })();
    await bridge({ method: 'POST', path: '/v1/project', body: { name: 'Evented' } });
    const text = await received;
    controller.abort();
    const line = text.split('\n').find((l) => l.startsWith('data:'))!;
    expect(JSON.parse(line.slice(5))).toEqual([expect.objectContaining({ resource: 'project', op: 'create' })]);
  });
});

describe('the session cookie, which browsers also send to every other port of 127.0.0.1', () => {
  it('is named after the host’s port', () => {
    expect(cookie).toMatch(new RegExp(`^planner_session_${host.port}=[\\w-]{43}$`));
  });

  it('opens nothing without the page key: replayed from a script, as another local server receiving it would', async () => {
    // What a server on another port gets from the browser, sent back from a script: the
    // cookie and the bridge header, no Origin, and no page key, which only this host's page has.
    const noKey = { 'x-planner-page-key': '' };
    expect((await bridge({ method: 'GET', path: '/v1/me' }, noKey)).status).toBe(401);
    expect(
      (await bridge({ method: 'POST', path: '/v1/project', body: { name: 'Replayed' } }, { 'x-planner-page-key': 'guess' })).status,
    ).toBe(401);
    expect((await fetch(`${host.url}host/data-folder`, { headers: { 'x-planner-bridge': '1', cookie } })).status).toBe(401);
    expect((await fetch(`${host.url}bridge/events`, { headers: { cookie } })).status).toBe(401);
    expect((await fetch(`${host.url}bridge/events?key=guess`, { headers: { cookie } })).status).toBe(401);
    const names = ((await (await bridge({ method: 'GET', path: '/v1/project', query: { filter: "name:eq:'Replayed'" } })).json()) as any)
      .body.count;
    expect(names).toBe(0);
  });

  it('does not give the page key to whoever loads the page', async () => {
    for (const address of [host.url, `${host.url}index.html`, `${host.url}assets/app.js`]) {
      const answer = await fetch(address, { headers: { cookie } });
      expect(await answer.text()).not.toContain(key);
      expect(JSON.stringify([...answer.headers])).not.toContain(key);
    }
  });

  it('takes neither the cookie nor the key of a host on another port, and answers no Host header with another port', async () => {
    const other = await startBrowserHost({ instance, rendererDir: join(folder, 'renderer') });
    try {
      const otherCookie = ((await fetch(other.openUrl)).headers.get('set-cookie') ?? '').split(';')[0]!;
      const otherKey = new URL(other.openUrl).searchParams.get('key')!;
      expect(otherCookie).toMatch(new RegExp(`^planner_session_${other.port}=`));
      expect(otherKey).not.toBe(key);
      expect((await bridge({ method: 'GET', path: '/v1/project' }, { cookie: otherCookie, 'x-planner-page-key': otherKey })).status).toBe(
        401,
      );
      expect(
        (await bridge({ method: 'GET', path: '/v1/project' }, { cookie: `planner_session_${host.port}=${otherCookie.split('=')[1]}` }))
          .status,
      ).toBe(401);
      expect(await rawGet(host.port, '/', `127.0.0.1:${other.port}`)).toBe(421);
    } finally {
      await other.close();
    }
  });
});
