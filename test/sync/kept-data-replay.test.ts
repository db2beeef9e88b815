/**
 * Kept data this version declares moves into the tables when a data folder's environment opens
 * (DataDir.ready, electron/api/sync/books.ts; docs/API.md "Versions and unknown data"), one
 * record per transaction on the environment's RecordStore, and the first request waits for
 * all of it: a read that came in between those transactions would see some records moved and
 * others not. Real SQLite files, a real API over HTTP on 127.0.0.1, stopped and started again
 * on the same folder as an upgraded app would be.
 */
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHlc } from '../../shared/hlc.js';
import { buildApi } from '../../electron/api/app.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { tables } from '../../electron/store/tables.js';
import { unknownDataOf } from '../../electron/store/unknown-data.js';
import { tempDir } from '../helpers/api.js';

const key = 'kept-replay-key';
/** Enough records that their replay takes many transactions. */
const recordCount = 300;

let folder: string;
let environmentId: string;
/** A copy of the environment's file as the older version left it. */
let spare: string;

/** The first request of `headers` on an API listening, answered as the count of records with the kept value. */
async function firstCount(app: FastifyInstance, headers: Record<string, string>): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const filter = encodeURIComponent("description:eq:'kept by an older version'");
  const response = await fetch(`http://127.0.0.1:${address.port}/v1/project?limit=0&filter=${filter}`, { headers });
  expect(response.status).toBe(200);
  return ((await response.json()) as { count: number }).count;
}

beforeAll(async () => {
  folder = tempDir('planner-kept-replay-');
  const dataDir = DataDir.open(folder);
  const environment = dataDir.system.ensureEnvironment('replay');
  environmentId = environment.id;
  dataDir.system.ensureApiKey(environment.id, key);
  const app = await buildApi({ dataDir });
  try {
    const store = dataDir.environment(environment.id);
    const ids = await recordsOf(store).transaction(async (tx) => {
      const made: string[] = [];
      for (let n = 0; n < recordCount; n++) made.push((await tx.insert(tables.project, { name: `Mould ${n}` })).id);
      return made;
    });
    // What an older version kept of a field this one declares: written after the records were.
    const later = formatHlc({ millis: Date.now() + 60_000, counter: 0, node: 'older' });
    for (const id of ids) unknownDataOf(store).keep('project', id, { description: 'kept by an older version' }, () => later);
    expect(unknownDataOf(store).list('project', 1, 0).count).toBe(recordCount);
  } finally {
    await app.close();
    dataDir.close();
  }
  spare = join(folder, 'older-version.sqlite');
  copyFileSync(DataDir.environmentFile(folder, environmentId), spare);
});

afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('kept data of a field this version declares', () => {
  it('is in the table, every record of it, when the first request after the start is answered', async () => {
    const dataDir = DataDir.open(folder);
    const app = await buildApi({ dataDir });
    try {
      expect(await firstCount(app, { 'x-api-key': key, 'x-api-env': 'replay' })).toBe(recordCount);
      // Moved, not copied: nothing of it is kept any more.
      expect(unknownDataOf(dataDir.environment(environmentId)).isEmpty()).toBe(true);
    } finally {
      await app.close();
      dataDir.close();
    }
  });

  it('is in the table when the request that opens the environment is answered', async () => {
    const dataDir = DataDir.open(folder);
    const app = await buildApi({ dataDir });
    try {
      // An environment the API did not open at its start: its file comes with the older version's kept data.
      const later = dataDir.system.ensureEnvironment('later');
      dataDir.system.ensureApiKey(later.id, key);
      renameSync(spare, DataDir.environmentFile(folder, later.id));
      // The replay starts as this request opens the file; the request's read waits for all of it.
      expect(await firstCount(app, { 'x-api-key': key, 'x-api-env': 'later' })).toBe(recordCount);
      expect(unknownDataOf(dataDir.environment(later.id)).isEmpty()).toBe(true);
    } finally {
      await app.close();
      dataDir.close();
    }
  });
});
