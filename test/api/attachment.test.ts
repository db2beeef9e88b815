/**
 * Attachments (docs/API.md "Attachments", electron/api/resources/attachment.ts): uploads as
 * multipart/form-data to `POST /v1/collection/{cid}/attachment/upload`, stored in the data folder
 * under their SHA-256 (`attachments/<environment id>/<first two hex>/<hash>`), downloaded from
 * `GET …/attachment/{id}/download`; links (`{filename, file: URL, type: external}`); the upload
 * size limit (25 MiB, 413); and file names that are never used as paths.
 *
 * Uploads go over real HTTP with `FormData` and `fetch`, as a browser or the app would send them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { expectFieldErrors, unknownId } from '../helpers/order-data.js';

let api: TestApi;
let collection: any;
let other: any;
let card: any;
let otherCard: any;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const limit = 25 * 1024 * 1024;

async function post(path: string, body: unknown): Promise<any> {
  const res = await api.inject('POST', path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

beforeAll(async () => {
  api = await startTestApi();
  const board = await post('/v1/board?with=stages', {
    name: 'Files',
    stages: [{ name: 'Only', priority: 0 }],
    statuses: [{ name: 'Open', entry: true }],
  });
  collection = await post('/v1/collection', { name: 'With files', board_id: board.id });
  other = await post('/v1/collection', { name: 'Other', board_id: board.id });
  card = await post(`/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id });
  otherCard = await post(`/v1/collection/${other.id}/card`, { stage_id: board.stages[0].id });
});
afterAll(async () => {
  await api.close();
});

/** Every file under the data folder, relative to it. */
function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(root);
  return out.sort();
}
/** Files of the data folder that are not SQLite files (the databases change with every write). */
const nonDatabaseFiles = () => filesUnder(api.dataDir.path).filter((f) => !/\.sqlite(-wal|-shm|-journal)?$/.test(f));

async function upload(
  collectionId: string,
  parts: { content?: Uint8Array; name?: string; type?: string; fields?: Record<string, string>; fieldName?: string },
  headers: Record<string, string> = api.headers,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(parts.fields ?? {})) form.append(key, value);
  if (parts.content) {
    form.append(
      parts.fieldName ?? 'file',
      new Blob([parts.content], { type: parts.type ?? 'application/octet-stream' }),
      parts.name ?? 'file.bin',
    );
  }
  const response = await fetch(`${api.baseUrl}/v1/collection/${collectionId}/attachment/upload`, { method: 'POST', headers, body: form });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function download(collectionId: string, id: string): Promise<Response> {
  return fetch(`${api.baseUrl}/v1/collection/${collectionId}/attachment/${id}/download`, { headers: api.headers });
}

describe('uploading a file', () => {
  it('round-trips 200 KB of random bytes byte for byte, with bytes and checksum', async () => {
    const content = new Uint8Array(randomBytes(200 * 1024));
    const res = await upload(collection.id, { content, name: 'scan.bin' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const attachment = res.body;
    expect(attachment).toMatchObject({
      collection_id: collection.id,
      card_id: null,
      filename: 'scan.bin',
      type: 'upload',
      bytes: 200 * 1024,
      checksum: sha256(content),
      content_type: 'application/octet-stream',
      file: `/v1/collection/${collection.id}/attachment/${attachment.id}/download`,
    });

    const response = await download(collection.id, attachment.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const back = new Uint8Array(await response.arrayBuffer());
    expect(back.length).toBe(content.length);
    expect(sha256(back)).toBe(attachment.checksum);
    expect(Buffer.compare(Buffer.from(back), Buffer.from(content))).toBe(0);
    // GET of the record says the same.
    expect((await api.inject('GET', `/v1/collection/${collection.id}/attachment/${attachment.id}`)).body).toMatchObject({
      bytes: 200 * 1024,
      checksum: sha256(content),
    });
  });

  it('stores the content in the data folder under attachments/<environment id>/<xx>/<sha-256>', async () => {
    const content = new Uint8Array(randomBytes(4096));
    const res = await upload(collection.id, { content, name: 'stored.bin' });
    const checksum = sha256(content);
    const path = join(api.dataDir.path, 'attachments', api.environment.id, checksum.slice(0, 2), checksum);
    expect(existsSync(path)).toBe(true);
    expect(sha256(readFileSync(path))).toBe(res.body.checksum);
  });

  it('stores the same content once for two uploads', async () => {
    const content = new Uint8Array(randomBytes(1024));
    const a = await upload(collection.id, { content, name: 'a.bin' });
    const before = nonDatabaseFiles();
    const b = await upload(other.id, { content, name: 'b.bin' });
    expect(b.status).toBe(201);
    expect(b.body.checksum).toBe(a.body.checksum);
    expect(b.body.id).not.toBe(a.body.id);
    expect(nonDatabaseFiles()).toEqual(before);
  });

  it('Content-Disposition carries the file name, also a non-ASCII one (RFC 5987)', async () => {
    // Sent as the filename field: FormData itself escapes a quote in the file part's name (%22).
    const name = 'Zeichnung – Größe 図面 "final".pdf';
    const res = await upload(collection.id, {
      content: new Uint8Array([1, 2, 3]),
      name: 'x.pdf',
      type: 'application/pdf',
      fields: { filename: name },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ filename: name, content_type: 'application/pdf' });
    const response = await download(collection.id, res.body.id);
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; /);
    const star = /filename\*=UTF-8''([^;]+)/.exec(disposition);
    expect(star).not.toBeNull();
    expect(decodeURIComponent(star![1]!)).toBe(name);
    // The plain fallback is printable ASCII without quotes inside.
    const plain = /filename="([^"]*)"/.exec(disposition);
    expect(plain![1]).toMatch(/^[\x20-\x7e]+$/);
    expect(response.headers.get('content-type')).toBe('application/pdf');
  });

  it("the file part's own name is kept when no filename field is sent, non-ASCII included", async () => {
    const name = 'Prüfbericht 図面.pdf';
    const res = await upload(collection.id, { content: new Uint8Array([4, 5]), name });
    expect(res.body.filename).toBe(name);
    const disposition = (await download(collection.id, res.body.id)).headers.get('content-disposition')!;
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)![1]!)).toBe(name);
  });

  it('a filename field overrides the name of the file part; card_id attaches it to a card of the collection', async () => {
    const res = await upload(collection.id, {
      content: new Uint8Array([9]),
      name: 'upload.tmp',
      fields: { filename: 'Invoice 7.pdf', card_id: card.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ filename: 'Invoice 7.pdf', card_id: card.id });
  });

  it('a card of another collection is a 422 on card_id, and nothing is stored', async () => {
    const before = (await api.inject('GET', `/v1/collection/${collection.id}/attachment?limit=0`)).body.count;
    const content = new Uint8Array(randomBytes(64));
    const res = await upload(collection.id, { content, fields: { card_id: otherCard.id } });
    expectFieldErrors(res, ['card_id']);
    expect((await api.inject('GET', `/v1/collection/${collection.id}/attachment?limit=0`)).body.count).toBe(before);
    expect(nonDatabaseFiles().some((f) => f.endsWith(sha256(content)))).toBe(false);
  });

  it('an upload of 12 MiB (more than a JSON body may be, less than the upload limit) is stored', async () => {
    const content = new Uint8Array(randomBytes(12 * 1024 * 1024));
    const res = await upload(collection.id, { content, name: 'big.bin' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ bytes: content.length, checksum: sha256(content) });
  });

  it('an upload of exactly 25 MiB is stored', async () => {
    const content = new Uint8Array(limit);
    content[0] = 1;
    const res = await upload(collection.id, { content, name: 'limit.bin' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.bytes).toBe(limit);
  });

  it('an upload over 25 MiB gets 413 with the error body and creates nothing', async () => {
    const before = (await api.inject('GET', `/v1/collection/${collection.id}/attachment?limit=0`)).body.count;
    const filesBefore = nonDatabaseFiles();
    const content = new Uint8Array(limit + 1);
    content[limit] = 7;
    const res = await upload(collection.id, { content, name: 'too-big.bin' });
    expect(res.status, JSON.stringify(res.body)).toBe(413);
    expectErrorBody(res.body, 10413, 'Payload Too Large');
    expect((await api.inject('GET', `/v1/collection/${collection.id}/attachment?limit=0`)).body.count).toBe(before);
    expect(nonDatabaseFiles()).toEqual(filesBefore);
  });
});

describe('file names are never paths', () => {
  const tag = randomBytes(4).toString('hex');
  const names = [
    '../../etc/passwd',
    '..\\..\\x',
    `../../planner-traversal-${tag}`,
    `..\\..\\planner-traversal-${tag}`,
    '/tmp/abs',
    'C:\\Windows\\x.dll',
    'a/../../b',
    '.',
    '..',
  ];

  it.each(names)('%s is stored as a name only; the content lands under its hash in the data folder', async (name) => {
    const before = nonDatabaseFiles();
    const content = new Uint8Array(randomBytes(256));
    const res = await upload(collection.id, { content, name });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const checksum = sha256(content);
    expect(res.body.checksum).toBe(checksum);
    const added = nonDatabaseFiles().filter((f) => !before.includes(f));
    expect(added).toEqual([`attachments/${api.environment.id}/${checksum.slice(0, 2)}/${checksum}`]);
    // Nothing was written at the place the name points to, from any folder the server uses.
    const roots = [
      api.dataDir.path,
      join(api.dataDir.path, 'attachments'),
      join(api.dataDir.path, 'attachments', api.environment.id),
      join(api.dataDir.path, 'attachments', api.environment.id, checksum.slice(0, 2)),
    ];
    if (name.includes('planner-traversal')) {
      for (const root of roots) {
        expect(existsSync(resolve(root, name))).toBe(false);
        expect(existsSync(resolve(root, name.replaceAll('\\', '/')))).toBe(false);
      }
    }
    // The download gives the same bytes back.
    const back = new Uint8Array(await (await download(collection.id, res.body.id)).arrayBuffer());
    expect(sha256(back)).toBe(checksum);
  });
});

describe('links', () => {
  it('a link is {filename, file: URL, type: external}, with an optional card', async () => {
    const link = await post(`/v1/collection/${collection.id}/attachment`, {
      filename: 'Drawing',
      file: 'https://files.example.com/drawings/7.pdf?v=2',
      type: 'external',
      card_id: card.id,
    });
    expect(link).toMatchObject({
      collection_id: collection.id,
      card_id: card.id,
      filename: 'Drawing',
      file: 'https://files.example.com/drawings/7.pdf?v=2',
      type: 'external',
      bytes: null,
      checksum: null,
    });
    const listed = (await api.inject('GET', `/v1/collection/${collection.id}/attachment?filter=type:eq:external`)).body;
    expect(listed.data.map((a: any) => a.id)).toContain(link.id);
  });

  it('a link has nothing to download: 404', async () => {
    const link = await post(`/v1/collection/${collection.id}/attachment`, {
      filename: 'Site',
      file: 'http://example.com/',
      type: 'external',
    });
    expect((await download(collection.id, link.id)).status).toBe(404);
  });

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'ftp://example.com/x', '../../etc/passwd', 'https://', 'https://a b'])(
    'a link to %s is a 422 on file',
    async (file) => {
      expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/attachment`, { filename: 'x', file, type: 'external' }), [
        'file',
      ]);
    },
  );

  it('filename and file are required; a card of another collection is a 422', async () => {
    expectFieldErrors(await api.inject('POST', `/v1/collection/${collection.id}/attachment`, { type: 'external' }), ['filename', 'file']);
    expectFieldErrors(
      await api.inject('POST', `/v1/collection/${collection.id}/attachment`, {
        filename: 'x',
        file: 'https://e.com/x',
        type: 'external',
        card_id: otherCard.id,
      }),
      ['card_id'],
    );
  });
});

describe('malformed uploads', () => {
  it('no file part is a 400, and nothing is created', async () => {
    const before = (await api.inject('GET', `/v1/collection/${collection.id}/attachment?limit=0`)).body.count;
    const res = await upload(collection.id, { fields: { filename: 'nothing.txt' } });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expectErrorBody(res.body, 10400, 'Bad Request');
    expect(res.body.errors[0].description).toMatch(/file/);
    expect((await api.inject('GET', `/v1/collection/${collection.id}/attachment?limit=0`)).body.count).toBe(before);
  });

  it('a file under another part name is a 400', async () => {
    const res = await upload(collection.id, { content: new Uint8Array([1]), fieldName: 'document' });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 10400, 'Bad Request');
  });

  it('a JSON body is a 4xx with the error body, never a 500', async () => {
    const res = await api.http('POST', `/v1/collection/${collection.id}/attachment/upload`, { file: 'abc' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it('an upload to an unknown collection is a 404 and stores no file', async () => {
    const before = nonDatabaseFiles();
    const res = await upload(unknownId, { content: new Uint8Array(randomBytes(128)), name: 'lost.bin' });
    expect(res.status).toBe(404);
    expect(nonDatabaseFiles()).toEqual(before);
  });

  it('an upload without credentials is a 401', async () => {
    const res = await upload(collection.id, { content: new Uint8Array([1]) }, {});
    expect(res.status).toBe(401);
  });

  it('a download through another collection is a 404', async () => {
    const res = await upload(collection.id, { content: new Uint8Array([5, 6]) });
    expect((await download(other.id, res.body.id)).status).toBe(404);
  });
});
