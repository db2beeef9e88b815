/**
 * Attachment files travel with sync (issue 8, "no lost edit"; docs/API.md "Sync"), between
 * real processes: a remote and two replicas, each replica behind its own fault proxy. A file
 * uploaded on a replica reaches the remote and the other replica byte for byte, a file
 * uploaded on the remote reaches the replicas, and a file whose sending fails (remote down, an
 * answer lost, a restart in between) stays pending and arrives exactly once.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCollection, createPlanningBase } from '../helpers/sync-data.js';
import {
  call,
  goOnline,
  ok,
  runSync,
  status,
  useTwoClientCluster,
  type ClientNode,
  type Node,
  type RemoteNode,
} from '../helpers/sync-cluster.js';

type Target = Pick<Node, 'url' | 'headers' | 'name'>;

let a: ClientNode;
let b: ClientNode;
let remote: RemoteNode;
let collectionId: string;

const contentPut = /^PUT \/v1\/sync\/attachment\/[0-9a-f-]+\/content/;

useTwoClientCluster({ seed: 11 }, async (nodes) => {
  ({ a, b, remote } = nodes);
  collectionId = (await createCollection(a, await createPlanningBase(a, 'Files'), 'Drawings')).id;
  await runSync(a);
  await runSync(b);
});

async function upload(node: Target, content: Buffer, name = 'drawing.pdf'): Promise<any> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)], { type: 'application/pdf' }), name);
  const response = await fetch(`${node.url}/v1/collection/${collectionId}/attachment/upload`, {
    method: 'POST',
    headers: node.headers,
    body: form,
    signal: AbortSignal.timeout(30_000),
  });
  const body = await response.json();
  expect(response.status, `${node.name}: upload: ${JSON.stringify(body)}`).toBe(201);
  return body;
}

/** The attachment's content through a node's own API (the download path the record names). */
async function download(node: Target, attachment: any): Promise<{ status: number; content: Buffer }> {
  const response = await fetch(node.url + attachment.file, { headers: node.headers, signal: AbortSignal.timeout(30_000) });
  return { status: response.status, content: Buffer.from(await response.arrayBuffer()) };
}

async function expectContent(node: Target, attachment: any, content: Buffer): Promise<void> {
  const got = await download(node, attachment);
  expect(got.status, `${node.name}: download ${attachment.filename}`).toBe(200);
  expect(got.content.equals(content), `${node.name}: the same bytes`).toBe(true);
}

/** Files under a node's data folder named `name` (content files are named by their checksum), and leftovers of writes. */
function filesNamed(node: Node, name: string): { named: number; partial: number } {
  const out = { named: 0, partial: 0 };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry === name) out.named++;
      else if (entry.endsWith('.part')) out.partial++;
    }
  };
  walk(join(node.dataDir, 'attachments'));
  return out;
}

/** The records of this collection's attachments on a node (live ones). */
async function attachmentsOn(node: Target, checksum: string): Promise<any[]> {
  const list = await ok(node, 'GET', `/v1/collection/${collectionId}/attachment?limit=1000`, undefined, 200);
  return (list.data as any[]).filter((x) => x.checksum === checksum);
}

describe('attachment files travel with sync', () => {
  it('a file uploaded on a replica reaches the remote and the other replica byte for byte, and is pending until the remote has it', async () => {
    const content = randomBytes(300 * 1024);
    // Sending held back, so the pending count can be seen between the record and its file.
    await a.proxy!.set({ mode: 'drop-request', match: contentPut });
    const attachment = await upload(a, content);
    const first = await runSync(a);
    expect(first.error).toMatch(/could not be reached/);
    let s = await status(a);
    expect(s).toMatchObject({ files_to_send: 1, files_to_fetch: 0 });
    expect(s.pending).toBeGreaterThanOrEqual(1);
    expect((await call(remote, 'GET', `/v1/sync/attachment/${attachment.id}/content`)).status).toBe(404);

    await goOnline(a);
    const summary = await runSync(a);
    expect(summary.error).toBeNull();
    s = await status(a);
    expect(s).toMatchObject({ pending: 0, files_to_send: 0, files_to_fetch: 0, last_error: null });
    await expectContent(remote, attachment, content);
    const raw = await fetch(`${remote.url}/v1/sync/attachment/${attachment.id}/content`, { headers: remote.headers });
    expect(Buffer.from(await raw.arrayBuffer()).equals(content)).toBe(true);
    expect(await attachmentsOn(remote, attachment.checksum)).toHaveLength(1);

    expect(await runSync(b)).toMatchObject({ error: null, files_fetched: 1 });
    await expectContent(b, attachment, content);
  });

  it('a file uploaded on the remote reaches a replica, which serves it through its local API', async () => {
    const content = randomBytes(120 * 1024);
    const attachment = await upload(remote, content, 'remote-notes.txt');
    const summary = await runSync(b);
    expect(summary).toMatchObject({ error: null, files_fetched: 1 });
    expect(await status(b)).toMatchObject({ files_to_fetch: 0, pending: 0 });
    await expectContent(b, attachment, content);
    expect(filesNamed(b, attachment.checksum)).toEqual({ named: 1, partial: 0 });
  });

  it('a record that arrives before its file: the other replica waits for it, without an error, and fetches it once it is there', async () => {
    const content = randomBytes(64 * 1024);
    await a.proxy!.set({ mode: 'drop-request', match: contentPut });
    const attachment = await upload(a, content, 'early.bin');
    expect((await runSync(a)).error).toMatch(/could not be reached/);

    // B has the record, but the remote does not have the file yet: B keeps it listed.
    const early = await runSync(b);
    expect(early.error).toBeNull();
    expect(await status(b)).toMatchObject({ files_to_fetch: 1, last_error: null });
    expect((await download(b, attachment)).status).toBe(404);

    await goOnline(a);
    await runSync(a);
    expect(await status(a)).toMatchObject({ files_to_send: 0 });
    expect(await runSync(b)).toMatchObject({ error: null, files_fetched: 1 });
    expect(await status(b)).toMatchObject({ files_to_fetch: 0 });
    await expectContent(b, attachment, content);
  });

  it('remote down during the send, with a restart in between: the file stays pending and arrives exactly once', async () => {
    const proxy = a.proxy!;
    const content = randomBytes(500 * 1024);
    const before = proxy.log.length;
    // The remote stores the file, but its answer is lost: the replica cannot know it arrived.
    await proxy.set({ mode: 'drop-response', match: contentPut });
    const attachment = await upload(a, content, 'lost-answer.bin');
    expect((await runSync(a)).error).toMatch(/could not be reached/);
    expect(await status(a)).toMatchObject({ files_to_send: 1 });

    // Then the remote goes away altogether, and the replica restarts meanwhile.
    await proxy.set('refuse');
    await a.restart();
    const down = await status(a);
    expect(down).toMatchObject({ files_to_send: 1 });
    expect(down.pending).toBeGreaterThanOrEqual(1);

    await goOnline(a);
    expect(await runSync(a)).toMatchObject({ error: null });
    expect(await status(a)).toMatchObject({ pending: 0, files_to_send: 0, last_error: null });

    const sends = proxy.log.slice(before).filter((e) => contentPut.test(`${e.method} ${e.path}`) && e.reachedRemote);
    expect(
      sends.filter((e) => e.status === 201),
      'stored once',
    ).toHaveLength(1);
    expect(
      sends.slice(1).every((e) => e.status === 200),
      'every later send acknowledged as already there',
    ).toBe(true);
    expect(sends.length).toBeGreaterThanOrEqual(2);
    expect(filesNamed(remote, attachment.checksum)).toEqual({ named: 1, partial: 0 });
    expect(await attachmentsOn(remote, attachment.checksum)).toHaveLength(1);
    await expectContent(remote, attachment, content);
  });

  it('connections cut mid-file both ways store no half file on either side; the whole file arrives afterwards', async () => {
    expect(await runSync(b)).toMatchObject({ error: null });
    expect(await status(b)).toMatchObject({ files_to_fetch: 0 });
    const content = randomBytes(400 * 1024);
    // A's send is cut halfway: the remote must not keep part of it.
    await a.proxy!.set({ mode: 'cut-request', match: contentPut });
    const attachment = await upload(a, content, 'cut.bin');
    expect((await runSync(a)).error).not.toBeNull();
    expect(filesNamed(remote, attachment.checksum)).toEqual({ named: 0, partial: 0 });
    await goOnline(a);
    expect(await runSync(a)).toMatchObject({ error: null });
    expect(await status(a)).toMatchObject({ files_to_send: 0 });

    // B's fetch is cut halfway: B must not keep part of it.
    await b.proxy!.set({ mode: 'cut-response', match: /^GET \/v1\/sync\/attachment\/[0-9a-f-]+\/content/ });
    expect((await runSync(b)).error).toMatch(/cut off|could not be reached/);
    expect(await status(b)).toMatchObject({ files_to_fetch: 1 });
    expect(filesNamed(b, attachment.checksum)).toEqual({ named: 0, partial: 0 });
    expect((await download(b, attachment)).status).toBe(404);
    await goOnline(b);
    expect(await runSync(b)).toMatchObject({ error: null });
    expect(await status(b)).toMatchObject({ files_to_fetch: 0 });
    await expectContent(b, attachment, content);
  });

  it("a deleted attachment's file still reaches the remote, so a restore from its trash finds it", async () => {
    const content = randomBytes(10 * 1024);
    const attachment = await upload(a, content, 'deleted.bin');
    await ok(a, 'DELETE', `/v1/collection/${collectionId}/attachment/${attachment.id}`, undefined, 204);
    expect(await runSync(a)).toMatchObject({ error: null });
    expect(await status(a)).toMatchObject({ files_to_send: 0 });
    expect((await download(remote, attachment)).status).toBe(404);
    await ok(remote, 'POST', `/v1/trash/attachment/${attachment.id}/restore`, undefined, 200);
    await expectContent(remote, attachment, content);
  });
});
