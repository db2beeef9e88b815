/**
 * Requests refused before or around a route, always with a 4xx and the documented error body
 * (docs/API.md "Errors"), never a 500 or Fastify's own body, and nothing written:
 *  - a request line and headers over 16 KiB (431), a path segment over 200 UTF-16 units (414),
 *    a URL whose percent-encoding is not UTF-8 (400);
 *  - a crafted snapshot cursor, a `since` past 2^53 - 1 (400);
 *  - multipart sent to a JSON route (415; the upload route still takes it);
 *  - JSON nested deeper than 64 levels, in any field, ignored ones included (400).
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest, expectErrorBody } from '../helpers/api-errors.js';

let api: TestApi;
let collectionId: string;

beforeAll(async () => {
  api = await startTestApi();
  const board = await api.http('POST', '/v1/board', { name: 'Refusals' });
  const collection = await api.http('POST', '/v1/collection', { name: 'Order 1', board_id: board.body.id });
  collectionId = collection.body.id;
});
afterAll(async () => {
  await api.close();
});

/** A raw request (fetch would re-encode the path): status, content type and parsed body. */
function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
  return new Promise<{ status: number; type: string; body: any }>((done, fail) => {
    const url = new URL(api.baseUrl);
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: { ...api.headers, ...options.headers } },
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
          done({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body });
        });
      },
    );
    req.on('error', fail);
    req.end(options.body);
  });
}

const projectCount = async () => (await api.http('GET', '/v1/project?limit=0')).body.count as number;

describe('the request line and path', () => {
  it('answers a query over 16 KiB with 431 and the error body', async () => {
    const res = await raw('GET', `/v1/project?with=${Array(2000).fill('collection').join(',')}`);
    expect(res.status).toBe(431);
    expectErrorBody(res.body, 10431, 'Request Header Fields Too Large');
    expect(res.type).toContain('application/json');
  });

  it('answers a 5,000-character id with 414 and the error body', async () => {
    const res = await raw('GET', `/v1/project/${'a'.repeat(5000)}`);
    expect(res.status).toBe(414);
    expectErrorBody(res.body, 10414, 'URI Too Long');
    expect(JSON.stringify(res.body)).not.toContain('FST_ERR');
  });

  it('answers a URL that is not valid UTF-8 with 400 and the error body', async () => {
    for (const path of ['/v1/project/%E0%A4%A', '/v1/project/%ED%A0%80', '/v1/collection/%C0%AF/card']) {
      const res = await raw('GET', path);
      expectBadRequest(res, 'URL');
      expect(JSON.stringify(res.body)).not.toContain('FST_ERR');
    }
  });
});

describe('sync cursors', () => {
  const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('refuses snapshot cursors this endpoint never made with 400, and pages with the ones it made', async () => {
    for (const value of [
      { resource: -5, after: '', seq: 1 },
      { resource: 1e9, after: '', seq: 1 },
      { resource: 0, after: '', seq: -1 },
      { resource: 0, after: '', seq: 2 ** 60 },
      { resource: 0.5, after: '', seq: 1 },
      null,
      [1, 2],
    ]) {
      const res = await api.http('GET', `/v1/sync/snapshot?cursor=${cursor(value)}`);
      expectBadRequest(res, 'cursor');
    }
    // The cursors it gives still page through every record.
    const seen = new Set<string>();
    let next: string | null = null;
    for (let page = 0; page < 100; page++) {
      const res: { status: number; body: any } = await api.http('GET', `/v1/sync/snapshot?limit=1${next ? `&cursor=${next}` : ''}`);
      expect(res.status).toBe(200);
      for (const record of res.body.records) seen.add(`${record.resource}/${record.id}`);
      next = res.body.cursor;
      if (!next) break;
    }
    expect(next).toBeNull();
    expect(seen.has(`collection/${collectionId}`)).toBe(true);
  });

  it('refuses a since past 2^53 - 1 with 400 instead of answering cursor 1e+30', async () => {
    const res = await api.http('GET', `/v1/sync/changes?since=${'9'.repeat(30)}`);
    expectBadRequest(res, 'since');
    expect((await api.http('GET', '/v1/sync/changes?since=9007199254740991')).status).toBe(200);
  });
});

describe('bodies', () => {
  const form = (fields: Record<string, string>) => {
    const boundary = '----planner-test-boundary';
    const parts = Object.entries(fields).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${parts.join('')}--${boundary}--\r\n` };
  };

  it('answers multipart sent to a JSON route with 415 and writes nothing; the upload route takes it', async () => {
    const before = await projectCount();
    const { contentType, body } = form({ name: 'From a form' });
    for (const [method, path] of [
      ['POST', '/v1/project'],
      ['PUT', `/v1/collection/${collectionId}`],
      ['POST', `/v1/collection/${collectionId}/attachment`],
    ] as const) {
      const res = await raw(method, path, { headers: { 'content-type': contentType }, body });
      expect(res.status, `${method} ${path}`).toBe(415);
      expectErrorBody(res.body, 10415, 'Unsupported Media Type');
    }
    expect(await projectCount()).toBe(before);

    // The upload route still reads it.
    const boundary = '----planner-upload';
    const upload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await raw('POST', `/v1/collection/${collectionId}/attachment/upload`, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: upload,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ filename: 'note.txt', bytes: 5, type: 'upload' });
  });

  const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it('refuses a custom field nested 5,000 deep with 400 (it was a 500) and keeps the collection as it was', async () => {
    const before = (await api.http('GET', `/v1/collection/${collectionId}`)).body;
    for (const depth of [5000, 100_000]) {
      const res = await api.http(
        'PUT',
        `/v1/collection/${collectionId}/custom_field/deep`,
        `{"value":"x","options":{"unit":"h","extra":${nested(depth)}}}`,
      );
      expectBadRequest(res, '64 levels');
    }
    expect((await api.http('GET', `/v1/collection/${collectionId}`)).body).toEqual(before);
  });

  it('refuses deep nesting in a field the route ignores too, in objects and arrays alike, and takes 64 levels', async () => {
    const before = await projectCount();
    for (const meta of [nested(100_000), '['.repeat(100_000) + ']'.repeat(100_000), nested(65)]) {
      const res = await api.http('POST', '/v1/project', `{"name":"deep","meta":${meta}}`);
      expectBadRequest(res, '64 levels');
    }
    expect(await projectCount()).toBe(before);

    // The body object is the first level: 63 more fit. An escaped quote does not end a string.
    const name = `${'[{'.repeat(60)}\\"${'['.repeat(10)}`;
    const res = await api.http('POST', '/v1/project', `{"name":"${name}","meta":${nested(63)}}`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.name).toBe(`${'[{'.repeat(60)}"${'['.repeat(10)}`);
  });

  it('refuses a push nested too deep as a whole, over the IPC-style inject too', async () => {
    const res = await api.inject('POST', '/v1/sync/push', `{"client_id":"r1","mutations":[${nested(70)}]}`);
    expectBadRequest(res, '64 levels');
  });
});
