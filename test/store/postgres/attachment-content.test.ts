/**
 * Attachment content on PostgreSQL (docs/architecture.md "Team server on PostgreSQL"): every
 * node serves every file, the same content is kept once, and an environment reads only its
 * own. The blob interface's behaviour is checked on both engines, the data folder's files and
 * the database. Two pools are two nodes on one real PostgreSQL cluster.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import { AttachmentFiles, checksumOf, filesAsBlobStore, type AttachmentBlobStore } from '../../../electron/store/attachment-files.js';
import { PostgresAttachmentContent } from '../../../electron/store/postgres/attachment-content.js';
import { environmentSchemaOf, withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let pools: TeamDatabase['nodes'];
let folder: string;
const north = uuidv7();
const south = uuidv7();

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'planner-content-'));
  team = await startTeamDatabase('content', { environments: [north, south] });
  pools = team.nodes;
});

afterAll(async () => {
  await team?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const rowsIn = (environmentId: string) =>
  withEnvironment(pools[0], environmentId, async (client) => {
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::integer AS n FROM attachment_content');
    return rows[0]!.n;
  });

const engines: [string, () => AttachmentBlobStore][] = [
  ['the data folder (AttachmentFiles)', () => filesAsBlobStore(new AttachmentFiles(join(folder, uuidv7())))],
  ['PostgreSQL', () => new PostgresAttachmentContent(pools[0], north)],
];

describe.each(engines)('attachment content in %s', (_name, open) => {
  it('reads back what it stored, byte for byte, and says "not found" for a checksum it does not have', async () => {
    const store = open();
    // Every byte value, and more than one TOAST chunk.
    const content = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(300_000)]);
    const stored = await store.put(content);
    expect(stored).toEqual({ checksum: checksumOf(content), bytes: content.length });
    expect(await store.has(stored.checksum)).toBe(true);
    expect((await store.read(stored.checksum))?.equals(content)).toBe(true);
    const unknown = checksumOf(Buffer.from('never uploaded'));
    expect(await store.has(unknown)).toBe(false);
    expect(await store.read(unknown)).toBeUndefined();
    const empty = await store.put(Buffer.alloc(0));
    expect((await store.read(empty.checksum))?.length).toBe(0);
  });

  it('refuses content that is not what the record says, storing nothing, and a value that is no checksum', async () => {
    const store = open();
    const content = Buffer.from('Cutting plan, revision 3');
    const expected = { checksum: checksumOf(content), bytes: content.length };
    expect(await store.putExpected(Buffer.from('Cutting plan, revision 4'), expected)).toBe(false);
    expect(await store.putExpected(content, { ...expected, bytes: expected.bytes + 1 })).toBe(false);
    expect(await store.has(expected.checksum)).toBe(false);
    expect(await store.putExpected(content, expected)).toBe(true);
    expect((await store.read(expected.checksum))?.equals(content)).toBe(true);
    await expect(store.read('../../etc/passwd')).rejects.toThrow('not a checksum');
    await expect(store.has(expected.checksum.toUpperCase())).rejects.toThrow('not a checksum');
  });
});

describe('attachment content on PostgreSQL, several nodes', () => {
  it('serves content put through one node from the other, byte for byte', async () => {
    const content = randomBytes(2 * 1024 * 1024);
    const stored = await new PostgresAttachmentContent(pools[0], north).put(content);
    const other = new PostgresAttachmentContent(pools[1], north);
    expect(await other.has(stored.checksum)).toBe(true);
    const read = await other.read(stored.checksum);
    expect(read?.length).toBe(content.length);
    expect(read?.equals(content)).toBe(true);
  });

  it('stores the same content once, also when both nodes put it at the same moment', async () => {
    const nodes = pools.map((pool) => new PostgresAttachmentContent(pool, north));
    const before = await rowsIn(north);
    for (let round = 0; round < 10; round++) {
      const content = randomBytes(10_000);
      const answers = await Promise.all([0, 1, 0, 1].map((n) => nodes[n]!.put(content)));
      expect(new Set(answers.map((a) => a.checksum)).size).toBe(1);
      await nodes[1]!.putExpected(content, answers[0]!);
    }
    expect(await rowsIn(north)).toBe(before + 10);
  });

  it("keeps one environment's content from another: not found there, and its table out of reach", async () => {
    const content = Buffer.from('Drawing of the north hall');
    const stored = await new PostgresAttachmentContent(pools[0], north).put(content);
    const southStore = new PostgresAttachmentContent(pools[1], south);
    expect(await southStore.has(stored.checksum)).toBe(false);
    expect(await southStore.read(stored.checksum)).toBeUndefined();
    const other = environmentSchemaOf(north).schema;
    const refused = await withEnvironment(pools[1], south, (client) =>
      client.query('SELECT content FROM ' + other + '.attachment_content WHERE checksum = $1', [stored.checksum]),
    ).then(
      () => undefined,
      (error: Error & { code?: string }) => error,
    );
    expect(refused?.code).toBe('42501');
    // The same content uploaded in the other environment is that environment's own copy.
    expect(await southStore.put(content)).toEqual(stored);
    expect((await southStore.read(stored.checksum))?.equals(content)).toBe(true);
  });
});
