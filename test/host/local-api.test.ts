/**
 * The local API over real HTTP on 127.0.0.1, on a real local instance (SQLite files in a temp
 * folder): off by default; on, it answers requests carrying its key with the local
 * environment's data and refuses everything else; a new key revokes the old one at once;
 * off frees the port; a busy port fails the switch and leaves it off. Then the browser host's
 * `/host/local-api` endpoints, which drive the same service for the page.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/host/browser-host.js';
import { LocalApi, localApiKeyLabel, localApiSettingsFile } from '../../electron/host/local-api.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { defaultLocalApiPort, parseLocalApiChange, type LocalApiOutcome, type LocalApiState } from '../../shared/local-api.js';
import { tempDir } from '../helpers/api.js';
import { connectTo, freePort, occupiedPort } from '../helpers/ports.js';

let folder: string;
let instance: LocalInstance;
let localApi: LocalApi;

async function open(): Promise<void> {
  localApi = new LocalApi({ dataPath: folder, instance: async () => instance });
}

beforeEach(async () => {
  folder = tempDir('planner-local-api-');
  instance = await openLocalInstance(folder);
  await open();
});

afterEach(async () => {
  await localApi.close();
  await instance.close();
  rmSync(folder, { recursive: true, force: true });
});

function call(port: number, path: string, headers: Record<string, string>, init: RequestInit = {}) {
  return fetch(`http://127.0.0.1:${port}${path}`, {
    ...init,
    headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
  });
}

const keyHeaders = (key: string, env = 'local') => ({ 'x-api-env': env, 'x-api-key': key });

/** fetch cannot set Host; this can. */
function statusWithHost(port: number, hostHeader: string, key: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/v1/project', headers: { host: hostHeader, ...keyHeaders(key) } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });
}

/** Switches on at a free port and returns the key made for it. */
async function switchOn(): Promise<{ port: number; key: string; outcome: LocalApiOutcome }> {
  const port = await freePort();
  const outcome = await localApi.change({ enabled: true, port });
  if (outcome.status !== 'done' || outcome.key === undefined)
    throw new Error(`switching on did not make a key: ${JSON.stringify(outcome)}`);
  return { port, key: outcome.key, outcome };
}

async function expectNotLoggedIn(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  const body = (await response.json()) as { reference: string; errors: { code: number; message: string }[] };
  expect(body.reference).toEqual(expect.any(String));
  expect(body.errors[0]).toMatchObject({ code: 10401, message: 'Not Logged In' });
}

describe('the local API', () => {
  it('is off by default, on the default port, with no key and nothing listening', async () => {
    const state = await localApi.state();
    expect(state).toEqual({
      enabled: false,
      port: defaultLocalApiPort,
      url: `http://127.0.0.1:${defaultLocalApiPort}/v1`,
      environment: 'local',
      keyMadeAt: null,
      problem: null,
    });
    expect(instance.dataDir.system.db.prepare('SELECT count(*) AS n FROM api_key WHERE label = ?').get(localApiKeyLabel)).toEqual({ n: 0 });
  });

  it('switched on, answers a request with its key with the local environment’s data', async () => {
    await instance.request({ method: 'POST', path: '/v1/project', body: { name: 'Made in the app' } });
    const { port, key, outcome } = await switchOn();
    expect(outcome.state).toMatchObject({
      enabled: true,
      port,
      url: `http://127.0.0.1:${port}/v1`,
      environment: 'local',
      keyMadeAt: expect.any(String),
    });

    const listed = await call(port, '/v1/project', keyHeaders(key));
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { count: number; data: { name: string }[] };
    expect(body.data.map((project) => project.name)).toEqual(['Made in the app']);

    // A program's writes land in the same data the app shows.
    const created = await call(port, '/v1/project', keyHeaders(key), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From a script' }),
    });
    expect(created.status).toBe(201);
    const inApp = await instance.request({ method: 'GET', path: '/v1/project', query: { sort: 'name' } });
    expect((inApp.body as { data: { name: string }[] }).data.map((project) => project.name)).toEqual(['From a script', 'Made in the app']);
  });

  it('keeps only the key’s hash, and its settings without the key', async () => {
    const { port, key } = await switchOn();
    const settings = readFileSync(join(folder, localApiSettingsFile), 'utf8');
    expect(JSON.parse(settings)).toEqual({ enabled: true, port, keyId: expect.any(String) });
    expect(settings).not.toContain(key);
    const rows = instance.dataDir.system.db.prepare('SELECT * FROM api_key WHERE label = ?').all(localApiKeyLabel);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(key);
    // Never again in a state.
    expect(JSON.stringify(await localApi.state())).not.toContain(key);
    expect(JSON.stringify(await localApi.change({ enabled: true }))).not.toContain(key);
  });

  it('refuses a missing or wrong key, another environment, another key of the environment and a bearer token with 401', async () => {
    const { port, key } = await switchOn();
    const other = instance.dataDir.system.addApiKey(instance.environment.id, undefined, 'someone-else').key;
    await expectNotLoggedIn(await call(port, '/v1/project', {}));
    await expectNotLoggedIn(await call(port, '/v1/project', { 'x-api-env': 'local' }));
    await expectNotLoggedIn(await call(port, '/v1/project', keyHeaders(`${key}x`)));
    await expectNotLoggedIn(await call(port, '/v1/project', keyHeaders(key, 'default')));
    await expectNotLoggedIn(await call(port, '/v1/project', keyHeaders(other)));
    await expectNotLoggedIn(await call(port, '/v1/project', { ...keyHeaders(key), authorization: 'Bearer abc' }));
    // Every path needs the key, also the ones the API itself leaves open.
    await expectNotLoggedIn(await call(port, '/v1/openapi.json', {}));
    // Nothing was written by the refused requests.
    const refusedWrite = await call(port, '/v1/project', keyHeaders('wrong-key'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Sneaky' }),
    });
    await expectNotLoggedIn(refusedWrite);
    expect((await call(port, '/v1/project', keyHeaders(key)).then((r) => r.json())) as { count: number }).toMatchObject({ count: 0 });
  });

  it('answers only under the names 127.0.0.1 and localhost on its port (DNS rebinding)', async () => {
    const { port, key } = await switchOn();
    expect(await statusWithHost(port, `evil.example:${port}`, key)).toBe(421);
    expect(await statusWithHost(port, `127.0.0.1:${port + 1}`, key)).toBe(421);
    expect(await statusWithHost(port, `localhost:${port}`, key)).toBe(200);
  });

  it('makes a new key that works at once, and the old one is refused', async () => {
    const { port, key: first } = await switchOn();
    const made = await localApi.newKey();
    expect(made.status).toBe('done');
    const second = (made as { key: string }).key;
    expect(second).not.toBe(first);
    await expectNotLoggedIn(await call(port, '/v1/project', keyHeaders(first)));
    expect((await call(port, '/v1/project', keyHeaders(second))).status).toBe(200);
    expect(
      instance.dataDir.system.db.prepare('SELECT count(*) AS n FROM api_key WHERE label = ? AND revoked_at IS NULL').get(localApiKeyLabel),
    ).toEqual({ n: 1 });
  });

  it('switched off, refuses connections and frees the port; on again, the same key works and no new one is shown', async () => {
    const { port, key } = await switchOn();
    const off = await localApi.change({ enabled: false });
    expect(off).toEqual({ status: 'done', state: expect.objectContaining({ enabled: false, port }) });
    expect(await connectTo(port)).toBe('refused');
    await expect(call(port, '/v1/project', keyHeaders(key))).rejects.toThrow();

    const on = await localApi.change({ enabled: true });
    expect(on.status).toBe('done');
    expect(on).not.toHaveProperty('key');
    expect((await call(port, '/v1/project', keyHeaders(key))).status).toBe(200);
  });

  it('fails to switch on at a busy port with a clear reason, and stays off', async () => {
    const busy = await occupiedPort();
    try {
      const outcome = await localApi.change({ enabled: true, port: busy.port });
      expect(outcome).toEqual({
        status: 'failed',
        state: expect.objectContaining({ enabled: false, port: defaultLocalApiPort, keyMadeAt: null }),
        problem: {
          reason: 'port-in-use',
          port: busy.port,
          message: `Port ${busy.port} is already in use by another program; choose another port.`,
        },
      });
      expect(await localApi.state()).toMatchObject({ enabled: false, port: defaultLocalApiPort, keyMadeAt: null });
      // No key was made for an API that never started.
      expect(instance.dataDir.system.db.prepare('SELECT count(*) AS n FROM api_key WHERE label = ?').get(localApiKeyLabel)).toEqual({
        n: 0,
      });
    } finally {
      await busy.release();
    }
  });

  it('moves to another port while on; a busy one leaves it on the old port', async () => {
    const { port, key } = await switchOn();
    const next = await freePort();
    expect(await localApi.change({ port: next })).toMatchObject({ status: 'done', state: { enabled: true, port: next } });
    expect(await connectTo(port)).toBe('refused');
    expect((await call(next, '/v1/project', keyHeaders(key))).status).toBe(200);

    const busy = await occupiedPort();
    try {
      expect(await localApi.change({ port: busy.port })).toMatchObject({
        status: 'failed',
        state: { enabled: true, port: next },
        problem: { reason: 'port-in-use' },
      });
      expect((await call(next, '/v1/project', keyHeaders(key))).status).toBe(200);
    } finally {
      await busy.release();
    }
  });

  it('keeps the port while off without opening it', async () => {
    const port = await freePort();
    expect(await localApi.change({ port })).toMatchObject({ status: 'done', state: { enabled: false, port } });
    expect(await connectTo(port)).toBe('refused');
  });

  it('serves again after a restart when it was left on, with the same key; stopping the app leaves it switched on', async () => {
    const { port, key } = await switchOn();
    await localApi.close();
    expect(await connectTo(port)).toBe('refused');
    // A closed service does not start again.
    expect(await localApi.change({ enabled: true })).toMatchObject({ status: 'failed', problem: { reason: 'other' } });

    await open();
    const resumed = await localApi.resume();
    expect(resumed).toMatchObject({ enabled: true, port, problem: null });
    expect((await call(port, '/v1/project', keyHeaders(key))).status).toBe(200);
  });

  it('reports a port taken while the app was stopped, and starts on the next port the planner chooses', async () => {
    const { port, key } = await switchOn();
    await localApi.close();
    const squatter = await occupiedPort(port);
    try {
      await open();
      expect(await localApi.resume()).toMatchObject({ enabled: false, port, problem: { reason: 'port-in-use', port } });
      expect(await connectTo(port)).toBe('accepted');
      const next = await freePort();
      expect(await localApi.change({ port: next })).toEqual({
        status: 'done',
        state: expect.objectContaining({ enabled: true, port: next, problem: null }),
      });
      expect((await call(next, '/v1/project', keyHeaders(key))).status).toBe(200);
    } finally {
      await squatter.release();
    }
  });

  it('saves it as off when switching on fails again after a start that could not open the port', async () => {
    const { port } = await switchOn();
    await localApi.close();
    const squatter = await occupiedPort(port);
    try {
      await open();
      await localApi.resume();
      expect(await localApi.change({ enabled: true })).toMatchObject({
        status: 'failed',
        state: { enabled: false, problem: null },
        problem: { reason: 'port-in-use' },
      });
      expect(JSON.parse(readFileSync(join(folder, localApiSettingsFile), 'utf8'))).toMatchObject({ enabled: false, port });
    } finally {
      await squatter.release();
    }
  });

  it('makes a key on switching on when its key no longer works (revoked, or dropped by a restore)', async () => {
    const { port } = await switchOn();
    await localApi.change({ enabled: false });
    instance.dataDir.system.revokeApiKeys(instance.environment.id, localApiKeyLabel);
    expect((await localApi.state()).keyMadeAt).toBeNull();
    const on = await localApi.change({ enabled: true });
    expect(on).toMatchObject({ status: 'done', key: expect.any(String) });
    expect((await call(port, '/v1/project', keyHeaders((on as { key: string }).key))).status).toBe(200);
  });

  it('reads a damaged settings file as defaults', async () => {
    writeFileSync(join(folder, localApiSettingsFile), '{"enabled": "yes", "port": 80');
    await open();
    expect(await localApi.state()).toMatchObject({ enabled: false, port: defaultLocalApiPort });
    writeFileSync(join(folder, localApiSettingsFile), JSON.stringify({ enabled: 1, port: 99999, keyId: 7 }));
    await open();
    expect(await localApi.resume()).toMatchObject({ enabled: false, port: defaultLocalApiPort, keyMadeAt: null });
  });
});

describe('a change from the page', () => {
  it.each([
    [{ enabled: true }, { enabled: true }],
    [
      { enabled: false, port: 5000 },
      { enabled: false, port: 5000 },
    ],
    [{ port: 1024 }, { port: 1024 }],
    [{ port: 65535 }, { port: 65535 }],
  ])('accepts %j', (payload, change) => {
    expect(parseLocalApiChange(payload)).toEqual(change);
  });

  it.each([
    [undefined, /must be an object/],
    ['on', /must be an object/],
    [[true], /must be an object/],
    [{}, /needs enabled or port/],
    [{ enabled: 'yes' }, /enabled must be true or false/],
    [{ port: 80 }, /port must be a whole number from 1024 to 65535/],
    [{ port: 65536 }, /port must be a whole number/],
    [{ port: 4317.5 }, /port must be a whole number/],
    [{ port: '4317' }, /port must be a whole number/],
    [{ port: Number.NaN }, /port must be a whole number/],
    [{ port: null }, /port must be a whole number/],
    [{ enabled: true, key: 'mine' }, /unknown key key/],
  ])('refuses %j', (payload, message) => {
    const parsed = parseLocalApiChange(payload);
    expect(parsed).toHaveProperty('error');
    expect((parsed as { error: string }).error).toMatch(message);
  });
});

describe('the browser host’s /host/local-api', () => {
  let host: BrowserHost;
  let cookie: string;
  let pageKey: string;
  let hostFolder: string;

  beforeAll(async () => {
    hostFolder = tempDir('planner-host-local-api-');
    const rendererDir = join(hostFolder, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Planner</title>');
  });

  afterAll(() => rmSync(hostFolder, { recursive: true, force: true }));

  beforeEach(async () => {
    host = await startBrowserHost({ instance, rendererDir: join(hostFolder, 'renderer'), localApi });
    cookie = ((await fetch(host.openUrl)).headers.get('set-cookie') ?? '').split(';')[0]!;
    pageKey = new URL(host.openUrl).searchParams.get('key')!;
  });

  afterEach(async () => {
    await host.close();
  });

  const page = (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${host.url}${path}`, {
      method,
      headers: {
        'x-planner-bridge': '1',
        'x-planner-page-key': pageKey,
        cookie,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  it('shows the state, switches on with the key once, makes a new key, and switches off', async () => {
    const state = (await (await page('GET', 'host/local-api')).json()) as LocalApiState;
    expect(state).toMatchObject({ enabled: false, keyMadeAt: null });

    const port = await freePort();
    const on = (await (await page('POST', 'host/local-api', { enabled: true, port })).json()) as LocalApiOutcome & { key: string };
    expect(on).toMatchObject({ status: 'done', state: { enabled: true, port }, key: expect.any(String) });
    expect((await call(port, '/v1/project', keyHeaders(on.key))).status).toBe(200);
    expect(JSON.stringify(await (await page('GET', 'host/local-api')).json())).not.toContain(on.key);

    const renewed = (await (await page('POST', 'host/local-api/key')).json()) as LocalApiOutcome & { key: string };
    expect(renewed.key).not.toBe(on.key);
    await expectNotLoggedIn(await call(port, '/v1/project', keyHeaders(on.key)));
    expect((await call(port, '/v1/project', keyHeaders(renewed.key))).status).toBe(200);

    expect(await (await page('POST', 'host/local-api', { enabled: false })).json()).toMatchObject({
      status: 'done',
      state: { enabled: false },
    });
    expect(await connectTo(port)).toBe('refused');
  });

  it('answers only the page: no session cookie or another origin is 401, no bridge header 400, and nothing changes', async () => {
    const port = await freePort();
    for (const [headers, status] of [
      [{ cookie: '' }, 401],
      [{ cookie: 'planner_session=guess' }, 401],
      [{ 'x-planner-page-key': 'guess' }, 401],
      [{ origin: 'https://evil.example' }, 401],
      [{ 'x-planner-bridge': '0' }, 400],
    ] as const) {
      expect((await page('GET', 'host/local-api', undefined, headers)).status).toBe(status);
      expect((await page('POST', 'host/local-api', { enabled: true, port }, headers)).status).toBe(status);
      expect((await page('POST', 'host/local-api/key', undefined, headers)).status).toBe(status);
    }
    expect(await connectTo(port)).toBe('refused');
    expect(await localApi.state()).toMatchObject({ enabled: false, keyMadeAt: null });
  });

  it('refuses a malformed change with 400 and the error body, and changes nothing', async () => {
    for (const payload of [{ port: 80 }, { port: 'x' }, { enabled: 'on' }, {}, [1], { enabled: true, extra: 1 }]) {
      const response = await page('POST', 'host/local-api', payload);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { errors: { message: string; description: string }[] };
      expect(body.errors[0]).toMatchObject({ message: 'Bad Request', description: expect.stringMatching(/^Malformed local API change: /) });
    }
    const withBody = await page('POST', 'host/local-api/key', { please: true });
    expect(withBody.status).toBe(400);
    expect(await localApi.state()).toMatchObject({ enabled: false, port: defaultLocalApiPort, keyMadeAt: null });
  });
});
