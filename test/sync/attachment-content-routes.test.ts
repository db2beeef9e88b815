/**
 * The remote's attachment content routes over real HTTP on 127.0.0.1 (docs/API.md "Sync"):
 * `PUT | GET /v1/sync/attachment/{id}/content`. Content is taken only for a record the
 * environment has and only when it is exactly what the record says; a refusal stores nothing;
 * another environment's key reaches nothing. And a replica that synced before files moved
 * (schema 11 lists its files once) sends its own uploads and fetches the others.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { MemoryVault } from '../../electron/sync/credentials.js';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { tempDir } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { call, localHeaders, localKey, ok, remoteEnv, remoteHeaders, remoteKey } from '../helpers/sync-cluster.js';
import { createCollection, createPlanningBase } from '../helpers/sync-data.js';
import { startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';
import { syncFiles } from '../../electron/store/migrations/environment/0011-sync-files.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const contentPath = (id: string) => `/v1/sync/attachment/${id}/content`;

/** Every file under a data folder's attachments, by name. */
function storedFiles(dataPath: string): string[] {
  const root = join(dataPath, 'attachments');
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(entry);
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

async function send(
  target: { url: string },
  id: string,
  content: Buffer,
  headers: Record<string, string> = remoteHeaders,
  type = 'application/octet-stream',
) {
  const response = await fetch(target.url + contentPath(id), {
    method: 'PUT',
    headers: { ...headers, 'content-type': type },
    body: new Uint8Array(content),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function fetchContent(target: { url: string }, id: string, headers: Record<string, string> = remoteHeaders) {
  const response = await fetch(target.url + contentPath(id), { headers, signal: AbortSignal.timeout(30_000) });
  const content = Buffer.from(await response.arrayBuffer());
  return { status: response.status, content, type: response.headers.get('content-type') };
}

function expectRefused(res: { status: number; body: any }, status: number, description: RegExp): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectErrorBody(
    res.body,
    10000 + status,
    { 404: 'Not Found', 409: 'Conflict', 413: 'Payload Too Large', 422: 'Unprocessable Content', 400: 'Bad Request', 401: 'Not Logged In' }[
      status
    ]!,
  );
  expect(res.body.errors.map((e: any) => e.description).join(' ')).toMatch(description);
}

describe("the remote's attachment content routes", () => {
  let remote: InProcessRemote;
  let collectionId: string;
  let mutationId = 0;

  beforeAll(async () => {
    remote = await startInProcessRemote();
    collectionId = (await createCollection(remote, await createPlanningBase(remote, 'Files'), 'Drawings')).id;
  });
  afterAll(async () => {
    await remote?.close();
  });

  /** An attachment record as a replica pushes it, before its content. */
  async function pushRecord(fields: Record<string, unknown>): Promise<string> {
    const id = uuidv7();
    mutationId++;
    const res = await call(remote, 'POST', '/v1/sync/push', {
      client_id: 'replica-files',
      mutations: [
        {
          mutation_id: mutationId,
          resource: 'attachment',
          id,
          op: 'create',
          fields: {
            collection_id: collectionId,
            filename: 'plan.pdf',
            file: `/v1/collection/${collectionId}/attachment/${id}/download`,
            created_at: '2026-01-01T00:00:00Z',
            updated_at: '2026-01-01T00:00:00Z',
            ...fields,
          },
          hlc: formatHlc({ millis: Date.now(), counter: mutationId, node: 'replicafiles' }),
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.results[0], JSON.stringify(res.body)).toMatchObject({ status: 'applied' });
    return id;
  }

  const uploadRecord = (content: Buffer) =>
    pushRecord({ type: 'upload', bytes: content.length, checksum: sha256(content), content_type: 'application/pdf' });

  it('refuses content for an attachment this environment does not have with 409, and stores nothing', async () => {
    const content = randomBytes(1000);
    expectRefused(await send(remote, uuidv7(), content), 409, /push its record/);
    expectRefused(await send(remote, 'not-an-id', content), 409, /no attachment with that id/);
    expect(storedFiles(remote.dataDir.path)).toEqual([]);
    expectRefused(await call(remote, 'GET', contentPath(uuidv7())), 404, /No attachment/);
  });

  it('refuses content that is not what the record says with 422 and stores nothing: other bytes of the same size, cut short, one byte more', async () => {
    const content = randomBytes(4096);
    const id = await uploadRecord(content);
    const other = randomBytes(4096);
    for (const wrong of [other, content.subarray(0, 4000), Buffer.concat([content, Buffer.from([0])])]) {
      const res = await send(remote, id, wrong);
      expectRefused(res, 422, new RegExp(`expected 4096 bytes with SHA-256 ${sha256(content)}`));
      expect(res.body.errors[0].field).toBe('content');
    }
    expect(storedFiles(remote.dataDir.path)).toEqual([]);
    expectRefused(await call(remote, 'GET', contentPath(id)), 404, /does not have the attachment's content/);
  });

  it('stores matching content (201), acknowledges it again (200) without a second copy, and serves it back byte for byte', async () => {
    const content = randomBytes(200 * 1024);
    const id = await uploadRecord(content);
    const first = await send(remote, id, content);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toEqual({ id, bytes: content.length, checksum: sha256(content) });
    const again = await send(remote, id, content);
    expect(again.status).toBe(200);
    expect(storedFiles(remote.dataDir.path)).toEqual([sha256(content)]);

    const got = await fetchContent(remote, id);
    expect(got.status).toBe(200);
    expect(got.type).toBe('application/octet-stream');
    expect(got.content.equals(content)).toBe(true);
    // The attachment's own download path serves it too.
    const download = await fetch(`${remote.url}/v1/collection/${collectionId}/attachment/${id}/download`, { headers: remoteHeaders });
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
  });

  it('refuses a link (409 to send, 404 to fetch), a body that is not application/octet-stream (400 or 415), and more than 25 MiB (413)', async () => {
    const link = await pushRecord({ type: 'external', file: 'https://example.com/plan.pdf' });
    expectRefused(await send(remote, link, randomBytes(10)), 409, /link/);
    expectRefused(await call(remote, 'GET', contentPath(link)), 404, /link/);

    const content = randomBytes(100);
    const id = await uploadRecord(content);
    expectRefused(await call(remote, 'PUT', contentPath(id), { content: content.toString('base64') }), 400, /application\/octet-stream/);
    expect((await send(remote, id, content, remoteHeaders, 'text/csv')).status).toBe(415);
    expectRefused(await send(remote, id, randomBytes(25 * 1024 * 1024 + 1)), 413, /too large/);
    expect(storedFiles(remote.dataDir.path)).not.toContain(sha256(content));
  });

  it("another environment's key neither fetches nor sends it, and no key is a 401", async () => {
    const content = randomBytes(2048);
    const id = await uploadRecord(content);
    expect((await send(remote, id, content)).status).toBe(201);
    const other = remote.addEnvironment('other', 'other-key');
    const otherHeaders = { 'x-api-env': 'other', 'x-api-key': 'other-key' };
    const got = await fetchContent(remote, id, otherHeaders);
    expect(got.status).toBe(404);
    expect(got.content.includes(content)).toBe(false);
    expectRefused(await send(remote, id, content, otherHeaders), 409, /no attachment with that id/);
    expect(existsSync(join(remote.dataDir.path, 'attachments', other.id))).toBe(false);
    expectRefused(await call({ url: remote.url, headers: {} }, 'GET', contentPath(id)), 401, /x-api-key/);
    expect((await send(remote, id, content, {})).status).toBe(401);
  });
});

describe('a replica that synced before files moved', () => {
  let remote: InProcessRemote;
  const folder = tempDir('planner-client-');
  let instance: LocalInstance;
  let url: string;

  const credentials = () => ({ remote_url: remote.url, api_env: remoteEnv, api_key: remoteKey });

  /** Opens the replica; without credentials it does not sync until they are set. */
  async function open(syncing = true): Promise<void> {
    instance = await openLocalInstance(folder, {
      vault: new MemoryVault(syncing ? credentials() : null),
      // Runs only when told: no timers, and no live channel starting runs of its own.
      syncTiming: { pullIntervalMs: 3_600_000, pushDelayMs: 3_600_000, backoffMs: 3_600_000, maxBackoffMs: 3_600_000, live: false },
    });
    instance.dataDir.system.ensureApiKey(instance.environment.id, localKey);
    await instance.api.listen({ host: '127.0.0.1', port: 0 });
    const address = instance.api.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}`;
  }
  const local = () => ({ name: 'replica', url, headers: localHeaders });

  beforeAll(async () => {
    remote = await startInProcessRemote();
    await open();
  });
  afterAll(async () => {
    await instance?.close();
    await remote?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function upload(target: { url: string; headers: Record<string, string> }, collectionId: string, content: Buffer): Promise<any> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), 'scan.bin');
    const response = await fetch(`${target.url}/v1/collection/${collectionId}/attachment/upload`, {
      method: 'POST',
      headers: target.headers,
      body: form,
    });
    expect(response.status).toBe(201);
    return response.json();
  }

  let collectionId: string;
  const contentFile = (dataPath: string, environmentId: string, checksum: string) =>
    join(dataPath, 'attachments', environmentId, checksum.slice(0, 2), checksum);

  it('lists its own uploads to send and the others to fetch, once, and moves them', async () => {
    collectionId = (await createCollection(remote, await createPlanningBase(remote, 'Files'), 'Drawings')).id;
    expect((await instance.sync.run()).error).toBeNull();
    const mine = randomBytes(3000);
    const theirs = randomBytes(5000);
    const own = await upload(local(), collectionId, mine);
    const remotes = await upload(remote, collectionId, theirs);
    expect(await instance.sync.run()).toMatchObject({ error: null, files_sent: 1, files_fetched: 1 });

    // As before files moved: the remote never got this replica's file, the replica never got the remote's.
    rmSync(contentFile(remote.dataDir.path, remote.environment.id, sha256(mine)));
    rmSync(contentFile(folder, instance.environment.id, sha256(theirs)));
    const db = instance.dataDir.environment(instance.environment.id).db;
    // Migration 11 again, on a database as it was before it (later migrations stay applied).
    db.exec('DROP TABLE sync_file;');
    syncFiles.up(db);
    await instance.close();
    await open(false);

    expect(await ok(local(), 'GET', '/v1/sync/status', undefined, 200)).toMatchObject({ files_to_send: 1, files_to_fetch: 1, pending: 1 });
    await instance.sync.updateSettings(credentials());
    // A run of its own may start with the settings; this one runs after it.
    expect(await instance.sync.run()).toMatchObject({ error: null });
    expect(await ok(local(), 'GET', '/v1/sync/status', undefined, 200)).toMatchObject({ files_to_send: 0, files_to_fetch: 0, pending: 0 });
    expect((await fetchContent(remote, own.id)).content.equals(mine)).toBe(true);
    const download = await fetch(url + remotes.file, { headers: localHeaders });
    expect(Buffer.from(await download.arrayBuffer()).equals(theirs)).toBe(true);
  });

  it('keeps a file the remote refuses listed, names the reason, and sends it once it can', async () => {
    const content = randomBytes(2000);
    const attachment = await upload(local(), collectionId, content);
    // The file on disk no longer matches its record: the remote refuses it (422).
    const path = contentFile(folder, instance.environment.id, attachment.checksum);
    writeFileSync(path, randomBytes(2000));
    for (let run = 0; run < 2; run++) {
      const summary = await instance.sync.run();
      expect(summary.error).toMatch(new RegExp(`1 attachment file\\(s\\) did not move.*${attachment.id}.*does not match`));
      expect(await ok(local(), 'GET', '/v1/sync/status', undefined, 200)).toMatchObject({
        files_to_send: 1,
        pending: 1,
        last_error: summary.error,
        online: true,
      });
    }
    expect((await fetchContent(remote, attachment.id)).status).toBe(404);

    writeFileSync(path, content);
    expect(await instance.sync.run()).toMatchObject({ error: null, files_sent: 1 });
    expect(await ok(local(), 'GET', '/v1/sync/status', undefined, 200)).toMatchObject({ files_to_send: 0, pending: 0, last_error: null });
    expect((await fetchContent(remote, attachment.id)).content.equals(content)).toBe(true);
  });
});
