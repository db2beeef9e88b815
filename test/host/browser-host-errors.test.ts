/**
 * The browser host's own refusals carry the documented error body (docs/API.md "Errors"), as
 * the API's do: a request line and headers over 16 KiB (431), a URL that is not valid UTF-8
 * (400), an unknown route (404), a bridge body that is not JSON (400) or is nested deeper than
 * 64 levels (400, where passing it on overflowed the stack: a 500). None of them is a 500 or
 * Fastify's own body, and the host answers normally afterwards.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../electron/host/browser-host.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { tempDir } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';

let folder: string;
let instance: LocalInstance;
let host: BrowserHost;
let cookie: string;
/** The page key from the address the host prints, which the page sends on bridge calls. */
let key: string;

beforeAll(async () => {
  folder = tempDir('planner-host-errors-');
  const rendererDir = join(folder, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Planner</title>');
  instance = await openLocalInstance(join(folder, 'data'));
  host = await startBrowserHost({ instance, rendererDir });
  cookie = ((await fetch(host.openUrl)).headers.get('set-cookie') ?? '').split(';')[0]!;
  key = new URL(host.openUrl).searchParams.get('key')!;
});

afterAll(async () => {
  await host.close();
  await instance.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A raw request with the host's own Host header (fetch would re-encode the path). */
function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: any }>((done, fail) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, method, path, headers: { host: `127.0.0.1:${host.port}`, ...options.headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let body: any = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: the assertion shows the text
          }
          done({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', fail);
    req.end(options.body);
  });
}

const bridgeHeaders = () => ({ 'content-type': 'application/json', 'x-planner-bridge': '1', 'x-planner-page-key': key, cookie });

describe('browser host refusals', () => {
  it('answers headers over 16 KiB with 431 and the error body', async () => {
    const res = await raw('GET', `/?q=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expectErrorBody(res.body, 10431, 'Request Header Fields Too Large');
  });

  it('answers a URL that is not valid UTF-8 with 400 and the error body', async () => {
    for (const path of ['/%E0%A4%A', '/assets/%ED%A0%80.js', '/bridge/%C0%AF']) {
      const res = await raw('GET', path);
      expect(res.status, path).toBe(400);
      expectErrorBody(res.body, 10400, 'Bad Request');
      expect(JSON.stringify(res.body)).not.toContain('FST_ERR');
    }
  });

  it('answers an unknown route with 404 and the error body', async () => {
    const res = await raw('POST', '/bridge/nothing-here', { headers: bridgeHeaders(), body: '{}' });
    expect(res.status).toBe(404);
    expectErrorBody(res.body, 10404, 'Not Found');
  });

  it('answers a bridge body that is not JSON, or nested too deep, with 400 and the error body', async () => {
    const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
    for (const body of ['{"method":', `{"method":"POST","path":"/v1/project","body":{"name":"x","meta":${deep}}}`]) {
      const res = await raw('POST', '/bridge/request', { headers: bridgeHeaders(), body });
      expect(res.status).toBe(400);
      expectErrorBody(res.body, 10400, 'Bad Request');
    }
    const after = await raw('POST', '/bridge/request', {
      headers: bridgeHeaders(),
      body: JSON.stringify({ method: 'GET', path: '/v1/project' }),
    });
    expect(after.status).toBe(200);
    expect(after.body.body.count).toBe(0);
  });
});
