/**
 * Requests the API fuzz run (test/api/fuzz.test.ts, test/bench/fuzz.ts) found answered
 * outside the contract, each kept here as a plain regression test:
 *  - a multipart upload cut off inside a part was a 500 (the form parser's error escaped);
 *  - a HEAD request refused for its size (431) got a body, which a client reads as garbage
 *    after the answer ("Data after Connection: close");
 *  - a custom field named with 100 emoji (allowed) could not be set by name: the router
 *    refused path segments over 100 UTF-16 units with 414.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';

let api: TestApi;
let collectionId: string;

beforeAll(async () => {
  api = await startTestApi();
  const board = await api.http('POST', '/v1/board', { name: 'Findings' });
  collectionId = (await api.http('POST', '/v1/collection', { name: 'Order 1', board_id: board.body.id })).body.id;
});
afterAll(async () => {
  await api.close();
});

function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((done, fail) => {
    const url = new URL(api.baseUrl);
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: { ...api.headers, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('found by the fuzz run', () => {
  it('answers a multipart upload cut off inside a part with 400, and stores nothing', async () => {
    const attachments = `/v1/collection/${collectionId}/attachment`;
    const before = (await api.http('GET', `${attachments}?limit=0`)).body.count;
    const boundary = 'fuzzboundary';
    for (const body of [
      // The fuzz case: a text field, then a file part whose closing boundary is cut short.
      `--${boundary}\r\nContent-Disposition: form-data; name="filename"\r\n\r\nnote\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhel`,
    ]) {
      const res = await raw(
        'POST',
        `${attachments}/upload`,
        { 'content-type': `multipart/form-data; boundary=${boundary}` },
        Buffer.from(body),
      );
      expectBadRequest({ status: res.status, body: JSON.parse(res.text) }, 'multipart body is cut off');
    }
    expect((await api.http('GET', `${attachments}?limit=0`)).body.count).toBe(before);
  });

  it('sets a custom field whose name is 100 emoji by name, and still refuses longer segments with 414', async () => {
    const name = '🚀'.repeat(100);
    const path = `/v1/collection/${collectionId}/custom_field/${encodeURIComponent(name)}`;
    const res = await api.http('PUT', path, { value: 'liftoff' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.custom_fields).toContainEqual(expect.objectContaining({ name, value: 'liftoff' }));
    expect((await api.http('PUT', `/v1/collection/${collectionId}/custom_field/${'x'.repeat(201)}`, { value: 'x' })).status).toBe(414);
  });

  it('answers a HEAD request over 16 KiB with 431 and no body', async () => {
    const res = await raw('HEAD', `/v1/project?a=${'b'.repeat(17_000)}`, {});
    expect(res.status).toBe(431);
    expect(res.text).toBe('');
  });
});
