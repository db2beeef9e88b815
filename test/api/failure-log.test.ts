/**
 * A 500 is recorded in the data folder's logs/errors.log, with or without request logging, so
 * the reference in its body leads somewhere; and recording never fails or holds up a request.
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FailureLog } from '../../electron/api/failure-log.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { startTestApi, tempDir, type TestApi } from '../helpers/api.js';

let api: TestApi | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** Damages the environment's database under the running API: its project table disappears. */
function dropProjects(testApi: TestApi): void {
  const db = new Database(DataDir.environmentFile(testApi.dataDir.path, testApi.environment.id));
  db.pragma('foreign_keys = OFF');
  db.exec('DROP TABLE project');
  db.close();
}

function errorsLog(testApi: TestApi): string {
  const file = join(testApi.dataDir.path, 'logs', 'errors.log');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

describe('the record of 500s', () => {
  it('writes the reference of a 500 to logs/errors.log in the data folder without --log, with no query values or keys', async () => {
    api = await startTestApi();
    await api.http('GET', '/v1/project');
    dropProjects(api);

    const failed = await api.http('GET', `/v1/project?filter=${encodeURIComponent("name:eq:'Private plan'")}`);
    expect(failed.status).toBe(500);
    const reference = failed.body.reference as string;
    expect(JSON.stringify(failed.body)).not.toContain('project');

    const testApi = api;
    await vi.waitFor(() => expect(errorsLog(testApi)).toContain(reference), { timeout: 5000, interval: 50 });
    const entry = errorsLog(api);
    expect(entry).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z 500 reference=${reference} GET /v1/project\\?filter env=test\\n`));
    expect(entry).toContain('no such table: project');
    expect(entry).toMatch(/\n {2}\s*at /);
    expect(entry).not.toContain('Private plan');
    expect(entry).not.toContain(api.headers['x-api-key']);
    // For the data folder's owner only, whatever the umask (docs/deployment.md "The data folder").
    expect((statSync(join(api.dataDir.path, 'logs')).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(join(api.dataDir.path, 'logs', 'errors.log')).mode & 0o777).toString(8)).toBe('600');
  });

  it('still answers 500 when the log folder cannot be written, and records again once it can', async () => {
    api = await startTestApi();
    await api.http('GET', '/v1/project');
    // A file where the logs folder should be: every write of the log fails.
    writeFileSync(join(api.dataDir.path, 'logs'), 'not a folder');
    dropProjects(api);

    for (let i = 0; i < 3; i++) {
      const failed = await api.http('GET', '/v1/project');
      expect(failed.status).toBe(500);
      expect(failed.body.errors[0].code).toBe(10500);
    }
    expect(statSync(join(api.dataDir.path, 'logs')).isFile()).toBe(true);

    // Once the folder can be written again, the next 500 is recorded.
    rmSync(join(api.dataDir.path, 'logs'));
    const later = await api.http('GET', '/v1/project');
    const testApi = api;
    await vi.waitFor(() => expect(errorsLog(testApi)).toContain(later.body.reference), { timeout: 5000, interval: 50 });
  });

  it('rotates errors.log by size and keeps a bounded number of files', async () => {
    const dir = tempDir('planner-failures-');
    const log = new FailureLog(dir, { maxBytes: 2000, keep: 3 });
    for (let i = 0; i < 60; i++) {
      log.record({ reference: `ref-${i}`, method: 'GET', url: '/v1/project', error: new Error(`failure ${i}`) });
      if (i % 10 === 9) await log.flushed();
    }
    await log.flushed();
    expect(readdirSync(dir).sort()).toEqual(['errors.1.log', 'errors.2.log', 'errors.log']);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(2000);
    // The newest entry is in the current file, the oldest are gone.
    expect(readFileSync(join(dir, 'errors.log'), 'utf8')).toContain('reference=ref-59 ');
    expect(readdirSync(dir).some((name) => readFileSync(join(dir, name), 'utf8').includes('reference=ref-0 '))).toBe(false);
  });
});
