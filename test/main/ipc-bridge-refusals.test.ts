/**
 * What the IPC bridge refuses (malformed payloads, foreign frames) and what it registers and
 * forwards, against a real local instance.
 */
import type { IpcMain, WebContents } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChangeEvent } from '../../shared/ipc.js';
import { createBridgeHandler, isAppFrame, registerBridge } from '../../electron/main/ipc.js';
import { appFrame, FakeIpcMain, frameEvent, openBridgeFixture, type BridgeFixture } from './bridge-fixture.js';

vi.mock('electron', () => ({ BrowserWindow: { getAllWindows: () => [] }, protocol: {} }));

let fixture: BridgeFixture;
const bridge = (...args: Parameters<BridgeFixture['bridge']>) => fixture.bridge(...args);
const projectList = () => fixture.projectList();

beforeAll(async () => {
  fixture = await openBridgeFixture();
  // Something to keep: "changes nothing" means more than "an empty list stays empty".
  await fixture.bridge({ method: 'POST', path: '/v1/project', body: { name: 'Already there' } });
});

afterAll(async () => {
  await fixture?.close();
});

describe('the IPC bridge refuses what it must not carry', () => {
  const malformed: [string, unknown][] = [
    ['a payload that is not an object', 'POST /v1/project'],
    ['a null payload', null],
    ['an array payload', [{ method: 'POST', path: '/v1/project', body: { name: 'x' } }]],
    ['an unknown key', { method: 'POST', path: '/v1/project', body: { name: 'x' }, headers: { 'x-api-env': 'other' } }],
    ['a path outside /v1/', { method: 'GET', path: '/openapi.json' }],
    ['a path with ..', { method: 'POST', path: '/v1/../v1/project', body: { name: 'x' } }],
    ['a path with a query string', { method: 'POST', path: '/v1/project?limit=1', body: { name: 'x' } }],
    ['the method PATCH', { method: 'PATCH', path: '/v1/project', body: { name: 'x' } }],
    ['a query with non-string values', { method: 'POST', path: '/v1/project', query: { limit: 5 }, body: { name: 'x' } }],
    [
      'an upload with a GET',
      { method: 'GET', path: '/v1/project', upload: { filename: 'a.txt', contentType: 'text/plain', data: 'aGk=' } },
    ],
    [
      'an upload with a body too',
      { method: 'POST', path: '/v1/project', body: { name: 'x' }, upload: { filename: 'a.txt', contentType: 'text/plain', data: 'aGk=' } },
    ],
    [
      'an upload that is not base64',
      { method: 'POST', path: '/v1/project', upload: { filename: 'a.txt', contentType: 'text/plain', data: 'not base64!' } },
    ],
    [
      'an upload with a header in its content type',
      { method: 'POST', path: '/v1/project', upload: { filename: 'a.txt', contentType: 'text/plain\r\nx-api-env: other', data: 'aGk=' } },
    ],
    [
      'an upload with an empty file name',
      { method: 'POST', path: '/v1/project', upload: { filename: '', contentType: 'text/plain', data: 'aGk=' } },
    ],
    [
      'an upload field that is not text',
      {
        method: 'POST',
        path: '/v1/project',
        upload: { filename: 'a.txt', contentType: 'text/plain', data: 'aGk=', fields: { card_id: 5 } },
      },
    ],
    [
      'an upload field with an odd name',
      {
        method: 'POST',
        path: '/v1/project',
        upload: { filename: 'a.txt', contentType: 'text/plain', data: 'aGk=', fields: { 'x"\r\n': 'y' } },
      },
    ],
    ['a scenario that is no UUID', { method: 'POST', path: '/v1/project', body: { name: 'x' }, scenario: 'live' }],
    ['a scenario that is not text', { method: 'POST', path: '/v1/project', body: { name: 'x' }, scenario: 7 }],
    [
      'an upload with an unknown key',
      { method: 'POST', path: '/v1/project', upload: { filename: 'a.txt', contentType: 'text/plain', data: 'aGk=', path: '/etc' } },
    ],
  ];

  it.each(malformed)('answers %s with a 400 and changes nothing', async (_what, payload) => {
    const before = await projectList();
    const response = await bridge(payload);
    expect(response.status).toBe(400);
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(response.body).toEqual({
      reference: expect.stringMatching(/^[0-9a-f-]{36}$/),
      errors: [{ code: 10400, message: 'Bad Request', description: expect.any(String) }],
    });
    expect(await projectList()).toEqual(before);
  });

  it.each([
    ['a web page', 'https://evil.example/'],
    ['a look-alike host', 'app://planner.evil.example/index.html'],
    ['a local file', 'file:///tmp/index.html'],
    ['a frame that is gone', null],
  ])('refuses a bridge request from a frame that is not the app (%s)', async (_what, url) => {
    const before = await projectList();
    await expect(bridge({ method: 'POST', path: '/v1/project', body: { name: 'x' } }, frameEvent(url))).rejects.toThrow(
      /did not come from the app/,
    );
    expect(await projectList()).toEqual(before);
  });

  it('answers a failure of the bridge itself with the documented error body, not its internals', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = createBridgeHandler({ request: () => Promise.reject(new Error('SQLITE_MISUSE in /home/me/db')) }, isAppFrame);
    const response = await failing(appFrame, { method: 'GET', path: '/v1/project' });
    quiet.mockRestore();
    expect(response.status).toBe(500);
    expect((response.body as { errors: { code: number }[] }).errors[0]!.code).toBe(10500);
    expect(JSON.stringify(response)).not.toContain('SQLITE');
  });
});

describe('a request in a scenario', () => {
  it('runs in the scenario it names, and leaves the live plan as it was', async () => {
    const made = await bridge({ method: 'POST', path: '/v1/scenario', body: { name: 'Rush order' } });
    expect(made.status).toBe(201);
    const scenario = (made.body as { id: string }).id;
    const live = await projectList();
    const inScenario = await bridge({ method: 'POST', path: '/v1/project', body: { name: 'Only in the scenario' }, scenario });
    expect(inScenario.status).toBe(201);
    expect(await projectList()).toEqual(live);
    const listed = await bridge({ method: 'GET', path: '/v1/project', scenario });
    expect((listed.body as { data: { name: string }[] }).data.map((p) => p.name)).toContain('Only in the scenario');
    // A scenario that is not there is the API's 404 naming the header, as over HTTP.
    const unknown = await bridge({ method: 'GET', path: '/v1/project', scenario: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(JSON.stringify(unknown.body)).toContain('x-planner-scenario');
    expect((await bridge({ method: 'DELETE', path: `/v1/scenario/${scenario}` })).status).toBe(204);
  });
});

describe('registration', () => {
  it('registers only the allow-listed channel, and nothing with ipcMain.on', () => {
    expect(fixture.ipcMain.handle).toHaveBeenCalledTimes(1);
    expect(fixture.ipcMain.handle).toHaveBeenCalledWith('planner:request', expect.any(Function));
    expect(fixture.ipcMain.eventNames()).toEqual([]);
  });

  it('forwards change events to app pages only, and a window that fails does not fail the write', async () => {
    const page = (url: string, options: { destroyed?: boolean; broken?: boolean } = {}) => ({
      isDestroyed: () => options.destroyed ?? false,
      getURL: () => url,
      send: vi.fn(() => {
        if (options.broken) throw new Error('render frame was disposed');
      }),
    });
    const app = page('app://planner/index.html');
    const broken = page('app://planner/index.html', { broken: true });
    const foreign = page('https://evil.example/');
    const destroyed = page('app://planner/index.html', { destroyed: true });
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const other = new FakeIpcMain();
    const stop = registerBridge(
      other as unknown as IpcMain,
      fixture.instance,
      isAppFrame,
      () => [broken, app, foreign, destroyed] as unknown as WebContents[],
    );
    try {
      const created = await bridge({ method: 'POST', path: '/v1/project', body: { name: 'Watched' } });
      expect(created.status).toBe(201);
      const id = (created.body as { id: string }).id;
      expect(app.send).toHaveBeenCalledWith(
        'planner:change',
        expect.arrayContaining<ChangeEvent>([{ resource: 'project', id, op: 'create' }]),
      );
      expect(foreign.send).not.toHaveBeenCalled();
      expect(destroyed.send).not.toHaveBeenCalled();
    } finally {
      stop();
      quiet.mockRestore();
    }
    expect(other.removeHandler).toHaveBeenCalledWith('planner:request');
  });
});
