/**
 * What a restore checks beyond a backup's checksums (electron/store/backup): each attachment
 * must be named after its own content's SHA-256, because a file already in the data folder
 * under that name is taken to be that content; and a database may hold no trigger or view the
 * app's migrations did not make, because those would run SQL on the planner's next writes and
 * reads. Such a backup is refused before anything is touched.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { BackupRefused, writeBackup } from '../../electron/main/backup/backup-file.js';
import { stageBackup, swapInBackup } from '../../electron/main/backup/restore.js';
import { tempDir } from '../helpers/api.js';

vi.mock('electron', () => ({}));

let folder: string;
let dataPath: string;
let instance: LocalInstance;
let file: string;

const open = () => openLocalInstance(dataPath);
const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');

async function projectNames(): Promise<string[]> {
  const response = await instance.request({ method: 'GET', path: '/v1/project', query: { limit: '1000', sort: 'name' } });
  return (response.body as { data: { name: string }[] }).data.map((project) => project.name);
}

beforeEach(async () => {
  folder = tempDir();
  dataPath = join(folder, 'data');
  file = join(folder, 'backup.sqlite');
  instance = await open();
  expect((await instance.request({ method: 'POST', path: '/v1/project', body: { name: 'Precious' } })).status).toBe(201);
});

afterEach(async () => {
  await instance?.close().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

function expectRefused(pattern: RegExp): void {
  const files = readdirSync(dataPath).sort();
  expect(() => stageBackup(file)).toThrow(BackupRefused);
  expect(() => stageBackup(file)).toThrow(pattern);
  expect(readdirSync(dataPath).sort()).toEqual(files);
}

describe('a restore refuses', () => {
  it("an attachment stored under another content's checksum", async () => {
    const environmentId = instance.environment.id;
    const { checksum } = instance.dataDir.environment(environmentId).files.put(Buffer.from('the real drawing'));
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });

    // The entry keeps the checksum of what it holds, but takes the name of another file.
    const victim = sha256('a drawing the planner has');
    const victimPath = `attachments/${environmentId}/${victim.slice(0, 2)}/${victim}`;
    const bundle = new Database(file);
    const from = `attachments/${environmentId}/${checksum.slice(0, 2)}/${checksum}`;
    bundle.prepare('UPDATE backup_entry SET path = ? WHERE path = ?').run(victimPath, from);
    bundle.prepare('UPDATE backup_chunk SET path = ? WHERE path = ?').run(victimPath, from);
    bundle.close();

    expectRefused(/not named after its content's checksum/);
    expect(await projectNames()).toEqual(['Precious']);
    // Nothing was placed under the other name either.
    expect(() => readFileSync(join(dataPath, ...victimPath.split('/')))).toThrow();
  });

  it('an environment database with a trigger the app did not make', async () => {
    const db = instance.dataDir.environment(instance.environment.id).db;
    db.exec('CREATE TRIGGER wipe_on_insert AFTER INSERT ON project BEGIN DELETE FROM project; END;');
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    db.exec('DROP TRIGGER wipe_on_insert');
    expectRefused(/trigger Planner did not make \(wipe_on_insert\)/);
    expect(await projectNames()).toEqual(['Precious']);
  });

  it('a system database with a view the app did not make', async () => {
    instance.dataDir.system.db.exec('CREATE VIEW keys_everywhere AS SELECT * FROM api_key');
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    instance.dataDir.system.db.exec('DROP VIEW keys_everywhere');
    expectRefused(/view Planner did not make \(keys_everywhere\)/);
  });
});

describe('a restore still takes', () => {
  it('a backup made by the app, and after refusing a crafted one, the same data restores whole', async () => {
    const db = instance.dataDir.environment(instance.environment.id).db;
    db.exec('CREATE TRIGGER keep_me AFTER INSERT ON project BEGIN SELECT 1; END;');
    await writeBackup(instance.dataDir, file, { appVersion: 'test' });
    expect(() => stageBackup(file)).toThrow(/keep_me/);
    db.exec('DROP TRIGGER keep_me');

    await writeBackup(instance.dataDir, join(folder, 'clean.sqlite'), { appVersion: 'test' });
    const staged = stageBackup(join(folder, 'clean.sqlite'));
    await instance.close();
    const outcome = await swapInBackup(dataPath, staged, open);
    staged.discard();
    instance = outcome.instance;
    expect(outcome.restored).toBe(true);
    expect(await projectNames()).toEqual(['Precious']);
  });
});
